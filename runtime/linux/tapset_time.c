// SPDX-License-Identifier: GPL-2.0
/*
 * The timestamp and ctime tapsets' kernel side: clocks, and ctime()'s
 * result in a MAXSTRINGLEN buffer.
 */
#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/sched/clock.h>
#include <linux/timekeeping.h>
#include <linux/timex.h>
#include "tap_internal.h"
#include "tapset_ctime.h"

long long tapset_gettimeofday_ns(void)
{
	return ktime_get_real_ns();
}

long long tapset_local_clock_ns(void)
{
	return local_clock();
}

long long tapset_cpu_clock_ns(struct tap_context *c, long long cpu)
{
	/* an offline CPU's clock is not kept up to date: SystemTap refuses it */
	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_online(cpu)) {
		tap_errorf(c, "cpu %lld is not online", cpu);
		return 0;
	}
	return cpu_clock(cpu);
}

long long tapset_get_cycles(void)
{
	return get_cycles();
}

long long tapset_jiffies(void)
{
	return jiffies;
}

long long tapset_hz(void)
{
	return HZ;
}

const char *tapset_ctime(char *out, long long secs)
{
	return tap_ctime(out, MAXSTRINGLEN, secs);
}
