// SPDX-License-Identifier: GPL-2.0
/*
 * The decoders of the memory, SysV IPC, futex, key, bpf, perf, kexec and
 * module system calls' argstr (tapsets/aux_sys_sysmem.stp), printing what
 * SystemTap's aux_syscalls tapset prints: the same names, in the same
 * order, the same casts of the argument and the same base for what no
 * name covers (hex, or decimal for the key calls).
 */
#include <linux/bpf.h>
#include <linux/fcntl.h>
#include <linux/futex.h>
#include <linux/ipc.h>
#include <linux/kernel.h>
#include <linux/kexec.h>
#include <linux/key.h>
#include <linux/keyctl.h>
#include <linux/mempolicy.h>
#include <linux/mman.h>
#include <linux/msg.h>
#include <linux/perf_event.h>
#include <linux/sem.h>
#include <linux/shm.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <uapi/linux/memfd.h>
#include <uapi/linux/module.h>
#include "tap_internal.h"
#include "tap_syscall.h"

/* ---- the lists -------------------------------------------------------- */

static const struct tap_flag sm_madvise[] = {
	TAP_FLAG(MADV_NORMAL), TAP_FLAG(MADV_RANDOM), TAP_FLAG(MADV_SEQUENTIAL),
	TAP_FLAG(MADV_WILLNEED), TAP_FLAG(MADV_DONTNEED), TAP_FLAG(MADV_FREE),
	TAP_FLAG(MADV_REMOVE), TAP_FLAG(MADV_DONTFORK), TAP_FLAG(MADV_DOFORK),
	TAP_FLAG(MADV_HWPOISON), TAP_FLAG(MADV_SOFT_OFFLINE),
	TAP_FLAG(MADV_MERGEABLE), TAP_FLAG(MADV_UNMERGEABLE),
	TAP_FLAG(MADV_HUGEPAGE), TAP_FLAG(MADV_NOHUGEPAGE),
	TAP_FLAG(MADV_DONTDUMP), TAP_FLAG(MADV_DODUMP), { 0, NULL }
};

static const struct tap_flag sm_mempolicy_flags[] = {
	TAP_FLAG(MPOL_F_NODE), TAP_FLAG(MPOL_F_ADDR), TAP_FLAG(MPOL_F_MEMS_ALLOWED),
	{ 0, NULL }
};

static const struct tap_flag sm_mempolicy_mode_flags[] = {
	TAP_FLAG(MPOL_F_STATIC_NODES), TAP_FLAG(MPOL_F_RELATIVE_NODES), { 0, NULL }
};

static const struct tap_flag sm_mempolicy_modes[] = {
	TAP_FLAG(MPOL_DEFAULT), TAP_FLAG(MPOL_PREFERRED), TAP_FLAG(MPOL_BIND),
	TAP_FLAG(MPOL_INTERLEAVE), TAP_FLAG(MPOL_LOCAL), { 0, NULL }
};

static const struct tap_flag sm_mlock2[] = { TAP_FLAG(MLOCK_ONFAULT), { 0, NULL } };

static const struct tap_flag sm_mlockall[] = {
	TAP_FLAG(MCL_CURRENT), TAP_FLAG(MCL_FUTURE), TAP_FLAG(MCL_ONFAULT), { 0, NULL }
};

static const struct tap_flag sm_mremap[] = {
	TAP_FLAG(MREMAP_MAYMOVE), TAP_FLAG(MREMAP_FIXED), { 0, NULL }
};

static const struct tap_flag sm_msync[] = {
	TAP_FLAG(MS_ASYNC), TAP_FLAG(MS_INVALIDATE), TAP_FLAG(MS_SYNC), { 0, NULL }
};

static const struct tap_flag sm_pkey_init[] = {
	TAP_FLAG(PKEY_DISABLE_ACCESS), TAP_FLAG(PKEY_DISABLE_WRITE), { 0, NULL }
};

static const struct tap_flag sm_mfd[] = {
	TAP_FLAG(MFD_CLOEXEC), TAP_FLAG(MFD_ALLOW_SEALING), TAP_FLAG(O_CLOEXEC),
	{ 0, NULL }
};

static const struct tap_flag sm_userfaultfd[] = {
	TAP_FLAG(O_NONBLOCK), TAP_FLAG(O_CLOEXEC), { 0, NULL }
};

static const struct tap_flag sm_msgflg[] = {
	TAP_FLAG(MSG_NOERROR), TAP_FLAG(MSG_EXCEPT), TAP_FLAG(IPC_NOWAIT), { 0, NULL }
};

static const struct tap_flag sm_msgctl_cmds[] = {
	TAP_FLAG(IPC_INFO), TAP_FLAG(IPC_STAT), TAP_FLAG(IPC_RMID), TAP_FLAG(IPC_SET),
	TAP_FLAG(MSG_INFO), TAP_FLAG(MSG_STAT), { 0, NULL }
};

static const struct tap_flag sm_semctl_cmds[] = {
	TAP_FLAG(IPC_INFO), TAP_FLAG(SEM_INFO), TAP_FLAG(SEM_STAT), TAP_FLAG(GETALL),
	TAP_FLAG(GETVAL), TAP_FLAG(GETPID), TAP_FLAG(GETNCNT), TAP_FLAG(GETZCNT),
	TAP_FLAG(IPC_STAT), TAP_FLAG(SETVAL), TAP_FLAG(SETALL), TAP_FLAG(IPC_RMID),
	TAP_FLAG(IPC_SET), { 0, NULL }
};

static const struct tap_flag sm_shmat[] = {
	TAP_FLAG(SHM_RDONLY), TAP_FLAG(SHM_RND), TAP_FLAG(SHM_REMAP), TAP_FLAG(SHM_EXEC),
	{ 0, NULL }
};

static const struct tap_flag sm_shmget[] = {
	TAP_FLAG(IPC_CREAT), TAP_FLAG(IPC_EXCL), TAP_FLAG(SHM_HUGETLB),
	TAP_FLAG(SHM_NORESERVE), { 0, NULL }
};

static const struct tap_flag sm_futex_ops[] = {
	TAP_FLAG(FUTEX_WAIT), TAP_FLAG(FUTEX_WAKE), TAP_FLAG(FUTEX_FD),
	TAP_FLAG(FUTEX_REQUEUE), TAP_FLAG(FUTEX_CMP_REQUEUE), TAP_FLAG(FUTEX_WAKE_OP),
	TAP_FLAG(FUTEX_LOCK_PI), TAP_FLAG(FUTEX_UNLOCK_PI), TAP_FLAG(FUTEX_TRYLOCK_PI),
	TAP_FLAG(FUTEX_WAIT_BITSET), TAP_FLAG(FUTEX_WAKE_BITSET),
	TAP_FLAG(FUTEX_WAIT_REQUEUE_PI), TAP_FLAG(FUTEX_CMP_REQUEUE_PI),
	TAP_FLAG(FUTEX_WAIT_PRIVATE), TAP_FLAG(FUTEX_WAKE_PRIVATE),
	TAP_FLAG(FUTEX_REQUEUE_PRIVATE), TAP_FLAG(FUTEX_CMP_REQUEUE_PRIVATE),
	TAP_FLAG(FUTEX_WAKE_OP_PRIVATE), TAP_FLAG(FUTEX_LOCK_PI_PRIVATE),
	TAP_FLAG(FUTEX_UNLOCK_PI_PRIVATE), TAP_FLAG(FUTEX_TRYLOCK_PI_PRIVATE),
	TAP_FLAG(FUTEX_WAIT_BITSET_PRIVATE), TAP_FLAG(FUTEX_WAKE_BITSET_PRIVATE),
	TAP_FLAG(FUTEX_WAIT_REQUEUE_PI_PRIVATE), TAP_FLAG(FUTEX_CMP_REQUEUE_PI_PRIVATE),
	{ 0, NULL }
};

static const struct tap_flag sm_futex_wake_ops[] = {
	TAP_FLAG(FUTEX_OP_SET), TAP_FLAG(FUTEX_OP_ADD), TAP_FLAG(FUTEX_OP_OR),
	TAP_FLAG(FUTEX_OP_ANDN), TAP_FLAG(FUTEX_OP_XOR), { 0, NULL }
};

static const struct tap_flag sm_futex_wake_cmps[] = {
	TAP_FLAG(FUTEX_OP_CMP_EQ), TAP_FLAG(FUTEX_OP_CMP_NE), TAP_FLAG(FUTEX_OP_CMP_LT),
	TAP_FLAG(FUTEX_OP_CMP_LE), TAP_FLAG(FUTEX_OP_CMP_GT), TAP_FLAG(FUTEX_OP_CMP_GE),
	{ 0, NULL }
};

/* The key specials are negative: compared as the unsigned long of the
 * sign-extended int, as the lookup compares them. */
#define SM_NEG(f) { (unsigned long)(long)(f), #f }

static const struct tap_flag sm_keyctl_cmds[] = {
	TAP_FLAG(KEYCTL_GET_KEYRING_ID), TAP_FLAG(KEYCTL_JOIN_SESSION_KEYRING),
	TAP_FLAG(KEYCTL_UPDATE), TAP_FLAG(KEYCTL_REVOKE), TAP_FLAG(KEYCTL_CHOWN),
	TAP_FLAG(KEYCTL_SETPERM), TAP_FLAG(KEYCTL_DESCRIBE), TAP_FLAG(KEYCTL_CLEAR),
	TAP_FLAG(KEYCTL_LINK), TAP_FLAG(KEYCTL_UNLINK), TAP_FLAG(KEYCTL_SEARCH),
	TAP_FLAG(KEYCTL_READ), TAP_FLAG(KEYCTL_INSTANTIATE), TAP_FLAG(KEYCTL_NEGATE),
	TAP_FLAG(KEYCTL_SET_REQKEY_KEYRING), TAP_FLAG(KEYCTL_SET_TIMEOUT),
	TAP_FLAG(KEYCTL_ASSUME_AUTHORITY), TAP_FLAG(KEYCTL_GET_SECURITY),
	TAP_FLAG(KEYCTL_SESSION_TO_PARENT), TAP_FLAG(KEYCTL_REJECT),
	TAP_FLAG(KEYCTL_INSTANTIATE_IOV), TAP_FLAG(KEYCTL_INVALIDATE),
	TAP_FLAG(KEYCTL_GET_PERSISTENT), { 0, NULL }
};

static const struct tap_flag sm_keyring_shortcuts[] = {
	SM_NEG(KEY_SPEC_THREAD_KEYRING), SM_NEG(KEY_SPEC_PROCESS_KEYRING),
	SM_NEG(KEY_SPEC_SESSION_KEYRING), SM_NEG(KEY_SPEC_USER_KEYRING),
	SM_NEG(KEY_SPEC_USER_SESSION_KEYRING), SM_NEG(KEY_SPEC_GROUP_KEYRING),
	SM_NEG(KEY_SPEC_REQKEY_AUTH_KEY), SM_NEG(KEY_SPEC_REQUESTOR_KEYRING),
	{ 0, NULL }
};

static const struct tap_flag sm_default_keyrings[] = {
	SM_NEG(KEY_REQKEY_DEFL_NO_CHANGE), TAP_FLAG(KEY_REQKEY_DEFL_DEFAULT),
	TAP_FLAG(KEY_REQKEY_DEFL_THREAD_KEYRING),
	TAP_FLAG(KEY_REQKEY_DEFL_PROCESS_KEYRING),
	TAP_FLAG(KEY_REQKEY_DEFL_SESSION_KEYRING),
	TAP_FLAG(KEY_REQKEY_DEFL_USER_KEYRING),
	TAP_FLAG(KEY_REQKEY_DEFL_USER_SESSION_KEYRING),
	TAP_FLAG(KEY_REQKEY_DEFL_GROUP_KEYRING), { 0, NULL }
};

static const struct tap_flag sm_key_perms[] = {
#ifdef CONFIG_KEYS
	TAP_FLAG(KEY_POS_VIEW), TAP_FLAG(KEY_POS_READ), TAP_FLAG(KEY_POS_WRITE),
	TAP_FLAG(KEY_POS_SEARCH), TAP_FLAG(KEY_POS_LINK), TAP_FLAG(KEY_POS_SETATTR),
	TAP_FLAG(KEY_POS_ALL),
	TAP_FLAG(KEY_USR_VIEW), TAP_FLAG(KEY_USR_READ), TAP_FLAG(KEY_USR_WRITE),
	TAP_FLAG(KEY_USR_SEARCH), TAP_FLAG(KEY_USR_LINK), TAP_FLAG(KEY_USR_SETATTR),
	TAP_FLAG(KEY_USR_ALL),
	TAP_FLAG(KEY_GRP_VIEW), TAP_FLAG(KEY_GRP_READ), TAP_FLAG(KEY_GRP_WRITE),
	TAP_FLAG(KEY_GRP_SEARCH), TAP_FLAG(KEY_GRP_LINK), TAP_FLAG(KEY_GRP_SETATTR),
	TAP_FLAG(KEY_GRP_ALL),
	TAP_FLAG(KEY_OTH_VIEW), TAP_FLAG(KEY_OTH_READ), TAP_FLAG(KEY_OTH_WRITE),
	TAP_FLAG(KEY_OTH_SEARCH), TAP_FLAG(KEY_OTH_LINK), TAP_FLAG(KEY_OTH_SETATTR),
	TAP_FLAG(KEY_OTH_ALL),
#endif
	{ 0, NULL }
};

/* SystemTap names only the first six commands. */
static const struct tap_flag sm_bpf_cmds[] = {
#ifdef CONFIG_BPF_SYSCALL
	TAP_FLAG(BPF_MAP_CREATE), TAP_FLAG(BPF_MAP_LOOKUP_ELEM),
	TAP_FLAG(BPF_MAP_UPDATE_ELEM), TAP_FLAG(BPF_MAP_DELETE_ELEM),
	TAP_FLAG(BPF_MAP_GET_NEXT_KEY), TAP_FLAG(BPF_PROG_LOAD),
#endif
	{ 0, NULL }
};

static const struct tap_flag sm_perf_flags[] = {
	TAP_FLAG(PERF_FLAG_FD_NO_GROUP), TAP_FLAG(PERF_FLAG_FD_OUTPUT),
	TAP_FLAG(PERF_FLAG_PID_CGROUP), TAP_FLAG(PERF_FLAG_FD_CLOEXEC), { 0, NULL }
};

/* Architectures are numbers in the high half, not bits: the or-lookup
 * names every architecture sharing a bit, as SystemTap's does. */
static const struct tap_flag sm_kexec_flags[] = {
#ifdef CONFIG_KEXEC
	TAP_FLAG(KEXEC_ON_CRASH), TAP_FLAG(KEXEC_PRESERVE_CONTEXT),
	TAP_FLAG(KEXEC_ARCH_DEFAULT), TAP_FLAG(KEXEC_ARCH_386),
	TAP_FLAG(KEXEC_ARCH_X86_64), TAP_FLAG(KEXEC_ARCH_PPC),
	TAP_FLAG(KEXEC_ARCH_PPC64), TAP_FLAG(KEXEC_ARCH_IA_64),
	TAP_FLAG(KEXEC_ARCH_ARM), TAP_FLAG(KEXEC_ARCH_S390), TAP_FLAG(KEXEC_ARCH_SH),
	TAP_FLAG(KEXEC_ARCH_MIPS_LE), TAP_FLAG(KEXEC_ARCH_MIPS),
#endif
	{ 0, NULL }
};

static const struct tap_flag sm_kexec_file_flags[] = {
	TAP_FLAG(KEXEC_FILE_UNLOAD), TAP_FLAG(KEXEC_FILE_ON_CRASH),
	TAP_FLAG(KEXEC_FILE_NO_INITRAMFS), { 0, NULL }
};

static const struct tap_flag sm_module_flags[] = {
	TAP_FLAG(O_TRUNC), TAP_FLAG(O_NONBLOCK), { 0, NULL }
};

static const struct tap_flag sm_finit_module_flags[] = {
	TAP_FLAG(MODULE_INIT_IGNORE_MODVERSIONS), TAP_FLAG(MODULE_INIT_IGNORE_VERMAGIC),
	{ 0, NULL }
};

/* ---- the table the script functions name (TAPSET_SM_*) ---------------- */

enum sm_cast { SM_LONG, SM_U32, SM_S32 };

struct sm_decoder {
	const struct tap_flag *list;
	bool is_set;		/* a set of flags, not one value */
	bool decimal;		/* unnamed rest in decimal, not hex */
	enum sm_cast cast;	/* what the argument is first cast to */
};

static const struct sm_decoder sm_decoders[TAPSET_SM_COUNT] = {
	[TAPSET_SM_MADVISE] = { sm_madvise, false, false, SM_U32 },
	[TAPSET_SM_MEMPOLICY_FLAGS] = { sm_mempolicy_flags, true, false, SM_LONG },
	[TAPSET_SM_MLOCK2] = { sm_mlock2, true, false, SM_U32 },
	[TAPSET_SM_MLOCKALL] = { sm_mlockall, true, false, SM_U32 },
	[TAPSET_SM_MREMAP] = { sm_mremap, true, false, SM_U32 },
	[TAPSET_SM_MSYNC] = { sm_msync, true, false, SM_U32 },
	[TAPSET_SM_PKEY_INIT] = { sm_pkey_init, true, false, SM_U32 },
	[TAPSET_SM_MFD] = { sm_mfd, true, false, SM_U32 },
	[TAPSET_SM_USERFAULTFD] = { sm_userfaultfd, true, false, SM_U32 },
	[TAPSET_SM_MSGFLG] = { sm_msgflg, true, false, SM_U32 },
	[TAPSET_SM_SHMAT] = { sm_shmat, true, false, SM_LONG },
	[TAPSET_SM_FUTEX_OP] = { sm_futex_ops, false, false, SM_U32 },
	[TAPSET_SM_KEYCTL_CMD] = { sm_keyctl_cmds, false, true, SM_S32 },
	[TAPSET_SM_KEYRING] = { sm_keyring_shortcuts, false, true, SM_S32 },
	[TAPSET_SM_DEFAULT_KEYRING] = { sm_default_keyrings, false, true, SM_S32 },
	[TAPSET_SM_KEY_PERM] = { sm_key_perms, true, true, SM_U32 },
	[TAPSET_SM_BPF_CMD] = { sm_bpf_cmds, false, false, SM_S32 },
	[TAPSET_SM_PERF_FLAGS] = { sm_perf_flags, true, false, SM_LONG },
	[TAPSET_SM_KEXEC] = { sm_kexec_flags, true, false, SM_LONG },
	[TAPSET_SM_KEXEC_FILE] = { sm_kexec_file_flags, true, false, SM_LONG },
	[TAPSET_SM_MODULE] = { sm_module_flags, true, false, SM_U32 },
	[TAPSET_SM_FINIT_MODULE] = { sm_finit_module_flags, true, false, SM_U32 },
};

void tapset_sm_decode(char *out, long long which, long long val)
{
	const struct sm_decoder *d;
	long v;

	out[0] = '\0';
	if (which < 0 || which >= TAPSET_SM_COUNT || !sm_decoders[which].list)
		return;
	d = &sm_decoders[which];
	switch (d->cast) {
	case SM_U32: v = (u32)val; break;
	case SM_S32: v = (s32)val; break;
	default: v = (long)val; break;
	}
	if (d->is_set)
		tap_flag_or_base(d->list, v, d->decimal, out);
	else
		tap_flag_lookup_base(d->list, v, d->decimal, out);
}

/* ---- decoders with more than one part ---------------------------------- */

/* _mempolicy_mode_str(): a mode flag (named when it is exactly one), '|',
 * then the mode. */
void tapset_sm_mempolicy_mode_str(char *out, long long m)
{
	unsigned int mode = (u32)m;

	out[0] = '\0';
	if (mode != 0xffffffff && (mode & MPOL_MODE_FLAGS)) {
		tap_flag_lookup(sm_mempolicy_mode_flags, mode & MPOL_MODE_FLAGS, out);
		strlcat(out, "|", MAXSTRINGLEN);
		mode &= ~MPOL_MODE_FLAGS;
	}
	tap_flag_lookup(sm_mempolicy_modes, mode, out);
}

/* _stp_msgctl_cmd_str() (@sem 0) and _semctl_cmd() (@sem 1): "IPC_64|"
 * for the new-layout bit, then the command. */
void tapset_sm_ipc_cmd_str(char *out, long long c, long long sem)
{
	unsigned int cmd = (u32)c;

	out[0] = '\0';
	if (cmd & IPC_64) {
		strlcat(out, "IPC_64|", MAXSTRINGLEN);
		cmd &= ~IPC_64;
	}
	tap_flag_lookup(sem ? sm_semctl_cmds : sm_msgctl_cmds, cmd, out);
}

/* A '|' between parts, none before the first. */
static void sm_sep(char *out)
{
	if (out[0])
		strlcat(out, "|", MAXSTRINGLEN);
}

/* __sem_flags() (msgget, semget): IPC_CREAT, IPC_EXCL, other bits in hex,
 * then the permission bits in octal. */
void tapset_sm_sem_flags(char *out, long long f)
{
	long flags = (long)f;
	long mode = flags & S_IRWXUGO;
	size_t len;

	out[0] = '\0';
	flags &= ~S_IRWXUGO;
	if (flags & IPC_CREAT) {
		strlcat(out, "IPC_CREAT", MAXSTRINGLEN);
		flags &= ~IPC_CREAT;
	}
	if (flags & IPC_EXCL) {
		sm_sep(out);
		strlcat(out, "IPC_EXCL", MAXSTRINGLEN);
		flags &= ~IPC_EXCL;
	}
	if (flags) {
		sm_sep(out);
		len = strlen(out);
		snprintf(out + len, MAXSTRINGLEN - len, "0x%lx", (unsigned long)flags);
	}
	if (mode) {
		sm_sep(out);
		len = strlen(out);
		snprintf(out + len, MAXSTRINGLEN - len, "%#lo", (unsigned long)mode);
	}
}

/* _stp_shmget_flags_str(): the flags without the low nine mode bits ("0x0"
 * when none), then "|0MODE". */
void tapset_sm_shmget_flags_str(char *out, long long f)
{
	unsigned int flags = (u32)f;
	unsigned int mode = flags & 0777;
	size_t len;

	out[0] = '\0';
	tap_flag_or(sm_shmget, flags & ~0777u, out);
	if (mode) {
		sm_sep(out);
		len = strlen(out);
		snprintf(out + len, MAXSTRINGLEN - len, "%#o", mode);
	}
}

/* _futex_wake_op_str(): "{[FUTEX_OP_OPARG_SHIFT|]OP, OPARG, CMP, CMPARG}"
 * from FUTEX_WAKE_OP's encoded val3, the arguments sign-extended from
 * their 12-bit fields. */
void tapset_sm_futex_wake_op_str(char *out, long long v)
{
	int encoded = (int)v;
	int op = (encoded >> 28) & 7;
	int cmp = (encoded >> 24) & 15;
	int oparg = (int)((u32)encoded << 8) >> 20;
	int cmparg = (int)((u32)encoded << 20) >> 20;
	size_t len;

	strscpy(out, "{", MAXSTRINGLEN);
	if (encoded & (FUTEX_OP_OPARG_SHIFT << 28))
		strlcat(out, "FUTEX_OP_OPARG_SHIFT|", MAXSTRINGLEN);
	tap_flag_lookup(sm_futex_wake_ops, op, out);
	len = strlen(out);
	snprintf(out + len, MAXSTRINGLEN - len, ", %d, ", oparg);
	tap_flag_lookup(sm_futex_wake_cmps, cmp, out);
	len = strlen(out);
	snprintf(out + len, MAXSTRINGLEN - len, ", %d}", cmparg);
}
