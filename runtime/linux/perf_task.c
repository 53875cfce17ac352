// SPDX-License-Identifier: GPL-2.0
/*
 * perf.type(T).config(C).process("PATH")[.counter("NAME")]
 * (TAP_PERF_TASK): the event counted in each task (thread) of the
 * program .target, as SystemTap counts it: one kernel counter per task
 * (perf_event_create_kernel_counter() with that task), created
 *   - at load, for the tasks that already run the program;
 *   - for a task that execs the program (tracepoint sched_process_exec)
 *     and for a new task (process or thread) of a task that runs it
 *     (sched_process_fork), by a task work the task runs on its way to
 *     user space, before its first instruction there: the tracepoints
 *     cannot sleep, creating a counter does.
 * A task's counters go when it exits, or when it execs another program
 * (released by a work item: releasing sleeps too).  A sampling probe's
 * handler runs on its overflows (tap_perf_overflow), a counter's
 * (period 0) never; @perf reads the current task's counter
 * (tap_perf_task_read) with interrupts off, as perf_event_read_local()
 * does, which modules cannot call.
 *
 * Task works still queued when the session stops are cancelled with
 * task_work_cancel_func() (not exported: found as process.c finds it);
 * without it, tasks that start the program later are not followed.
 */
#include <linux/binfmts.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/namei.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/tracepoint.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include "tap_internal.h"
#include "tap_perf.h"

/* One task's counter of one probe. */
struct tap_ptask {
	struct hlist_node node;		/* in tap_ptasks, by task */
	struct task_struct *task;	/* a key only: not referenced */
	const struct tap_perf_probe *tp;
	struct perf_event *event;
};

/* A task's pending creation of its counters. */
struct tap_ptask_work {
	struct callback_head cb;
	struct list_head node;		/* in tap_ptask_works */
	struct task_struct *task;	/* referenced */
	bool cancelling;
};

static struct tap_perf_probe **tap_ptps;	/* the TAP_PERF_TASK probes */
static unsigned int tap_nptps;

static DEFINE_HASHTABLE(tap_ptasks, 8);
static DEFINE_RAW_SPINLOCK(tap_ptask_lock);	/* tap_ptasks, the lists */
static LIST_HEAD(tap_ptask_works);
static HLIST_HEAD(tap_ptask_dead);		/* counters to release */
static atomic_t tap_ptask_nworks = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(tap_ptask_works_done);
static bool tap_ptask_stopping;

typedef struct callback_head *(*tap_ptask_cancel_t)(struct task_struct *,
						    task_work_func_t);
static tap_ptask_cancel_t tap_ptask_cancel;

/* ---- matching ------------------------------------------------------------ */

static bool tap_ptask_runs(struct mm_struct *mm, const struct tap_perf_probe *tp)
{
	struct file *exe;
	bool same;

	if (!mm || !tp->has_path)
		return false;
	rcu_read_lock();
	exe = rcu_dereference(mm->exe_file);
	same = exe && file_inode(exe) == d_inode(tp->path.dentry);
	rcu_read_unlock();
	return same;
}

/* Whether @mm runs the program of any probe. */
static bool tap_ptask_wanted(struct mm_struct *mm)
{
	unsigned int i;

	for (i = 0; i < tap_nptps; i++)
		if (tap_ptask_runs(mm, tap_ptps[i]))
			return true;
	return false;
}

/* @t's counter of @tp, or NULL; under tap_ptask_lock. */
static struct tap_ptask *tap_ptask_find(struct task_struct *t,
					const struct tap_perf_probe *tp)
{
	struct tap_ptask *pt;

	hash_for_each_possible(tap_ptasks, pt, node, (unsigned long)t)
		if (pt->task == t && pt->tp == tp)
			return pt;
	return NULL;
}

/* ---- counters ------------------------------------------------------------ */

static void tap_ptask_free(struct tap_ptask *pt)
{
	perf_event_release_kernel(pt->event);
	kfree(pt);
}

static void tap_ptask_reap(struct work_struct *w)
{
	struct tap_ptask *pt;
	struct hlist_node *tmp;
	HLIST_HEAD(dead);

	raw_spin_lock_irq(&tap_ptask_lock);
	hlist_move_list(&tap_ptask_dead, &dead);
	raw_spin_unlock_irq(&tap_ptask_lock);
	hlist_for_each_entry_safe(pt, tmp, &dead, node)
		tap_ptask_free(pt);
}

static DECLARE_WORK(tap_ptask_reaper, tap_ptask_reap);

/* Give @t a counter of @tp unless it has one; process context. */
static int tap_ptask_attach(struct task_struct *t, const struct tap_perf_probe *tp)
{
	const struct tap_probe *p = tp->probe;
	struct perf_event_attr attr;
	struct tap_ptask *pt;
	struct perf_event *e;
	bool have;

	raw_spin_lock_irq(&tap_ptask_lock);
	have = tap_ptask_find(t, tp) != NULL;
	raw_spin_unlock_irq(&tap_ptask_lock);
	if (have)
		return 0;
	pt = kzalloc(sizeof(*pt), GFP_KERNEL);
	if (!pt)
		return -ENOMEM;
	tap_perf_attr(p, &attr);
	e = perf_event_create_kernel_counter(&attr, -1, t,
					     p->u.perf.period ? tap_perf_overflow : NULL,
					     (void *)p);
	if (IS_ERR(e)) {
		kfree(pt);
		return PTR_ERR(e);
	}
	pt->task = t;
	pt->tp = tp;
	pt->event = e;
	raw_spin_lock_irq(&tap_ptask_lock);
	if (tap_ptask_stopping || tap_ptask_find(t, tp)) {
		raw_spin_unlock_irq(&tap_ptask_lock);
		tap_ptask_free(pt);
		return 0;
	}
	hash_add(tap_ptasks, &pt->node, (unsigned long)t);
	raw_spin_unlock_irq(&tap_ptask_lock);
	return 0;
}

/* Counters of every probe whose program @t (referenced) runs. */
static void tap_ptask_attach_all(struct task_struct *t)
{
	struct mm_struct *mm = get_task_mm(t);
	unsigned int i;

	if (!mm)
		return;
	for (i = 0; i < tap_nptps; i++)
		if (tap_ptask_runs(mm, tap_ptps[i]))
			tap_ptask_attach(t, tap_ptps[i]);
	mmput(mm);
}

/* Drop @t's counters (all, or those of programs @mm does not run) to
 * the reaper; any context. */
static void tap_ptask_drop(struct task_struct *t, struct mm_struct *mm)
{
	struct tap_ptask *pt;
	struct hlist_node *tmp;
	unsigned long flags;
	bool dropped = false;

	raw_spin_lock_irqsave(&tap_ptask_lock, flags);
	hash_for_each_possible_safe(tap_ptasks, pt, tmp, node, (unsigned long)t) {
		if (pt->task != t || (mm && tap_ptask_runs(mm, pt->tp)))
			continue;
		hash_del(&pt->node);
		hlist_add_head(&pt->node, &tap_ptask_dead);
		dropped = true;
	}
	raw_spin_unlock_irqrestore(&tap_ptask_lock, flags);
	if (dropped && !READ_ONCE(tap_ptask_stopping))
		schedule_work(&tap_ptask_reaper);
}

/* ---- task works ---------------------------------------------------------- */

static void tap_ptask_work_free(struct tap_ptask_work *w)
{
	put_task_struct(w->task);
	kfree(w);
	if (atomic_dec_and_test(&tap_ptask_nworks))
		wake_up(&tap_ptask_works_done);
}

/* In the task, on its way to user space (or exiting). */
static void tap_ptask_work_run(struct callback_head *cb)
{
	struct tap_ptask_work *w = container_of(cb, struct tap_ptask_work, cb);

	raw_spin_lock_irq(&tap_ptask_lock);
	list_del_init(&w->node);
	raw_spin_unlock_irq(&tap_ptask_lock);
	if (!(current->flags & PF_EXITING) && !READ_ONCE(tap_ptask_stopping))
		tap_ptask_attach_all(current);
	tap_ptask_work_free(w);
}

/* Have @t create its counters; from the tracepoints: atomic. */
static void tap_ptask_queue(struct task_struct *t)
{
	struct tap_ptask_work *w;
	unsigned long flags;

	if (!tap_ptask_cancel || (t->flags & (PF_KTHREAD | PF_IO_WORKER)))
		return;
	w = kzalloc(sizeof(*w), GFP_ATOMIC | __GFP_NOWARN);
	if (!w)
		return;
	init_task_work(&w->cb, tap_ptask_work_run);
	get_task_struct(t);
	w->task = t;
	atomic_inc(&tap_ptask_nworks);
	raw_spin_lock_irqsave(&tap_ptask_lock, flags);
	if (tap_ptask_stopping) {
		raw_spin_unlock_irqrestore(&tap_ptask_lock, flags);
		tap_ptask_work_free(w);
		return;
	}
	list_add(&w->node, &tap_ptask_works);
	raw_spin_unlock_irqrestore(&tap_ptask_lock, flags);
	if (task_work_add(t, &w->cb, TWA_RESUME)) {
		/* exiting */
		raw_spin_lock_irqsave(&tap_ptask_lock, flags);
		list_del_init(&w->node);
		raw_spin_unlock_irqrestore(&tap_ptask_lock, flags);
		tap_ptask_work_free(w);
	}
}

/* A work still queued that stop has not taken yet, its task referenced. */
static struct task_struct *tap_ptask_next_queued(void)
{
	struct tap_ptask_work *w;
	struct task_struct *t = NULL;

	raw_spin_lock_irq(&tap_ptask_lock);
	list_for_each_entry(w, &tap_ptask_works, node)
		if (!w->cancelling) {
			w->cancelling = true;
			t = w->task;
			get_task_struct(t);
			break;
		}
	raw_spin_unlock_irq(&tap_ptask_lock);
	return t;
}

static void tap_ptask_end_works(void)
{
	struct task_struct *t;
	struct callback_head *cb;

	while ((t = tap_ptask_next_queued())) {
		/* a task may have more than one queued */
		while ((cb = tap_ptask_cancel(t, tap_ptask_work_run))) {
			struct tap_ptask_work *w =
				container_of(cb, struct tap_ptask_work, cb);

			raw_spin_lock_irq(&tap_ptask_lock);
			list_del_init(&w->node);
			raw_spin_unlock_irq(&tap_ptask_lock);
			tap_ptask_work_free(w);
		}
		put_task_struct(t);
	}
	wait_event(tap_ptask_works_done, !atomic_read(&tap_ptask_nworks));
}

/* ---- tracepoints --------------------------------------------------------- */

static void tap_ptask_on_exec(void *data, struct task_struct *p, pid_t old_pid,
			      struct linux_binprm *bprm)
{
	/* counters of the old program go; the new one's come */
	tap_ptask_drop(p, p->mm);
	if (tap_ptask_wanted(p->mm))
		tap_ptask_queue(p);
}

static void tap_ptask_on_fork(void *data, struct task_struct *parent,
			      struct task_struct *child)
{
	/* the child has not run yet: its mm is settled */
	if (tap_ptask_wanted(child->mm))
		tap_ptask_queue(child);
}

static void tap_ptask_on_exit(void *data, struct task_struct *p)
{
	tap_ptask_drop(p, NULL);
}

static struct {
	const char *name;
	void *func;
	struct tracepoint *tp;
} tap_ptask_tps[] = {
	{ "sched_process_exec", tap_ptask_on_exec },
	{ "sched_process_fork", tap_ptask_on_fork },
	{ "sched_process_exit", tap_ptask_on_exit },
};

static void tap_ptask_unhook(void)
{
	unsigned int i;
	bool any = false;

	for (i = 0; i < ARRAY_SIZE(tap_ptask_tps); i++) {
		if (!tap_ptask_tps[i].tp)
			continue;
		tracepoint_probe_unregister(tap_ptask_tps[i].tp,
					    tap_ptask_tps[i].func, NULL);
		tap_ptask_tps[i].tp = NULL;
		any = true;
	}
	if (any)
		tracepoint_synchronize_unregister();
}

static int tap_ptask_hook(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(tap_ptask_tps); i++) {
		struct tracepoint *tp = tap_tracepoint_find(tap_ptask_tps[i].name);

		ret = tp ? tracepoint_probe_register(tp, tap_ptask_tps[i].func, NULL) :
			   -ENOENT;
		if (ret)
			return ret;
		tap_ptask_tps[i].tp = tp;
	}
	return 0;
}

/* ---- the tasks that already run ------------------------------------------ */

/* The user tasks that run now, referenced; *@n of them. */
static struct task_struct **tap_ptask_snapshot(unsigned int *n)
{
	struct task_struct *p, *t, **v;
	unsigned int cap = 0, k = 0;

	rcu_read_lock();
	for_each_process_thread(p, t)
		cap++;
	rcu_read_unlock();
	cap += 64;	/* some may come meanwhile: they are forked, so hooked */
	v = kvcalloc(cap, sizeof(*v), GFP_KERNEL);
	if (!v)
		return NULL;
	rcu_read_lock();
	for_each_process_thread(p, t) {
		if (k == cap)
			break;
		if (t->flags & (PF_KTHREAD | PF_IO_WORKER | PF_EXITING))
			continue;
		get_task_struct(t);
		v[k++] = t;
	}
	rcu_read_unlock();
	*n = k;
	return v;
}

static int tap_ptask_existing(void)
{
	struct task_struct **v;
	unsigned int i, n = 0;

	v = tap_ptask_snapshot(&n);
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		tap_ptask_attach_all(v[i]);
		put_task_struct(v[i]);
	}
	kvfree(v);
	return 0;
}

/* ---- registration -------------------------------------------------------- */

/*
 * Whether the kernel can count @tp's event in a task: one counter for
 * the current task, disabled, made and released, so that a hardware
 * event without a PMU fails the session as SystemTap's does (at
 * registration), not later in each task.
 */
static int tap_ptask_check(const struct tap_perf_probe *tp)
{
	struct perf_event_attr attr;
	struct perf_event *e;

	tap_perf_attr(tp->probe, &attr);
	attr.disabled = 1;
	e = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	if (IS_ERR(e))
		return PTR_ERR(e);
	perf_event_release_kernel(e);
	return 0;
}

int tap_perf_task_init(struct tap_perf_probe *tps, unsigned int n)
{
	unsigned int i;
	int ret, err;

	for (i = 0; i < n; i++)
		tap_nptps += !!(tps[i].probe->flags & TAP_PERF_TASK);
	if (!tap_nptps)
		return 0;
	tap_ptps = kcalloc(tap_nptps, sizeof(*tap_ptps), GFP_KERNEL);
	if (!tap_ptps) {
		tap_nptps = 0;
		return -ENOMEM;
	}
	tap_nptps = 0;
	for (i = 0; i < n; i++) {
		struct tap_perf_probe *tp = &tps[i];

		if (!(tp->probe->flags & TAP_PERF_TASK))
			continue;
		tap_ptps[tap_nptps++] = tp;
		ret = tap_ptask_check(tp);
		if (ret) {
			tap_perf_fail(tp->probe, ret);
			return ret;
		}
		/* a program that does not exist has no tasks to count */
		tp->has_path = !kern_path(tp->probe->target, LOOKUP_FOLLOW, &tp->path);
	}
	tap_ptask_stopping = false;
	tap_ptask_cancel = tap_kernel_function("task_work_cancel_func", &err);
	if (!tap_ptask_cancel && err == -ENOENT)
		tap_ptask_cancel = tap_kernel_function("task_work_cancel", &err);
	if (!tap_ptask_cancel)
		tap_errmsg("WARNING: perf process probes cannot follow new processes: task_work_cancel_func not found\n");
	ret = tap_ptask_hook();
	if (ret) {
		tap_perf_fail(tap_ptps[0]->probe, ret);
		return ret;
	}
	return tap_ptask_existing();
}

void tap_perf_task_stop(void)
{
	struct tap_ptask *pt;
	struct hlist_node *tmp;
	unsigned int bkt, i;

	if (!tap_ptps)
		return;
	tap_ptask_unhook();
	raw_spin_lock_irq(&tap_ptask_lock);
	tap_ptask_stopping = true;
	raw_spin_unlock_irq(&tap_ptask_lock);
	if (tap_ptask_cancel)
		tap_ptask_end_works();
	cancel_work_sync(&tap_ptask_reaper);
	tap_ptask_reap(NULL);
	hash_for_each_safe(tap_ptasks, bkt, tmp, pt, node) {
		hash_del(&pt->node);
		tap_ptask_free(pt);
	}
	/* no task is left on the last instructions of a task work */
	if (tap_ptask_cancel)
		synchronize_rcu_tasks();
	for (i = 0; i < tap_nptps; i++)
		if (tap_ptps[i]->has_path) {
			path_put(&tap_ptps[i]->path);
			tap_ptps[i]->has_path = false;
		}
	kfree(tap_ptps);
	tap_ptps = NULL;
	tap_nptps = 0;
}

u64 tap_perf_task_read(const struct tap_perf_probe *tp)
{
	struct tap_ptask *pt;
	u64 v = 0;

	/* the lock's other holders keep interrupts off: only an NMI could
	 * come on one of them */
	if (in_nmi()) {
		if (!raw_spin_trylock(&tap_ptask_lock))
			return 0;
	} else {
		raw_spin_lock(&tap_ptask_lock);
	}
	pt = tap_ptask_find(current, tp);
	if (pt)
		v = tap_perf_value(pt->event);
	raw_spin_unlock(&tap_ptask_lock);
	return v;
}
