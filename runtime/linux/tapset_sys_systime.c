// SPDX-License-Identifier: GPL-2.0
/*
 * The decoders of the time, timer and signal system calls' argstr
 * (clock_*, timer_*, timerfd_*, adjtimex, times, setitimer, utime*,
 * rt_sig*, sigaltstack, epoll_ctl ...), as SystemTap's aux_syscalls
 * tapset prints them: clock ids, flag sets, struct timeval, timezone,
 * itimerspec, itimerval, timex, tms and utimbuf, signal sets, struct
 * sigaction, siginfo and stack_t.  Structures are read from the current
 * task's memory without faulting, in the x86-64 layout of its system call
 * (a 64-bit task's: SystemTap's 32-bit compat decoders are not needed).
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/eventpoll.h>	/* after fs.h and capability.h: it uses both */
#include <linux/signal.h>
#include <linux/signalfd.h>
#include <linux/string.h>
#include <linux/time.h>
#include <linux/time_types.h>
#include <linux/timerfd.h>
#include <linux/times.h>
#include <linux/timex.h>
#include <linux/uaccess.h>
#include <linux/utime.h>
#include "tap_internal.h"
#include "tap_syscall.h"

/* Read @len bytes of the current task at @uaddr: 0, or -EFAULT. */
static int st_read(void *dst, long long uaddr, size_t len)
{
	if (copy_from_user_nofault(dst, (const void __user *)(unsigned long)uaddr, len))
		return -EFAULT;
	return 0;
}

/* The address in hex, SystemTap's text for a structure it cannot read. */
static void st_addr(char *out, long long uaddr)
{
	snprintf(out, MAXSTRINGLEN, "0x%lx", (unsigned long)uaddr);
}

/* Read a structure to decode: 0, or -EFAULT with "NULL" (for 0) or its
 * address in hex already in @out. */
static int st_copy(char *out, long long uaddr, void *dst, size_t len)
{
	if (!uaddr) {
		strscpy(out, "NULL", MAXSTRINGLEN);
		return -EFAULT;
	}
	if (st_read(dst, uaddr, len)) {
		st_addr(out, uaddr);
		return -EFAULT;
	}
	return 0;
}

/* ---- clocks and timers ------------------------------------------------ */

static const struct tap_flag st_clock_ids[] = {
	TAP_FLAG(CLOCK_REALTIME), TAP_FLAG(CLOCK_MONOTONIC),
	TAP_FLAG(CLOCK_PROCESS_CPUTIME_ID), TAP_FLAG(CLOCK_THREAD_CPUTIME_ID),
	TAP_FLAG(CLOCK_MONOTONIC_RAW), TAP_FLAG(CLOCK_REALTIME_COARSE),
	TAP_FLAG(CLOCK_MONOTONIC_COARSE), TAP_FLAG(CLOCK_BOOTTIME),
	TAP_FLAG(CLOCK_REALTIME_ALARM), TAP_FLAG(CLOCK_BOOTTIME_ALARM),
	TAP_FLAG(CLOCK_SGI_CYCLE), TAP_FLAG(CLOCK_TAI), { 0, NULL }
};

/* _get_wc_str(): a dynamic (CPU-time or fd) clock id is negative and
 * shows as its 32-bit hex. */
void tapset_st_clockid_str(char *out, long long wc)
{
	out[0] = '\0';
	tap_flag_lookup(st_clock_ids, (unsigned int)wc, out);
}

static const struct tap_flag st_nanosleep_flags[] = {
	TAP_FLAG(TIMER_ABSTIME), { 0, NULL }
};

/* _stp_clock_nanosleep_flags_str(): one value, not a set. */
void tapset_st_nanosleep_flags_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_lookup(st_nanosleep_flags, (unsigned int)flags, out);
}

static const struct tap_flag st_timerfd_flags[] = {
	TAP_FLAG(TFD_TIMER_ABSTIME), TAP_FLAG(TFD_TIMER_CANCEL_ON_SET),
	TAP_FLAG(TFD_CLOEXEC), TAP_FLAG(TFD_NONBLOCK), { 0, NULL }
};

void tapset_st_timerfd_flags_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(st_timerfd_flags, (unsigned int)flags, out);
}

static const struct tap_flag st_itimer_which[] = {
	TAP_FLAG(ITIMER_REAL), TAP_FLAG(ITIMER_VIRTUAL), TAP_FLAG(ITIMER_PROF),
	{ 0, NULL }
};

void tapset_st_itimer_which_str(char *out, long long which)
{
	out[0] = '\0';
	tap_flag_lookup(st_itimer_which, (unsigned int)which, out);
}

/* _struct_timeval_u(): "[SEC.USEC]" for each of @n (1 or 2) timevals. */
/* "[SEC.USEC]" for each of @n (1 or 2) timevals. */
static void st_timevals_str(char *out, const long *sec, const long *usec, long long n)
{
	if (n == 2)
		snprintf(out, MAXSTRINGLEN, "[%ld.%06ld][%ld.%.06ld]",
			 sec[0], usec[0], sec[1], usec[1]);
	else
		snprintf(out, MAXSTRINGLEN, "[%ld.%06ld]", sec[0], usec[0]);
}

/* _struct_timeval_u(): "[SEC.USEC]" for each of @n (1 or 2) timevals. */
/* @n (1 or 2) timevals at @uaddr, native or (@compat) a 32-bit program's. */
static void st_timevals_u(char *out, long long uaddr, long long n, bool compat)
{
	struct __kernel_old_timeval tv[2];
	struct st_timeval32 { s32 tv_sec, tv_usec; } tv32[2];
	long sec[2], usec[2];
	int i;

	if (n < 1 || n > 2)
		uaddr = 0;
	if (st_copy(out, uaddr, compat ? (void *)tv32 : (void *)tv,
		    n * (compat ? sizeof(tv32[0]) : sizeof(tv[0]))))
		return;
	for (i = 0; i < n; i++) {
		sec[i] = compat ? tv32[i].tv_sec : tv[i].tv_sec;
		usec[i] = compat ? tv32[i].tv_usec : tv[i].tv_usec;
	}
	st_timevals_str(out, sec, usec, n);
}

/* _struct_timeval_u(): "[SEC.USEC]" for each of @n (1 or 2) timevals. */
void tapset_st_timeval_u(char *out, long long uaddr, long long n)
{
	st_timevals_u(out, uaddr, n, false);
}

void tapset_st_timezone_u(char *out, long long uaddr)
{
	struct timezone tz;

	if (!uaddr)
		strscpy(out, "NULL", MAXSTRINGLEN);
	else if (st_read(&tz, uaddr, sizeof(tz)))
		st_addr(out, uaddr);
	else
		snprintf(out, MAXSTRINGLEN, "[%d, %d]", tz.tz_minuteswest,
			 tz.tz_dsttime);
}

/* _struct_itimerspec_u(): "[INTERVAL,VALUE]", each "SEC.NSEC" with the
 * nanoseconds padded to six digits only, as SystemTap prints them. */
/* An interval and a value as "[SEC.FRAC,SEC.FRAC]", the fraction padded to
 * six digits only (nanoseconds too), as SystemTap prints them. */
static void st_itimer_str(char *out, int isec, int ifrac, int vsec, int vfrac)
{
	snprintf(out, MAXSTRINGLEN, "[%d.%06d,%d.%06d]", isec, ifrac, vsec, vfrac);
}

/* _struct_itimerspec_u(): "[INTERVAL,VALUE]". */
void tapset_st_itimerspec_u(char *out, long long uaddr)
{
	struct __kernel_itimerspec its;

	if (!uaddr)
		strscpy(out, "NULL", MAXSTRINGLEN);
	else if (st_read(&its, uaddr, sizeof(its)))
		st_addr(out, uaddr);
	else
		st_itimer_str(out, its.it_interval.tv_sec, its.it_interval.tv_nsec,
			      its.it_value.tv_sec, its.it_value.tv_nsec);
}

void tapset_st_itimerval_u(char *out, long long uaddr)
{
	struct __kernel_old_itimerval itv;

	if (!uaddr)
		strscpy(out, "NULL", MAXSTRINGLEN);
	else if (st_read(&itv, uaddr, sizeof(itv)))
		st_addr(out, uaddr);
	else
		st_itimer_str(out, itv.it_interval.tv_sec, itv.it_interval.tv_usec,
			      itv.it_value.tv_sec, itv.it_value.tv_usec);
}

static const struct tap_flag st_adjtimex_modes[] = {
	TAP_FLAG(ADJ_OFFSET), TAP_FLAG(ADJ_FREQUENCY), TAP_FLAG(ADJ_MAXERROR),
	TAP_FLAG(ADJ_ESTERROR), TAP_FLAG(ADJ_STATUS), TAP_FLAG(ADJ_TIMECONST),
	TAP_FLAG(ADJ_TICK), TAP_FLAG(ADJ_OFFSET_SINGLESHOT), { 0, NULL }
};

/* _struct_timex_u(): the modes, then the fields a caller sets; the
 * numbers unsigned but for the status, as SystemTap prints them. */
/* The fields of a timex a caller sets, as SystemTap prints them. */
struct st_timex_fields {
	unsigned int modes;
	unsigned long long constant, esterror, freq, maxerror, offset, precision;
	int status;
	unsigned long long tick, tolerance;
};

static void st_timex_str(char *out, const struct st_timex_fields *f)
{
	size_t len;

	strscpy(out, "{", MAXSTRINGLEN);
	tap_flag_or(st_adjtimex_modes, f->modes, out);
	len = strlen(out);
	snprintf(out + len, MAXSTRINGLEN - len,
		 ", constant=%llu, esterror=%llu, freq=%llu, maxerror=%llu, offset=%llu, precision=%llu, status=%d, tick=%llu, tolerance=%llu}",
		 f->constant, f->esterror, f->freq, f->maxerror, f->offset,
		 f->precision, f->status, f->tick, f->tolerance);
}

/* _struct_timex_u(): the modes, then the fields a caller sets; the
 * numbers unsigned but for the status, as SystemTap prints them. */
void tapset_st_timex_u(char *out, long long uaddr)
{
	struct __kernel_timex tx;
	struct st_timex_fields f;

	if (st_copy(out, uaddr, &tx, sizeof(tx)))
		return;
	f = (struct st_timex_fields) {
		.modes = tx.modes, .constant = (unsigned long)tx.constant,
		.esterror = (unsigned long)tx.esterror, .freq = (unsigned long)tx.freq,
		.maxerror = (unsigned long)tx.maxerror, .offset = (unsigned long)tx.offset,
		.precision = (unsigned long)tx.precision, .status = tx.status,
		.tick = (unsigned long)tx.tick, .tolerance = (unsigned long)tx.tolerance,
	};
	st_timex_str(out, &f);
}

/* TIME_BAD is TIME_ERROR's other name: the first wins. */
static const struct tap_flag st_clock_states[] = {
	TAP_FLAG(TIME_OK), TAP_FLAG(TIME_INS), TAP_FLAG(TIME_DEL),
	TAP_FLAG(TIME_OOP), TAP_FLAG(TIME_WAIT), TAP_FLAG(TIME_ERROR),
	{ 0, NULL }
};

/* _adjtimex_return_str(): "5 (TIME_ERROR)"; an error or an unknown state
 * shows its number in the parentheses too ("-1 (-1)"). */
void tapset_st_adjtimex_return_str(char *out, long long ret)
{
	int state = (int)ret;
	const struct tap_flag *f;

	for (f = st_clock_states; f->name; f++)
		if (f->val == (unsigned long)state) {
			snprintf(out, MAXSTRINGLEN, "%d (%s)", state, f->name);
			return;
		}
	snprintf(out, MAXSTRINGLEN, "%d (%d)", state, state);
}

static void st_tms_str(char *out, unsigned long utime, unsigned long stime,
		       unsigned long cutime, unsigned long cstime)
{
	snprintf(out, MAXSTRINGLEN,
		 "{tms_utime=%lu, tms_stime=%lu, tms_cutime=%lu, tms_cstime=%lu}",
		 utime, stime, cutime, cstime);
}

void tapset_st_tms_u(char *out, long long uaddr)
{
	struct tms tm;

	if (!uaddr)
		strscpy(out, "NULL", MAXSTRINGLEN);
	else if (st_read(&tm, uaddr, sizeof(tm)))
		st_addr(out, uaddr);
	else
		st_tms_str(out, tm.tms_utime, tm.tms_stime, tm.tms_cutime, tm.tms_cstime);
}

/* _struct_utimbuf_actime() (@modtime 0) and _modtime() (1): 0 when the
 * buffer is NULL or unreadable. */
long long tapset_st_utimbuf_field(long long uaddr, long long modtime)
{
	struct utimbuf ub;

	if (!uaddr || st_read(&ub, uaddr, sizeof(ub)))
		return 0;
	return modtime ? ub.modtime : ub.actime;
}

/* ---- the same in a 32-bit (compat) task's layout ------------------------ */

/* The structures as an i386 program lays them out, 32-bit fields
 * (linux/time32.h's old_*32), printed as the native ones are: here
 * old_utimbuf32 and the start of old_timex32; the others are local to
 * their decoders. */
struct st_utimbuf32 {
	s32 actime;
	s32 modtime;
};

struct st_timex32 {
	u32 modes;
	s32 offset, freq, maxerror, esterror;
	s32 status;
	s32 constant, precision, tolerance;
	s32 time_sec, time_usec;
	s32 tick;
};

/* _struct_compat_timeval_u(): as _struct_timeval_u(). */
void tapset_st_compat_timeval_u(char *out, long long uaddr, long long n)
{
	st_timevals_u(out, uaddr, n, true);
}

void tapset_st_compat_itimerspec_u(char *out, long long uaddr)
{
	struct { s32 isec, insec, vsec, vnsec; } its;

	if (!st_copy(out, uaddr, &its, sizeof(its)))
		st_itimer_str(out, its.isec, its.insec, its.vsec, its.vnsec);
}

void tapset_st_compat_itimerval_u(char *out, long long uaddr)
{
	struct { s32 isec, iusec, vsec, vusec; } itv;

	if (!st_copy(out, uaddr, &itv, sizeof(itv)))
		st_itimer_str(out, itv.isec, itv.iusec, itv.vsec, itv.vusec);
}

/* _struct_compat_timex_u(): the 32-bit fields unsigned, as SystemTap's. */
/* _struct_compat_timex_u(): the 32-bit fields unsigned, as SystemTap's. */
void tapset_st_compat_timex_u(char *out, long long uaddr)
{
	struct st_timex32 tx;
	struct st_timex_fields f;

	if (st_copy(out, uaddr, &tx, sizeof(tx)))
		return;
	f = (struct st_timex_fields) {
		.modes = tx.modes, .constant = (u32)tx.constant,
		.esterror = (u32)tx.esterror, .freq = (u32)tx.freq,
		.maxerror = (u32)tx.maxerror, .offset = (u32)tx.offset,
		.precision = (u32)tx.precision, .status = tx.status,
		.tick = (u32)tx.tick, .tolerance = (u32)tx.tolerance,
	};
	st_timex_str(out, &f);
}

void tapset_st_compat_tms_u(char *out, long long uaddr)
{
	struct { u32 utime, stime, cutime, cstime; } tm;

	if (!st_copy(out, uaddr, &tm, sizeof(tm)))
		st_tms_str(out, tm.utime, tm.stime, tm.cutime, tm.cstime);
}

long long tapset_st_compat_utimbuf_field(long long uaddr, long long modtime)
{
	struct st_utimbuf32 ub;

	if (!uaddr || st_read(&ub, uaddr, sizeof(ub)))
		return 0;
	return modtime ? ub.modtime : ub.actime;
}

/* ---- signals ------------------------------------------------------------ */

/* SystemTap's list and order of signal names (SIGPIPE before SIGUSR2, no
 * SIGSTKFLT, no real-time signals), used for sets as well as values. */
static const struct tap_flag st_signals[] = {
	{ 0, "SIG_0" }, TAP_FLAG(SIGHUP), TAP_FLAG(SIGINT), TAP_FLAG(SIGQUIT),
	TAP_FLAG(SIGILL), TAP_FLAG(SIGTRAP), TAP_FLAG(SIGABRT), TAP_FLAG(SIGBUS),
	TAP_FLAG(SIGFPE), TAP_FLAG(SIGKILL), TAP_FLAG(SIGUSR1), TAP_FLAG(SIGSEGV),
	TAP_FLAG(SIGPIPE), TAP_FLAG(SIGUSR2), TAP_FLAG(SIGALRM), TAP_FLAG(SIGTERM),
	TAP_FLAG(SIGCHLD), TAP_FLAG(SIGCONT), TAP_FLAG(SIGSTOP), TAP_FLAG(SIGTSTP),
	TAP_FLAG(SIGTTIN), TAP_FLAG(SIGTTOU), TAP_FLAG(SIGURG), TAP_FLAG(SIGXCPU),
	TAP_FLAG(SIGXFSZ), TAP_FLAG(SIGVTALRM), TAP_FLAG(SIGPROF),
	TAP_FLAG(SIGWINCH), { SIGIO, "SIGIO/SIGPOLL" }, TAP_FLAG(SIGPWR),
	TAP_FLAG(SIGSYS), { SIGTRAP | 0x80, "TRACESYSGOOD" }, { 0, NULL }
};

/* "[SIGINT|SIGTERM]", "[EMPTY]" for none, appended to @out (@set is not
 * const: the kernel's sigismember() takes a plain pointer). */
static void st_sigset_str(sigset_t *set, char *out)
{
	const struct tap_flag *f;
	bool some = false;

	for (f = st_signals; f->name; f++) {
		if (f->val == 0 || f->val > _NSIG || !sigismember(set, f->val))
			continue;
		strlcat(out, some ? "|" : "[", MAXSTRINGLEN);
		strlcat(out, f->name, MAXSTRINGLEN);
		some = true;
	}
	strlcat(out, some ? "]" : "[EMPTY]", MAXSTRINGLEN);
}

void tapset_st_sigset_u(char *out, long long uaddr)
{
	sigset_t set;

	out[0] = '\0';
	if (!uaddr)
		strscpy(out, "NULL", MAXSTRINGLEN);
	else if (st_read(&set, uaddr, sizeof(set)))
		st_addr(out, uaddr);
	else
		st_sigset_str(&set, out);
}

/* The signals of a mask given as a number (the old one-word sigset of
 * sgetmask/ssetmask and sigsuspend): bit N-1 is signal N. */
void tapset_st_sigmask_str(char *out, long long mask)
{
	sigset_t set;

	out[0] = '\0';
	siginitset(&set, (unsigned long)mask);
	st_sigset_str(&set, out);
}

static const struct tap_flag st_sigprocmask_how[] = {
	TAP_FLAG(SIG_BLOCK), TAP_FLAG(SIG_UNBLOCK), TAP_FLAG(SIG_SETMASK),
	{ 0, NULL }
};

/* _sigprocmask_how_str(): an unknown value in hex, all 64 bits. */
void tapset_st_sigprocmask_how_str(char *out, long long how)
{
	out[0] = '\0';
	tap_flag_lookup(st_sigprocmask_how, (unsigned long)how, out);
}

static const struct tap_flag st_sa_handlers[] = {
	{ 0, "SIG_DFL" }, { 1, "SIG_IGN" }, { 0, NULL }
};

/* _sighandler_str(): SIG_DFL, SIG_IGN, else the address in hex. */
void tapset_st_sighandler_str(char *out, long long handler)
{
	out[0] = '\0';
	tap_flag_lookup(st_sa_handlers, (unsigned long)handler, out);
}

static const struct tap_flag st_sa_flags[] = {
	TAP_FLAG(SA_NOCLDSTOP), TAP_FLAG(SA_NOCLDWAIT), TAP_FLAG(SA_RESETHAND),
	TAP_FLAG(SA_ONSTACK), TAP_FLAG(SA_RESTART), TAP_FLAG(SA_NODEFER),
	TAP_FLAG(SA_SIGINFO), TAP_FLAG(SA_RESTORER), { 0, NULL }
};

/* _struct_sigaction_u(): the handler; for a function also the flags, the
 * restorer and the blocked set: "0x401136, SA_RESTORER, 0x7f.., [SIGINT]". */
/* A sigaction as SystemTap prints it: the handler; for a function also
 * the flags, the restorer and the blocked set. */
static void st_sigaction_str(char *out, unsigned long handler, unsigned long flags,
			     unsigned long restorer, sigset_t *mask)
{
	size_t len;

	out[0] = '\0';
	tap_flag_lookup(st_sa_handlers, handler, out);
	if (handler == 0 || handler == 1)
		return;
	strlcat(out, ", ", MAXSTRINGLEN);
	tap_flag_or(st_sa_flags, flags, out);
	len = strlen(out);
	snprintf(out + len, MAXSTRINGLEN - len, ", 0x%lx, ", restorer);
	st_sigset_str(mask, out);
}

void tapset_st_sigaction_u(char *out, long long uaddr)
{
	struct sigaction act;

	if (st_copy(out, uaddr, &act, sizeof(act)))
		return;
	st_sigaction_str(out, (unsigned long)act.sa_handler, act.sa_flags,
			 (unsigned long)act.sa_restorer, &act.sa_mask);
}

/* An i386 program's rt_sigaction (compat_sigaction: the mask is two
 * 32-bit words, the same bytes as the native one-word mask) and old
 * sigaction (a one-word mask between handler and flags). */
struct st_sigaction32 {
	u32 handler;
	u32 flags;
	u32 restorer;
	u32 mask[2];
};

struct st_old_sigaction32 {
	u32 handler;
	u32 mask;
	u32 flags;
	u32 restorer;
};

/* _struct_sigaction32_u(): as _struct_sigaction_u(). */
void tapset_st_sigaction32_u(char *out, long long uaddr)
{
	struct st_sigaction32 act;
	sigset_t mask;

	if (st_copy(out, uaddr, &act, sizeof(act)))
		return;
	sigemptyset(&mask);
	mask.sig[0] = act.mask[0] | ((unsigned long)act.mask[1] << 32);
	st_sigaction_str(out, act.handler, act.flags, act.restorer, &mask);
}

/* _struct_old_sigaction32_u(): sigaction's i386 predecessor. */
void tapset_st_old_sigaction32_u(char *out, long long uaddr)
{
	struct st_old_sigaction32 act;
	sigset_t mask;

	if (st_copy(out, uaddr, &act, sizeof(act)))
		return;
	siginitset(&mask, act.mask);
	st_sigaction_str(out, act.handler, act.flags, act.restorer, &mask);
}

static const struct tap_flag st_si_codes[] = {
	TAP_FLAG(SI_USER), TAP_FLAG(SI_KERNEL), TAP_FLAG(SI_QUEUE),
	TAP_FLAG(SI_TIMER), TAP_FLAG(SI_MESGQ), TAP_FLAG(SI_ASYNCIO),
	TAP_FLAG(SI_SIGIO), TAP_FLAG(SI_TKILL), TAP_FLAG(SI_DETHREAD),
	{ 0, NULL }
};

static const struct tap_flag st_sigill_codes[] = {
	TAP_FLAG(ILL_ILLOPC), TAP_FLAG(ILL_ILLOPN), TAP_FLAG(ILL_ILLADR),
	TAP_FLAG(ILL_ILLTRP), TAP_FLAG(ILL_PRVOPC), TAP_FLAG(ILL_PRVREG),
	TAP_FLAG(ILL_COPROC), TAP_FLAG(ILL_BADSTK), { 0, NULL }
};

static const struct tap_flag st_sigfpe_codes[] = {
	TAP_FLAG(FPE_INTDIV), TAP_FLAG(FPE_INTOVF), TAP_FLAG(FPE_FLTDIV),
	TAP_FLAG(FPE_FLTOVF), TAP_FLAG(FPE_FLTUND), TAP_FLAG(FPE_FLTRES),
	TAP_FLAG(FPE_FLTINV), TAP_FLAG(FPE_FLTSUB), { 0, NULL }
};

static const struct tap_flag st_sigsegv_codes[] = {
	TAP_FLAG(SEGV_MAPERR), TAP_FLAG(SEGV_ACCERR), TAP_FLAG(SEGV_BNDERR),
	{ 0, NULL }
};

static const struct tap_flag st_sigbus_codes[] = {
	TAP_FLAG(BUS_ADRALN), TAP_FLAG(BUS_ADRERR), TAP_FLAG(BUS_OBJERR),
	TAP_FLAG(BUS_MCEERR_AR), TAP_FLAG(BUS_MCEERR_AO), { 0, NULL }
};

static const struct tap_flag st_sigtrap_codes[] = {
	TAP_FLAG(TRAP_BRKPT), TAP_FLAG(TRAP_TRACE), TAP_FLAG(TRAP_BRANCH),
	TAP_FLAG(TRAP_HWBKPT), { 0, NULL }
};

static const struct tap_flag st_sigchld_codes[] = {
	TAP_FLAG(CLD_EXITED), TAP_FLAG(CLD_KILLED), TAP_FLAG(CLD_DUMPED),
	TAP_FLAG(CLD_TRAPPED), TAP_FLAG(CLD_STOPPED), TAP_FLAG(CLD_CONTINUED),
	{ 0, NULL }
};

static const struct tap_flag st_sigpoll_codes[] = {
	TAP_FLAG(POLL_IN), TAP_FLAG(POLL_OUT), TAP_FLAG(POLL_MSG),
	TAP_FLAG(POLL_ERR), TAP_FLAG(POLL_PRI), TAP_FLAG(POLL_HUP), { 0, NULL }
};

static const struct tap_flag st_sigsys_codes[] = {
	TAP_FLAG(SYS_SECCOMP), { 0, NULL }
};

static const struct tap_flag *st_signal_codes(int signo)
{
	switch (signo) {
	case SIGILL: return st_sigill_codes;
	case SIGFPE: return st_sigfpe_codes;
	case SIGSEGV: return st_sigsegv_codes;
	case SIGBUS: return st_sigbus_codes;
	case SIGTRAP: return st_sigtrap_codes;
	case SIGCHLD: return st_sigchld_codes;
	case SIGPOLL: return st_sigpoll_codes;
	case SIGSYS: return st_sigsys_codes;
	default: return NULL;
	}
}

/* ", si_pid=..." and the other fields of the kernel's sources of a signal. */
static void st_siginfo_fields(const siginfo_t *si, char *out)
{
	size_t len = strlen(out);

	if (si->si_code <= 0) {		/* sent by a process: SI_FROMUSER */
		if (si->si_code == SI_TIMER)
			snprintf(out + len, MAXSTRINGLEN - len,
				 ", si_tid=%#x, si_overrun=%d", si->si_tid,
				 si->si_overrun);
		else
			snprintf(out + len, MAXSTRINGLEN - len,
				 ", si_pid=%lu, si_uid=%lu", (unsigned long)si->si_pid,
				 (unsigned long)si->si_uid);
		return;
	}
	switch (si->si_signo) {
	case SIGCHLD:
		snprintf(out + len, MAXSTRINGLEN - len,
			 ", si_pid=%lu, si_uid=%lu, si_status=",
			 (unsigned long)si->si_pid, (unsigned long)si->si_uid);
		len = strlen(out);
		if (si->si_code == CLD_EXITED)
			snprintf(out + len, MAXSTRINGLEN - len, "%d", si->si_status);
		else
			tap_flag_lookup(st_signals, (long)si->si_status, out);
		break;
	case SIGILL:
	case SIGFPE:
	case SIGSEGV:
	case SIGBUS:
		snprintf(out + len, MAXSTRINGLEN - len, ", si_addr=%#lx",
			 (unsigned long)si->si_addr);
		break;
	case SIGPOLL:
		if (si->si_code == POLL_IN || si->si_code == POLL_OUT ||
		    si->si_code == POLL_MSG)
			snprintf(out + len, MAXSTRINGLEN - len, ", si_band=%ld",
				 (long)si->si_band);
		break;
	default:
		if (si->si_pid || si->si_uid)
			snprintf(out + len, MAXSTRINGLEN - len,
				 ", si_pid=%lu, si_uid=%lu",
				 (unsigned long)si->si_pid, (unsigned long)si->si_uid);
		break;
	}
}

/*
 * _stp_siginfo_u(): "{si_signo=SIGUSR1, si_code=SI_QUEUE, si_pid=12,
 * si_uid=0}".  A code the generic list does not name is printed in hex
 * and, as SystemTap does, followed by its name for the signal
 * ("0x1SEGV_MAPERR").
 */
/* A siginfo as SystemTap prints it: the signal, the code by name and the
 * fields of that code. */
static void st_siginfo_str(const siginfo_t *si, char *out)
{
	const struct tap_flag *codes;
	size_t len;

	strscpy(out, "{si_signo=", MAXSTRINGLEN);
	tap_flag_lookup(st_signals, (long)si->si_signo, out);
	strlcat(out, ", si_code=", MAXSTRINGLEN);
	len = strlen(out);
	tap_flag_lookup(st_si_codes, (long)si->si_code, out);
	codes = st_signal_codes(si->si_signo);
	if (out[len] == '0' && codes)
		tap_flag_lookup(codes, (long)si->si_code, out);
	st_siginfo_fields(si, out);
	strlcat(out, "}", MAXSTRINGLEN);
}

void tapset_st_siginfo_u(char *out, long long uaddr)
{
	siginfo_t si;

	if (st_copy(out, uaddr, &si, sizeof(si)))
		return;
	st_siginfo_str(&si, out);
}

static const struct tap_flag st_ss_flags[] = {
	TAP_FLAG(SS_ONSTACK), TAP_FLAG(SS_DISABLE), { 0, NULL }
};

/* _stp_sigaltstack_u(): a NULL stack shows as "0x0", as SystemTap's. */
/* A 32-bit program's siginfo: the header, then the union's 32-bit words
 * (at offset 12, where the native one is at 16), into a native siginfo
 * with the fields st_siginfo_fields() prints. */
void tapset_st_compat_siginfo_u(char *out, long long uaddr)
{
	struct { s32 signo, errno_, code; u32 w[3]; } si32;
	siginfo_t si;

	if (st_copy(out, uaddr, &si32, sizeof(si32)))
		return;
	memset(&si, 0, sizeof(si));
	si.si_signo = si32.signo;
	si.si_errno = si32.errno_;
	si.si_code = si32.code;
	if (si32.code == SI_TIMER) {
		si.si_tid = si32.w[0];
		si.si_overrun = si32.w[1];
	} else if (si32.code > 0 && (si32.signo == SIGILL || si32.signo == SIGFPE ||
				     si32.signo == SIGSEGV || si32.signo == SIGBUS)) {
		si.si_addr = (void __user *)(unsigned long)si32.w[0];
	} else if (si32.code > 0 && si32.signo == SIGPOLL) {
		si.si_band = (s32)si32.w[0];
	} else {
		si.si_pid = si32.w[0];
		si.si_uid = si32.w[1];
		if (si32.signo == SIGCHLD)
			si.si_status = si32.w[2];
	}
	st_siginfo_str(&si, out);
}

static void st_sigaltstack_str(char *out, unsigned long sp, int flags,
			       unsigned long size)
{
	size_t len;

	snprintf(out, MAXSTRINGLEN, "{ss_sp=0x%lx, ss_flags=", sp);
	tap_flag_lookup(st_ss_flags, (long)flags, out);
	len = strlen(out);
	snprintf(out + len, MAXSTRINGLEN - len, ", ss_size=%lu}", size);
}

void tapset_st_sigaltstack_u(char *out, long long uaddr)
{
	stack_t stk;

	if (!uaddr || st_read(&stk, uaddr, sizeof(stk))) {
		st_addr(out, uaddr);
		return;
	}
	st_sigaltstack_str(out, (unsigned long)stk.ss_sp, stk.ss_flags, stk.ss_size);
}

/* A 32-bit program's stack_t: {ss_sp, ss_flags, ss_size}, 32 bits each. */
void tapset_st_compat_sigaltstack_u(char *out, long long uaddr)
{
	struct { u32 ss_sp; s32 ss_flags; u32 ss_size; } stk;

	if (!uaddr || st_read(&stk, uaddr, sizeof(stk))) {
		st_addr(out, uaddr);
		return;
	}
	st_sigaltstack_str(out, stk.ss_sp, stk.ss_flags, stk.ss_size);
}

static const struct tap_flag st_signalfd4_flags[] = {
	TAP_FLAG(SFD_NONBLOCK), TAP_FLAG(SFD_CLOEXEC), { 0, NULL }
};

void tapset_st_signalfd4_flags_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(st_signalfd4_flags, (unsigned int)flags, out);
}

/* ---- epoll ---------------------------------------------------------------- */

static const struct tap_flag st_epoll_create1_flags[] = {
	TAP_FLAG(EPOLL_CLOEXEC), { 0, NULL }
};

void tapset_st_epoll_create1_flag_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(st_epoll_create1_flags, (unsigned int)flags, out);
}

static const struct tap_flag st_epoll_ops[] = {
	TAP_FLAG(EPOLL_CTL_ADD), TAP_FLAG(EPOLL_CTL_MOD), TAP_FLAG(EPOLL_CTL_DEL),
	{ 0, NULL }
};

void tapset_st_epoll_op_str(char *out, long long op)
{
	out[0] = '\0';
	tap_flag_lookup(st_epoll_ops, (unsigned int)op, out);
}
