// SPDX-License-Identifier: GPL-2.0
/*
 * syscall_name() and syscall_num(), SystemTap's syscall_table tapset: the
 * kernel's names of system call numbers and back, from the table of the
 * current task's ABI (i386's for a 32-bit task on x86-64, whose numbers
 * differ).  The tables are generated from the UAPI headers
 * (scripts/gen-sysnum).
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/thread_info.h>
#include <linux/compat.h>
#include "tap_internal.h"
#include "tapset_sysnum_table.h"

/* A 32-bit task: inside an i386 system call, or one exec'd as i386. */
static bool tap_compat_task(void)
{
#ifdef CONFIG_COMPAT
	return in_compat_syscall() || test_thread_flag(TIF_ADDR32);
#else
	return false;
#endif
}

void tapset_syscall_name(char *out, long long nr)
{
	const char *const *names = tap_sysnum64_names;
	size_t count = ARRAY_SIZE(tap_sysnum64_names);

	if (tap_compat_task()) {
		names = tap_sysnum32_names;
		count = ARRAY_SIZE(tap_sysnum32_names);
	}
	/* SystemTap's is an array lookup: "" for a number it lacks */
	if (nr >= 0 && nr < (long long)count && names[nr])
		strscpy(out, names[nr], MAXSTRINGLEN);
	else
		out[0] = '\0';
}

static long long sysnum_find(const struct tap_sysnum *t, size_t count,
			     const char *name)
{
	size_t lo = 0, hi = count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(name, t[mid].name);

		if (cmp == 0)
			return t[mid].nr;
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;	/* as SystemTap's: 0 is a valid number */
}

long long tapset_syscall_num(const char *name)
{
	if (tap_compat_task())
		return sysnum_find(tap_sysnum32_numbers,
				   ARRAY_SIZE(tap_sysnum32_numbers), name);
	return sysnum_find(tap_sysnum64_numbers,
			   ARRAY_SIZE(tap_sysnum64_numbers), name);
}
