// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime half of syscalls.stp, aux_syscalls.stp and uconversions.stp:
 * the system call of a hit (number, arguments, return value), names of
 * calls and errors, SystemTap's flag decoders, and fault-safe reads of the
 * current task's user memory.
 */
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/kernel.h>
#include <linux/mman.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/signal.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/ptrace.h>
#include "tap_internal.h"
#include "tap_syscall.h"
#include "strfn.h"
#include "tapset_syscalls_table.h"

/* ---- the system call of the hit --------------------------------------- */

static const struct tap_syscall_event *tap_sc_event(struct tap_context *c)
{
	if (!c->probe || c->probe->kind != TAP_PROBE_SYSCALL || !c->regs)
		return NULL;
	return c->event;
}

long long tapset_syscall_nr(struct tap_context *c)
{
	const struct tap_syscall_event *ev = tap_sc_event(c);

	return ev ? ev->nr : -1;
}

/* A user task runs 32-bit code when its user code segment is not the
 * 64-bit one (kernel threads have no user mode: 0). */
long long tapset_compat_task(void)
{
	if (current->flags & PF_KTHREAD)
		return 0;
	return !user_64bit_mode(task_pt_regs(current));
}

/* The i386 system call convention: ebx ecx edx esi edi ebp, 32 bits. */
static long long tap_sc_compat_arg(const struct pt_regs *r, long long i)
{
	switch (i) {
	case 1: return (u32)r->bx;
	case 2: return (u32)r->cx;
	case 3: return (u32)r->dx;
	case 4: return (u32)r->si;
	case 5: return (u32)r->di;
	case 6: return (u32)r->bp;
	default: return 0;
	}
}

/* The x86-64 system call convention: rdi rsi rdx r10 r8 r9. */
long long tapset_syscall_arg(struct tap_context *c, long long i)
{
	const struct tap_syscall_event *ev = tap_sc_event(c);
	struct pt_regs *r = c->regs;

	if (!ev)
		return 0;
	if (ev->subcall)
		return i >= 1 && i <= ARRAY_SIZE(ev->subargs) ? ev->subargs[i - 1] : 0;
	if (ev->compat)
		return tap_sc_compat_arg(r, i);
	switch (i) {
	case 1: return (long)r->di;
	case 2: return (long)r->si;
	case 3: return (long)r->dx;
	case 4: return (long)r->r10;
	case 5: return (long)r->r8;
	case 6: return (long)r->r9;
	default: return 0;
	}
}

/* A long argument: a 32-bit call's is 32 bits, sign-extended (compat_long_t). */
long long tapset_syscall_long(struct tap_context *c, long long i)
{
	const struct tap_syscall_event *ev = tap_sc_event(c);

	if (ev && ev->compat)
		return (s32)tapset_syscall_arg(c, i);
	return tapset_syscall_arg(c, i);
}

/* A 64-bit offset from argument @i: a 32-bit call passes it in two, the
 * low half first (i386's pread64, preadv ...). */
long long tapset_syscall_loff(struct tap_context *c, long long i)
{
	const struct tap_syscall_event *ev = tap_sc_event(c);

	if (ev && ev->compat)
		return (long long)((u64)(u32)tapset_syscall_arg(c, i) |
				   (u64)(u32)tapset_syscall_arg(c, i + 1) << 32);
	return tapset_syscall_arg(c, i);
}

long long tapset_syscall_ret(struct tap_context *c)
{
	const struct tap_syscall_event *ev = tap_sc_event(c);

	return ev ? ev->ret : 0;
}

static const char *tap_errno_name(long long err)
{
	if (err > 0 && err < ARRAY_SIZE(tap_errno_names))
		return tap_errno_names[err];
	return NULL;
}

void tapset_errno_str(char *out, long long err)
{
	const char *name = tap_errno_name(err);

	if (name)
		strscpy(out, name, MAXSTRINGLEN);
	else
		snprintf(out, MAXSTRINGLEN, "E#%lld", err);
}

long long tapset_errno_p(long long err)
{
	long long e = err < 0 ? -err : err;

	return tap_errno_name(e) ? e : 0;
}

void tapset_return_str(char *out, long long format, long long ret)
{
	const char *name = ret < 0 ? tap_errno_name(-ret) : NULL;

	if (name)
		snprintf(out, MAXSTRINGLEN, "%lld (%s)", ret, name);
	else if (format == 2)
		snprintf(out, MAXSTRINGLEN, "0x%llx", ret);
	else if (format == 3)
		snprintf(out, MAXSTRINGLEN, "%#llo", ret);
	else
		snprintf(out, MAXSTRINGLEN, "%lld", ret);
}

/* ---- flag decoders ------------------------------------------------------ */

/* What no name of a list covers: in hex, as SystemTap's _stp_lookup_str()
 * prints it, or in signed decimal (its base-10 form); appended to @out. */
static void tap_flag_number(char *out, unsigned long val, bool decimal)
{
	size_t len = strlen(out);

	if (decimal)
		snprintf(out + len, MAXSTRINGLEN - len, "%ld", (long)val);
	else
		snprintf(out + len, MAXSTRINGLEN - len, "0x%lx", val);
}

void tap_flag_lookup_base(const struct tap_flag *list, unsigned long val,
			  bool decimal, char *out)
{
	for (; list->name; list++)
		if (list->val == val) {
			strlcat(out, list->name, MAXSTRINGLEN);
			return;
		}
	tap_flag_number(out, val, decimal);
}

void tap_flag_or_base(const struct tap_flag *list, unsigned long val,
		      bool decimal, char *out)
{
	bool some = false;

	if (!val) {
		tap_flag_lookup_base(list, val, decimal, out);
		return;
	}
	for (; list->name; list++)
		if (list->val & val) {
			if (some)
				strlcat(out, "|", MAXSTRINGLEN);
			strlcat(out, list->name, MAXSTRINGLEN);
			val &= ~list->val;
			some = true;
		}
	if (val) {
		if (some)
			strlcat(out, "|", MAXSTRINGLEN);
		tap_flag_number(out, val, decimal);
	}
}

void tap_flag_lookup(const struct tap_flag *list, unsigned long val, char *out)
{
	tap_flag_lookup_base(list, val, false, out);
}

void tap_flag_or(const struct tap_flag *list, unsigned long val, char *out)
{
	tap_flag_or_base(list, val, false, out);
}

static const struct tap_flag tap_open_flags[] = {
	TAP_FLAG(O_CREAT), TAP_FLAG(O_EXCL), TAP_FLAG(O_NOCTTY),
	TAP_FLAG(O_TRUNC), TAP_FLAG(O_APPEND), TAP_FLAG(O_NONBLOCK),
	TAP_FLAG(O_SYNC), TAP_FLAG(O_DSYNC), { FASYNC, "O_ASYNC" },
	TAP_FLAG(O_DIRECT), TAP_FLAG(O_LARGEFILE), TAP_FLAG(O_DIRECTORY),
	TAP_FLAG(O_NOFOLLOW), TAP_FLAG(O_NOATIME), TAP_FLAG(O_CLOEXEC),
	TAP_FLAG(O_PATH), { 0, NULL }
};

void tapset_open_flag_str(char *out, long long f)
{
	int flags = (int)f;

	switch (flags & O_ACCMODE) {
	case O_WRONLY:
		strscpy(out, "O_WRONLY", MAXSTRINGLEN);
		break;
	case O_RDWR:
		strscpy(out, "O_RDWR", MAXSTRINGLEN);
		break;
	default:
		strscpy(out, "O_RDONLY", MAXSTRINGLEN);
	}
	flags &= ~O_ACCMODE;
	if (flags) {
		strlcat(out, "|", MAXSTRINGLEN);
		tap_flag_or(tap_open_flags, (unsigned int)flags, out);
	}
}

static const struct tap_flag tap_prot_flags[] = {
	{ 0, "PROT_NONE" }, TAP_FLAG(PROT_READ), TAP_FLAG(PROT_WRITE),
	TAP_FLAG(PROT_EXEC), TAP_FLAG(PROT_SEM), TAP_FLAG(PROT_GROWSDOWN),
	TAP_FLAG(PROT_GROWSUP), { 0, NULL }
};

void tapset_mprotect_prot_str(char *out, long long prot)
{
	out[0] = '\0';
	tap_flag_or(tap_prot_flags, (unsigned long)prot, out);
}

static const struct tap_flag tap_mmap_flags[] = {
	TAP_FLAG(MAP_SHARED), TAP_FLAG(MAP_PRIVATE), TAP_FLAG(MAP_FIXED),
	TAP_FLAG(MAP_ANONYMOUS), TAP_FLAG(MAP_GROWSDOWN), TAP_FLAG(MAP_DENYWRITE),
	TAP_FLAG(MAP_EXECUTABLE), TAP_FLAG(MAP_LOCKED), TAP_FLAG(MAP_NORESERVE),
	TAP_FLAG(MAP_POPULATE), TAP_FLAG(MAP_NONBLOCK), TAP_FLAG(MAP_STACK),
	TAP_FLAG(MAP_HUGETLB), TAP_FLAG(MAP_UNINITIALIZED), TAP_FLAG(MAP_32BIT),
	{ 0, NULL }
};

void tapset_mmap_flags_str(char *out, long long f)
{
	unsigned long flags = (unsigned long)f;
	unsigned int huge = (flags >> MAP_HUGE_SHIFT) & MAP_HUGE_MASK;
	static const char *const units[] = { "", "KB", "MB", "GB", "TB", "PB", "EB" };

	out[0] = '\0';
	flags &= ~((unsigned long)MAP_HUGE_MASK << MAP_HUGE_SHIFT);
	if (huge) {
		unsigned int u = huge / 10 < ARRAY_SIZE(units) ? huge / 10 : 0;

		/* log2 of the page size: MAP_HUGE_2MB is 21 */
		snprintf(out, MAXSTRINGLEN, "MAP_HUGE_%ld%s|",
			 1L << (huge - 10 * u), units[u]);
	}
	tap_flag_or(tap_mmap_flags, flags, out);
}

static const struct tap_flag tap_access_modes[] = {
	{ 0, "F_OK" }, { 4, "R_OK" }, { 2, "W_OK" }, { 1, "X_OK" }, { 0, NULL }
};

void tapset_access_mode_str(char *out, long long mode)
{
	out[0] = '\0';
	tap_flag_or(tap_access_modes, (unsigned int)mode, out);
}

static const struct tap_flag tap_at_flags[] = {
	TAP_FLAG(AT_SYMLINK_NOFOLLOW), TAP_FLAG(AT_REMOVEDIR),
	TAP_FLAG(AT_SYMLINK_FOLLOW), TAP_FLAG(AT_NO_AUTOMOUNT),
	TAP_FLAG(AT_EMPTY_PATH), { 0, NULL }
};

void tapset_at_flag_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(tap_at_flags, (unsigned long)flags, out);
}

static const struct tap_flag tap_clone_flags[] = {
	TAP_FLAG(CLONE_VM), TAP_FLAG(CLONE_FS), TAP_FLAG(CLONE_FILES),
	TAP_FLAG(CLONE_SIGHAND), TAP_FLAG(CLONE_PTRACE), TAP_FLAG(CLONE_VFORK),
	TAP_FLAG(CLONE_PARENT), TAP_FLAG(CLONE_THREAD), TAP_FLAG(CLONE_NEWNS),
	TAP_FLAG(CLONE_SYSVSEM), TAP_FLAG(CLONE_SETTLS),
	TAP_FLAG(CLONE_PARENT_SETTID), TAP_FLAG(CLONE_CHILD_CLEARTID),
	TAP_FLAG(CLONE_DETACHED), TAP_FLAG(CLONE_UNTRACED),
	TAP_FLAG(CLONE_CHILD_SETTID), TAP_FLAG(CLONE_NEWUTS),
	TAP_FLAG(CLONE_NEWIPC), TAP_FLAG(CLONE_NEWUSER), TAP_FLAG(CLONE_NEWPID),
	TAP_FLAG(CLONE_NEWNET), TAP_FLAG(CLONE_IO), { 0, NULL }
};

void tapset_fork_flags_str(char *out, long long f)
{
	unsigned long flags = (unsigned long)f;
	unsigned int sig = flags & 0xff;
	size_t len;

	out[0] = '\0';
	tap_flag_or(tap_clone_flags, flags & ~0xffUL, out);
	if (!sig)
		return;
	if (out[0])
		strlcat(out, "|", MAXSTRINGLEN);
	len = strlen(out);
	tapset_signal_name(out + len, sig);
}

void tapset_signal_name(char *out, long long sig)
{
	if (sig >= 0 && sig < ARRAY_SIZE(tap_signal_names) && tap_signal_names[sig])
		strscpy(out, tap_signal_names[sig], MAXSTRINGLEN);
	else
		snprintf(out, MAXSTRINGLEN, "0x%llx", sig);
}

/* @n (1 or 2) timespecs as "[SEC.NSEC]", utimensat()'s special values
 * by name. */
static void tap_timespecs_str(char *out, const long long *sec, const long long *nsec, int n)
{
	size_t len = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < n; i++) {
		if (nsec[i] == UTIME_NOW)
			len += scnprintf(out + len, MAXSTRINGLEN - len, "[UTIME_NOW]");
		else if (nsec[i] == UTIME_OMIT)
			len += scnprintf(out + len, MAXSTRINGLEN - len, "[UTIME_OMIT]");
		else
			len += scnprintf(out + len, MAXSTRINGLEN - len, "[%lld.%09lld]",
					 sec[i], nsec[i]);
	}
}

/* @n (1 or 2) timespecs at @uaddr, 64-bit or (@compat) a 32-bit
 * program's old_timespec32s, into @out. */
static void tap_timespecs_u(char *out, long long uaddr, long long n, bool compat)
{
	struct __kernel_timespec ts[2];
	struct { s32 tv_sec, tv_nsec; } ts32[2];
	long long sec[2], nsec[2];
	int i;

	if (!uaddr || n < 1 || n > 2) {
		strscpy(out, "NULL", MAXSTRINGLEN);
		return;
	}
	if (copy_from_user_nofault(compat ? (void *)ts32 : (void *)ts,
				   (const void __user *)(unsigned long)uaddr,
				   n * (compat ? sizeof(ts32[0]) : sizeof(ts[0])))) {
		snprintf(out, MAXSTRINGLEN, "0x%llx", uaddr);
		return;
	}
	for (i = 0; i < n; i++) {
		sec[i] = compat ? ts32[i].tv_sec : ts[i].tv_sec;
		nsec[i] = compat ? ts32[i].tv_nsec : ts[i].tv_nsec;
	}
	tap_timespecs_str(out, sec, nsec, n);
}

void tapset_timespec_u(char *out, long long uaddr, long long n)
{
	tap_timespecs_u(out, uaddr, n, false);
}

/* _struct_compat_timespec_u(): an i386 program's old_timespec32s. */
void tapset_compat_timespec_u(char *out, long long uaddr, long long n)
{
	tap_timespecs_u(out, uaddr, n, true);
}

/* ---- user memory ----------------------------------------------------------- */

/*
 * Copy page by page, so that a string ending just before an unmapped
 * page is read whole.  copy_from_user_nofault() never sleeps or faults
 * a page in: a string that is not resident reads as a fault.
 */
long long tapset_user_string_copy(char *out, long long addr, long long n)
{
	unsigned long src = (unsigned long)addr;
	size_t len = clamp_t(long long, n, 0, MAXSTRINGLEN - 2);
	size_t done = 0;

	out[0] = '\0';
	if (!src)
		return -EFAULT;
	while (done < len) {
		unsigned long at = src + done;
		size_t chunk = min_t(size_t, len - done, PAGE_SIZE - offset_in_page(at));

		if (copy_from_user_nofault(out + done, (const void __user *)at, chunk)) {
			out[0] = '\0';
			return -EFAULT;
		}
		if (memchr(out + done, '\0', chunk))
			return 0;
		done += chunk;
	}
	out[len] = '\0';
	return 0;
}

void tapset_user_string_quoted(char *out, long long addr, long long inlen,
			       long long outlen)
{
	char *buf = tap_cpu_scratch();
	size_t len;

	if (tapset_user_string_copy(buf, addr, inlen)) {
		snprintf(out, MAXSTRINGLEN, "0x%llx", addr);
		return;
	}
	tap_string_quoted(out, MAXSTRINGLEN, buf);
	len = strlen(out);
	/* room for the quotes; a longer string ends in "..." */
	if (outlen >= 4 && len > (size_t)outlen - 2)
		strscpy(out + outlen - 4, "\"...", MAXSTRINGLEN - (outlen - 4));
}

/* One byte as SystemTap's string_quoted() escapes it; returns its length. */
size_t tap_escape(char *dst, unsigned char ch)
{
	static const char esc[] = "\a\b\t\n\v\f\r";
	static const char letters[] = "abtnvfr";
	const char *e = ch ? strchr(esc, ch) : NULL;

	if (e) {
		dst[0] = '\\';
		dst[1] = letters[e - esc];
		return 2;
	}
	if (ch == '"' || ch == '\\') {
		dst[0] = '\\';
		dst[1] = ch;
		return 2;
	}
	if (ch < 32 || ch >= 127) {
		snprintf(dst, 5, "\\%03o", ch);
		return 4;
	}
	dst[0] = ch;
	return 1;
}

/*
 * user_buffer_quoted(): kernel_buffer_quoted()'s reading and escaping
 * (tapset_buffer_quoted: at most @outlen characters, `"...` included,
 * so a cut string keeps @outlen - 5 of them, as SystemTap's
 * _stp_text_str() cuts), else the address in hex.
 */
void tapset_user_buffer_quoted(char *out, long long addr, long long inlen,
			       long long outlen)
{
	if (tapset_buffer_quoted(out, addr, inlen, outlen, 1) && outlen > 0)
		snprintf(out, min_t(long long, outlen, MAXSTRINGLEN), "0x%lx",
			 (unsigned long)addr);
}

long long tapset_user_read(long long addr, long long size, long long is_signed,
			   long long *val)
{
	union { u8 b; u16 h; u32 w; u64 q; } v;
	const void __user *src = (const void __user *)(unsigned long)addr;

	if (size != 1 && size != 2 && size != 4 && size != 8)
		return -EINVAL;
	if (copy_from_user_nofault(&v, src, size)) {
		*val = 0;
		return -EFAULT;
	}
	/* each arm cast on its own: "c ? (s32)w : w" would be unsigned */
	switch (size) {
	case 1: *val = is_signed ? (long long)(s8)v.b : (long long)v.b; break;
	case 2: *val = is_signed ? (long long)(s16)v.h : (long long)v.h; break;
	case 4: *val = is_signed ? (long long)(s32)v.w : (long long)v.w; break;
	default: *val = (s64)v.q; break;
	}
	return 0;
}
