// SPDX-License-Identifier: GPL-2.0
/*
 * TAP_PROBE_PERF: timer.profile and perf.type(T).config(C) probes, one
 * kernel perf event per probe and online CPU, whose overflow handler runs
 * the probe with the interrupted registers.
 *
 * Fields: .u.perf (type, config, the sample period or, with
 * TAP_PERF_FREQ, a frequency in Hz), .flags TAP_PERF_PROFILE for
 * timer.profile: a software cpu-clock event firing every NSEC_PER_SEC /
 * HZ ns, i.e. on each tick, on every CPU (tapc_families.h).
 *
 * CPUs that come online after the module loaded get no events (CPU
 * hotplug is not followed).  Probes with TAP_PERF_TASK count in the tasks
 * of a program instead (perf_task.c).  A .counter("NAME") probe (.arg[0]
 * its number, period 0) only counts: @perf("NAME") reads it
 * (tap_perf_read).
 */
#include <linux/perf_event.h>
#include <linux/cpumask.h>
#include <linux/cpu.h>
#include <linux/slab.h>
#include <linux/rcupdate.h>
#include <linux/ptrace.h>
#include "tap_internal.h"
#include "tap_perf.h"

static struct tap_perf_probe *tap_perf;
static unsigned int tap_nperf;

void tap_perf_overflow(struct perf_event *event, struct perf_sample_data *data,
		       struct pt_regs *regs)
{
	const struct tap_probe *p = event->overflow_handler_context;

	tap_run_event(p, regs, regs && user_mode(regs), NULL);
}

void tap_perf_attr(const struct tap_probe *p, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	if (p->flags & TAP_PERF_PROFILE) {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
		a->sample_period = NSEC_PER_SEC / HZ;
		return;
	}
	a->type = p->u.perf.type;
	a->config = p->u.perf.config;
	if (p->flags & TAP_PERF_FREQ) {
		a->freq = 1;
		a->sample_freq = p->u.perf.period;
	} else {
		a->sample_period = p->u.perf.period;
	}
}

static void tap_perf_release(struct tap_perf_probe *tp)
{
	unsigned int cpu;

	if (!tp->events)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (tp->events[cpu])
			perf_event_release_kernel(tp->events[cpu]);
	kfree(tp->events);
	tp->events = NULL;
}

/* The events of @tp on every online CPU, or a negative errno. */
static int tap_perf_create(struct tap_perf_probe *tp)
{
	struct perf_event_attr attr;
	unsigned int cpu;
	int ret = 0;

	tp->events = kcalloc(nr_cpu_ids, sizeof(*tp->events), GFP_KERNEL);
	if (!tp->events)
		return -ENOMEM;
	tap_perf_attr(tp->probe, &attr);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct perf_event *e;

		/* a counter (period 0) has no overflow to handle */
		e = perf_event_create_kernel_counter(&attr, cpu, NULL,
						     attr.sample_period || attr.freq ?
						     tap_perf_overflow : NULL,
						     (void *)tp->probe);
		if (IS_ERR(e)) {
			ret = PTR_ERR(e);
			break;
		}
		tp->events[cpu] = e;
	}
	cpus_read_unlock();
	return ret;
}

static void tap_perf_stop(void)
{
	unsigned int i;

	tap_perf_task_stop();
	for (i = 0; i < tap_nperf; i++)
		tap_perf_release(&tap_perf[i]);
	/*
	 * Overflow handlers run with interrupts or preemption off (timer
	 * interrupt, NMI, or a software event's caller): once the events
	 * are gone, a grace period lets the last of them finish.
	 */
	synchronize_rcu();
	kfree(tap_perf);
	tap_perf = NULL;
	tap_nperf = 0;
}

/*
 * An event the kernel cannot create (a hardware event without a PMU, as
 * in a VM) fails the session with SystemTap's message.  The module stays
 * loaded so that the message reaches the user; the error is counted (the
 * run fails) and exit is requested, so the begin probes do not run.
 * (The end probes still do: SystemTap skips them, but control.c offers
 * families no way to mark the session failed.)
 */
void tap_perf_fail(const struct tap_probe *p, int ret)
{
	tap_errmsg("ERROR: probe %s registration error [man warning::pass5] (rc %d)\n",
		   p->pp, ret);
	atomic_inc(&tap_error_count);
	tap_request_exit();
}

static int tap_perf_init(void)
{
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < tap_nprobes; i++)
		n += tap_probes[i].kind == TAP_PROBE_PERF;
	if (!n)
		return 0;
	tap_perf = kcalloc(n, sizeof(*tap_perf), GFP_KERNEL);
	if (!tap_perf)
		return -ENOMEM;
	for (i = 0; i < tap_nprobes; i++) {
		struct tap_perf_probe *tp;

		if (tap_probes[i].kind != TAP_PROBE_PERF)
			continue;
		tp = &tap_perf[tap_nperf++];
		tp->probe = &tap_probes[i];
		if (tp->probe->flags & TAP_PERF_TASK)
			continue;
		ret = tap_perf_create(tp);
		if (ret == -ENOMEM) {
			tap_perf_stop();
			return ret;
		}
		if (ret) {
			tap_perf_stop();
			tap_perf_fail(&tap_probes[i], ret);
			return 0;
		}
	}
	/* reports its own failures but for -ENOMEM */
	ret = tap_perf_task_init(tap_perf, tap_nperf);
	if (ret)
		tap_perf_stop();
	return ret == -ENOMEM ? ret : 0;
}

u64 tap_perf_value(struct perf_event *event)
{
	/* as perf_event_read_local(): an event active here is brought up
	 * to date by its PMU first */
	if (event->state == PERF_EVENT_STATE_ACTIVE &&
	    event->oncpu == smp_processor_id())
		event->pmu->read(event);
	return local64_read(&event->count) + atomic64_read(&event->child_count);
}

/*
 * @perf("NAME"): the counter numbered @id (.arg[0]) in the current task
 * (TAP_PERF_TASK) or on this CPU; 0 where it does not count.  In a
 * probe handler: interrupts are off.
 */
long long tap_perf_read(struct tap_context *c, int id)
{
	unsigned int i, cpu = smp_processor_id();

	for (i = 0; i < tap_nperf; i++) {
		struct tap_perf_probe *tp = &tap_perf[i];

		if (tp->probe->arg[0] != id)
			continue;
		if (tp->probe->flags & TAP_PERF_TASK)
			return tap_perf_task_read(tp);
		if (tp->events && tp->events[cpu])
			return tap_perf_value(tp->events[cpu]);
		return 0;
	}
	return 0;
}

const struct tap_family tap_family_perf = {
	.name = "perf",
	.init = tap_perf_init,
	.stop = tap_perf_stop,
};
