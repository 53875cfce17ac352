// SPDX-License-Identifier: GPL-2.0
/*
 * The context tapset's kernel side: who and where the probe runs.  Begin
 * and end probes run in a kernel worker and timers in interrupt context,
 * so these describe whatever task the CPU was running, as SystemTap's do.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/cred.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include "tap_internal.h"

long long tapset_pid(void)
{
	return current->tgid;
}

long long tapset_tid(void)
{
	return current->pid;
}

long long tapset_ppid(void)
{
	long long ppid;

	rcu_read_lock();
	ppid = rcu_dereference(current->real_parent)->tgid;
	rcu_read_unlock();
	return ppid;
}

long long tapset_pgrp(void)
{
	return pid_vnr(task_pgrp(current));
}

long long tapset_sid(void)
{
	return pid_vnr(task_session(current));
}

long long tapset_uid(void)
{
	return from_kuid_munged(current_user_ns(), current_uid());
}

long long tapset_euid(void)
{
	return from_kuid_munged(current_user_ns(), current_euid());
}

long long tapset_gid(void)
{
	return from_kgid_munged(current_user_ns(), current_gid());
}

long long tapset_egid(void)
{
	return from_kgid_munged(current_user_ns(), current_egid());
}

void tapset_execname(char *out)
{
	strscpy(out, current->comm, MAXSTRINGLEN);
}

void tapset_pexecname(char *out)
{
	rcu_read_lock();
	strscpy(out, rcu_dereference(current->real_parent)->comm,
		MAXSTRINGLEN);
	rcu_read_unlock();
}

/*
 * ppfunc(): the function a probe point names, as SystemTap parses it out
 * of pp(): the quoted name of its .function("...") or .statement("..."),
 * up to an '@FILE', else "".
 */
void tapset_ppfunc(const char *pp, char *out)
{
	static const char *const comps[] = { "function(\"", "statement(\"" };
	const char *name = NULL;
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(comps) && !name; i++) {
		name = strstr(pp, comps[i]);
		if (name)
			name += strlen(comps[i]);
	}
	out[0] = '\0';
	if (!name)
		return;
	len = strcspn(name, "@\"");
	if (len > MAXSTRINGLEN - 1)
		len = MAXSTRINGLEN - 1;
	memcpy(out, name, len);
	out[len] = '\0';
}

long long tapset_cpu(void)
{
	return raw_smp_processor_id();
}

void tapset_module_name(char *out)
{
	strscpy(out, THIS_MODULE->name, MAXSTRINGLEN);
}
