// SPDX-License-Identifier: GPL-2.0
/*
 * The module's privilege level (tapc --privilege) and its user: as
 * SystemTap's runtime, the module takes the user who loads it to be the
 * real user of the process that called init_module: tapc-run, installed
 * set-user-ID root, keeps the caller's real uid while it loads.  Nothing
 * the caller passes can change it.
 *
 * A stapusr module (built with --privilege=stapusr) runs process probes
 * only in that user's processes, and tapset C marked myproc-unprivileged
 * only there.  The module's control files belong to that user, so that
 * tapc-run reads them as the user after it dropped root.
 */
#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/cred.h>
#include <linux/sched.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include "tap_internal.h"

/* Modules that do not say (hand-written ones) need the most privilege;
 * the generated file's strong definition replaces this one. */
const unsigned int tap_privilege __weak = TAP_PR_STAPDEV;

kuid_t tap_uid;
kgid_t tap_gid;
/* stp_pid(): the loader (tapc-run, SystemTap's staprun and stapio) */
static pid_t tap_loader_pid;
/* tapc --target-namespaces=PID (tapc-run -N PID): a process id as the
 * loader sees it; 0 for the loader itself */
static int tap_ns_pid;
module_param_named(_tap_ns_pid, tap_ns_pid, int, 0444);
MODULE_PARM_DESC(_tap_ns_pid, "the process whose namespaces ns_*() use (tapc-run -N)");
/* that process's (else the loader's) id in the initial pid namespace,
 * for tap_ns_task(); 0 when no process had that id at load */
static pid_t tap_ns_global_pid;

/* The -N process's id in the initial namespace, found from the loader's
 * namespace, where the caller gave it. */
static pid_t tap_ns_pid_global(void)
{
	struct pid *pid;
	pid_t nr = 0;

	rcu_read_lock();
	pid = find_vpid(tap_ns_pid);
	if (pid)
		nr = pid_nr(pid);
	rcu_read_unlock();
	return nr;
}

void tap_privilege_init(void)
{
	tap_uid = current_uid();
	tap_gid = current_gid();
	tap_loader_pid = task_tgid_vnr(current);
	tap_ns_global_pid = tap_ns_pid > 0 ? tap_ns_pid_global() :
			    task_tgid_nr(current);
}

/*
 * The task whose namespaces ns_pid(), task_ns_uid() and the others
 * answer in: the --target-namespaces process, else as SystemTap's
 * stapio's without it, the loader's (tapc-run's); NULL once it has gone
 * (or when the -N process did not exist).  Caller holds RCU.
 */
struct task_struct *tap_ns_task(void)
{
	if (!tap_ns_global_pid)
		return NULL;
	return pid_task(find_pid_ns(tap_ns_global_pid, &init_pid_ns),
			PIDTYPE_PID);
}

long long tapset_stp_pid(void)
{
	return tap_loader_pid;
}

bool tap_stapusr(void)
{
	/* read from memory: the compiler would take this file's weak
	 * default for the value of the module's definition */
	unsigned int level = READ_ONCE(tap_privilege);

	return !(level & (TAP_PR_STAPDEV | TAP_PR_STAPSYS));
}

bool tap_task_is_users(struct task_struct *t)
{
	bool mine;

	rcu_read_lock();
	mine = uid_eq(__task_cred(t)->euid, tap_uid);
	rcu_read_unlock();
	return mine;
}

int tap_is_myproc(void)
{
	return uid_eq(current_euid(), tap_uid);
}

int tap_assert_myproc(struct tap_context *c)
{
	if (!tap_stapusr() || tap_is_myproc())
		return 0;
	tap_errorf(c, "myproc-unprivileged tapset function called without is_myproc checking for pid %d (euid %d)",
		   current->tgid,
		   from_kuid_munged(current_user_ns(), current_euid()));
	return 1;
}
