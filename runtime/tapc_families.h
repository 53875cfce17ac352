/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tapc's probe families (src/probes/) and the runtime's families
 * (runtime/linux/) must agree on: event numbers and flag bits of the
 * tap_probes[] entries.  Included by tapc_runtime.h and by the compiler,
 * so that neither keeps its own copy.  Constants only.
 */
#ifndef TAPC_FAMILIES_H
#define TAPC_FAMILIES_H

/* TAP_PROBE_PROCESS: .arg[0], the event (runtime/linux/process.c). */
enum tap_process_event {
	TAP_PROC_BEGIN = 1,	/* process.begin */
	TAP_PROC_END,		/* process.end */
	TAP_KP_START,		/* kprocess.start ... (tapsets/kprocess.stp) */
	TAP_KP_EXEC,
	TAP_KP_EXEC_COMPLETE,
	TAP_KP_EXIT,
	TAP_KP_RELEASE,
	TAP_PROC_THREAD_BEGIN,	/* process.thread.begin */
	TAP_PROC_THREAD_END,	/* process.thread.end */
	TAP_PROC_SYSCALL,	/* process.syscall */
	TAP_PROC_SYSCALL_RETURN, /* process.syscall.return */
	TAP_PROC_NEVENTS,
};

/*
 * The event of a process.syscall[.return] hit as the slots its target
 * variables read (struct tap_proc_event begins with them): $syscall,
 * $arg1..$arg6, $return.
 */
enum tap_proc_syscall_slot {
	TAP_PROC_SLOT_NR = 0,
	TAP_PROC_SLOT_ARG1 = 1,		/* ... $arg6 at 6 */
	TAP_PROC_SLOT_RETURN = 7,
	TAP_PROC_NSLOTS,
};

/*
 * TAP_PROBE_NETFILTER: the event a hook's handler runs with, slots of an
 * unsigned long each (runtime/linux/netfilter.c): the hook's number, the
 * packet, the devices, the okfn of struct nf_hook_state, and the address
 * of the hook's verdict (an unsigned int, NF_ACCEPT unless changed).
 */
enum tap_nf_slot {
	TAP_NF_SLOT_HOOKNUM = 0,
	TAP_NF_SLOT_SKB,
	TAP_NF_SLOT_IN,
	TAP_NF_SLOT_OUT,
	TAP_NF_SLOT_OKFN,
	TAP_NF_SLOT_VERDICT,
	TAP_NF_NSLOTS,
};

/* struct tap_probe.flags: TAP_PF_* for every family, then each family's
 * own bits from 0x100 up. */
#define TAP_PF_RETURN		0x1	/* a .return probe */
#define TAP_PERF_PROFILE	0x100	/* timer.profile: cpu-clock, each tick */
#define TAP_PERF_FREQ		0x200	/* u.perf.period is a frequency in Hz */
#define TAP_PERF_TASK		0x400	/* counted in each task of the program
					 * .target; .arg[0]: a counter's
					 * number (@perf), or 0 */
#define TAP_PROCFS_WRITE	0x100	/* procfs(...).write */
#define TAP_PROC_GLOB		0x100	/* process("GLOB").begin ...: .target
					 * is a glob of program paths */
#define TAP_HWBKPT_RW		0x100	/* kernel.data(...).rw, else .write */

#endif
