// SPDX-License-Identifier: GPL-2.0
/*
 * TAP_PROBE_PROCESS: process.begin/.end and the kernel process events
 * behind tapsets/kprocess.stp.  .arg[0] is the event (TAP_PROC_*, the
 * numbers of src/probes/process.c), .arg[1] a process id that begin/end
 * must match (0: any), .target the program file they must run (NULL: any).
 *
 * Where each event comes from, and in which task it runs:
 *   kprocess.create	sched_process_fork, in the parent (task: the child)
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
 *			the last thread, whose program is still mapped
 * Only the hooks that some probe needs are registered.
 */
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/mm_types.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include "tap_internal.h"
#include "strfn.h"

enum {
	TAP_PROC_BEGIN = 1,
	TAP_PROC_END,
	TAP_KP_CREATE,
	TAP_KP_START,
	TAP_KP_EXEC,
	TAP_KP_EXEC_COMPLETE,
	TAP_KP_EXIT,
	TAP_KP_RELEASE,
	TAP_PROC_NEVENTS,
};

#define TAP_EV(e) (1U << (e))

/* CONTEXT->event of a TAP_PROBE_PROCESS hit. */
struct tap_proc_event {
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
};

static struct tap_proc_probe *tap_procs;
static unsigned int tap_nprocs;
static unsigned int tap_proc_events;	/* TAP_EV() of the events used */

static bool tap_proc_runs(const struct tap_proc_probe *tp)
{
	const struct tap_probe *p = tp->probe;
	struct mm_struct *mm;
	struct file *exe;
	bool same;

	if (p->arg[1] && current->tgid != p->arg[1])
		return false;
	if (!tp->has_path)
		return true;
	mm = current->mm;
	if (!mm)
		return false;
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

static void tap_proc_on_fork(void *data, struct task_struct *parent,
			     struct task_struct *child)
{
	tap_proc_task_event(TAP_KP_CREATE, child, NULL);
}

static void tap_proc_on_exec(void *data, struct task_struct *p, pid_t old_pid,
			     struct linux_binprm *bprm)
{
	tap_proc_task_event(TAP_PROC_BEGIN, p, NULL);
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

static void tap_proc_on_sys_enter(void *data, struct pt_regs *regs, long id)
{
	struct tap_proc_event e = { .task = current };

	if (id != __NR_execve || !tap_proc_is_execve(regs))
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

	if (!tap_proc_is_execve(regs))
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
	{ "sched_process_fork", tap_proc_on_fork, TAP_EV(TAP_KP_CREATE) },
	{ "sched_process_exec", tap_proc_on_exec, TAP_EV(TAP_PROC_BEGIN) },
	{ "sched_process_exit", tap_proc_on_exit, TAP_EV(TAP_KP_EXIT) },
	{ "sys_enter", tap_proc_on_sys_enter, TAP_EV(TAP_KP_EXEC) },
	{ "sys_exit", tap_proc_on_sys_exit, TAP_EV(TAP_KP_EXEC_COMPLETE) },
};

/* ---- kprobes ------------------------------------------------------------- */

static int tap_proc_on_schedule_tail(struct kprobe *kp, struct pt_regs *regs)
{
	struct task_struct *t = current;

	tap_proc_task_event(TAP_KP_START, t, regs);
	/* a new process, not a thread of one or a kernel thread */
	if (t->mm && thread_group_leader(t) && !(t->flags & PF_KTHREAD))
		tap_proc_task_event(TAP_PROC_BEGIN, t, regs);
	return 0;
}

/* taskstats_exit(tsk, group_dead): tsk is the exiting current task. */
static int tap_proc_on_taskstats_exit(struct kprobe *kp, struct pt_regs *regs)
{
	struct task_struct *t = current;

	if (regs_get_kernel_argument(regs, 1) && t->mm &&
	    !(t->flags & PF_KTHREAD))
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
	  TAP_EV(TAP_KP_START) | TAP_EV(TAP_PROC_BEGIN) },
	{ { .symbol_name = "taskstats_exit",
	    .pre_handler = tap_proc_on_taskstats_exit },
	  TAP_EV(TAP_PROC_END) },
	{ { .symbol_name = "release_task",
	    .pre_handler = tap_proc_on_release_task },
	  TAP_EV(TAP_KP_RELEASE) },
};

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
	for (i = 0; i < tap_nprocs; i++)
		if (tap_procs[i].has_path)
			path_put(&tap_procs[i].path);
	kfree(tap_procs);
	tap_procs = NULL;
	tap_nprocs = 0;
	tap_proc_events = 0;
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
		ret = kern_path(p->target, LOOKUP_FOLLOW, &tp->path);
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
	char buf[MAXSTRINGLEN];
	long n;

	out[0] = '\0';
	if (!e || !e->filename) {
		if (e)
			tap_strlcpy(out, "NULL", MAXSTRINGLEN);
		return;
	}
	pagefault_disable();
	n = strncpy_from_user(buf, e->filename, sizeof(buf) - 1);
	pagefault_enable();
	if (n < 0) {
		snprintf(out, MAXSTRINGLEN, "0x%lx", (unsigned long)e->filename);
		return;
	}
	buf[n] = '\0';
	tap_string_quoted(out, MAXSTRINGLEN, buf);
}
