// SPDX-License-Identifier: GPL-2.0
/*
 * TAP_PROBE_PROCESS: process.begin/.end and the kernel process events
 * behind tapsets/kprocess.stp.  .arg[0] is the event (enum tap_process_event
 * of tapc_families.h), .arg[1] a process id that begin/end
 * must match (0: any), .target the program file they must run (NULL: any)
 * or, with .flags TAP_PROC_GLOB, a glob (glob_match(): '*' also matches
 * '/') of the path of the program they must run.
 *
 * Where each event comes from, and in which task it runs (kprocess.create
 * is an alias of the sched_process_fork tracepoint):
 *   kprocess.start	kprobe schedule_tail, the new task's first run
 *   kprocess.exec	sys_enter of execve, in the caller (user registers)
 *   kprocess.exec_complete  sys_exit of execve, in the new program or,
 *			after a failure, the caller
 *   kprocess.exit	sched_process_exit, the exiting task (code: the
 *			exit code do_exit() stored)
 *   kprocess.release	kprobe release_task, in the reaper (task: the one
 *			released)
 *   process.begin	schedule_tail of a new process (not a thread or a
 *			kernel thread), and sched_process_exec
 *   process.end	kprobe taskstats_exit when the thread group is dead:
 *			the last thread, whose program is still mapped; and
 *			kprobe begin_new_exec, where an exec can no longer
 *			fail and the old program is still mapped: as
 *			SystemTap's, a process that execs ends for its old
 *			program (process("OLD").end) and begins for the new
 *   process.thread.begin  schedule_tail of a new thread of a process
 *   process.thread.end	 taskstats_exit of a thread that is not the last
 *   process.syscall[.return]  sys_enter and sys_exit, in the caller
 *			(user registers; the event's slots hold the number,
 *			the arguments and the value returned)
 * Only the hooks that some probe needs are registered.  In a stapusr
 * module (tapc --privilege=stapusr) the process.* probes fire only in the
 * processes of the user who loaded it, as SystemTap's.  process.begin and
 * process.thread.begin also report the processes and threads that run
 * when the session starts (see "processes that already run" below).
 */
#include <linux/compat.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/glob.h>
#include <linux/hashtable.h>
#include <linux/kprobes.h>
#include <linux/mm_types.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/tracepoint.h>
#include <linux/user_namespace.h>
#include <linux/wait.h>
#include <linux/uaccess.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include "tap_internal.h"
#include "strfn.h"

/* The events, enum tap_process_event: tapc_families.h. */
#define TAP_EV(e) (1U << (e))

/* CONTEXT->event of a TAP_PROBE_PROCESS hit. */
struct tap_proc_event {
	/* first: process.syscall's target variables read these slots
	 * (enum tap_proc_syscall_slot) */
	unsigned long slots[TAP_PROC_NSLOTS];
	struct task_struct *task;	/* the task the event is about */
	long code;			/* kprocess.exit */
	const char __user *filename;	/* kprocess.exec: execve's arguments */
	unsigned long argv, envp;
	long ret;			/* kprocess.exec_complete */
};

struct tap_proc_probe {
	const struct tap_probe *probe;
	struct path path;		/* .target, resolved: its inode */
	bool has_path;
	bool glob;			/* .target is a glob (TAP_PROC_GLOB) */
	bool never;			/* .target names no file: no match */
};

/* Per CPU, the path of the program a glob is matched against; allocated
 * only when a probe has a glob. */
struct tap_proc_pathbuf {
	char buf[PATH_MAX];
};
static struct tap_proc_pathbuf __percpu *tap_proc_paths;

static struct tap_proc_probe *tap_procs;
static unsigned int tap_nprocs;
static unsigned int tap_proc_events;	/* TAP_EV() of the events used */

/*
 * Whether the program @mm runs has a path that @pattern matches.  The
 * program file is held while d_path() names it; the buffer is this
 * CPU's, with preemption off (d_path() and glob_match() do not sleep).
 */
static bool tap_proc_glob_runs(struct mm_struct *mm, const char *pattern)
{
	struct tap_proc_pathbuf *pb;
	struct file *exe;
	char *path;
	bool match;

	rcu_read_lock();
	exe = rcu_dereference(mm->exe_file);
	if (exe && !get_file_rcu(exe))
		exe = NULL;
	rcu_read_unlock();
	if (!exe)
		return false;
	pb = get_cpu_ptr(tap_proc_paths);
	path = d_path(&exe->f_path, pb->buf, sizeof(pb->buf));
	match = !IS_ERR(path) && glob_match(pattern, path);
	put_cpu_ptr(tap_proc_paths);
	fput(exe);
	return match;
}

static bool tap_proc_runs(const struct tap_proc_probe *tp)
{
	const struct tap_probe *p = tp->probe;
	struct mm_struct *mm;
	struct file *exe;
	bool same;

	/* a stapusr module sees only its user's processes */
	if (tap_stapusr() && !tap_is_myproc())
		return false;
	if (tp->never || (p->arg[1] && current->tgid != p->arg[1]))
		return false;
	if (!tp->has_path && !tp->glob)
		return true;
	mm = current->mm;
	if (!mm)
		return false;
	if (tp->glob)
		return tap_proc_glob_runs(mm, p->target);
	rcu_read_lock();
	exe = rcu_dereference(mm->exe_file);
	same = exe && file_inode(exe) == d_inode(tp->path.dentry);
	rcu_read_unlock();
	return same;
}

/* Run the probes of event @ev whose filters the current task passes. */
static void tap_proc_fire(int ev, struct pt_regs *regs, int user_regs,
			  struct tap_proc_event *e)
{
	unsigned int i;

	for (i = 0; i < tap_nprocs; i++)
		if (tap_procs[i].probe->arg[0] == ev &&
		    tap_proc_runs(&tap_procs[i]))
			tap_run_event(tap_procs[i].probe, regs, user_regs, e);
}

static void tap_proc_task_event(int ev, struct task_struct *task,
				struct pt_regs *regs)
{
	struct tap_proc_event e = { .task = task };

	if (tap_proc_events & TAP_EV(ev))
		tap_proc_fire(ev, regs, 0, &e);
}

/* ---- tracepoints --------------------------------------------------------- */

static void tap_proc_claim_startup(struct task_struct *t);

/*
 * process.begin or process.thread.begin (@ev) from a hook, in @t: only
 * while the session runs (not before, when the startup walk will find
 * @t), claiming @t's startup work so that it is reported once.
 */
static void tap_proc_report_begin(int ev, struct task_struct *t,
				  struct pt_regs *regs)
{
	if (!(tap_proc_events & TAP_EV(ev)) ||
	    atomic_read(&tap_state) != TAP_RUNNING)
		return;
	tap_proc_claim_startup(t);
	tap_proc_task_event(ev, t, regs);
}

static void tap_proc_on_exec(void *data, struct task_struct *p, pid_t old_pid,
			     struct linux_binprm *bprm)
{
	tap_proc_report_begin(TAP_PROC_BEGIN, p, NULL);
}

static void tap_proc_on_exit(void *data, struct task_struct *p)
{
	struct tap_proc_event e = { .task = p, .code = p->exit_code };

	tap_proc_fire(TAP_KP_EXIT, NULL, 0, &e);
}

/* A native execve: kprocess.exec and exec_complete alias syscall.execve. */
static bool tap_proc_is_execve(struct pt_regs *regs)
{
	return !in_compat_syscall() &&
	       syscall_get_nr(current, regs) == __NR_execve;
}

/* process.syscall[.return]: the call's number, arguments and value in the
 * slots its target variables read. */
static void tap_proc_syscall(int ev, struct pt_regs *regs, long nr, long ret)
{
	struct tap_proc_event e = { .task = current };

	if (nr < 0)
		return;
	e.slots[TAP_PROC_SLOT_NR] = nr;
	syscall_get_arguments(current, regs, &e.slots[TAP_PROC_SLOT_ARG1]);
	e.slots[TAP_PROC_SLOT_RETURN] = ret;
	tap_proc_fire(ev, regs, 1, &e);
}

static void tap_proc_on_sys_enter(void *data, struct pt_regs *regs, long id)
{
	struct tap_proc_event e = { .task = current };

	if (tap_proc_events & TAP_EV(TAP_PROC_SYSCALL))
		tap_proc_syscall(TAP_PROC_SYSCALL, regs, id, 0);
	if (!(tap_proc_events & TAP_EV(TAP_KP_EXEC)) ||
	    id != __NR_execve || !tap_proc_is_execve(regs))
		return;
	/* the system call's arguments, in the registers of its ABI */
	e.filename = (const char __user *)regs->di;
	e.argv = regs->si;
	e.envp = regs->dx;
	tap_proc_fire(TAP_KP_EXEC, regs, 1, &e);
}

static void tap_proc_on_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	struct tap_proc_event e = { .task = current, .ret = ret };

	if (tap_proc_events & TAP_EV(TAP_PROC_SYSCALL_RETURN))
		tap_proc_syscall(TAP_PROC_SYSCALL_RETURN, regs,
				 syscall_get_nr(current, regs), ret);
	if (!(tap_proc_events & TAP_EV(TAP_KP_EXEC_COMPLETE)) ||
	    !tap_proc_is_execve(regs))
		return;
	tap_proc_fire(TAP_KP_EXEC_COMPLETE, regs, 1, &e);
}

struct tap_proc_tp {
	const char *name;
	void *func;
	unsigned int events;		/* TAP_EV() of the events it feeds */
	struct tracepoint *tp;		/* registered, else NULL */
};

static struct tap_proc_tp tap_proc_tps[] = {
	{ "sched_process_exec", tap_proc_on_exec, TAP_EV(TAP_PROC_BEGIN) },
	{ "sched_process_exit", tap_proc_on_exit, TAP_EV(TAP_KP_EXIT) },
	{ "sys_enter", tap_proc_on_sys_enter,
	  TAP_EV(TAP_KP_EXEC) | TAP_EV(TAP_PROC_SYSCALL) },
	{ "sys_exit", tap_proc_on_sys_exit,
	  TAP_EV(TAP_KP_EXEC_COMPLETE) | TAP_EV(TAP_PROC_SYSCALL_RETURN) },
};

/* ---- kprobes ------------------------------------------------------------- */

static int tap_proc_on_schedule_tail(struct kprobe *kp, struct pt_regs *regs)
{
	struct task_struct *t = current;

	tap_proc_task_event(TAP_KP_START, t, regs);
	/* a new process or a new thread of one, not a kernel thread */
	if (t->mm && !(t->flags & PF_KTHREAD))
		tap_proc_report_begin(thread_group_leader(t) ? TAP_PROC_BEGIN :
				      TAP_PROC_THREAD_BEGIN, t, regs);
	return 0;
}

/* taskstats_exit(tsk, group_dead): tsk is the exiting current task, the
 * process's last thread when group_dead. */
static int tap_proc_on_taskstats_exit(struct kprobe *kp, struct pt_regs *regs)
{
	struct task_struct *t = current;

	if (t->mm && !(t->flags & PF_KTHREAD))
		tap_proc_task_event(regs_get_kernel_argument(regs, 1) ?
				    TAP_PROC_END : TAP_PROC_THREAD_END, t, regs);
	return 0;
}

/* begin_new_exec(bprm): past the point of no return of an exec, before
 * the old program's memory goes; the other threads are not yet killed,
 * but this one becomes the process. */
static int tap_proc_on_begin_new_exec(struct kprobe *kp, struct pt_regs *regs)
{
	struct task_struct *t = current;

	if (t->mm && !(t->flags & PF_KTHREAD))
		tap_proc_task_event(TAP_PROC_END, t, regs);
	return 0;
}

/* release_task(p) */
static int tap_proc_on_release_task(struct kprobe *kp, struct pt_regs *regs)
{
	struct task_struct *p =
		(struct task_struct *)regs_get_kernel_argument(regs, 0);

	tap_proc_task_event(TAP_KP_RELEASE, p, regs);
	return 0;
}

struct tap_proc_kp {
	struct kprobe kp;
	unsigned int events;
	bool registered;
};

static struct tap_proc_kp tap_proc_kps[] = {
	{ { .symbol_name = "schedule_tail",
	    .pre_handler = tap_proc_on_schedule_tail },
	  TAP_EV(TAP_KP_START) | TAP_EV(TAP_PROC_BEGIN) |
	  TAP_EV(TAP_PROC_THREAD_BEGIN) },
	{ { .symbol_name = "taskstats_exit",
	    .pre_handler = tap_proc_on_taskstats_exit },
	  TAP_EV(TAP_PROC_END) | TAP_EV(TAP_PROC_THREAD_END) },
	{ { .symbol_name = "begin_new_exec",
	    .pre_handler = tap_proc_on_begin_new_exec },
	  TAP_EV(TAP_PROC_END) },
	{ { .symbol_name = "release_task",
	    .pre_handler = tap_proc_on_release_task },
	  TAP_EV(TAP_KP_RELEASE) },
};

/* ---- processes that already run ------------------------------------------ */

/*
 * As SystemTap's, process.begin also fires for each process that exists
 * when the session starts (with -c or -x, only for the target's), in that
 * process, and process.thread.begin for each of their other threads, in
 * that thread.  Once the session runs, with the hooks above registered,
 * each such task gets a task work that runs the probes when it next
 * returns to user space: TWA_RESUME, not TWA_SIGNAL, so that no system call
 * of it is interrupted (a task asleep is reported when it wakes).
 *
 * The hooks are registered at load and report only while the session
 * runs; the walk starts once it runs.  A process can be in the walk and
 * still reach a hook then: forked just before and not yet run
 * (schedule_tail), or in an exec.  Each side looks for the other under
 * tap_proc_works_lock: a hook during the walk leaves a claimed entry
 * (a tombstone) that makes the walk skip the process, and a hook after
 * the walk claims the process's work, which then runs nothing.  So a
 * process that runs at the start is reported once, whatever the order:
 * by its work, or by the hook if it execs (or first runs) before it
 * returns to user space.
 *
 * The works still queued when the session stops are cancelled with
 * task_work_cancel_func() (not exported: its address comes from a kprobe
 * lookup); stop then waits for the ones running, and for RCU-tasks so
 * that no task is still on the last instructions of the callback when
 * the module goes.
 */
struct tap_proc_work {
	struct callback_head cb;
	struct task_struct *task;	/* referenced */
	int event;			/* TAP_PROC_BEGIN or _THREAD_BEGIN */
	struct hlist_node node;		/* in tap_proc_works */
	bool claimed;			/* reported by a hook */
	bool tombstone;			/* no work: a hook's mark for the walk */
	bool cancelling;		/* stop() is on it */
};

static DEFINE_HASHTABLE(tap_proc_works, 8);	/* by task */
static DEFINE_RAW_SPINLOCK(tap_proc_works_lock);	/* a leaf: taken in hooks */
static atomic_t tap_proc_nworks = ATOMIC_INIT(0);	/* queued or running */
static DECLARE_WAIT_QUEUE_HEAD(tap_proc_works_done);
static bool tap_proc_walking;	/* from load until the walk is done */
static bool tap_proc_walked;

typedef struct callback_head *(*tap_task_work_cancel_t)(struct task_struct *,
							  task_work_func_t);
static tap_task_work_cancel_t tap_task_work_cancel;

static struct tap_proc_work *tap_proc_work_of(struct task_struct *t)
{
	struct tap_proc_work *w;

	hash_for_each_possible(tap_proc_works, w, node, (unsigned long)t)
		if (w->task == t)
			return w;
	return NULL;
}

static void tap_proc_claim_startup(struct task_struct *t)
{
	struct tap_proc_work *w;
	unsigned long flags;

	if (!READ_ONCE(tap_proc_walking) && !atomic_read(&tap_proc_nworks))
		return;
	raw_spin_lock_irqsave(&tap_proc_works_lock, flags);
	w = tap_proc_work_of(t);
	if (w) {
		w->claimed = true;
	} else if (tap_proc_walking) {
		/* no reclaim, not even kswapd's wakeup: schedule_tail() runs
		 * with the runqueue locked */
		w = kzalloc(sizeof(*w), __GFP_NOWARN);
		if (w) {
			get_task_struct(t);
			w->task = t;
			w->claimed = true;
			w->tombstone = true;
			hash_add(tap_proc_works, &w->node, (unsigned long)t);
		}
	}
	raw_spin_unlock_irqrestore(&tap_proc_works_lock, flags);
}

static void tap_proc_work_free(struct tap_proc_work *w)
{
	put_task_struct(w->task);
	kfree(w);
	if (atomic_dec_and_test(&tap_proc_nworks))
		wake_up(&tap_proc_works_done);
}

/* The task work, in the process, on its way to user space (or exiting). */
static void tap_proc_startup_begin(struct callback_head *cb)
{
	struct tap_proc_work *w = container_of(cb, struct tap_proc_work, cb);
	struct tap_proc_event e = { .task = current };
	bool claimed;

	raw_spin_lock_irq(&tap_proc_works_lock);
	hash_del(&w->node);
	claimed = w->claimed;
	raw_spin_unlock_irq(&tap_proc_works_lock);
	if (!claimed && !(current->flags & PF_EXITING))
		tap_proc_fire(w->event, task_pt_regs(current), 1, &e);
	tap_proc_work_free(w);
}

/*
 * The function that cancels a task work by its function: since Linux 6.11
 * (and in the stable kernels it went back to, such as Debian's 6.1)
 * task_work_cancel_func(), task_work_cancel() then taking the work itself;
 * before, task_work_cancel().  The two came together: without the first,
 * the second is the old one.
 */
static tap_task_work_cancel_t tap_proc_find_cancel(void)
{
	int err;
	void *fn = tap_kernel_function("task_work_cancel_func", &err);

	if (!fn && err == -ENOENT)
		fn = tap_kernel_function("task_work_cancel", &err);
	return fn;
}

/* Queue the startup work (event @ev) of @p unless a hook reported it;
 * under rcu_read_lock(). */
static bool tap_proc_queue(struct task_struct *p, int ev)
{
	struct tap_proc_work *w = kzalloc(sizeof(*w), GFP_ATOMIC | __GFP_NOWARN);

	if (!w)
		return false;
	init_task_work(&w->cb, tap_proc_startup_begin);
	w->task = p;
	w->event = ev;
	/* in the table first: the work may run as soon as it is added */
	raw_spin_lock_irq(&tap_proc_works_lock);
	if (tap_proc_work_of(p)) {
		raw_spin_unlock_irq(&tap_proc_works_lock);
		kfree(w);
		return true;
	}
	get_task_struct(p);
	atomic_inc(&tap_proc_nworks);
	hash_add(tap_proc_works, &w->node, (unsigned long)p);
	raw_spin_unlock_irq(&tap_proc_works_lock);
	if (task_work_add(p, &w->cb, TWA_RESUME)) {
		/* past its last task works: exiting */
		raw_spin_lock_irq(&tap_proc_works_lock);
		hash_del(&w->node);
		raw_spin_unlock_irq(&tap_proc_works_lock);
		tap_proc_work_free(w);
	}
	return true;
}

/* The walk is over: drop the hooks' tombstones. */
static void tap_proc_end_walk(void)
{
	struct tap_proc_work *w;
	struct hlist_node *tmp;
	HLIST_HEAD(dead);
	unsigned int bkt;

	raw_spin_lock_irq(&tap_proc_works_lock);
	WRITE_ONCE(tap_proc_walking, false);
	hash_for_each_safe(tap_proc_works, bkt, tmp, w, node)
		if (w->tombstone) {
			hash_del(&w->node);
			hlist_add_head(&w->node, &dead);
		}
	raw_spin_unlock_irq(&tap_proc_works_lock);
	hlist_for_each_entry_safe(w, tmp, &dead, node) {
		put_task_struct(w->task);
		kfree(w);
	}
}

/* Whether a stapusr module may see process @p (any module may see any
 * process otherwise); as SystemTap's, the -c/-x target of another user
 * is a warning.  Under rcu_read_lock(). */
static bool tap_proc_visible(struct task_struct *p, long long target)
{
	if (!tap_stapusr() || tap_task_is_users(p))
		return true;
	if (target && p->tgid == target)
		tap_errmsg("WARNING: Process %d does not belong to unprivileged user %d\n",
			   p->tgid, from_kuid_munged(&init_user_ns, tap_uid));
	return false;
}

#define TAP_PROC_BEGINS (TAP_EV(TAP_PROC_BEGIN) | TAP_EV(TAP_PROC_THREAD_BEGIN))

/* The startup event of thread @t, if a probe wants it, else 0. */
static int tap_proc_startup_event(struct task_struct *t)
{
	int ev = thread_group_leader(t) ? TAP_PROC_BEGIN : TAP_PROC_THREAD_BEGIN;

	return tap_proc_events & TAP_EV(ev) ? ev : 0;
}

static void tap_proc_start(void)
{
	long long target = tap_target();
	struct task_struct *p, *t;
	bool queued = true;

	if (!(tap_proc_events & TAP_PROC_BEGINS))
		return;
	if (!tap_task_work_cancel) {
		tap_proc_end_walk();
		tap_errmsg("WARNING: process.begin cannot report the processes that already run: task_work_cancel_func not found\n");
		return;
	}
	tap_proc_walked = true;
	rcu_read_lock();
	for_each_process(p) {
		/* user processes; kernel threads have no program */
		if (p->flags & PF_KTHREAD)
			continue;
		if (target && p->tgid != target)
			continue;
		if (!tap_proc_visible(p, target))
			continue;
		for_each_thread(p, t) {
			int ev = tap_proc_startup_event(t);

			if (!ev || (t->flags & PF_EXITING))
				continue;
			queued = tap_proc_queue(t, ev);
			if (!queued)
				break;
		}
		if (!queued)
			break;
	}
	rcu_read_unlock();
	tap_proc_end_walk();
	if (!queued)
		tap_errmsg("WARNING: process.begin cannot report all the processes that already run: out of memory\n");
}

/* A startup work not yet cancelled by stop, referenced, or NULL. */
static struct task_struct *tap_proc_next_queued(void)
{
	struct task_struct *t = NULL;
	struct tap_proc_work *w;
	unsigned int bkt;

	raw_spin_lock_irq(&tap_proc_works_lock);
	hash_for_each(tap_proc_works, bkt, w, node)
		if (!w->cancelling) {
			w->cancelling = true;
			t = w->task;
			get_task_struct(t);
			break;
		}
	raw_spin_unlock_irq(&tap_proc_works_lock);
	return t;
}

/* Cancel the startup works, wait for the ones running. */
static void tap_proc_end_works(void)
{
	struct task_struct *t;

	if (!tap_proc_walked)
		return;
	while ((t = tap_proc_next_queued())) {
		struct callback_head *cb =
			tap_task_work_cancel(t, tap_proc_startup_begin);

		if (cb) {
			struct tap_proc_work *w =
				container_of(cb, struct tap_proc_work, cb);

			raw_spin_lock_irq(&tap_proc_works_lock);
			hash_del(&w->node);
			raw_spin_unlock_irq(&tap_proc_works_lock);
			tap_proc_work_free(w);
		}
		/* else running (or done): it frees itself */
		put_task_struct(t);
	}
	wait_event(tap_proc_works_done, !atomic_read(&tap_proc_nworks));
	synchronize_rcu_tasks();
	tap_proc_walked = false;
}

/* ---- registration -------------------------------------------------------- */

static void tap_proc_unhook(void)
{
	unsigned int i;
	bool tps = false;

	for (i = 0; i < ARRAY_SIZE(tap_proc_tps); i++) {
		if (!tap_proc_tps[i].tp)
			continue;
		tracepoint_probe_unregister(tap_proc_tps[i].tp,
					    tap_proc_tps[i].func, NULL);
		tap_proc_tps[i].tp = NULL;
		tps = true;
	}
	if (tps)
		tracepoint_synchronize_unregister();
	for (i = 0; i < ARRAY_SIZE(tap_proc_kps); i++) {
		if (!tap_proc_kps[i].registered)
			continue;
		/* waits for running handlers */
		unregister_kprobe(&tap_proc_kps[i].kp);
		tap_proc_kps[i].registered = false;
	}
}

static void tap_proc_stop(void)
{
	unsigned int i;

	tap_proc_unhook();
	tap_proc_end_walk();
	tap_proc_end_works();
	for (i = 0; i < tap_nprocs; i++)
		if (tap_procs[i].has_path)
			path_put(&tap_procs[i].path);
	kfree(tap_procs);
	tap_procs = NULL;
	tap_nprocs = 0;
	tap_proc_events = 0;
	free_percpu(tap_proc_paths);
	tap_proc_paths = NULL;
}

/* A probe that cannot register fails the session with SystemTap's
 * message, as in perf.c. */
static void tap_proc_fail(const char *pp, int ret)
{
	tap_errmsg("ERROR: probe %s registration error [man warning::pass5] (rc %d)\n",
		   pp, ret);
	atomic_inc(&tap_error_count);
	tap_request_exit();
}

/* The first probe of event mask @events, for messages. */
static const char *tap_proc_pp(unsigned int events)
{
	unsigned int i;

	for (i = 0; i < tap_nprocs; i++)
		if (events & TAP_EV(tap_procs[i].probe->arg[0]))
			return tap_procs[i].probe->pp;
	return "?";
}

static int tap_proc_hook(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(tap_proc_tps); i++) {
		struct tap_proc_tp *h = &tap_proc_tps[i];
		struct tracepoint *tp;

		if (!(tap_proc_events & h->events))
			continue;
		tp = tap_tracepoint_find(h->name);
		ret = tp ? tracepoint_probe_register(tp, h->func, NULL) : -ENOENT;
		if (ret) {
			tap_proc_fail(tap_proc_pp(h->events), ret);
			return ret;
		}
		h->tp = tp;
	}
	for (i = 0; i < ARRAY_SIZE(tap_proc_kps); i++) {
		struct tap_proc_kp *h = &tap_proc_kps[i];

		if (!(tap_proc_events & h->events))
			continue;
		h->kp.addr = NULL;
		h->kp.flags = 0;
		ret = register_kprobe(&h->kp);
		if (ret) {
			tap_proc_fail(tap_proc_pp(h->events), ret);
			return ret;
		}
		h->registered = true;
	}
	return 0;
}

static int tap_proc_collect(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < tap_nprobes; i++)
		n += tap_probes[i].kind == TAP_PROBE_PROCESS;
	if (!n)
		return 0;
	tap_procs = kcalloc(n, sizeof(*tap_procs), GFP_KERNEL);
	if (!tap_procs)
		return -ENOMEM;
	for (i = 0; i < tap_nprobes; i++) {
		const struct tap_probe *p = &tap_probes[i];
		struct tap_proc_probe *tp;
		int ret;

		if (p->kind != TAP_PROBE_PROCESS)
			continue;
		if (p->arg[0] < TAP_PROC_BEGIN || p->arg[0] >= TAP_PROC_NEVENTS)
			return -EINVAL;
		tp = &tap_procs[tap_nprocs++];
		tp->probe = p;
		tap_proc_events |= TAP_EV(p->arg[0]);
		if (!p->target)
			continue;
		if (p->flags & TAP_PROC_GLOB) {
			tp->glob = true;
			if (!tap_proc_paths)
				tap_proc_paths = alloc_percpu(struct tap_proc_pathbuf);
			if (!tap_proc_paths)
				return -ENOMEM;
			continue;
		}
		/* as SystemTap's, a program that is not there (or a
		 * relative name, kept as written) is no error: no process
		 * runs it */
		ret = p->target[0] == '/' ?
		      kern_path(p->target, LOOKUP_FOLLOW, &tp->path) : -ENOENT;
		if (ret == -ENOENT || ret == -ENOTDIR) {
			tp->never = true;
			continue;
		}
		if (ret) {
			tap_proc_fail(p->pp, ret);
			return ret;
		}
		tp->has_path = true;
	}
	return 0;
}

static int tap_proc_init(void)
{
	int ret = tap_proc_collect();

	/* the hooks mark what they report until the startup walk is done;
	 * the walk must be quick once the session runs (a -c command is
	 * released then): the lookup, which waits for RCU, is done here */
	WRITE_ONCE(tap_proc_walking, !!(tap_proc_events & TAP_PROC_BEGINS));
	if (tap_proc_walking)
		tap_task_work_cancel = tap_proc_find_cancel();
	if (!ret && tap_nprocs)
		ret = tap_proc_hook();
	if (ret == -ENOMEM || ret == -EINVAL) {
		tap_proc_stop();
		return ret;
	}
	/* other failures were reported: the session ends before it begins */
	if (ret)
		tap_proc_stop();
	return 0;
}

const struct tap_family tap_family_process = {
	.name = "process",
	.init = tap_proc_init,
	.stop = tap_proc_stop,
	.start = tap_proc_start,
};

/* ---- kprocess.stp -------------------------------------------------------- */

static const struct tap_proc_event *tap_proc_event_of(struct tap_context *c)
{
	if (!c->probe || c->probe->kind != TAP_PROBE_PROCESS)
		return NULL;
	return c->event;
}

long long tapset_kprocess_task(struct tap_context *c)
{
	const struct tap_proc_event *e = tap_proc_event_of(c);

	return e ? (long long)(unsigned long)e->task : 0;
}

long long tapset_kprocess_pid(struct tap_context *c)
{
	const struct tap_proc_event *e = tap_proc_event_of(c);

	return e && e->task ? e->task->tgid : 0;
}

long long tapset_kprocess_tid(struct tap_context *c)
{
	const struct tap_proc_event *e = tap_proc_event_of(c);

	return e && e->task ? e->task->pid : 0;
}

long long tapset_kprocess_code(struct tap_context *c)
{
	const struct tap_proc_event *e = tap_proc_event_of(c);

	return e ? e->code : 0;
}

long long tapset_kprocess_argv(struct tap_context *c)
{
	const struct tap_proc_event *e = tap_proc_event_of(c);

	return e ? (long long)e->argv : 0;
}

long long tapset_kprocess_envp(struct tap_context *c)
{
	const struct tap_proc_event *e = tap_proc_event_of(c);

	return e ? (long long)e->envp : 0;
}

long long tapset_kprocess_retval(struct tap_context *c)
{
	const struct tap_proc_event *e = tap_proc_event_of(c);

	return e ? e->ret : 0;
}

/*
 * As SystemTap's user_string_quoted(): the string in double quotes with
 * text_str()'s escapes, "NULL" for a null pointer, the address in hex
 * when it cannot be read.
 */
void tapset_kprocess_filename(struct tap_context *c, char *out)
{
	const struct tap_proc_event *e = tap_proc_event_of(c);
	char *buf = tap_cpu_scratch();
	long n;

	out[0] = '\0';
	if (!e || !e->filename) {
		if (e)
			tap_strlcpy(out, "NULL", MAXSTRINGLEN);
		return;
	}
	pagefault_disable();
	n = strncpy_from_user(buf, e->filename, MAXSTRINGLEN - 1);
	pagefault_enable();
	if (n < 0) {
		snprintf(out, MAXSTRINGLEN, "0x%lx", (unsigned long)e->filename);
		return;
	}
	buf[n] = '\0';
	tap_string_quoted(out, MAXSTRINGLEN, buf);
}
