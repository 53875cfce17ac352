// SPDX-License-Identifier: GPL-2.0
/*
 * The signal tapset's strings (signal_str(), sa_flags_str(),
 * sigset_mask_str()) in SystemTap's formats, and the fields of a task's
 * signal state and of a struct k_sigaction, read without faulting.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/signal.h>
#include <linux/string.h>
#include "tap_internal.h"

/* SystemTap's names: without "SIG", 29 as "IO/POLL", RTMIN+N from 32. */
static const char *const signal_names[32] = {
	[1] = "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE",
	"KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT",
	"CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU",
	"XFSZ", "VTALRM", "PROF", "WINCH", "IO/POLL", "PWR", "SYS",
};

void tapset_signal_str(char *out, long long num)
{
	if (num >= 1 && num < 32)
		strscpy(out, signal_names[num], MAXSTRINGLEN);
	else if (num == 32)
		strscpy(out, "RTMIN", MAXSTRINGLEN);
	else if (num > 32 && num <= 64)
		snprintf(out, MAXSTRINGLEN, "RTMIN+%lld", num - 32);
	else
		out[0] = '\0';
}

/* sa_flags_str(): the x86 SA_* bits, '|'-separated, in this order. */
static const struct {
	unsigned long bit;
	const char *name;
} sa_flag_names[] = {
	{ 0x00000001UL, "NOCLDSTOP" },
	{ 0x00000002UL, "NOCLDWAIT" },
	{ 0x00000004UL, "SIGINFO" },
	{ 0x08000000UL, "ONSTACK" },
	{ 0x10000000UL, "RESTART" },
	{ 0x40000000UL, "NODEFER" },
	{ 0x80000000UL, "RESETHAND" },
	{ 0x04000000UL, "RESTORER" },
};

void tapset_sa_flags_str(char *out, long long flags)
{
	size_t i;

	out[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(sa_flag_names); i++) {
		if (!(flags & sa_flag_names[i].bit))
			continue;
		if (out[0])
			strlcat(out, "|", MAXSTRINGLEN);
		strlcat(out, sa_flag_names[i].name, MAXSTRINGLEN);
	}
}

/* sigset_mask_str(): bit N-1 is signal N, for signals 1 .. _NSIG - 1. */
void tapset_sigset_mask_str(char *out, long long mask)
{
	unsigned long long bits = mask;
	char num[8];
	int sig;

	out[0] = '\0';
	for (sig = 1; sig < _NSIG; sig++, bits >>= 1) {
		if (!(bits & 1))
			continue;
		snprintf(num, sizeof(num), out[0] ? ",%d" : "%d", sig);
		strlcat(out, num, MAXSTRINGLEN);
	}
}

static bool signal_read(struct tap_context *c, void *dst, unsigned long addr,
			size_t len)
{
	if (!tap_read_kernel(dst, addr, len))
		return true;
	tap_errorf(c, "read fault [man error::fault] at 0x%016lx (addr)", addr);
	return false;
}

long long tapset_is_sig_blocked(struct tap_context *c, long long task,
				long long sig)
{
	struct task_struct *t = (struct task_struct *)(unsigned long)task;
	sigset_t blocked;

	if (!signal_read(c, &blocked, (unsigned long)&t->blocked,
			 sizeof(blocked)))
		return 0;
	if (sig < 1 || sig > _NSIG)
		return 0;
	return sigismember(&blocked, (int)sig);
}

long long tapset_sigaction_field(struct tap_context *c, long long act,
				 long long handler)
{
	struct k_sigaction *ka = (struct k_sigaction *)(unsigned long)act;
	unsigned long v;

	if (!signal_read(c, &v, handler ? (unsigned long)&ka->sa.sa_handler :
					  (unsigned long)&ka->sa.sa_flags,
			 sizeof(v)))
		return 0;
	return (long)v;
}
