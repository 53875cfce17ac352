/* The kernel's line rows of a run (klines.h). */
#include <string.h>

#include "dwloc.h"
#include "elaborate.h"
#include "klines.h"

size_t klines_collect(struct linetab *rows, uint64_t *reloc_ref,
		      const struct program *prog)
{
	Dwarf *dbg = NULL;
	size_t functions = 0;

	for (size_t i = 0; i < prog->probes.n; i++) {
		uint64_t pc;
		Dwarf *d = kfunc_kernel_pc(prog->probes.v[i], &pc);

		/* one function's rows once, however many probes it has */
		if (!d || linetab_lookup(rows, pc))
			continue;
		rows->finished = false;
		if (linetab_add_function(rows, d, pc))
			functions++;
		linetab_finish(rows);
		dbg = d;
	}
	if (dbg && !dwloc_symbol(dbg, "jiffies_64", reloc_ref)) {
		linetab_free(rows);	/* rows that could not be placed */
		functions = 0;
	}
	return functions;
}
