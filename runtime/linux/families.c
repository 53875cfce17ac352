// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel event families of the runtime.  Each lives in its own file
 * and registers only the probes of tap_probes[] of its kind.
 */
#include "tap_internal.h"

extern const struct tap_family tap_family_umods;
extern const struct tap_family tap_family_entryval;
extern const struct tap_family tap_family_kprobe;
extern const struct tap_family tap_family_syscall;
extern const struct tap_family tap_family_perf;
extern const struct tap_family tap_family_process;
extern const struct tap_family tap_family_trace;
extern const struct tap_family tap_family_procfs;
extern const struct tap_family tap_family_hwbkpt;
extern const struct tap_family tap_family_uprobe;
extern const struct tap_family tap_family_netfilter;

const struct tap_family *const tap_families[] = {
	&tap_family_umods,	/* first: the user binaries, for every probe */
	&tap_family_entryval,	/* before the probes that read its values,
				 * stopped after them */
	&tap_family_kprobe,
	&tap_family_syscall,
	&tap_family_perf,
	&tap_family_process,
	&tap_family_trace,
	&tap_family_procfs,
	&tap_family_hwbkpt,
	&tap_family_uprobe,
	&tap_family_netfilter,
	NULL
};
