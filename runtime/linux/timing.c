// SPDX-License-Identifier: GPL-2.0
/*
 * -t (tap_timing): the cycles each probe hit takes, collected per CPU and
 * per probe in runtime/core statistics, and SystemTap's report at the end
 * of the session, on the script's output after the end probes:
 *
 *	----- probe hit report: 
 *	PP, (LOC), hits: N, cycles: Amin/Bavg/Cmax, variance: V, from: D, index: I
 *	----- refresh report:
 *
 * with one line per probe that was hit (in table order), then the lock
 * contention lines of locks.c.
 */
#include <linux/kernel.h>
#include <linux/vmalloc.h>
#include <linux/timex.h>
#include <linux/slab.h>
#include "tap_internal.h"

static const struct tap_hist tap_timing_hist;	/* no histogram, shift 0 */

static struct tap_stat *tap_timing_stat(struct tap_stat *base, unsigned int i)
{
	return (struct tap_stat *)((char *)base +
				   i * tap_stat_size(&tap_timing_hist));
}

int tap_timing_init(struct tap_cpu *pc)
{
	if (!tap_timing)
		return 0;
	pc->timing = vzalloc(tap_stat_size(&tap_timing_hist) *
			     (tap_nprobes ? tap_nprobes : 1));
	return pc->timing ? 0 : -ENOMEM;
}

void tap_timing_free(struct tap_cpu *pc)
{
	vfree(pc->timing);
	pc->timing = NULL;
}

u64 tap_timing_start(void)
{
	return tap_timing ? (u64)get_cycles() : 0;
}

/*
 * The hit's cycles on 32 bits, as SystemTap counts them: the difference
 * of the truncated counters, wrapping around.
 */
void tap_timing_add(struct tap_cpu *pc, const struct tap_probe *p, u64 start)
{
	s32 elapsed;

	if (!tap_timing)
		return;
	elapsed = (s32)((u32)get_cycles() - (u32)start);
	tap_stat_add(&tap_timing_hist,
		     tap_timing_stat(pc->timing, p - tap_probes), elapsed);
}

static void tap_timing_line(struct tap_cpu *const *cpus, unsigned int i,
			    const struct tap_stat **parts,
			    struct tap_stat *agg)
{
	const struct tap_probe *p = &tap_probes[i];
	unsigned int cpu;
	s64 var = 0;
	int n = 0;

	for_each_possible_cpu(cpu)
		parts[n++] = tap_timing_stat(cpus[cpu]->timing, i);
	tap_stat_aggregate(&tap_timing_hist, agg, parts, n);
	if (!agg->count)
		return;
	tap_stat_variance(&tap_timing_hist, agg, &var);
	tap_outmsg("%s, (%s), hits: %lld, cycles: %lldmin/%lldavg/%lldmax, variance: %lld, from: %s, index: %u\n",
		   p->pp ? p->pp : "", p->loc ? p->loc : "",
		   (long long)agg->count, (long long)agg->min,
		   (long long)tap_div64(agg->sum, agg->count),
		   (long long)agg->max, (long long)var,
		   p->derivation ? p->derivation : (p->pp ? p->pp : ""), i);
}

/* Called once the end (or error) probes have run. */
void tap_timing_report(struct tap_cpu *const *cpus)
{
	const struct tap_stat **parts;
	struct tap_stat *agg;
	unsigned int i;

	if (!tap_timing)
		return;
	parts = kcalloc(nr_cpu_ids, sizeof(*parts), GFP_KERNEL);
	agg = kzalloc(tap_stat_size(&tap_timing_hist), GFP_KERNEL);
	if (parts && agg) {
		tap_outmsg("----- probe hit report: \n");
		for (i = 0; i < tap_nprobes; i++)
			tap_timing_line(cpus, i, parts, agg);
		tap_outmsg("----- refresh report:\n");
	} else {
		tap_errmsg("WARNING: no memory for the probe hit report\n");
	}
	kfree(agg);
	kfree(parts);
	tap_locks_report();
}
