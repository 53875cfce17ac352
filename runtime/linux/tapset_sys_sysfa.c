// SPDX-License-Identifier: GPL-2.0
/*
 * Decoders of the file system calls' argstr (fadvise64, fallocate,
 * fanotify_init/mark, fcntl, flock, inotify_add_watch, inotify_init1,
 * dup3, faccessat2, pipe/pipe2, eventfd2 and the *setxattr calls), as SystemTap's aux_syscalls tapset prints
 * them.  The lists follow SystemTap's: their order decides which name of
 * overlapping bits is printed, and a bit they do not name is printed in
 * hex even where the kernel has a name for it (FAN_ATTRIB, FALLOC_FL_*
 * newer than ZERO_RANGE, F_OFD_*), as SystemTap prints it.
 */
#include <linux/kernel.h>
#include <linux/eventfd.h>
#include <linux/types.h>
/* falloc.h uses the __s16 ... of types.h without including it */
#include <linux/fadvise.h>
#include <linux/falloc.h>
#include <linux/fanotify.h>
#include <linux/fcntl.h>
#include <linux/inotify.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/xattr.h>
#include "tap_internal.h"
#include "tap_syscall.h"

static const struct tap_flag tap_fadvise_advice[] = {
	TAP_FLAG(POSIX_FADV_NORMAL), TAP_FLAG(POSIX_FADV_RANDOM),
	TAP_FLAG(POSIX_FADV_SEQUENTIAL), TAP_FLAG(POSIX_FADV_WILLNEED),
	TAP_FLAG(POSIX_FADV_DONTNEED), TAP_FLAG(POSIX_FADV_NOREUSE),
	{ 0, NULL }
};

/* _fadvice_advice_str(): one value, not a set of bits. */
void tapset_sc_fadvice_advice_str(char *out, long long advice)
{
	out[0] = '\0';
	tap_flag_lookup(tap_fadvise_advice, (unsigned int)advice, out);
}

static const struct tap_flag tap_fallocate_modes[] = {
	TAP_FLAG(FALLOC_FL_KEEP_SIZE), TAP_FLAG(FALLOC_FL_PUNCH_HOLE),
	TAP_FLAG(FALLOC_FL_NO_HIDE_STALE), TAP_FLAG(FALLOC_FL_COLLAPSE_RANGE),
	TAP_FLAG(FALLOC_FL_ZERO_RANGE),
	{ 0, NULL }
};

void tapset_sc_fallocate_mode_str(char *out, long long mode)
{
	out[0] = '\0';
	tap_flag_or(tap_fallocate_modes, (unsigned int)mode, out);
}

/* fanotify_init()'s flags: one notification class (FAN_CLASS_NOTIF is 0),
 * then the other bits as a set. */
#define TAP_FAN_CLASS_BITS (FAN_CLASS_NOTIF | FAN_CLASS_CONTENT | FAN_CLASS_PRE_CONTENT)

static const struct tap_flag tap_fanotify_classes[] = {
	TAP_FLAG(FAN_CLASS_NOTIF), TAP_FLAG(FAN_CLASS_CONTENT),
	TAP_FLAG(FAN_CLASS_PRE_CONTENT),
	{ 0, NULL }
};

static const struct tap_flag tap_fanotify_init_flags[] = {
	TAP_FLAG(FAN_CLOEXEC), TAP_FLAG(FAN_NONBLOCK),
	TAP_FLAG(FAN_UNLIMITED_QUEUE), TAP_FLAG(FAN_UNLIMITED_MARKS),
	{ 0, NULL }
};

void tapset_sc_fanotify_init_flags_str(char *out, long long f)
{
	unsigned int flags = (unsigned int)f;

	out[0] = '\0';
	tap_flag_lookup(tap_fanotify_classes, flags & TAP_FAN_CLASS_BITS, out);
	if (flags & ~TAP_FAN_CLASS_BITS) {
		strlcat(out, "|", MAXSTRINGLEN);
		tap_flag_or(tap_fanotify_init_flags, flags & ~TAP_FAN_CLASS_BITS, out);
	}
}

static const struct tap_flag tap_fanotify_mark_flags[] = {
	TAP_FLAG(FAN_MARK_ADD), TAP_FLAG(FAN_MARK_REMOVE),
	TAP_FLAG(FAN_MARK_FLUSH), TAP_FLAG(FAN_MARK_DONT_FOLLOW),
	TAP_FLAG(FAN_MARK_ONLYDIR), TAP_FLAG(FAN_MARK_MOUNT),
	TAP_FLAG(FAN_MARK_IGNORED_MASK), TAP_FLAG(FAN_MARK_IGNORED_SURV_MODIFY),
	{ 0, NULL }
};

void tapset_sc_fanotify_mark_flags_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(tap_fanotify_mark_flags, (unsigned int)flags, out);
}

/* No FAN_CLOSE: it is FAN_CLOSE_WRITE|FAN_CLOSE_NOWRITE, named one by one. */
static const struct tap_flag tap_fanotify_mark_mask[] = {
	TAP_FLAG(FAN_ACCESS), TAP_FLAG(FAN_MODIFY), TAP_FLAG(FAN_CLOSE_WRITE),
	TAP_FLAG(FAN_CLOSE_NOWRITE), TAP_FLAG(FAN_OPEN), TAP_FLAG(FAN_Q_OVERFLOW),
	TAP_FLAG(FAN_OPEN_PERM), TAP_FLAG(FAN_ACCESS_PERM), TAP_FLAG(FAN_ONDIR),
	TAP_FLAG(FAN_EVENT_ON_CHILD),
	{ 0, NULL }
};

/* The mask is 64 bits wide (a u64 argument). */
void tapset_sc_fanotify_mark_mask_str(char *out, long long mask)
{
	out[0] = '\0';
	tap_flag_or(tap_fanotify_mark_mask, (unsigned long)mask, out);
}

/* F_GETLK64 and friends exist in the kernel's headers of a 64-bit
 * kernel too (12, 13, 14), as SystemTap's list has them. */
static const struct tap_flag tap_fcntl_cmds[] = {
	TAP_FLAG(F_DUPFD), TAP_FLAG(F_GETFD), TAP_FLAG(F_SETFD),
	TAP_FLAG(F_GETFL), TAP_FLAG(F_SETFL), TAP_FLAG(F_GETLK),
	TAP_FLAG(F_SETLK), TAP_FLAG(F_SETLKW), TAP_FLAG(F_SETOWN),
	TAP_FLAG(F_GETOWN), TAP_FLAG(F_SETSIG), TAP_FLAG(F_GETSIG),
#ifdef F_GETLK64
	TAP_FLAG(F_GETLK64), TAP_FLAG(F_SETLK64), TAP_FLAG(F_SETLKW64),
#endif
	TAP_FLAG(F_SETOWN_EX), TAP_FLAG(F_GETOWN_EX), TAP_FLAG(F_GETOWNER_UIDS),
	TAP_FLAG(F_SETLEASE), TAP_FLAG(F_GETLEASE), TAP_FLAG(F_DUPFD_CLOEXEC),
	TAP_FLAG(F_NOTIFY), TAP_FLAG(F_SETPIPE_SZ), TAP_FLAG(F_GETPIPE_SZ),
	{ 0, NULL }
};

void tapset_sc_fcntl_cmd_str(char *out, long long cmd)
{
	out[0] = '\0';
	tap_flag_lookup(tap_fcntl_cmds, (unsigned int)cmd, out);
}

/* LOCK_RW is LOCK_READ|LOCK_WRITE: listed last, it never shows. */
static const struct tap_flag tap_flock_ops[] = {
	TAP_FLAG(LOCK_SH), TAP_FLAG(LOCK_EX), TAP_FLAG(LOCK_NB),
	TAP_FLAG(LOCK_UN), TAP_FLAG(LOCK_MAND), TAP_FLAG(LOCK_READ),
	TAP_FLAG(LOCK_WRITE), TAP_FLAG(LOCK_RW),
	{ 0, NULL }
};

void tapset_sc_flock_cmd_str(char *out, long long op)
{
	out[0] = '\0';
	tap_flag_or(tap_flock_ops, (unsigned int)op, out);
}

static const struct tap_flag tap_inotify_mask[] = {
	TAP_FLAG(IN_ACCESS), TAP_FLAG(IN_MODIFY), TAP_FLAG(IN_ATTRIB),
	TAP_FLAG(IN_CLOSE_WRITE), TAP_FLAG(IN_CLOSE_NOWRITE), TAP_FLAG(IN_OPEN),
	TAP_FLAG(IN_MOVED_FROM), TAP_FLAG(IN_MOVED_TO), TAP_FLAG(IN_CREATE),
	TAP_FLAG(IN_DELETE), TAP_FLAG(IN_DELETE_SELF), TAP_FLAG(IN_MOVE_SELF),
	TAP_FLAG(IN_UNMOUNT), TAP_FLAG(IN_Q_OVERFLOW), TAP_FLAG(IN_IGNORED),
	TAP_FLAG(IN_ONLYDIR), TAP_FLAG(IN_DONT_FOLLOW), TAP_FLAG(IN_EXCL_UNLINK),
	TAP_FLAG(IN_MASK_ADD), TAP_FLAG(IN_ISDIR), TAP_FLAG(IN_ONESHOT),
	{ 0, NULL }
};

void tapset_sc_inotify_watch_mask_str(char *out, long long mask)
{
	out[0] = '\0';
	tap_flag_or(tap_inotify_mask, (u32)mask, out);
}

/*
 * dup3()'s flags, with the open flag names as SystemTap's list of them
 * has (no access mode; the kernel's headers define FASYNC but no
 * O_ASYNC, so that bit shows in hex; O_SYNC before O_DSYNC, whose bit it
 * includes).
 */
static const struct tap_flag tap_open_mode_flags[] = {
	TAP_FLAG(O_CREAT), TAP_FLAG(O_EXCL), TAP_FLAG(O_NOCTTY),
	TAP_FLAG(O_TRUNC), TAP_FLAG(O_APPEND), TAP_FLAG(O_NONBLOCK),
	TAP_FLAG(O_SYNC), TAP_FLAG(O_DSYNC),
#ifdef O_ASYNC
	TAP_FLAG(O_ASYNC),
#endif
	TAP_FLAG(O_DIRECT), TAP_FLAG(O_LARGEFILE), TAP_FLAG(O_DIRECTORY),
	TAP_FLAG(O_NOFOLLOW), TAP_FLAG(O_NOATIME), TAP_FLAG(O_CLOEXEC),
	TAP_FLAG(O_PATH),
	{ 0, NULL }
};

void tapset_sc_dup3_flag_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(tap_open_mode_flags, (unsigned int)flags, out);
}

/* The flags faccessat2() takes (AT_EACCESS is 0x200, as AT_REMOVEDIR). */
static const struct tap_flag tap_faccessat2_flags[] = {
	TAP_FLAG(AT_SYMLINK_NOFOLLOW), TAP_FLAG(AT_EACCESS),
	{ 0, NULL }
};

void tapset_sc_faccessat2_flags_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(tap_faccessat2_flags, (unsigned int)flags, out);
}

/* inotify_init1()'s flags. */
static const struct tap_flag tap_inotify_init1_flags[] = {
	TAP_FLAG(IN_NONBLOCK), TAP_FLAG(IN_CLOEXEC),
	{ 0, NULL }
};

void tapset_sc_inotify_init1_flag_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(tap_inotify_init1_flags, (unsigned int)flags, out);
}

/* pipe2()'s flags, in SystemTap's order (O_DIRECT: packet mode). */
static const struct tap_flag tap_pipe2_flags[] = {
	TAP_FLAG(O_NONBLOCK), TAP_FLAG(O_CLOEXEC), TAP_FLAG(O_DIRECT),
	{ 0, NULL }
};

void tapset_sc_pipe2_flag_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(tap_pipe2_flags, (unsigned int)flags, out);
}

/* eventfd2()'s flags, in SystemTap's order. */
static const struct tap_flag tap_eventfd2_flags[] = {
	TAP_FLAG(EFD_NONBLOCK), TAP_FLAG(EFD_CLOEXEC), TAP_FLAG(EFD_SEMAPHORE),
	{ 0, NULL }
};

void tapset_sc_eventfd2_flag_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(tap_eventfd2_flags, (u32)flags, out);
}

/*
 * Descriptor @index (0 or 1) of the int[2] a pipe call fills at @uaddr:
 * both are read at once, as SystemTap's _fildes_index_u() does, so an
 * unreadable pair gives 0 for either.
 */
long long tapset_sc_fildes_index_u(long long uaddr, long long index)
{
	int fd[2];

	if (!uaddr || (index != 0 && index != 1))
		return 0;
	if (copy_from_user_nofault(fd, (const void __user *)(unsigned long)uaddr,
				   sizeof(fd)))
		return 0;
	return fd[index];
}

static const struct tap_flag tap_xattr_flags[] = {
	TAP_FLAG(XATTR_CREATE), TAP_FLAG(XATTR_REPLACE),
	{ 0, NULL }
};

void tapset_sc_xattr_flags_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(tap_xattr_flags, (unsigned int)flags, out);
}

/* SystemTap shows at most this many bytes of an extended attribute. */
#define TAP_XATTR_SHOWN 50

static bool tap_xattr_printable(unsigned char c)
{
	return c >= ' ' && c <= 0x7e;
}

/*
 * _stp_xattr_val_str(): the first 50 bytes of the value, quoted, with
 * printable ASCII as it is (quotes and backslashes too) and every other
 * byte as \xHH; a trailing NUL after a printable byte is dropped (a C
 * string's terminator).  The address in hex when there is nothing to
 * read or it cannot be read.
 */
void tapset_sc_xattr_val_str(char *out, long long uaddr, long long size)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char buf[TAP_XATTR_SHOWN];
	size_t n = clamp_t(long long, size, 0, TAP_XATTR_SHOWN);
	size_t room = MAXSTRINGLEN - 3;	/* two quotes and the NUL */
	size_t len = 0, done = 0;

	if (!uaddr || !n ||
	    copy_from_user_nofault(buf, (const void __user *)(unsigned long)uaddr, n)) {
		snprintf(out, MAXSTRINGLEN, "0x%lx", (unsigned long)uaddr);
		return;
	}
	out[len++] = '"';
	for (; done < n && room; done++) {
		unsigned char c = buf[done];

		if (tap_xattr_printable(c)) {
			out[len++] = c;
			room--;
			continue;
		}
		if (room < 4)
			break;
		out[len++] = '\\';
		out[len++] = 'x';
		out[len++] = hex[c >> 4];
		out[len++] = hex[c & 15];
		room -= 4;
	}
	if (done > 1 && buf[done - 1] == '\0' && tap_xattr_printable(buf[done - 2]))
		len -= 4;
	out[len++] = '"';
	out[len] = '\0';
}
