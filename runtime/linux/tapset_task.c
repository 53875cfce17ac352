// SPDX-License-Identifier: GPL-2.0
/*
 * The task tapset's kernel side: fields of a task_struct whose address a
 * script holds.  That address can be anything (a stale pointer, a number
 * the script made up), so every field is read with the no-fault copy of
 * tap_read_kernel(): a bad address raises SystemTap's read fault error in
 * the hit, never an oops.  Pointers found in a task (its credentials, its
 * files) are read the same way before they are followed.
 */
#include <linux/kernel.h>
#include <linux/build_bug.h>
#include <linux/cred.h>
#include <linux/fdtable.h>
#include <linux/fs_struct.h>
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/prio.h>
#include <linux/sched/signal.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include "tap_internal.h"

/* A task's descriptor table is never longer than this (the default
 * fs.nr_open): a garbage max_fds must not make the count loop for long. */
#define TAPSET_MAX_FDS (1024 * 1024)

/*
 * @len bytes at @addr into @dst, or SystemTap's read fault error, which
 * names the address that could not be read.  Return: true when read.
 */
static bool task_read(struct tap_context *c, void *dst, unsigned long addr,
		      size_t len)
{
	if (!tap_read_kernel(dst, addr, len))
		return true;
	tap_errorf(c, "read fault [man error::fault] at 0x%016lx (addr)", addr);
	return false;
}

/*
 * Whether the @len bytes of a structure at @p can be read, checked at its
 * first and last byte (what lies between is mapped too for a structure
 * the kernel allocated, and garbage in between is what SystemTap would
 * read too); else SystemTap's read fault error.
 */
static bool readable(struct tap_context *c, const void *p, size_t len)
{
	u8 byte;

	return task_read(c, &byte, (unsigned long)p, 1) &&
	       task_read(c, &byte, (unsigned long)p + len - 1, 1);
}

#define TASK_FIELD_ADDR(task, field) \
	((unsigned long)(task) + offsetof(struct task_struct, field))

/* Read field @field of the task at @task into @dst, of its size. */
#define TASK_READ(c, task, field, dst) ({				\
	BUILD_BUG_ON(sizeof(dst) !=					\
		     sizeof(((struct task_struct *)0)->field));		\
	task_read(c, &(dst), TASK_FIELD_ADDR(task, field), sizeof(dst)); \
})

static long long task_read_u64(struct tap_context *c, unsigned long addr)
{
	u64 v;

	return task_read(c, &v, addr, sizeof(v)) ? (long long)v : 0;
}

long long tapset_task_current(void)
{
	return (unsigned long)current;
}

long long tapset_pid2task(long long pid)
{
	struct task_struct *t;

	if (pid <= 0 || pid > PID_MAX_LIMIT)
		return 0;
	rcu_read_lock();
	t = pid_task(find_vpid((pid_t)pid), PIDTYPE_PID);
	rcu_read_unlock();
	return (unsigned long)t;
}

long long tapset_task_field(struct tap_context *c, long long task, long long which)
{
	struct task_struct *t = (struct task_struct *)(unsigned long)task;
	struct task_struct *parent = NULL;
	unsigned int state = 0;
	pid_t id = 0;
	int prio = 0;
	unsigned int cpu = 0;

	switch (which) {
	case TAPSET_TASK_PARENT:
		if (!TASK_READ(c, t, real_parent, parent))
			return 0;
		return (unsigned long)parent;
	case TAPSET_TASK_STATE:
		if (!TASK_READ(c, t, __state, state))
			return 0;
		return state;
	case TAPSET_TASK_TGID:
		if (!TASK_READ(c, t, tgid, id))
			return 0;
		return id;
	case TAPSET_TASK_PID:
		if (!TASK_READ(c, t, pid, id))
			return 0;
		return id;
	case TAPSET_TASK_PRIO:
		if (!TASK_READ(c, t, prio, prio))
			return 0;
		return prio - MAX_RT_PRIO;
	case TAPSET_TASK_NICE:
		if (!TASK_READ(c, t, static_prio, prio))
			return 0;
		return prio - MAX_RT_PRIO - 20;
	case TAPSET_TASK_UTIME:
		return task_read_u64(c, TASK_FIELD_ADDR(t, utime));
	case TAPSET_TASK_STIME:
		return task_read_u64(c, TASK_FIELD_ADDR(t, stime));
	case TAPSET_TASK_START_TIME:
		return task_read_u64(c, TASK_FIELD_ADDR(t, start_boottime));
	case TAPSET_TASK_CPU:
#ifdef CONFIG_THREAD_INFO_IN_TASK
		if (!TASK_READ(c, t, thread_info.cpu, cpu))
			return 0;
#endif
		return cpu;
	}
	return 0;
}

long long tapset_task_comm_addr(long long task)
{
	return TASK_FIELD_ADDR(task, comm);
}

/*
 * The task's credentials, checked readable before they are used (the
 * task may be exiting, or not a task at all).  Return: NULL after an
 * error.
 */
static const struct cred *task_cred_copy(struct tap_context *c,
					 struct task_struct *t,
					 struct cred *copy)
{
	const struct cred *cred;

	if (!TASK_READ(c, t, real_cred, cred))
		return NULL;
	if (!task_read(c, copy, (unsigned long)cred, sizeof(*copy)))
		return NULL;
	if (!readable(c, copy->user_ns, sizeof(struct user_namespace)))
		return NULL;
	return copy;
}

long long tapset_task_cred(struct tap_context *c, long long task, long long which)
{
	struct task_struct *t = (struct task_struct *)(unsigned long)task;
	struct cred copy;
	long long id = 0;

	rcu_read_lock();
	if (!task_cred_copy(c, t, &copy))
		goto out;
	switch (which) {
	case TAPSET_TASK_UID:
		id = from_kuid_munged(copy.user_ns, copy.uid);
		break;
	case TAPSET_TASK_EUID:
		id = from_kuid_munged(copy.user_ns, copy.euid);
		break;
	case TAPSET_TASK_GID:
		id = from_kgid_munged(copy.user_ns, copy.gid);
		break;
	case TAPSET_TASK_EGID:
		id = from_kgid_munged(copy.user_ns, copy.egid);
		break;
	}
out:
	rcu_read_unlock();
	return id;
}

/*
 * The namespaces task_ns_*() and ns_*() answer in: the loader's, as
 * SystemTap's are its stapio's without --target-namespaces.  NULL when
 * the loader has gone.  Caller holds RCU, which keeps both alive.
 */
static struct pid_namespace *target_pid_ns(void)
{
	struct task_struct *t = tap_ns_task();

	return t ? task_active_pid_ns(t) : NULL;
}

static struct user_namespace *target_user_ns(void)
{
	struct task_struct *t = tap_ns_task();

	return t ? __task_cred(t)->user_ns : NULL;
}

/* A pid of @t's in @ns (0 when @ns cannot see it, as SystemTap's). */
static long long task_ns_pid_of(struct task_struct *t, long long which,
				struct pid_namespace *ns)
{
	if (!pid_alive(t))
		return 0;
	switch (which) {
	case TAPSET_TASK_TGID:
		return task_tgid_nr_ns(t, ns);
	case TAPSET_TASK_PID:
		return task_pid_nr_ns(t, ns);
	case TAPSET_TASK_PGRP:
		return task_pgrp_nr_ns(t, ns);
	default:
		return task_session_nr_ns(t, ns);
	}
}

/* A credential of @copy's in @ns (the overflow id when @ns cannot map
 * it, as SystemTap's from_kuid_munged()). */
static long long task_ns_cred_of(const struct cred *copy, long long which,
				 struct user_namespace *ns)
{
	switch (which) {
	case TAPSET_TASK_UID:
		return from_kuid_munged(ns, copy->uid);
	case TAPSET_TASK_EUID:
		return from_kuid_munged(ns, copy->euid);
	case TAPSET_TASK_GID:
		return from_kgid_munged(ns, copy->gid);
	default:
		return from_kgid_munged(ns, copy->egid);
	}
}

long long tapset_task_ns_id(struct tap_context *c, long long task,
			    long long which)
{
	struct task_struct *t = (struct task_struct *)(unsigned long)task;
	struct pid_namespace *pid_ns;
	struct user_namespace *user_ns;
	struct cred copy;
	long long id = 0;

	rcu_read_lock();
	if (!readable(c, t, sizeof(*t)))
		goto out;
	switch (which) {
	case TAPSET_TASK_TGID:
	case TAPSET_TASK_PID:
	case TAPSET_TASK_PGRP:
	case TAPSET_TASK_SID:
		pid_ns = target_pid_ns();
		if (!pid_ns)
			goto unresolved;
		id = task_ns_pid_of(t, which, pid_ns);
		break;
	default:
		user_ns = target_user_ns();
		if (!user_ns)
			goto unresolved;
		if (!task_cred_copy(c, t, &copy))
			goto out;
		id = task_ns_cred_of(&copy, which, user_ns);
		break;
	}
out:
	rcu_read_unlock();
	return id;
unresolved:
	rcu_read_unlock();
	tap_errorf(c, "cannot resolve id in namespace");
	return 0;
}

/* The task's descriptor table, read without faulting.  Return: false
 * after an error. */
static bool task_fdtable(struct tap_context *c, struct task_struct *t,
			 struct fdtable *fdt)
{
	struct files_struct *files;
	struct fdtable *table;

	if (!TASK_READ(c, t, files, files))
		return false;
	if (!task_read(c, &table, (unsigned long)files +
		       offsetof(struct files_struct, fdt), sizeof(table)))
		return false;
	return task_read(c, fdt, (unsigned long)table, sizeof(*fdt));
}

long long tapset_task_max_file_handles(struct tap_context *c, long long task)
{
	struct fdtable fdt;
	long long max = 0;

	rcu_read_lock();
	if (task_fdtable(c, (struct task_struct *)(unsigned long)task, &fdt))
		max = fdt.max_fds;
	rcu_read_unlock();
	return max;
}

long long tapset_task_open_file_handles(struct tap_context *c, long long task)
{
	struct file *chunk[64];
	struct fdtable fdt;
	unsigned int fd, n, i, max;
	long long count = 0;

	rcu_read_lock();
	if (!task_fdtable(c, (struct task_struct *)(unsigned long)task, &fdt))
		goto out;
	max = min_t(unsigned int, fdt.max_fds, TAPSET_MAX_FDS);
	for (fd = 0; fd < max; fd += n) {
		n = min_t(unsigned int, max - fd, ARRAY_SIZE(chunk));
		if (!task_read(c, chunk, (unsigned long)(fdt.fd + fd),
			       n * sizeof(chunk[0])))
			goto out;
		for (i = 0; i < n; i++)
			count += chunk[i] != NULL;
	}
out:
	rcu_read_unlock();
	return count;
}

long long tapset_task_fd_lookup(struct tap_context *c, long long task,
				long long fd)
{
	struct file *file = NULL;
	struct fdtable fdt;

	rcu_read_lock();
	if (!task_fdtable(c, (struct task_struct *)(unsigned long)task, &fdt))
		goto out;
	if (fd >= 0 && fd < fdt.max_fds &&
	    !task_read(c, &file, (unsigned long)(fdt.fd + fd), sizeof(file)))
		goto out;
	if (!file)
		tap_errorf(c, "cannot find file in task");
out:
	rcu_read_unlock();
	return (unsigned long)file;
}

/* Whether @t is a task of the system's task list. */
static bool task_listed(struct task_struct *t)
{
	struct task_struct *p, *thread;
	bool found = false;

	rcu_read_lock();
	for_each_process_thread(p, thread) {
		if (thread == t) {
			found = true;
			goto out;
		}
	}
out:
	rcu_read_unlock();
	return found;
}

long long tapset_task_cwd_path(struct tap_context *c, long long task)
{
	struct task_struct *t = (struct task_struct *)(unsigned long)task;
	struct fs_struct *fs;

	if (!readable(c, t, sizeof(*t)))
		return 0;
	if (!task_listed(t)) {
		tap_errorf(c, "invalid task struct pointer");
		return 0;
	}
	if (!TASK_READ(c, t, fs, fs) || !fs)
		return 0;
	return (unsigned long)&fs->pwd;
}

/*
 * The current task's executable file, not referenced (as SystemTap's, the
 * caller must treat it as a hint): read under RCU, without the task lock a
 * probe may have interrupted the holder of.
 */
long long tapset_current_exe_file(void)
{
	struct mm_struct *mm = current->mm;
	struct file *exe;

	if (!mm)
		return 0;
	rcu_read_lock();
	exe = rcu_dereference(mm->exe_file);
	rcu_read_unlock();
	return (unsigned long)exe;
}

long long tapset_task_rlimit_cur(struct tap_context *c, long long task,
				 long long limit)
{
	struct task_struct *t = (struct task_struct *)(unsigned long)task;
	struct signal_struct *sig;
	unsigned long cur;

	if (limit < 0 || limit >= RLIM_NLIMITS)
		return -1;
	if (!TASK_READ(c, t, signal, sig))
		return 0;
	if (!task_read(c, &cur, (unsigned long)&sig->rlim[limit].rlim_cur,
		       sizeof(cur)))
		return 0;
	return (long)cur;
}
