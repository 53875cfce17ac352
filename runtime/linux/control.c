// SPDX-License-Identifier: GPL-2.0
/*
 * The module and its session: init and exit, begin/end/error probes in
 * order of sequence number, timer probes on hrtimers, the per-CPU probe
 * contexts, errors, skipped probes and exit().
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/hrtimer.h>
#include <linux/workqueue.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/cpumask.h>
#include <linux/smp.h>
#include <linux/jiffies.h>
#include <linux/random.h>
#include <linux/math64.h>
#include "tap_internal.h"

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tapc probe script");

static long tap_target_pid;
module_param_named(_tap_target, tap_target_pid, long, 0444);
MODULE_PARM_DESC(_tap_target, "target() of the script (tapc-run -c/-x)");

atomic_t tap_state = ATOMIC_INIT(TAP_LOADED);
atomic_t tap_state_gen = ATOMIC_INIT(0);
atomic_t tap_error_count = ATOMIC_INIT(0);
/* --suppress-handler-errors: the errors that were neither printed nor fatal */
atomic_t tap_suppressed_count = ATOMIC_INIT(0);
atomic_t tap_skipped_count = ATOMIC_INIT(0);

static struct tap_cpu **tap_cpus;	/* one per possible CPU */
static bool tap_session_error;		/* stopped by errors: error probes */
static bool tap_exit_requested;
static atomic_t tap_stop_queued = ATOMIC_INIT(0);

struct tap_timer {
	struct hrtimer timer;
	const struct tap_probe *probe;
	u64 period_ns;		/* the interval, converted from its unit */
	u64 spread_ns;		/* randomize: each period is +- up to this */
};

static struct tap_timer *tap_timers;
static unsigned int tap_ntimers;

long long tap_target(void)
{
	return tap_target_pid;
}

void tap_set_state(int state)
{
	atomic_set(&tap_state, state);
	smp_wmb();
	atomic_inc(&tap_state_gen);
	tap_notify();
}

/*
 * Ask for the session to end: no new hits once RUNNING is left.  Returns
 * whether this call made the request.
 */
bool tap_request_exit(void)
{
	if (READ_ONCE(tap_exit_requested))
		return false;
	WRITE_ONCE(tap_exit_requested, true);
	if (atomic_cmpxchg(&tap_state, TAP_RUNNING, TAP_EXITING) ==
	    TAP_RUNNING) {
		smp_wmb();
		atomic_inc(&tap_state_gen);
		tap_notify();
	}
	return true;
}

void tap_exit(struct tap_context *c)
{
	tap_request_exit();
}

void tap_abort(struct tap_context *c)
{
	tap_request_exit();
	c->aborted = 1;
	if (!c->last_error)
		c->last_error = "abort";
}

static void tap_fatal(void)
{
	WRITE_ONCE(tap_session_error, true);
	tap_request_exit();
}

void tap_count_skipped(void)
{
	if (atomic_inc_return(&tap_skipped_count) > tap_limits.maxskipped &&
	    !tap_limits.suppress_handler_errors) {
		if (!READ_ONCE(tap_session_error))
			tap_errmsg("ERROR: Skipped too many probes, check MAXSKIPPED or try again with tapc -t for more details.\n");
		tap_fatal();
	}
}

static void tap_report_error(struct tap_context *c)
{
	if (tap_limits.suppress_handler_errors) {
		atomic_inc(&tap_suppressed_count);
		return;
	}
	if (c->last_stmt)
		tap_errmsg("ERROR: %s near %s\n", c->last_error, c->last_stmt);
	else
		tap_errmsg("ERROR: %s\n", c->last_error);
	if (atomic_inc_return(&tap_error_count) > tap_limits.maxerrors)
		tap_fatal();
}

static void tap_init_context(struct tap_cpu *pc, const struct tap_probe *p)
{
	struct tap_context *c = &pc->ctx;

	c->probe = p;
	c->last_stmt = NULL;
	c->last_error = NULL;
	c->actionremaining = tap_limits.action_budget;
	c->aborted = 0;
	c->nesting = 0;
	c->locals = pc->locals;
	c->regmatch.valid = 0;
	c->priv = pc;
	c->regs = NULL;
	c->user_regs = 0;
	c->event = NULL;
	c->saved = NULL;
	c->returnval_set = 0;
	pc->len = 0;
}

/*
 * Run one probe hit on this CPU's context: @fn, @p's handler or its entry
 * half, with the event's registers and data.  Interrupts stay off for the
 * whole hit, so the context cannot be taken from under it; a hit that
 * finds its CPU's context busy (a probe fired inside a probe), or that
 * cannot get the locks of its globals, is skipped and counted.  With -t
 * the handler's hits are timed, lock waits included, as SystemTap times
 * them (an entry half is part of no hit of its own).  Return: whether @fn
 * ran without error.
 */
static bool tap_run_hit(const struct tap_probe *p, tap_handler_t fn, struct pt_regs *regs,
			int user_regs, const void *event, void *saved)
{
	struct tap_cpu *pc;
	unsigned long flags;
	bool skipped = false, ok = false;
	u64 start;

	local_irq_save(flags);
	pc = tap_cpus[smp_processor_id()];
	if (atomic_inc_return(&pc->busy) != 1) {
		atomic_dec(&pc->busy);
		local_irq_restore(flags);
		tap_count_skipped();
		return false;
	}
	start = tap_timing_start();
	tap_init_context(pc, p);
	pc->ctx.regs = regs;
	pc->ctx.user_regs = user_regs;
	pc->ctx.event = event;
	pc->ctx.saved = saved;
	/* a .callee probe called from elsewhere: no hit */
	if (p->callers && fn == p->handler && !tap_callers_match(&pc->ctx, p->callers)) {
		atomic_dec(&pc->busy);
		local_irq_restore(flags);
		return true;
	}
	if (tap_lock_probe(p)) {
		fn(&pc->ctx);
		tap_unlock_probe(p);
		tap_flush(pc);
		ok = !pc->ctx.last_error;
		if (pc->ctx.last_error && !pc->ctx.aborted)
			tap_report_error(&pc->ctx);
	} else {
		skipped = true;
	}
	if (fn == p->handler)
		tap_timing_add(pc, p, start);
	atomic_dec(&pc->busy);
	local_irq_restore(flags);
	if (skipped)
		tap_count_skipped();
	return ok;
}

static void tap_run_probe(const struct tap_probe *p)
{
	tap_run_hit(p, p->handler, NULL, 0, NULL, NULL);
}

void tap_run_event(const struct tap_probe *p, struct pt_regs *regs,
		   int user_regs, const void *event)
{
	if (atomic_read(&tap_state) != TAP_RUNNING)
		return;
	tap_run_hit(p, p->handler, regs, user_regs, event, NULL);
}

int tap_run_entry(const struct tap_probe *p, struct pt_regs *regs, int user_regs,
		  const void *event, void *saved)
{
	if (atomic_read(&tap_state) != TAP_RUNNING)
		return -1;
	return tap_run_hit(p, p->entry, regs, user_regs, event, saved) ? 0 : -1;
}

void tap_run_return(const struct tap_probe *p, struct pt_regs *regs, int user_regs,
		    const void *event, void *saved)
{
	if (atomic_read(&tap_state) != TAP_RUNNING)
		return;
	tap_run_hit(p, p->handler, regs, user_regs, event, saved);
}

/* Run the probes of @kind by sequence number, ties in table order. */
static void tap_run_sequence(int kind)
{
	unsigned int i;
	long long seq, next;
	bool have;

	/* n is small; a selection by increasing seq keeps table order. */
	have = false;
	seq = 0;
	for (i = 0; i < tap_nprobes; i++)
		if (tap_probes[i].kind == kind &&
		    (!have || tap_probes[i].seq < seq)) {
			seq = tap_probes[i].seq;
			have = true;
		}
	while (have) {
		have = false;
		next = 0;
		for (i = 0; i < tap_nprobes; i++) {
			const struct tap_probe *p = &tap_probes[i];

			if (p->kind != kind)
				continue;
			if (p->seq == seq) {
				/*
				 * Begin probes run only while the session is
				 * starting: a fatal error or exit() ends that.
				 */
				if (kind == TAP_PROBE_BEGIN &&
				    (READ_ONCE(tap_session_error) ||
				     READ_ONCE(tap_exit_requested)))
					return;
				tap_run_probe(p);
			} else if (p->seq > seq && (!have || p->seq < next)) {
				next = p->seq;
				have = true;
			}
		}
		seq = next;
	}
}

/*
 * The next period of a timer: its interval, or with randomize(R) the
 * interval plus a uniformly random offset in [-R, R], as SystemTap's
 * timer.*.randomize draws one for every period.
 */
static ktime_t tap_timer_period(const struct tap_timer *tt)
{
	u64 period = tt->period_ns, off;

	if (tt->spread_ns) {
		div64_u64_rem(get_random_u64(), 2 * tt->spread_ns + 1, &off);
		period = period + off - tt->spread_ns;
	}
	return ns_to_ktime(max_t(u64, period, 1));
}

static enum hrtimer_restart tap_timer_fn(struct hrtimer *t)
{
	struct tap_timer *tt = container_of(t, struct tap_timer, timer);

	if (atomic_read(&tap_state) != TAP_RUNNING)
		return HRTIMER_NORESTART;
	tap_run_probe(tt->probe);
	hrtimer_forward_now(t, tap_timer_period(tt));
	return HRTIMER_RESTART;
}

/* How many of tap_families[] have been initialised (and not stopped). */
static unsigned int tap_nfamilies;

/*
 * SystemTap's STAP_MODULE_INIT_HOOK and STAP_MODULE_EXIT_HOOK: functions a
 * guru script's embedded C names, run before the begin probes and after
 * the end probes.  The generated file defines these pointers when the
 * script does; the weak defaults say it did not.
 */
int (*const tap_script_init_hook)(void) __weak;
void (*const tap_script_exit_hook)(void) __weak;
static bool tap_exit_hook_due;

/* The init hook, if any; its failure is an error that ends the session
 * before the begin probes. */
static bool tap_run_init_hook(void)
{
	/* read from memory: the compiler would fold this file's weak NULL */
	int (*hook)(void) = READ_ONCE(tap_script_init_hook);
	int ret;

	if (!hook)
		return true;
	ret = hook();
	if (ret) {
		tap_errmsg("ERROR: Failed to run STAP_MODULE_INIT_HOOK (%d)\n", ret);
		atomic_inc(&tap_error_count);
		tap_fatal();
		return false;
	}
	tap_exit_hook_due = true;
	return true;
}

static void tap_run_exit_hook(void)
{
	void (*hook)(void) = READ_ONCE(tap_script_exit_hook);

	if (hook && tap_exit_hook_due)
		hook();
	tap_exit_hook_due = false;
}

static void tap_start_fn(struct work_struct *w)
{
	unsigned int i;

	if (!tap_run_init_hook()) {
		tap_set_state(TAP_EXITING);
		return;
	}
	tap_run_sequence(TAP_PROBE_BEGIN);
	if (READ_ONCE(tap_exit_requested)) {
		tap_set_state(TAP_EXITING);
		return;
	}
	tap_set_state(TAP_RUNNING);
	for (i = 0; i < tap_ntimers; i++)
		hrtimer_start(&tap_timers[i].timer,
			      tap_timer_period(&tap_timers[i]),
			      HRTIMER_MODE_REL);
	for (i = 0; i < tap_nfamilies; i++)
		if (tap_families[i]->start)
			tap_families[i]->start();
	tap_arming_start();
	/* an exit request that raced with the state change */
	if (READ_ONCE(tap_exit_requested) &&
	    atomic_cmpxchg(&tap_state, TAP_RUNNING, TAP_EXITING) ==
	    TAP_RUNNING) {
		smp_wmb();
		atomic_inc(&tap_state_gen);
		tap_notify();
	}
}

static DECLARE_WORK(tap_start_work, tap_start_fn);

/* Stop the first @n families, last first. */
static void tap_stop_families(unsigned int n)
{
	while (n > 0) {
		n--;
		if (tap_families[n]->stop)
			tap_families[n]->stop();
	}
	tap_nfamilies = 0;
}

static int tap_init_families(void)
{
	unsigned int n;
	int ret;

	for (n = 0; tap_families[n]; n++) {
		ret = tap_families[n]->init ? tap_families[n]->init() : 0;
		if (ret) {
			pr_err("%s: cannot register %s probes (%d)\n",
			       THIS_MODULE->name, tap_families[n]->name, ret);
			tap_stop_families(n);
			return ret;
		}
		tap_nfamilies = n + 1;
	}
	return 0;
}

static void tap_stop_fn(struct work_struct *w)
{
	bool started;
	unsigned int i;

	flush_work(&tap_start_work);
	started = atomic_read(&tap_state) != TAP_LOADED;
	tap_set_state(TAP_STOPPING);
	for (i = 0; i < tap_ntimers; i++)
		hrtimer_cancel(&tap_timers[i].timer);
	tap_arming_stop();
	tap_stop_families(tap_nfamilies);
	if (started) {
		tap_run_sequence(READ_ONCE(tap_session_error) ?
				 TAP_PROBE_ERROR : TAP_PROBE_END);
		tap_timing_report(tap_cpus);
	}
	tap_run_exit_hook();
	tap_set_state(TAP_DONE);
}

static DECLARE_WORK(tap_stop_work, tap_stop_fn);

int tap_ctl_start(void)
{
	if (atomic_cmpxchg(&tap_state, TAP_LOADED, TAP_STARTING) != TAP_LOADED)
		return -EBUSY;
	smp_wmb();
	atomic_inc(&tap_state_gen);
	tap_notify();
	schedule_work(&tap_start_work);
	return 0;
}

int tap_ctl_stop(void)
{
	if (atomic_xchg(&tap_stop_queued, 1) == 0)
		schedule_work(&tap_stop_work);
	return 0;
}

/* A timer needs a period larger than its random spread, in a known unit. */
static bool tap_bad_timer(const struct tap_probe *p)
{
	return p->interval_ns == 0 || p->randomize > p->interval_ns ||
	       (p->unit != TAP_TIMER_NS && p->unit != TAP_TIMER_JIFFIES) ||
	       (p->unit == TAP_TIMER_JIFFIES && p->interval_ns > ULONG_MAX);
}

char *tap_cpu_scratch(void)
{
	return tap_cpus[smp_processor_id()]->scratch;
}

static int tap_check_probes(void)
{
	unsigned int i;

	for (i = 0; i < tap_nprobes; i++) {
		const struct tap_probe *p = &tap_probes[i];

		if (!p->handler || p->kind < TAP_PROBE_BEGIN ||
		    p->kind > TAP_PROBE_KIND_MAX ||
		    (p->kind == TAP_PROBE_TIMER && tap_bad_timer(p)) ||
		    tap_check_locks(p)) {
			pr_err("%s: bad probe %u (%s)\n", THIS_MODULE->name, i,
			       p->pp ? p->pp : "?");
			return -EINVAL;
		}
		if (p->kind == TAP_PROBE_TIMER)
			tap_ntimers++;
	}
	return 0;
}

static void tap_free_cpus(void)
{
	unsigned int cpu;

	if (!tap_cpus)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (!tap_cpus[cpu])
			continue;
		vfree(tap_cpus[cpu]->locals);
		tap_timing_free(tap_cpus[cpu]);
		vfree(tap_cpus[cpu]);
	}
	kfree(tap_cpus);
	tap_cpus = NULL;
}

/* One CPU's state: context, print buffer, locals, -t counters. */
static int tap_alloc_cpu(unsigned int cpu)
{
	struct tap_cpu *pc = vzalloc(sizeof(*pc));

	tap_cpus[cpu] = pc;
	if (!pc)
		return -ENOMEM;
	if (tap_locals_size) {
		pc->locals = vzalloc(tap_locals_size);
		if (!pc->locals)
			return -ENOMEM;
	}
	tap_mem_count(TAP_MEM_CTX, sizeof(*pc) + tap_locals_size);
	return tap_timing_init(pc);
}

static int tap_alloc_cpus(void)
{
	unsigned int cpu;
	int ret;

	tap_cpus = kcalloc(nr_cpu_ids, sizeof(*tap_cpus), GFP_KERNEL);
	if (!tap_cpus)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		ret = tap_alloc_cpu(cpu);
		if (ret)
			return ret;
	}
	return 0;
}

static u64 tap_to_ns(const struct tap_probe *p, u64 v)
{
	return p->unit == TAP_TIMER_JIFFIES ?
		jiffies_to_nsecs((unsigned long)v) : v;
}

static int tap_init_timers(void)
{
	unsigned int i, n;

	tap_timers = kcalloc(tap_ntimers ? tap_ntimers : 1,
			     sizeof(*tap_timers), GFP_KERNEL);
	if (!tap_timers)
		return -ENOMEM;
	for (i = 0, n = 0; i < tap_nprobes; i++) {
		const struct tap_probe *p = &tap_probes[i];

		if (p->kind != TAP_PROBE_TIMER)
			continue;
		hrtimer_init(&tap_timers[n].timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL);
		tap_timers[n].timer.function = tap_timer_fn;
		tap_timers[n].probe = p;
		tap_timers[n].period_ns = tap_to_ns(p, p->interval_ns);
		tap_timers[n].spread_ns = tap_to_ns(p, p->randomize);
		n++;
	}
	return 0;
}

/*
 * Why the module did not load, in the kernel log: tapc-run reads it back
 * and prints it, as finit_module() itself only returns an errno.
 */
static int tap_init_failed(const char *what, int ret)
{
	pr_err("%s: cannot load: %s failed (%pe)\n", THIS_MODULE->name, what,
	       ERR_PTR(ret));
	return ret;
}

static int __init tap_init(void)
{
	int ret;

	tap_privilege_init();
	ret = tap_modsyms_init();
	if (ret)
		return tap_init_failed("looking up module symbols", ret);
	ret = tap_locks_init();
	if (ret) {
		tap_modsyms_exit();
		return tap_init_failed("allocating the global locks", ret);
	}
	ret = tap_check_probes();
	if (ret) {
		tap_init_failed("checking the probe table", ret);
		goto err_locks;
	}
	ret = tap_alloc_cpus();
	if (ret) {
		tap_init_failed("allocating per-CPU contexts and locals", ret);
		goto err_cpus;
	}
	ret = tap_globals_init();
	if (ret) {
		tap_init_failed("allocating the global arrays", ret);
		goto err_cpus;
	}
	ret = tap_init_timers();
	if (ret) {
		tap_init_failed("allocating the timers", ret);
		goto err_globals;
	}
	ret = tap_transport_init(THIS_MODULE->name);
	if (ret) {
		tap_init_failed("creating the output channels", ret);
		goto err_timers;
	}
	ret = tap_arming_init();
	if (ret) {
		tap_init_failed("setting up probe arming", ret);
		goto err_arming;
	}
	ret = tap_init_families();
	if (ret) {
		tap_init_failed("setting up the probe families", ret);
		goto err_arming;
	}
	return 0;
err_arming:
	tap_arming_exit();
	tap_transport_exit();
err_timers:
	kfree(tap_timers);
err_globals:
	tap_globals_exit();
err_cpus:
	tap_free_cpus();
err_locks:
	tap_locks_exit();
	tap_modsyms_exit();
	return ret;
}

/*
 * tapc-run stops the session before it removes the module; if it could not
 * (it was killed), the session is stopped here, end probes included.
 */
static void __exit tap_exit_module(void)
{
	tap_ctl_stop();
	flush_work(&tap_stop_work);
	tap_arming_exit();
	tap_transport_exit();
	kfree(tap_timers);
	tap_globals_exit();
	tap_free_cpus();
	tap_locks_exit();
	tap_modsyms_exit();
}

module_init(tap_init);
module_exit(tap_exit_module);
