/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tapc_tapset.h - runtime calls behind the tapset library (tapsets/):
 * context, time, logging, strings, random numbers.  Included by
 * tapc_runtime.h; no kernel headers, so the %{ %} bodies of tapset
 * functions (compiled with the generated code, at any -O level) can call
 * them.  Implemented in runtime/linux/tapset_*.c (kernel facing) and
 * runtime/core/tapset_*.c (portable).
 *
 * String results are written to @out, which has MAXSTRINGLEN bytes (a
 * function's STAP_RETVALUE), and are always NUL-terminated.
 */
#ifndef TAPC_TAPSET_H
#define TAPC_TAPSET_H

struct tap_context;

/* ---- logging.stp ----------------------------------------------------- */

/* warn(): "WARNING: MSG" on the error channel, a newline added if absent. */
void tapset_warn(const char *msg);

/* printk(): MSG and a newline to the kernel log at LEVEL (0..7, else the
 * kernel's default level). */
void tapset_printk(long long level, const char *msg);

/* ftrace(): MSG and a newline into the ftrace ring buffer. */
void tapset_ftrace(const char *msg);

/* ---- system.stp ------------------------------------------------------ */

/* system(): queue CMD for tapc-run, after the hit's output so far; a
 * warning when it is longer than 383 bytes or the queue is full. */
void tapset_system(struct tap_context *c, const char *cmd);

/* ---- string.stp, tokenize.stp ---------------------------------------- */

void tapset_substr(char *out, const char *str, long long start,
		   long long length);
/* stringat(): raises "Position out of bounds" in @c (the result is 0). */
long long tapset_stringat(struct tap_context *c, const char *str,
			  long long pos);
long long tapset_isinstr(const char *s1, const char *s2);
long long tapset_strpos(const char *s1, const char *s2);
void tapset_str_replace(char *out, const char *prnt, const char *srch,
			const char *rplc);
long long tapset_strtol(const char *str, long long base);
long long tapset_isdigit(const char *str);
void tapset_text_str(char *out, const char *in);
void tapset_text_strn(char *out, const char *in, long long len,
		      long long quoted);
void tapset_string_quoted(char *out, const char *in);
/* tokenize(): one saved string for the whole module, as SystemTap has. */
void tapset_tokenize(char *out, const char *input, const char *delim);

/* ---- context.stp ----------------------------------------------------- */

/* The task the probe runs in (for begin/end probes, a kernel worker). */
long long tapset_pid(void);
long long tapset_tid(void);
long long tapset_ppid(void);
long long tapset_pgrp(void);
long long tapset_sid(void);
long long tapset_uid(void);
long long tapset_euid(void);
long long tapset_gid(void);
long long tapset_egid(void);
void tapset_execname(char *out);
void tapset_pexecname(char *out);
/* ppfunc(): the function named in probe point @pp, or "" (@out: MAXSTRINGLEN). */
void tapset_ppfunc(const char *pp, char *out);
long long tapset_cpu(void);
void tapset_module_name(char *out);
/* stp_pid(): the process id of the tapc-run that loaded the module. */
long long tapset_stp_pid(void);
/* module_size(): "DATAdata/TEXTtext/CTXctx/NETnet/ALLOCalloc kb";
 * remote_id(), remote_uri(): tapc-run -r N:URI's, else -1 and "". */
void tapset_module_size(char *out);
long long tapset_remote_id(void);
void tapset_remote_uri(char *out);

/* ---- task.stp: a task_struct by address (runtime/linux/tapset_task.c) */

/*
 * @task is whatever address the script passes: every read is fault-safe
 * and a bad address raises SystemTap's "read fault [man error::fault] at
 * 0x... (addr)" in @c (the result is then 0).
 */
long long tapset_task_current(void);
/* The task of process id @pid as the current task sees it, or 0. */
long long tapset_pid2task(long long pid);

/* tapset_task_field(): which field */
#define TAPSET_TASK_PARENT	0	/* real_parent's address */
#define TAPSET_TASK_STATE	1	/* __state */
#define TAPSET_TASK_TGID	2	/* task_pid(): the thread group id */
#define TAPSET_TASK_PID		3	/* task_tid(): the thread id */
#define TAPSET_TASK_PRIO	4	/* prio - MAX_RT_PRIO */
#define TAPSET_TASK_NICE	5	/* static_prio - MAX_RT_PRIO - 20 */
#define TAPSET_TASK_CPU		6	/* the CPU it last ran on */
#define TAPSET_TASK_UTIME	7	/* user time, ns (the kernel's cputime) */
#define TAPSET_TASK_STIME	8	/* system time, ns */
#define TAPSET_TASK_START_TIME	9	/* start_boottime: ns since boot */
long long tapset_task_field(struct tap_context *c, long long task,
			    long long which);
/* The address of the task's comm[] (nothing is read). */
long long tapset_task_comm_addr(long long task);

/* tapset_task_cred() and tapset_task_ns_id(): which id */
#define TAPSET_TASK_UID		10
#define TAPSET_TASK_EUID	11
#define TAPSET_TASK_GID		12
#define TAPSET_TASK_EGID	13
#define TAPSET_TASK_PGRP	14	/* tapset_task_ns_id() only */
#define TAPSET_TASK_SID		15	/* tapset_task_ns_id() only */
/* The task's real credentials, in its own user namespace. */
long long tapset_task_cred(struct tap_context *c, long long task,
			   long long which);
/*
 * task_ns_*() and ns_*(): TAPSET_TASK_TGID, _PID, _PGRP, _SID or a
 * credential as the namespaces of the loader (tapc-run) see them: a pid
 * they cannot see is 0, a user or group id they cannot map the overflow
 * id (65534); raises "cannot resolve id in namespace" once the loader
 * has gone.
 */
long long tapset_task_ns_id(struct tap_context *c, long long task,
			    long long which);
/* The size of the task's descriptor table, and its open descriptors. */
long long tapset_task_max_file_handles(struct tap_context *c, long long task);
long long tapset_task_open_file_handles(struct tap_context *c, long long task);
/* The struct file * of descriptor @fd; raises "cannot find file in task". */
long long tapset_task_fd_lookup(struct tap_context *c, long long task,
				long long fd);
/* &task->fs->pwd (0 without an fs); raises "invalid task struct pointer"
 * for an address that is no task of the task list. */
long long tapset_task_cwd_path(struct tap_context *c, long long task);
/* The current task's executable file (struct file *, no reference), or 0. */
long long tapset_current_exe_file(void);
/* rlim_cur of resource @limit (RLIMIT_*), -1 for a limit out of range. */
long long tapset_task_rlimit_cur(struct tap_context *c, long long task,
				 long long limit);

/* ---- cmdline.stp, envvar.stp, loadavg.stp (tapset_process.c) ------- */

/*
 * The current process's arguments @first..@last (every one from @first
 * when @last < @first; 0 is the program) joined with @delim, cut at
 * MAXSTRINGLEN; "" for a kernel thread or memory that cannot be read
 * without faulting.
 */
void tapset_cmdline_args(char *out, long long first, long long last,
			 const char *delim);
/* env_var(): the value of @name in its environment, or "". */
void tapset_env_var(char *out, const char *name);
/* get_loadavg_index(): the integer part of the 1, 5 or 15 minute load
 * average (index 0, 1, 2); raises "Invalid loadavg index N specified.". */
long long tapset_loadavg_index(struct tap_context *c, long long index);
/* sprint_loadavg(): "0.12 0.05 0.01\n", as SystemTap prints it. */
void tapset_sprint_loadavg(char *out);

/* ---- signal.stp, dev.stp (tapset_signal.c) ------------------------- */

/* signal_str(): "KILL" ... as SystemTap names them, "" out of 1..64. */
void tapset_signal_str(char *out, long long num);
/* sa_flags_str(): "SIGINFO|RESTART|RESTORER" ... */
void tapset_sa_flags_str(char *out, long long flags);
/* sigset_mask_str(): "2,15" for bits 1 and 14 ... */
void tapset_sigset_mask_str(char *out, long long mask);
/* is_sig_blocked(): whether @sig is in @task's blocked set; faults as
 * the task functions. */
long long tapset_is_sig_blocked(struct tap_context *c, long long task,
				long long sig);
/* get_sa_handler() (@handler) and get_sa_flags() of the struct
 * k_sigaction at @act; faults as the task functions. */
long long tapset_sigaction_field(struct tap_context *c, long long act,
				 long long handler);

/* ---- memory.stp, proc_mem.stp (tapset_vm.c) -------------------------- */

/* the GFP flags @flags in SystemTap's words: "GFP_KERNEL", or the bits
 * joined by " | " ("__GFP_WAIT | __GFP_IO | __GFP_FS | __GFP_ZERO ..."). */
void tapset_gfp_flag_str(char *out, long long flags);
/* vm_fault_contains(): whether fault result @value is of SystemTap's
 * kind @test (VM_FAULT_OOM 0 ... VM_FAULT_ERROR 6). */
long long tapset_vm_fault_contains(long long value, long long test);
/* addr_to_node(): the NUMA node of kernel address @addr; an address
 * outside the direct map is an error. */
long long tapset_addr_to_node(struct tap_context *c, long long addr);
/* mem_page_size(): PAGE_SIZE. */
long long tapset_page_size(void);
/* GFP_KERNEL() (memory.stp's SystemTap helper): the kernel's value. */
long long tapset_gfp_kernel(void);
/* _IS_ZERO_PAGE(): whether struct page @page is the zero page that user
 * address @vaddr reads before it is written. */
long long tapset_is_zero_page(long long page, long long vaddr);
/* the current task's pages of counter @member not yet in @mm's counts
 * (0 when @mm is not the current task's). */
long long tapset_mm_counter_pending(long long mm, long long member);

/* ---- irq.stp (tapset_irq.c) ------------------------------------------ */

/* irqflags_str(): "IRQF_SHARED|IRQF_ONESHOT", other bits as "|0x...". */
void tapset_irqflags_str(char *out, long long flags);

/* ---- socket.stp (tapset_socket.c) ----------------------------------- */

/* the name tables of sock_*_num2str(), sock_*_str2num(),
 * tcp_sockstate_str(), tcp_sockopt_str(), tcp_ipv6_sockopt_str() */
enum tapset_sock_table {
	TAPSET_SOCK_PROT, TAPSET_SOCK_FAM, TAPSET_SOCK_STATE, TAPSET_SOCK_TYPE,
	TAPSET_TCP_STATE, TAPSET_TCP_SOCKOPT, TAPSET_IPV6_SOCKOPT
};
/* sock_prot_num2str() ...: the name of @num in @table, "UNDEF" if none
 * ("UNDEF_SOCKOPT(N)" for the option tables). */
void tapset_sock_num2str(char *out, int table, long long num);
/* sock_prot_str2num() ...: the number of @name in @table, -1 if none. */
long long tapset_sock_str2num(int table, const char *name);
/* sock_flags_num2str(): "ASYNC_NOSPACE|NOSPACE" ... of sock->flags. */
void tapset_sock_flags_str(char *out, long long flags);
/* msg_flags_num2str(): "PEEK|DONTWAIT" ... of MSG_* flags. */
void tapset_msg_flags_str(char *out, long long flags);

/* ---- timestamp.stp, ctime.stp ---------------------------------------- */

long long tapset_gettimeofday_ns(void);
long long tapset_local_clock_ns(void);
/* cpu_clock_ns(cpu): raises SystemTap's "cpu CPU is not online" for a
 * CPU that does not exist or is offline (the result is 0). */
long long tapset_cpu_clock_ns(struct tap_context *c, long long cpu);
long long tapset_get_cycles(void);
long long tapset_jiffies(void);
long long tapset_hz(void);

/*
 * ctime(): "Wed Jun 30 21:49:08 1993" (GMT) for seconds since the epoch,
 * for -2^31 <= @secs < 2^31.  Return: NULL, or the error SystemTap raises
 * for a time outside that range (@out is then "").
 */
const char *tapset_ctime(char *out, long long secs);

/* tzinfo.stp: the local time zone tapc-run passed at load: seconds west
 * of UTC, and its name ("" when it passed none). */
long long tapset_tz_gmtoff(void);
void tapset_tz_name(char *out);

/* ---- floatingpoint.stp ------------------------------------------------ */

/* binary64 arithmetic on bit patterns, in integers (self-contained:
 * no kernel header) */
#include "core/softfloat.h"

/* ---- random.stp ------------------------------------------------------ */

/* A random number in [0, @n) for @n as an unsigned long; 0 for @n == 0. */
long long tapset_random(long long n);

/* ---- syscalls.stp, aux_syscalls.stp, uconversions.stp ---------------- */

/*
 * The system call of a syscall.* or syscall_any hit: its number (x86-64's,
 * or i386's for a 32-bit call; -1 in any other probe), argument @i (1..6,
 * from the user registers, a 32-bit call's zero-extended; 0 elsewhere),
 * the same as a C long (a 32-bit call's sign-extended) and, in a return
 * probe, its return value.
 */
long long tapset_syscall_nr(struct tap_context *c);
long long tapset_syscall_arg(struct tap_context *c, long long i);
long long tapset_syscall_long(struct tap_context *c, long long i);
/* A 64-bit offset at argument @i (a 32-bit call's in @i and @i + 1). */
long long tapset_syscall_loff(struct tap_context *c, long long i);
long long tapset_syscall_ret(struct tap_context *c);
/* @__compat_task: 1 when the current task is a 32-bit (compat) process. */
long long tapset_compat_task(void);
/* syscall_name(): the kernel's name of a number of the current task's
 * ABI ("read" ...), "" for an unknown one; syscall_num(): back, or -1
 * (tapset_sysnum.c). */
void tapset_syscall_name(char *out, long long nr);
long long tapset_syscall_num(const char *name);
/* errno_str(): "ENOENT" ..., or "E#N" for an unknown number. */
void tapset_errno_str(char *out, long long err);
/* return_str(): "-2 (ENOENT)" for an error, else decimal (format 1), hex
 * (2) or octal (3). */
void tapset_return_str(char *out, long long format, long long ret);
/* Flag decoders of the argstr formats, as SystemTap prints them. */
void tapset_open_flag_str(char *out, long long flags);
void tapset_mprotect_prot_str(char *out, long long prot);
void tapset_mmap_flags_str(char *out, long long flags);
void tapset_access_mode_str(char *out, long long mode);
void tapset_at_flag_str(char *out, long long flags);
void tapset_fork_flags_str(char *out, long long flags);
void tapset_signal_name(char *out, long long sig);
/* _struct_timespec_u(): "[SEC.NSEC]" for @n (1 or 2) timespecs at @uaddr
 * ("[UTIME_NOW]", "[UTIME_OMIT]" for those nanoseconds), "NULL" for 0,
 * the address in hex when unreadable. */
void tapset_timespec_u(char *out, long long uaddr, long long n);
/* _struct_compat_timespec_u(): the same of a 32-bit program's. */
void tapset_compat_timespec_u(char *out, long long uaddr, long long n);
/* The socket calls' decoders (tapset_sockcall.c): _msg_flags_str(),
 * _sock_family_str(), _sock_type_str(), _sock_flags_str(),
 * _sock_protocol_str(), _shutdown_how_str(), _sockopt_level_str(),
 * _sockopt_optname_str(); tapset_sc_sockaddr_u(): _struct_sockaddr_u() and
 * its parts (@what: 1 all, 2 address, 4 port, 8 family, 16 flow
 * information, 32 scope). */
void tapset_sc_msg_flags_str(char *out, long long flags);
void tapset_sc_sock_family_str(char *out, long long family);
void tapset_sc_sock_type_str(char *out, long long type);
void tapset_sc_sock_flags_str(char *out, long long flags);
void tapset_sc_sock_protocol_str(char *out, long long family, long long protocol);
void tapset_sc_shutdown_how_str(char *out, long long how);
void tapset_sc_sockopt_level_str(char *out, long long level);
void tapset_sc_sockopt_optname_str(char *out, long long opt);
void tapset_sc_sockaddr_u(char *out, long long uaddr, long long len, long long what);
/* The file-system and splice calls' decoders (tapset_sys_sysfb.c):
 * _mknod_mode_str(), _mountflags_str(), _umountflags_str(),
 * _renameat2_flags_str(), _statx_mask_str(), _swapon_flags_str(),
 * _stp_splice_flags_str(), _sync_file_range_flags_str(),
 * _quotactl_cmd_str(), _quotactl_subcmd(), _quotactl_quota_type_str(),
 * _struct_dqblk_u(), _struct_dqinfo_u(), _nfsctl_cmd_str(). */
void tapset_sysfb_mknod_mode_str(char *out, long long mode);
void tapset_sysfb_mountflags_str(char *out, long long flags);
void tapset_sysfb_umountflags_str(char *out, long long flags);
void tapset_sysfb_preadv2_flags_str(char *out, long long flags);
void tapset_sysfb_renameat2_flags_str(char *out, long long flags);
void tapset_sysfb_statx_mask_str(char *out, long long mask);
void tapset_sysfb_swapon_flags_str(char *out, long long flags);
void tapset_sysfb_splice_flags_str(char *out, long long flags);
void tapset_sysfb_sync_file_range_flags_str(char *out, long long flags);
void tapset_sysfb_quotactl_cmd_str(char *out, long long cmd);
long long tapset_sysfb_quotactl_subcmd(long long cmd);
void tapset_sysfb_quotactl_quota_type_str(char *out, long long fmt);
void tapset_sysfb_dqblk_u(char *out, long long uaddr);
void tapset_sysfb_dqinfo_u(char *out, long long uaddr);
void tapset_sysfb_nfsctl_cmd_str(char *out, long long cmd);
/* The time, timer and signal calls' decoders (tapset_sys_systime.c), as
 * SystemTap's aux_syscalls prints them: _get_wc_str(),
 * _stp_clock_nanosleep_flags_str(), _stp_timerfd_flags_str(),
 * _itimer_which_str(), _struct_timeval_u() (@n 1 or 2),
 * _struct_timezone_u(), _struct_itimerspec_u(), _struct_itimerval_u(),
 * _struct_timex_u(), _adjtimex_return_str(), _struct_tms_u(),
 * _struct_utimbuf_actime()/_modtime() (@modtime 0 or 1),
 * _stp_sigset_u(), _stp_sigmask_str() (a mask given by value),
 * _sigprocmask_how_str(), _sighandler_str(), _struct_sigaction_u(),
 * _stp_siginfo_u(), _stp_sigaltstack_u(), _signalfd4_flags_str(),
 * _epoll_create1_flag_str(), _opoll_op_str().  The _u ones read user
 * memory without faulting: "NULL" for 0, the address in hex when
 * unreadable. */
void tapset_st_clockid_str(char *out, long long wc);
void tapset_st_nanosleep_flags_str(char *out, long long flags);
void tapset_st_timerfd_flags_str(char *out, long long flags);
void tapset_st_itimer_which_str(char *out, long long which);
void tapset_st_timeval_u(char *out, long long uaddr, long long n);
void tapset_st_timezone_u(char *out, long long uaddr);
void tapset_st_itimerspec_u(char *out, long long uaddr);
void tapset_st_itimerval_u(char *out, long long uaddr);
void tapset_st_timex_u(char *out, long long uaddr);
void tapset_st_adjtimex_return_str(char *out, long long ret);
void tapset_st_tms_u(char *out, long long uaddr);
long long tapset_st_utimbuf_field(long long uaddr, long long modtime);
/* The same decoders of a 32-bit program's structures (SystemTap's
 * _struct_compat_timeval_u(), _struct_compat_itimerval_u(),
 * _struct_compat_itimerspec_u(), _stp_compat_siginfo_u(),
 * _stp_compat_sigaltstack_u(),
 * _struct_compat_timex_u(), _struct_compat_utimbuf_*(),
 * _struct_sigaction32_u() and _struct_old_sigaction32_u()). */
void tapset_st_compat_timeval_u(char *out, long long uaddr, long long n);
void tapset_st_compat_itimerval_u(char *out, long long uaddr);
void tapset_st_compat_itimerspec_u(char *out, long long uaddr);
void tapset_st_compat_siginfo_u(char *out, long long uaddr);
void tapset_st_compat_tms_u(char *out, long long uaddr);
void tapset_st_compat_sigaltstack_u(char *out, long long uaddr);
void tapset_st_compat_timex_u(char *out, long long uaddr);
long long tapset_st_compat_utimbuf_field(long long uaddr, long long modtime);
void tapset_st_sigaction32_u(char *out, long long uaddr);
void tapset_st_old_sigaction32_u(char *out, long long uaddr);
void tapset_st_sigset_u(char *out, long long uaddr);
void tapset_st_sigmask_str(char *out, long long mask);
void tapset_st_sigprocmask_how_str(char *out, long long how);
void tapset_st_sighandler_str(char *out, long long handler);
void tapset_st_sigaction_u(char *out, long long uaddr);
void tapset_st_siginfo_u(char *out, long long uaddr);
void tapset_st_sigaltstack_u(char *out, long long uaddr);
void tapset_st_signalfd4_flags_str(char *out, long long flags);
void tapset_st_epoll_create1_flag_str(char *out, long long flags);
void tapset_st_epoll_op_str(char *out, long long op);
/* The process, scheduling and machine calls' decoders (tapset_sys_sysproc.c):
 * _stp_arch_prctl_func_str(), _getrandom_flags_str(), _rusage_who_str(),
 * _stp_ioprio_which_str(), _stp_ioprio_value_str(), _kcmp_type_str(),
 * _rlimit_resource_str(), _struct_rlimit_u(), _priority_which_str(),
 * _sched_policy_str(), _struct_sched_attr_u(), _seccomp_op_str(),
 * _seccomp_flags_str(), _struct_sysinfo_u(), _struct_user_desc_u(),
 * _reboot_magic_str(), _reboot_flag_str(), _wait4_opt_str(),
 * _waitid_which_str(), _membarrier_cmd_str(), _wait_status_str();
 * tapset_sp_wait4_status_str(): wait4.return's status_str ("N/A" for
 * @ret <= 0, "NULL" for no @uaddr, else the status stored there). */
void tapset_sp_arch_prctl_func_str(char *out, long long code);
void tapset_sp_getrandom_flags_str(char *out, long long flags);
void tapset_sp_rusage_who_str(char *out, long long who);
void tapset_sp_ioprio_which_str(char *out, long long which);
void tapset_sp_ioprio_value_str(char *out, long long value);
void tapset_sp_kcmp_type_str(char *out, long long type);
void tapset_sp_rlimit_resource_str(char *out, long long resource);
void tapset_sp_struct_rlimit_u(char *out, long long uaddr);
void tapset_sp_priority_which_str(char *out, long long which);
void tapset_sp_sched_policy_str(char *out, long long policy);
void tapset_sp_struct_sched_attr_u(char *out, long long uaddr);
void tapset_sp_seccomp_op_str(char *out, long long op);
void tapset_sp_seccomp_flags_str(char *out, long long flags);
/* _struct_compat_rlimit_u(), _struct_compat_sysinfo_u(): a 32-bit
 * program's. */
void tapset_sp_struct_compat_rlimit_u(char *out, long long uaddr);
void tapset_sp_struct_compat_sysinfo_u(char *out, long long uaddr);
void tapset_sp_struct_sysinfo_u(char *out, long long uaddr);
void tapset_sp_struct_user_desc_u(char *out, long long uaddr);
void tapset_sp_reboot_magic_str(char *out, long long magic);
void tapset_sp_reboot_flag_str(char *out, long long flag);
void tapset_sp_wait4_opt_str(char *out, long long options);
void tapset_sp_waitid_which_str(char *out, long long which);
void tapset_sp_membarrier_cmd_str(char *out, long long cmd);
void tapset_sp_wait_status_str(char *out, long long f);
void tapset_sp_wait4_status_str(char *out, long long ret, long long uaddr);
/* The memory, IPC, futex, key, bpf, perf, kexec and module calls'
 * decoders (tapset_sys_sysmem.c, aux_sys_sysmem.stp): tapset_sm_decode()
 * looks @val up in decoder @which (TAPSET_SM_*: the numbers the script
 * functions pass); the others are the decoders with more than one part. */
enum {
	TAPSET_SM_MADVISE, TAPSET_SM_MEMPOLICY_FLAGS, TAPSET_SM_MLOCK2,
	TAPSET_SM_MLOCKALL, TAPSET_SM_MREMAP, TAPSET_SM_MSYNC, TAPSET_SM_PKEY_INIT,
	TAPSET_SM_MFD, TAPSET_SM_USERFAULTFD, TAPSET_SM_MSGFLG, TAPSET_SM_SHMAT,
	TAPSET_SM_FUTEX_OP, TAPSET_SM_KEYCTL_CMD, TAPSET_SM_KEYRING,
	TAPSET_SM_DEFAULT_KEYRING, TAPSET_SM_KEY_PERM, TAPSET_SM_BPF_CMD,
	TAPSET_SM_PERF_FLAGS, TAPSET_SM_KEXEC, TAPSET_SM_KEXEC_FILE,
	TAPSET_SM_MODULE, TAPSET_SM_FINIT_MODULE, TAPSET_SM_COUNT
};
void tapset_sm_decode(char *out, long long which, long long val);
void tapset_sm_mempolicy_mode_str(char *out, long long mode);
void tapset_sm_ipc_cmd_str(char *out, long long cmd, long long sem);
void tapset_sm_sem_flags(char *out, long long flags);
void tapset_sm_shmget_flags_str(char *out, long long flags);
void tapset_sm_futex_wake_op_str(char *out, long long encoded);
/* The file calls' decoders (tapset_sys_sysfa.c, aux_sys_sysfa.stp):
 * _fadvice_advice_str(), _stp_fallocate_mode_str(),
 * _fanotify_init_flags_str(), _fanotify_mark_flags_str(),
 * _fanotify_mark_mask_str(), _fcntl_cmd_str(), _flock_cmd_str(),
 * _inotify_watch_mask_str(), _dup3_flag_str(), _faccessat2_flags_str(),
 * _inotify_init1_flag_str(), _sys_pipe2_flag_str(), _eventfd2_flag_str(),
 * _stp_xattr_flags_str(); tapset_sc_xattr_val_str(): _stp_xattr_val_str(),
 * the first 50 bytes of an extended attribute's value at @uaddr. */
void tapset_sc_fadvice_advice_str(char *out, long long advice);
void tapset_sc_fallocate_mode_str(char *out, long long mode);
void tapset_sc_fanotify_init_flags_str(char *out, long long flags);
void tapset_sc_fanotify_mark_flags_str(char *out, long long flags);
void tapset_sc_fanotify_mark_mask_str(char *out, long long mask);
void tapset_sc_fcntl_cmd_str(char *out, long long cmd);
void tapset_sc_flock_cmd_str(char *out, long long op);
void tapset_sc_inotify_watch_mask_str(char *out, long long mask);
void tapset_sc_dup3_flag_str(char *out, long long flags);
void tapset_sc_faccessat2_flags_str(char *out, long long flags);
void tapset_sc_inotify_init1_flag_str(char *out, long long flags);
void tapset_sc_pipe2_flag_str(char *out, long long flags);
void tapset_sc_eventfd2_flag_str(char *out, long long flags);
/* _fildes_index_u(): descriptor @index of the pipe pair at @uaddr, 0
 * when unreadable. */
long long tapset_sc_fildes_index_u(long long uaddr, long long index);
void tapset_sc_xattr_flags_str(char *out, long long flags);
void tapset_sc_xattr_val_str(char *out, long long uaddr, long long size);

/*
 * User memory of the current task, never faulting: at most @n bytes of
 * the string at @addr into @out (NUL-terminated; @out has MAXSTRINGLEN
 * bytes).  Return: 0, or -EFAULT (@out is then "").
 */
long long tapset_user_string_copy(char *out, long long addr, long long n);
/* user_string_n_quoted(): quoted and escaped, "..." appended when cut at
 * @outlen; the address in hex when unreadable. */
void tapset_user_string_quoted(char *out, long long addr, long long inlen,
			       long long outlen);
/* user_buffer_quoted(): @inlen bytes at @addr (NULs included) quoted and
 * escaped, at most @outlen characters with the `"...` of a cut string;
 * the address in hex when unreadable. */
void tapset_user_buffer_quoted(char *out, long long addr, long long inlen,
			       long long outlen);
/* @size (1, 2, 4, 8) bytes at @addr into *@val, sign-extended if
 * @is_signed.  Return: 0, or -EFAULT. */
long long tapset_user_read(long long addr, long long size, long long is_signed,
			   long long *val);

/* ---- registers.stp: registers, arguments, where the probe is ------- */

/*
 * The registers of the probed point (tap_context.regs): NULL for begin,
 * end and timer probes, where the functions that need them raise
 * SystemTap's errors in @c (the result is then 0 or "").  x86-64.
 */
long long tapset_registers_valid(struct tap_context *c);
long long tapset_user_mode(struct tap_context *c);
/* A .return probe of a kernel event family. */
long long tapset_is_return(struct tap_context *c);
/* addr(): the instruction pointer, 0 without registers; uaddr(): the
 * user-space one of the current task, 0 for a kernel thread. */
long long tapset_addr(struct tap_context *c);
long long tapset_uaddr(struct tap_context *c);
/*
 * DWARF target variables: the value of DWARF register @regno (x86-64
 * numbering, 0-16) at the probed point, raising SystemTap's error in @c
 * without registers; and the offset the kernel image runs at from its
 * link-time addresses, given jiffies_64's link-time address.
 */
unsigned long tap_dwarf_reg(struct tap_context *c, unsigned int regno);
unsigned long tap_kernel_reloc(unsigned long jiffies_64_link);
/* Where symbol tap_modsyms[@k] of a module is, as it was looked up when the
 * script started; raises an error in @c (and is 0) if it was not found. */
unsigned long tap_module_symbol(struct tap_context *c, unsigned int k);
/* Register tap_entryvals[@k] as the current task last entered its
 * function, saved by the companion kprobe there; raises an error in @c
 * (and is 0) when no value was saved for this task. */
unsigned long tap_entry_value(struct tap_context *c, unsigned int k);
/* register("rax"), "eax", "ax", "al" ...: sign-extended, or not (u_register). */
long long tapset_register(struct tap_context *c, const char *name,
			  long long sign_extend);
/* Argument @n (1-based) of the probed function: registers di si dx cx r8
 * r9, then the stack (read fault-safe); @truncate keeps 32 bits,
 * sign-extended if @sign_extend. */
long long tapset_arg(struct tap_context *c, long long n, long long sign_extend,
		     long long truncate);
long long tapset_returnval(struct tap_context *c);
/* returnstr(): as return_str() of returnval(), "N/A" without registers. */
void tapset_returnstr(struct tap_context *c, char *out, long long format);
/* probefunc(): the kernel function at addr(), else the address in hex. */
void tapset_probefunc(struct tap_context *c, char *out);
/* probemod(): the module("NAME") of the probe point, else the module (or
 * "kernel") at addr(); raises "Cannot determine kernel module name". */
void tapset_probemod(struct tap_context *c, char *out);

/* ---- target variables ($ptr->field ...; runtime/linux/tapset_deref.c) - */

/*
 * Kernel memory read for a target variable, never faulting: @size (1, 2,
 * 4 or 8) bytes at @addr, sign-extended if @is_signed.  An unreadable
 * address raises SystemTap's "read fault [man error::fault] at 0x... (addr)"
 * in @c (the result is then 0).
 */
long long tap_deref(struct tap_context *c, unsigned long addr, int size,
		    int is_signed);
/* A bit field of @bits bits starting @bitpos bits into the byte at @addr
 * (little-endian), sign-extended if @is_signed; faults as tap_deref(). */
long long tap_deref_bits(struct tap_context *c, unsigned long addr,
			 unsigned int bitpos, unsigned int bits, int is_signed);
/* Piece @off..@off+@size of a variable the DWARF puts in pieces, into
 * @buf (MAXSTRINGLEN bytes, the probe's scratch): the low bytes of value
 * @v, or with @in_mem the bytes at address @v (faults as tap_deref()). */
void tap_dwarf_piece(struct tap_context *c, char *buf, unsigned int off, unsigned int size,
		     int in_mem, unsigned long v);
/* The NUL-terminated string at @addr, quoted and escaped as
 * string_quoted() does, into @out (MAXSTRINGLEN bytes): pretty-printing's
 * char pointers and arrays.  A kernel probe's is read from the kernel's
 * memory or else the current task's (a __user pointer), and faults as
 * tap_deref() when neither can be read. */
void tap_deref_cstring(struct tap_context *c, char *out, unsigned long addr);
/* Guru-mode target variable writes: @size (1, 2, 4, 8) bytes of @val at
 * @addr, raising SystemTap's "write fault" in @c instead of faulting; and
 * DWARF register @regno of the probed point's pt_regs set to @val. */
void tap_store(struct tap_context *c, unsigned long addr, int size, long long val);
/* A bit field (as tap_deref_bits() reads it) set to the low @bits bits of
 * @val, its neighbours in the same bytes kept. */
void tap_store_bits(struct tap_context *c, unsigned long addr, unsigned int bitpos,
		    unsigned int bits, long long val);
/* The same for a user-space probe's variables: the current task's
 * memory at user address @addr (a string that cannot be read is its
 * address in hex, as user_string_quoted() gives it). */
long long tap_uderef(struct tap_context *c, unsigned long addr, int size,
		     int is_signed);
long long tap_uderef_bits(struct tap_context *c, unsigned long addr,
			  unsigned int bitpos, unsigned int bits, int is_signed);
void tap_uderef_cstring(struct tap_context *c, char *out, unsigned long addr);
void tap_ustore(struct tap_context *c, unsigned long addr, int size, long long val);
void tap_ustore_bits(struct tap_context *c, unsigned long addr, unsigned int bitpos,
		     unsigned int bits, long long val);
/* A user-space probe's load bias: where its binary is mapped in the
 * current process minus its link-time addresses (0 for a non-PIE
 * executable); statics are read at link-time address + bias. */
unsigned long tap_uprobe_bias(struct tap_context *c);
/* The current (probed) thread's user thread pointer, the FS base: where
 * its executable's thread-local variables end. */
unsigned long tap_user_thread_pointer(struct tap_context *c);
/* The current thread's thread-local block of the shared library the
 * dynamic linker numbered @modid (its DTV entry). */
unsigned long tap_user_tls_block(struct tap_context *c, unsigned long modid);
void tap_set_dwarf_reg(struct tap_context *c, unsigned int regno, unsigned long val);

/* ---- @perf("NAME") (runtime/linux/perf.c) ---------------------------- */

/* The perf counter numbered @id (its probe's .arg[0]) in the current task
 * or on this CPU; 0 where it does not count. */
long long tap_perf_read(struct tap_context *c, int id);

/* ---- kprocess.stp (runtime/linux/process.c) -------------------------- */

/*
 * The event of a kprocess.* probe (__tapc_kprocess.* points); each returns
 * 0 (or "") in a probe of another kind or for an event without the value.
 */
/* The task the event is about (created, exiting, released): its address. */
long long tapset_kprocess_task(struct tap_context *c);
/* Its process id (thread group id) and thread id. */
long long tapset_kprocess_pid(struct tap_context *c);
long long tapset_kprocess_tid(struct tap_context *c);
/* kprocess.exit: the exit code as do_exit() got it (status << 8, or the
 * signal number). */
long long tapset_kprocess_code(struct tap_context *c);
/* kprocess.exec: the program's path as user_string_quoted() gives it. */
void tapset_kprocess_filename(struct tap_context *c, char *out);
/* kprocess.exec: the user addresses of execve's argv and envp. */
long long tapset_kprocess_argv(struct tap_context *c);
long long tapset_kprocess_envp(struct tap_context *c);
/* kprocess.exec_complete: the system call's return value. */
long long tapset_kprocess_retval(struct tap_context *c);

/* ---- conversions.stp: kernel memory ---------------------------------- */

/*
 * Fault-safe reads: @size (1, 2, 4 or 8) bytes at kernel address @addr
 * into *@val, sign-extended.  Return: 0, or -EFAULT (*@val is then 0).
 */
long long tapset_kernel_read(long long addr, long long size,
			     long long *val);
/* At most @n (0..MAXSTRINGLEN - 1) bytes of the string at @addr into
 * @out, NUL-terminated.  Return: 0, or -EFAULT (@out is then ""). */
long long tapset_kernel_string_copy(char *out, long long addr, long long n);
/* kernel_string_quoted(): quoted and escaped, or the address in hex. */
void tapset_kernel_string_quoted(char *out, long long addr);
/* Guru-mode writes of @size bytes, or of at most @n bytes of @val and a
 * NUL.  Return: 0, or -EFAULT (nothing is written then). */
long long tapset_kernel_write(long long addr, long long size, long long val);
long long tapset_kernel_write_string(long long addr, const char *val,
				     long long n);

/* ---- the rest of the conversions (runtime/linux/tapset_convert.c) ---- */

/*
 * kernel_string_utf16() and the others: the UTF-16 (@unit 2) or UTF-32
 * (@unit 4) string at @addr, kernel memory or with @user the current
 * task's, as UTF-8 into @out.  Raises SystemTap's "... string copy fault"
 * or "invalid UTF-16 character U+X at ADDR" in @c.
 */
void tapset_string_utf(struct tap_context *c, char *out, long long addr,
		       long long unit, long long user);
/* kernel_buffer_quoted(), user_buffer_quoted_error(): @inlen bytes at
 * @addr quoted and escaped (NULs as "\0"), at most @outlen characters.
 * Return: 0, or -EFAULT when unreadable or @outlen is 0. */
long long tapset_buffer_quoted(char *out, long long addr, long long inlen,
			       long long outlen, long long user);
/* kernel_buffer_quoted(): as tapset_buffer_quoted(), and on -EFAULT the
 * address in hex, cut to @outlen - 1 characters. */
void tapset_kernel_buffer_quoted(char *out, long long addr, long long inlen,
				 long long outlen);
/* Guru-mode writes of the current task's memory: @size bytes of @val, or
 * at most @n bytes of @val and a NUL.  Return: 0, or -EFAULT. */
long long tapset_user_write(long long addr, long long size, long long val);
long long tapset_user_write_string(long long addr, const char *val, long long n);
/* set_int_arg() and the others: the low @size bytes of system call
 * argument @n (1-6) in a syscall probe's user registers; SystemTap's
 * errors elsewhere. */
void tapset_set_arg(struct tap_context *c, long long n, long long size,
		    long long val);
/* guru-delay.stp, guru-signal.stp, panic.stp */
void tapset_mdelay(long long ms);
void tapset_udelay(long long us);
void tapset_raise(struct tap_context *c, long long signo);
void tapset_panic(const char *msg);
/* errno_p(): |@err| when it is a known error number, else 0. */
long long tapset_errno_p(long long err);

/* ---- backtrace.stp: kernel stacks and symbols ------------------------ */

#ifndef MAXBACKTRACE
#define MAXBACKTRACE 20		/* addresses in a backtrace */
#endif

/* SystemTap's formats of one address (see backtrace.stp). */
void tapset_symname(char *out, long long addr);
void tapset_symdata(char *out, long long addr);
/* The module's name, "kernel"; or -ENOENT and "" for no symbol. */
long long tapset_modname(char *out, long long addr);
/* The hit's kernel stack: from c->regs when they are kernel registers,
 * else from the current stack less this module's frames at its top. */
void tapset_print_backtrace(struct tap_context *c);
void tapset_backtrace(struct tap_context *c, char *out);
void tapset_sprint_backtrace(struct tap_context *c, char *out);
/* print_backtrace_fileline(): print_backtrace()'s lines with
 * " at FILE:LINE" where the module has the address's line. */
void tapset_print_backtrace_fileline(struct tap_context *c);
/* print_syms(), sprint_syms(): the hex addresses of @stk, symbolised. */
void tapset_print_syms(struct tap_context *c, const char *stk);
void tapset_sprint_syms(char *out, const char *stk);
/* stack(n), callers(n): raise "reached end of stack before unwinding to
 * level N" past the stack's end. */
long long tapset_stack(struct tap_context *c, long long n);
void tapset_callers(struct tap_context *c, char *out, long long n);

/* ---- File names and lines (runtime/linux/tapset_lines.c) ------------- */

/* What symfileline() and its siblings give: the file, the line or both
 * ("FILE:LINE"); the address in hex where the module has no line. */
#define TAP_LINE_FILE	1
#define TAP_LINE_NUMBER	2
void tapset_symfileline(char *out, long long addr, long long what);
void tapset_usymfileline(char *out, long long addr, long long what);

/* ---- ucontext*.stp: user symbols and stacks (runtime/linux/tapset_ustack.c) */

/* The symbol at user address @addr, or @addr in hex. */
void tapset_usymname(char *out, long long addr);
/* "NAME+0xOFF/0xSIZE [PATH]", "0xADDR [PATH+0xOFF/0xSIZE]" or "0xADDR". */
void tapset_usymdata(char *out, long long addr);
/* The path of the file mapped at @addr; or -ENOENT and "". */
long long tapset_umodname(char *out, long long addr);
/* The current task's user stack, one line an address (@brief: names
 * only); hex addresses (at most @max, all when negative); lines. */
void tapset_print_ubacktrace(struct tap_context *c, int brief);
void tapset_ubacktrace(struct tap_context *c, char *out, long long max);
/* ucallers(n), ustack(n): as callers() and stack() for the user stack */
void tapset_ucallers(struct tap_context *c, char *out, long long n);
long long tapset_ustack(struct tap_context *c, long long n);
/* print_usyms(), sprint_usyms(): " WORD : USYMDATA" lines */
void tapset_print_usyms(struct tap_context *c, const char *stk);
void tapset_sprint_usyms(char *out, const char *stk);
/* umodaddr(), umodbuildid(): raise "umod... 0xADDR unknown" */
long long tapset_umodaddr(struct tap_context *c, long long addr);
void tapset_umodbuildid(struct tap_context *c, char *out, long long addr);
void tapset_sprint_ubacktrace(struct tap_context *c, char *out);
/* print_ubacktrace_fileline(): print_ubacktrace()'s lines with
 * " at FILE:LINE" where the binary's line table has the address. */
void tapset_print_ubacktrace_fileline(struct tap_context *c);
/* print_ustack(), sprint_ustack(): the hex addresses of @stk, symbolised. */
void tapset_print_ustack(struct tap_context *c, const char *stk);
void tapset_sprint_ustack(char *out, const char *stk);
/* The kernel stack of the task at @task as hex addresses ("" for an
 * address that is no live task). */
void tapset_task_backtrace(struct tap_context *c, char *out, long long task);

/* ---- netfilter probes (runtime/linux/netfilter.c) */

/* $indev_name, $outdev_name: the name of the device in slot @slot of a
 * netfilter hit's event (enum tap_nf_slot), "" without one. */
const char *tap_netfilter_devname(struct tap_context *c, int slot);

/* ---- procfs("PATH").read/.write probes: $value (runtime/linux/procfs.c) */

/* A write probe's $value: the data written (at most MAXSTRINGLEN - 1
 * bytes, and less than the file's read buffer), NUL-terminated. */
const char *tap_procfs_value(struct tap_context *c);
/*
 * A read probe's "$value = s" and "$value .= s": the file's content, in
 * its buffer of .maxsize(N) or MAXSTRINGLEN bytes, NUL included.  What
 * does not fit is cut and raises "buffer size exceeded, consider
 * .maxsize(N)." with the size it would need.  Return: 0, or nonzero after
 * raising that error.
 */
int tap_procfs_set(struct tap_context *c, const char *s);
int tap_procfs_append(struct tap_context *c, const char *s);

/* ---- ctxinfo.stp, namespaces.stp, pn.stp (runtime/linux/tapset_ctxinfo.c) */

/* print_regs(): SystemTap's x86-64 register dump; nothing without registers */
void tapset_print_regs(struct tap_context *c);
long long tapset_stack_size(void);
long long tapset_stack_used(void);
long long tapset_stack_unused(void);
/* probe_type(): "kprobe", "begin_end" ... as SystemTap names them */
void tapset_probe_type(struct tap_context *c, char *out);
void tapset_pn(struct tap_context *c, char *out);
void tapset_pnlabel(struct tap_context *c, char *out);
long long tapset_probing_32bit_app(struct tap_context *c);
void tapset_regparm(struct tap_context *c, long long n);
long long tapset_ktime_get_ns(void);
long long tapset_ns_ppid(struct tap_context *c);
void tapset_dump_stack(void);

#endif /* TAPC_TAPSET_H */
