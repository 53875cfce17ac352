/* The one list of probe families (see family.h).  A new family is one
 * line here; its file defines `const struct probe_family
 * probe_family_NAME`.  The order is the order in which pass 2 tries the
 * families' patterns, and so the order of the probes one point derives. */
#include "probes/family.h"

#include <stdlib.h>

#define PROBE_FAMILIES(F) \
	F(begin_end)	/* begin, end, error */ \
	F(never)	/* never: checked, never run */ \
	F(timer)	/* timer.s(N) ... timer.jiffies(N), timer.hz(N) */ \
	F(perf)		/* timer.profile, perf.type(T).config(C) */ \
	F(process)	/* process.begin/end, kprocess events */ \
	F(kprobe)	/* kprobe.function("F") ... */ \
	F(kfunc)	/* kernel.function("F"), module("M").function("F") ... */ \
	F(syscall)	/* the system call tapset's __syscall(NR) ... */ \
	F(trace)	/* kernel.trace("NAME") */ \
	F(procfs)	/* procfs("PATH").read/.write */ \
	F(netfilter)	/* netfilter.hook("H").pf("PF")[.priority("P")] */ \
	F(kdata)	/* kernel.data(ADDR|"SYM")[.length(N)].write/.rw */ \
	F(uprobe)	/* process("PATH").function/.statement/.plt ... */ \
	F(sdt)		/* process("PATH")[.provider("P")].mark("NAME") */ \
	F(unavail)	/* kernel.mark, process.insn ...: SystemTap's errors */

#define DECLARE_FAMILY(name) extern const struct probe_family probe_family_##name;
#define LIST_FAMILY(name) &probe_family_##name,

PROBE_FAMILIES(DECLARE_FAMILY)

const struct probe_family *const probe_families[] = {
	PROBE_FAMILIES(LIST_FAMILY)
	NULL
};

bool family_all_unprivileged(const struct point_pattern *pat)
{
	(void)pat;
	return true;
}

void family_free_data(const struct probe_family *fam, void *data)
{
	if (!data)
		return;
	if (fam && fam->free_data)
		fam->free_data(data);
	else
		free(data);
}
