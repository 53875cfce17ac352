// SPDX-License-Identifier: GPL-2.0
/*
 * The decoders of the process, scheduling, resource-limit and machine
 * system calls' argstr (arch_prctl, getrusage, ioprio_set, kcmp,
 * prlimit64, sched_setattr, seccomp, reboot, wait4, waitid, membarrier,
 * get_thread_area, sysinfo ...), as SystemTap's aux_syscalls tapset
 * prints them: the names of codes and flag sets from its lists (which
 * are shorter than the kernel's: a value they lack prints as a number),
 * and user-space structures ("[1024,4096]" for a struct rlimit).
 * The script side is tapsets/aux_sys_sysproc.stp.
 */
#include <linux/ioprio.h>
#include <linux/kcmp.h>
#include <linux/kernel.h>
#include <linux/membarrier.h>
#include <linux/ptrace.h>
#include <linux/random.h>
#include <linux/reboot.h>
#include <linux/resource.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <linux/string.h>
#include <linux/sysinfo.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <uapi/linux/sched/types.h>
#include <asm/ldt.h>
#include <asm/prctl.h>
#include "tap_internal.h"
#include "tap_syscall.h"

/* A user structure of @size bytes at @uaddr into @dst; "NULL" into @out
 * for 0 and the address in hex when unreadable (then nonzero). */
static int tap_sp_copy_struct(char *out, long long uaddr, void *dst, size_t size)
{
	if (!uaddr) {
		strscpy(out, "NULL", MAXSTRINGLEN);
		return -EFAULT;
	}
	if (copy_from_user_nofault(dst, (const void __user *)(unsigned long)uaddr, size)) {
		snprintf(out, MAXSTRINGLEN, "0x%lx", (unsigned long)uaddr);
		return -EFAULT;
	}
	return 0;
}

static const struct tap_flag tap_arch_prctl_codes[] = {
	TAP_FLAG(ARCH_SET_FS), TAP_FLAG(ARCH_GET_FS), TAP_FLAG(ARCH_SET_GS),
	TAP_FLAG(ARCH_GET_GS), { 0, NULL }
};

void tapset_sp_arch_prctl_func_str(char *out, long long code)
{
	out[0] = '\0';
	tap_flag_lookup_base(tap_arch_prctl_codes, (int)code, true, out);
}

static const struct tap_flag tap_getrandom_flags[] = {
	TAP_FLAG(GRND_NONBLOCK), TAP_FLAG(GRND_RANDOM), { 0, NULL }
};

void tapset_sp_getrandom_flags_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(tap_getrandom_flags, (unsigned int)flags, out);
}

/* RUSAGE_CHILDREN and RUSAGE_BOTH are negative: compared as 32 bits. */
static const struct tap_flag tap_rusage_who[] = {
	TAP_FLAG(RUSAGE_SELF),
	{ (unsigned int)RUSAGE_CHILDREN, "RUSAGE_CHILDREN" },
	{ (unsigned int)RUSAGE_BOTH, "RUSAGE_BOTH" },
	TAP_FLAG(RUSAGE_THREAD), { 0, NULL }
};

void tapset_sp_rusage_who_str(char *out, long long who)
{
	out[0] = '\0';
	tap_flag_lookup(tap_rusage_who, (unsigned int)who, out);
}

static const struct tap_flag tap_ioprio_who[] = {
	TAP_FLAG(IOPRIO_WHO_PROCESS), TAP_FLAG(IOPRIO_WHO_PGRP),
	TAP_FLAG(IOPRIO_WHO_USER), { 0, NULL }
};

void tapset_sp_ioprio_which_str(char *out, long long which)
{
	out[0] = '\0';
	tap_flag_lookup_base(tap_ioprio_who, (int)which, true, out);
}

static const struct tap_flag tap_ioprio_classes[] = {
	TAP_FLAG(IOPRIO_CLASS_NONE), TAP_FLAG(IOPRIO_CLASS_RT),
	TAP_FLAG(IOPRIO_CLASS_BE), TAP_FLAG(IOPRIO_CLASS_IDLE), { 0, NULL }
};

/* "CLASS|DATA": the class's name and the priority data in decimal. */
void tapset_sp_ioprio_value_str(char *out, long long value)
{
	unsigned int prio = (unsigned int)value;
	size_t len;

	out[0] = '\0';
	tap_flag_lookup(tap_ioprio_classes, IOPRIO_PRIO_CLASS(prio), out);
	len = strlen(out);
	snprintf(out + len, MAXSTRINGLEN - len, "|%d", (int)IOPRIO_PRIO_DATA(prio));
}

/* SystemTap's list stops before KCMP_EPOLL_TFD (which prints as 0x7). */
static const struct tap_flag tap_kcmp_types[] = {
#ifdef CONFIG_CHECKPOINT_RESTORE
	TAP_FLAG(KCMP_FILE), TAP_FLAG(KCMP_VM), TAP_FLAG(KCMP_FILES),
	TAP_FLAG(KCMP_FS), TAP_FLAG(KCMP_SIGHAND), TAP_FLAG(KCMP_IO),
	TAP_FLAG(KCMP_SYSVSEM), TAP_FLAG(KCMP_TYPES),
#endif
	{ 0, NULL }
};

void tapset_sp_kcmp_type_str(char *out, long long type)
{
	out[0] = '\0';
	tap_flag_lookup(tap_kcmp_types, (unsigned int)type, out);
}

static const struct tap_flag tap_rlimit_resources[] = {
	{ (unsigned int)RLIM_INFINITY, "RLIM_INFINITY" },
	TAP_FLAG(RLIMIT_CPU), TAP_FLAG(RLIMIT_FSIZE), TAP_FLAG(RLIMIT_DATA),
	TAP_FLAG(RLIMIT_STACK), TAP_FLAG(RLIMIT_CORE), TAP_FLAG(RLIMIT_RSS),
	TAP_FLAG(RLIMIT_NPROC), TAP_FLAG(RLIMIT_NOFILE), TAP_FLAG(RLIMIT_MEMLOCK),
	TAP_FLAG(RLIMIT_AS), TAP_FLAG(RLIMIT_LOCKS), TAP_FLAG(RLIMIT_SIGPENDING),
	TAP_FLAG(RLIMIT_MSGQUEUE), TAP_FLAG(RLIMIT_NICE), TAP_FLAG(RLIMIT_RTPRIO),
	TAP_FLAG(RLIMIT_RTTIME), TAP_FLAG(RLIM_NLIMITS), { 0, NULL }
};

void tapset_sp_rlimit_resource_str(char *out, long long resource)
{
	out[0] = '\0';
	tap_flag_lookup(tap_rlimit_resources, (unsigned int)resource, out);
}

/* "[CUR,MAX]", signed: RLIM_INFINITY shows as -1. */
void tapset_sp_struct_rlimit_u(char *out, long long uaddr)
{
	struct rlimit rl;

	if (tap_sp_copy_struct(out, uaddr, &rl, sizeof(rl)))
		return;
	snprintf(out, MAXSTRINGLEN, "[%ld,%ld]", (long)rl.rlim_cur, (long)rl.rlim_max);
}

static const struct tap_flag tap_priority_which[] = {
	TAP_FLAG(PRIO_PROCESS), TAP_FLAG(PRIO_PGRP), TAP_FLAG(PRIO_USER), { 0, NULL }
};

void tapset_sp_priority_which_str(char *out, long long which)
{
	out[0] = '\0';
	tap_flag_lookup(tap_priority_which, (unsigned int)which, out);
}

/* SCHED_NORMAL under its POSIX name. */
static const struct tap_flag tap_sched_policies[] = {
	{ SCHED_NORMAL, "SCHED_OTHER" }, TAP_FLAG(SCHED_FIFO), TAP_FLAG(SCHED_RR),
	TAP_FLAG(SCHED_BATCH), TAP_FLAG(SCHED_IDLE), TAP_FLAG(SCHED_DEADLINE),
	{ 0, NULL }
};

/* The policy's name, after "SCHED_RESET_ON_FORK|" when a positive
 * policy carries that flag. */
void tapset_sp_sched_policy_str(char *out, long long policy)
{
	unsigned int rest = (unsigned int)policy;

	out[0] = '\0';
	if ((int)policy > 0 && (rest & SCHED_RESET_ON_FORK)) {
		strscpy(out, "SCHED_RESET_ON_FORK|", MAXSTRINGLEN);
		rest &= ~SCHED_RESET_ON_FORK;
	}
	tap_flag_lookup(tap_sched_policies, rest, out);
}

void tapset_sp_struct_sched_attr_u(char *out, long long uaddr)
{
	struct sched_attr sa;

	if (tap_sp_copy_struct(out, uaddr, &sa, sizeof(sa)))
		return;
	snprintf(out, MAXSTRINGLEN,
		 "{size=%u, sched_policy=%u, sched_flags=%llu, sched_nice=%d, "
		 "sched_priority=%u, sched_runtime=%llu, sched_deadline=%llu, "
		 "sched_period=%llu}",
		 sa.size, sa.sched_policy, (unsigned long long)sa.sched_flags,
		 sa.sched_nice, sa.sched_priority,
		 (unsigned long long)sa.sched_runtime,
		 (unsigned long long)sa.sched_deadline,
		 (unsigned long long)sa.sched_period);
}

static const struct tap_flag tap_seccomp_ops[] = {
	TAP_FLAG(SECCOMP_SET_MODE_STRICT), TAP_FLAG(SECCOMP_SET_MODE_FILTER),
	{ 0, NULL }
};

void tapset_sp_seccomp_op_str(char *out, long long op)
{
	out[0] = '\0';
	tap_flag_lookup(tap_seccomp_ops, (unsigned int)op, out);
}

/* One name for the whole value, as SystemTap (not a '|' set). */
static const struct tap_flag tap_seccomp_flags[] = {
	TAP_FLAG(SECCOMP_FILTER_FLAG_TSYNC), { 0, NULL }
};

void tapset_sp_seccomp_flags_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_lookup(tap_seccomp_flags, (unsigned int)flags, out);
}

/* A 32-bit program's rlimit: two 32-bit words, all ones for
 * RLIM_INFINITY (printed -1, as the native one's). */
void tapset_sp_struct_compat_rlimit_u(char *out, long long uaddr)
{
	u32 rl[2];

	if (tap_sp_copy_struct(out, uaddr, rl, sizeof(rl)))
		return;
	snprintf(out, MAXSTRINGLEN, "[%lld,%lld]",
		 rl[0] == U32_MAX ? -1LL : (long long)rl[0],
		 rl[1] == U32_MAX ? -1LL : (long long)rl[1]);
}

/* A 32-bit program's sysinfo (compat_sysinfo: 32-bit fields). */
void tapset_sp_struct_compat_sysinfo_u(char *out, long long uaddr)
{
	struct {
		s32 uptime;
		u32 loads[3];
		u32 totalram, freeram, sharedram, bufferram, totalswap, freeswap;
		u16 procs;
	} si;

	if (tap_sp_copy_struct(out, uaddr, &si, sizeof(si)))
		return;
	snprintf(out, MAXSTRINGLEN,
		 "{uptime=%d, loads=[%u, %u, %u], totalram=%u, freeram=%u, "
		 "sharedram=%u, bufferram=%u, totalswap=%u, freeswap=%u, procs=%u}",
		 si.uptime, si.loads[0], si.loads[1], si.loads[2], si.totalram,
		 si.freeram, si.sharedram, si.bufferram, si.totalswap, si.freeswap,
		 (unsigned int)si.procs);
}

void tapset_sp_struct_sysinfo_u(char *out, long long uaddr)
{
	struct sysinfo si;

	if (tap_sp_copy_struct(out, uaddr, &si, sizeof(si)))
		return;
	snprintf(out, MAXSTRINGLEN,
		 "{uptime=%ld, loads=[%lu, %lu, %lu], totalram=%lu, freeram=%lu, "
		 "sharedram=%lu, bufferram=%lu, totalswap=%lu, freeswap=%lu, procs=%u}",
		 (long)si.uptime, (unsigned long)si.loads[0],
		 (unsigned long)si.loads[1], (unsigned long)si.loads[2],
		 (unsigned long)si.totalram, (unsigned long)si.freeram,
		 (unsigned long)si.sharedram, (unsigned long)si.bufferram,
		 (unsigned long)si.totalswap, (unsigned long)si.freeswap,
		 (unsigned int)si.procs);
}

void tapset_sp_struct_user_desc_u(char *out, long long uaddr)
{
	struct user_desc ud;

	if (tap_sp_copy_struct(out, uaddr, &ud, sizeof(ud)))
		return;
	snprintf(out, MAXSTRINGLEN,
		 "{entry_number=%u, base_addr=%u, limit=%u, seg_32bit=%u, contents=%u, "
		 "read_exec_only=%u, limit_in_pages=%u, seg_not_present=%u, useable=%u, "
		 "lm=%u}",
		 ud.entry_number, ud.base_addr, ud.limit, ud.seg_32bit, ud.contents,
		 ud.read_exec_only, ud.limit_in_pages, ud.seg_not_present, ud.useable,
		 ud.lm);
}

static const struct tap_flag tap_reboot_magics[] = {
	TAP_FLAG(LINUX_REBOOT_MAGIC1), TAP_FLAG(LINUX_REBOOT_MAGIC2),
	TAP_FLAG(LINUX_REBOOT_MAGIC2A), TAP_FLAG(LINUX_REBOOT_MAGIC2B),
	TAP_FLAG(LINUX_REBOOT_MAGIC2C), { 0, NULL }
};

void tapset_sp_reboot_magic_str(char *out, long long magic)
{
	out[0] = '\0';
	tap_flag_lookup(tap_reboot_magics, (unsigned int)magic, out);
}

static const struct tap_flag tap_reboot_cmds[] = {
	TAP_FLAG(LINUX_REBOOT_CMD_RESTART), TAP_FLAG(LINUX_REBOOT_CMD_HALT),
	TAP_FLAG(LINUX_REBOOT_CMD_CAD_ON), TAP_FLAG(LINUX_REBOOT_CMD_CAD_OFF),
	TAP_FLAG(LINUX_REBOOT_CMD_POWER_OFF), TAP_FLAG(LINUX_REBOOT_CMD_RESTART2),
	TAP_FLAG(LINUX_REBOOT_CMD_SW_SUSPEND), TAP_FLAG(LINUX_REBOOT_CMD_KEXEC),
	{ 0, NULL }
};

void tapset_sp_reboot_flag_str(char *out, long long flag)
{
	out[0] = '\0';
	tap_flag_lookup(tap_reboot_cmds, (unsigned int)flag, out);
}

/* In SystemTap's order (WEXITED before WSTOPPED), which is the order of
 * the names in a set; WSTOPPED is WUNTRACED. */
static const struct tap_flag tap_wait_options[] = {
	TAP_FLAG(WNOHANG), TAP_FLAG(WEXITED), TAP_FLAG(WSTOPPED),
	TAP_FLAG(WCONTINUED), TAP_FLAG(WNOWAIT), TAP_FLAG(__WNOTHREAD),
	TAP_FLAG(__WALL), TAP_FLAG(__WCLONE), { 0, NULL }
};

void tapset_sp_wait4_opt_str(char *out, long long options)
{
	out[0] = '\0';
	tap_flag_or(tap_wait_options, (unsigned int)options, out);
}

static const struct tap_flag tap_waitid_which[] = {
	TAP_FLAG(P_ALL), TAP_FLAG(P_PID), TAP_FLAG(P_PGID), { 0, NULL }
};

void tapset_sp_waitid_which_str(char *out, long long which)
{
	out[0] = '\0';
	tap_flag_lookup(tap_waitid_which, (unsigned int)which, out);
}

/* MEMBARRIER_CMD_SHARED is MEMBARRIER_CMD_GLOBAL's old name. */
static const struct tap_flag tap_membarrier_cmds[] = {
#ifdef CONFIG_MEMBARRIER
	TAP_FLAG(MEMBARRIER_CMD_QUERY), TAP_FLAG(MEMBARRIER_CMD_SHARED),
#endif
	{ 0, NULL }
};

void tapset_sp_membarrier_cmd_str(char *out, long long cmd)
{
	out[0] = '\0';
	tap_flag_lookup(tap_membarrier_cmds, (unsigned int)cmd, out);
}

/* The ptrace events a SIGTRAP stop reports in bits 16 and up of a wait
 * status, as far as SystemTap names them. */
static const struct tap_flag tap_ptrace_events[] = {
	TAP_FLAG(PTRACE_EVENT_FORK), TAP_FLAG(PTRACE_EVENT_VFORK),
	TAP_FLAG(PTRACE_EVENT_CLONE), TAP_FLAG(PTRACE_EVENT_EXEC),
	TAP_FLAG(PTRACE_EVENT_VFORK_DONE), TAP_FLAG(PTRACE_EVENT_EXIT),
	{ 0, NULL }
};

static const char *tap_ptrace_event_name(long long event)
{
	const struct tap_flag *f;

	for (f = tap_ptrace_events; f->name; f++)
		if ((long long)f->val == event)
			return f->name;
	return NULL;
}

/* _wait_status_str(): the status word's kind (the WIF* tests of wait(2),
 * in 64 bits as SystemTap's script computes them) and value, then bits
 * 16 and up. */
void tapset_sp_wait_status_str(char *out, long long f)
{
	char tail[64] = "";
	const char *event;
	long long sig;
	size_t len;

	if (f >> 16)
		snprintf(tail, sizeof(tail), " | 0x%llx", f & ~0xffffLL);
	if ((f & 0x7f) == 0) {
		snprintf(out, MAXSTRINGLEN, "WEXITSTATUS=%lld%s", (f & 0xff00) >> 8, tail);
		return;
	}
	if ((f & 0x7f) != 0x7f) {
		if (f & 0x80) {
			snprintf(out, MAXSTRINGLEN, "WCOREDUMP%s", tail);
			return;
		}
		strscpy(out, "WTERMSIG=", MAXSTRINGLEN);
		sig = f & 0x7f;
	} else if ((f & 0xff) == 0x7f) {
		if (((f & 0xff00) >> 8) == SIGTRAP) {
			event = tap_ptrace_event_name(f >> 16);
			if (event)
				snprintf(tail, sizeof(tail), " | %s << 8", event);
		}
		strscpy(out, "WSTOPSIG=", MAXSTRINGLEN);
		sig = (f & 0xff00) >> 8;
	} else if (f == 0xffff) {
		snprintf(out, MAXSTRINGLEN, "WIFCONTINUED%s", tail);
		return;
	} else {
		snprintf(out, MAXSTRINGLEN, "?=0x%llx", f);
		return;
	}
	len = strlen(out);
	tapset_signal_name(out + len, sig);
	strlcat(out, tail, MAXSTRINGLEN);
}

void tapset_sp_wait4_status_str(char *out, long long ret, long long uaddr)
{
	int status = 0;

	if (ret <= 0) {
		strscpy(out, "N/A", MAXSTRINGLEN);
		return;
	}
	if (!uaddr) {
		strscpy(out, "NULL", MAXSTRINGLEN);
		return;
	}
	if (copy_from_user_nofault(&status, (const void __user *)(unsigned long)uaddr,
				   sizeof(status)))
		status = 0;
	tapset_sp_wait_status_str(out, status);
}
