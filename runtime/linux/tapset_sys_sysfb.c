// SPDX-License-Identifier: GPL-2.0
/*
 * The decoders of the file-system and splice system calls' argstr (mknod,
 * mount, renameat2, statx, swapon, quotactl, splice, vmsplice,
 * sync_file_range, nfsservctl), as SystemTap's aux_syscalls tapset prints
 * them; the script side is tapsets/aux_sys_sysfb.stp.
 */
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/quota.h>
#include <linux/splice.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <linux/swap.h>
#include <linux/uaccess.h>
#include <uapi/linux/mount.h>
#include "tap_internal.h"
#include "tap_syscall.h"

/*
 * _mknod_mode_str(): the file type by name and the permissions in octal
 * ("S_IFIFO|0640"); a type mknod cannot make leaves the whole mode in
 * octal.
 */
void tapset_sysfb_mknod_mode_str(char *out, long long mode)
{
	static const struct tap_flag types[] = {
		TAP_FLAG(S_IFREG), TAP_FLAG(S_IFCHR), TAP_FLAG(S_IFBLK),
		TAP_FLAG(S_IFIFO), TAP_FLAG(S_IFSOCK), { 0, NULL }
	};
	unsigned long type = (unsigned long)mode & S_IFMT;
	unsigned long perm = (unsigned long)mode & ~(unsigned long)S_IFMT;
	const struct tap_flag *t;

	for (t = types; t->name; t++)
		if (t->val == type) {
			snprintf(out, MAXSTRINGLEN, "%s|%#lo", t->name, perm);
			return;
		}
	snprintf(out, MAXSTRINGLEN, "%#lo", type | perm);
}

/* The mount(2) flags SystemTap names, in its order (MS_SILENT for
 * 32768, no MS_NOSYMFOLLOW, MS_LAZYTIME or the kernel-internal bits). */
static const struct tap_flag tap_mount_flags[] = {
	TAP_FLAG(MS_RDONLY), TAP_FLAG(MS_NOSUID), TAP_FLAG(MS_NODEV),
	TAP_FLAG(MS_NOEXEC), TAP_FLAG(MS_SYNCHRONOUS), TAP_FLAG(MS_REMOUNT),
	TAP_FLAG(MS_MANDLOCK), TAP_FLAG(MS_DIRSYNC), TAP_FLAG(MS_NOATIME),
	TAP_FLAG(MS_NODIRATIME), TAP_FLAG(MS_BIND), TAP_FLAG(MS_MOVE),
	TAP_FLAG(MS_REC), TAP_FLAG(MS_SILENT), TAP_FLAG(MS_POSIXACL),
	TAP_FLAG(MS_UNBINDABLE), TAP_FLAG(MS_PRIVATE), TAP_FLAG(MS_SLAVE),
	TAP_FLAG(MS_SHARED), TAP_FLAG(MS_RELATIME), TAP_FLAG(MS_KERNMOUNT),
	TAP_FLAG(MS_I_VERSION), TAP_FLAG(MS_STRICTATIME), { 0, NULL }
};

void tapset_sysfb_mountflags_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(tap_mount_flags, (unsigned long)flags, out);
}

static const struct tap_flag tap_umount_flags[] = {
	TAP_FLAG(MNT_FORCE), TAP_FLAG(MNT_DETACH), TAP_FLAG(MNT_EXPIRE),
	TAP_FLAG(UMOUNT_NOFOLLOW), { 0, NULL }
};

void tapset_sysfb_umountflags_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(tap_umount_flags, (unsigned int)flags, out);
}

/* preadv2()'s and pwritev2()'s flags: SystemTap names RWF_HIPRI only. */
static const struct tap_flag tap_preadv2_flags[] = {
	TAP_FLAG(RWF_HIPRI),
	{ 0, NULL }
};

void tapset_sysfb_preadv2_flags_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(tap_preadv2_flags, (unsigned int)flags, out);
}

static const struct tap_flag tap_renameat2_flags[] = {
	TAP_FLAG(RENAME_NOREPLACE), TAP_FLAG(RENAME_EXCHANGE),
	TAP_FLAG(RENAME_WHITEOUT), { 0, NULL }
};

void tapset_sysfb_renameat2_flags_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(tap_renameat2_flags, (unsigned int)flags, out);
}

/*
 * _statx_mask_str(): SystemTap looks statx's mask up among the
 * AT_STATX_* synchronisation values (so 0 reads "AT_STATX_SYNC_AS_STAT"
 * and STATX_BASIC_STATS "0x7ff"); kept for scripts that compare it.
 */
void tapset_sysfb_statx_mask_str(char *out, long long mask)
{
	static const struct tap_flag sync_types[] = {
		TAP_FLAG(AT_STATX_SYNC_TYPE), TAP_FLAG(AT_STATX_SYNC_AS_STAT),
		TAP_FLAG(AT_STATX_FORCE_SYNC), TAP_FLAG(AT_STATX_DONT_SYNC),
		{ 0, NULL }
	};

	out[0] = '\0';
	/* an int, sign-extended as SystemTap's long lookup does */
	tap_flag_lookup(sync_types, (unsigned long)(long)(int)mask, out);
}

/* _swapon_flags_str(): the flag bits by name, then the priority in
 * decimal when SWAP_FLAG_PREFER asks for it ("SWAP_FLAG_PREFER|5"). */
void tapset_sysfb_swapon_flags_str(char *out, long long f)
{
	static const struct tap_flag swap_flags[] = {
		TAP_FLAG(SWAP_FLAG_PREFER), TAP_FLAG(SWAP_FLAG_DISCARD),
		TAP_FLAG(SWAP_FLAG_DISCARD_ONCE),
		TAP_FLAG(SWAP_FLAG_DISCARD_PAGES), { 0, NULL }
	};
	unsigned int flags = (unsigned int)f;
	size_t len;

	out[0] = '\0';
	tap_flag_or(swap_flags, flags & ~SWAP_FLAG_PRIO_MASK, out);
	if (flags & SWAP_FLAG_PREFER) {
		len = strlen(out);
		snprintf(out + len, MAXSTRINGLEN - len, "|%d",
			 flags & SWAP_FLAG_PRIO_MASK);
	}
}

static const struct tap_flag tap_splice_flags[] = {
	TAP_FLAG(SPLICE_F_MOVE), TAP_FLAG(SPLICE_F_NONBLOCK),
	TAP_FLAG(SPLICE_F_MORE), TAP_FLAG(SPLICE_F_GIFT), { 0, NULL }
};

void tapset_sysfb_splice_flags_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(tap_splice_flags, (unsigned int)flags, out);
}

static const struct tap_flag tap_sync_file_range_flags[] = {
	TAP_FLAG(SYNC_FILE_RANGE_WAIT_BEFORE), TAP_FLAG(SYNC_FILE_RANGE_WRITE),
	TAP_FLAG(SYNC_FILE_RANGE_WAIT_AFTER), { 0, NULL }
};

void tapset_sysfb_sync_file_range_flags_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(tap_sync_file_range_flags, (unsigned int)flags, out);
}

/* ---- quotactl ---------------------------------------------------------- */

static const struct tap_flag tap_quotactl_cmds[] = {
	TAP_FLAG(Q_SYNC), TAP_FLAG(Q_QUOTAON), TAP_FLAG(Q_QUOTAOFF),
	TAP_FLAG(Q_GETFMT), TAP_FLAG(Q_GETINFO), TAP_FLAG(Q_SETINFO),
	TAP_FLAG(Q_GETQUOTA), TAP_FLAG(Q_SETQUOTA),
	/* the XFS quota manager's */
	TAP_FLAG(Q_XQUOTAON), TAP_FLAG(Q_XQUOTAOFF), TAP_FLAG(Q_XGETQUOTA),
	TAP_FLAG(Q_XSETQLIM), TAP_FLAG(Q_XGETQSTAT), TAP_FLAG(Q_XQUOTARM),
	TAP_FLAG(Q_XQUOTASYNC), TAP_FLAG(Q_XGETQSTATV), { 0, NULL }
};

/* _quotactl_subcmd(): the command of a QCMD(command, type) word. */
long long tapset_sysfb_quotactl_subcmd(long long cmd)
{
	return (unsigned int)cmd >> SUBCMDSHIFT;
}

/* _quotactl_cmd_str(): the command, then the quota type
 * ("Q_GETQUOTA|USRQUOTA"; a type other than user or group in hex). */
void tapset_sysfb_quotactl_cmd_str(char *out, long long cmd)
{
	unsigned int type = (unsigned int)cmd & SUBCMDMASK;
	size_t len;

	out[0] = '\0';
	tap_flag_lookup(tap_quotactl_cmds, tapset_sysfb_quotactl_subcmd(cmd), out);
	if (type == USRQUOTA) {
		strlcat(out, "|USRQUOTA", MAXSTRINGLEN);
	} else if (type == GRPQUOTA) {
		strlcat(out, "|GRPQUOTA", MAXSTRINGLEN);
	} else {
		len = strlen(out);
		snprintf(out + len, MAXSTRINGLEN - len, "|0x%x", type);
	}
}

/* _quotactl_quota_type_str(): Q_QUOTAON's quota format id. */
void tapset_sysfb_quotactl_quota_type_str(char *out, long long fmt)
{
	static const struct tap_flag formats[] = {
		TAP_FLAG(QFMT_VFS_OLD), TAP_FLAG(QFMT_VFS_V0),
		TAP_FLAG(QFMT_OCFS2), TAP_FLAG(QFMT_VFS_V1), { 0, NULL }
	};

	out[0] = '\0';
	tap_flag_lookup(formats, (unsigned long)(long)(int)fmt, out);
}

/* Copy the user structure of @size bytes at @uaddr into @buf; else say
 * "NULL" or the address in @out.  Return: 0 when @buf holds it. */
static int tap_sysfb_copy_struct(char *out, void *buf, size_t size, long long uaddr)
{
	if (!uaddr) {
		strscpy(out, "NULL", MAXSTRINGLEN);
		return -EFAULT;
	}
	if (copy_from_user_nofault(buf, (const void __user *)(unsigned long)uaddr, size)) {
		snprintf(out, MAXSTRINGLEN, "0x%lx", (unsigned long)uaddr);
		return -EFAULT;
	}
	return 0;
}

/* _struct_dqblk_u(): Q_GETQUOTA/Q_SETQUOTA's limits, the first five
 * fields. */
void tapset_sysfb_dqblk_u(char *out, long long uaddr)
{
	struct if_dqblk dqb;

	if (tap_sysfb_copy_struct(out, &dqb, sizeof(dqb), uaddr))
		return;
	snprintf(out, MAXSTRINGLEN,
		 "{dqb_bhardlimit=%llu, dqb_bsoftlimit=%llu, dqb_curspace=%llu, "
		 "dqb_ihardlimit=%llu, dqb_isoftlimit=%llu, ...}",
		 (unsigned long long)dqb.dqb_bhardlimit,
		 (unsigned long long)dqb.dqb_bsoftlimit,
		 (unsigned long long)dqb.dqb_curspace,
		 (unsigned long long)dqb.dqb_ihardlimit,
		 (unsigned long long)dqb.dqb_isoftlimit);
}

/* _struct_dqinfo_u(): Q_GETINFO/Q_SETINFO's grace times and flags. */
void tapset_sysfb_dqinfo_u(char *out, long long uaddr)
{
	struct if_dqinfo dqi;

	if (tap_sysfb_copy_struct(out, &dqi, sizeof(dqi), uaddr))
		return;
	snprintf(out, MAXSTRINGLEN,
		 "{dqi_bgrace=%llu, dqi_igrace=%llu, dqi_flags=%d, dqi_valid=%d}",
		 (unsigned long long)dqi.dqi_bgrace,
		 (unsigned long long)dqi.dqi_igrace,
		 (int)dqi.dqi_flags, (int)dqi.dqi_valid);
}

/*
 * _nfsctl_cmd_str(): nfsservctl's commands.  The call left Linux in 3.1
 * and its header with it (x86-64 keeps the number, always ENOSYS), so the
 * values of the last linux/nfsd/syscall.h are spelt out; 5 and 6 were
 * already withdrawn there.
 */
void tapset_sysfb_nfsctl_cmd_str(char *out, long long cmd)
{
	static const struct tap_flag cmds[] = {
		{ 0, "NFSCTL_SVC" }, { 1, "NFSCTL_ADDCLIENT" },
		{ 2, "NFSCTL_DELCLIENT" }, { 3, "NFSCTL_EXPORT" },
		{ 4, "NFSCTL_UNEXPORT" }, { 7, "NFSCTL_GETFD" },
		{ 8, "NFSCTL_GETFS" }, { 0, NULL }
	};

	out[0] = '\0';
	tap_flag_lookup(cmds, (unsigned int)cmd, out);
}
