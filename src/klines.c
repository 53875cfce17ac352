/* The kernel's line rows of a run (klines.h). */
#include <stdlib.h>
#include <string.h>

#include "dwloc.h"
#include "elaborate.h"
#include "klines.h"
#include "umod.h"
#include "util.h"

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

/* The group of @modsym in @groups, made (with its anchor) if new; NULL
 * when the module's ELF has no such symbol. */
static struct kmod_lines *module_group(struct kmod_lines **groups, size_t *n, Dwarf *dbg,
				       const char *module, const char *symbol)
{
	char *modsym = xasprintf("%s:%s", module, symbol);
	struct kmod_lines *g;
	uint64_t anchor, lo, hi;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*groups)[i].modsym, modsym)) {
			free(modsym);
			return &(*groups)[i];
		}
	if (!dwloc_symbol_section(dbg, symbol, &anchor, &lo, &hi)) {
		free(modsym);
		return NULL;
	}
	*groups = xrealloc(*groups, (*n + 1) * sizeof(**groups));
	g = &(*groups)[(*n)++];
	memset(g, 0, sizeof(*g));
	g->modsym = modsym;
	g->anchor = anchor;
	g->sec_lo = lo;
	g->sec_hi = hi;
	return g;
}

size_t klines_collect_modules(struct kmod_lines **groups, size_t *n,
			      const struct program *prog)
{
	size_t functions = 0;

	for (size_t i = 0; i < prog->probes.n; i++) {
		const char *module, *symbol;
		uint64_t pc;
		Dwarf *d = kfunc_module_pc(prog->probes.v[i], &pc, &module, &symbol);
		struct kmod_lines *g = d ? module_group(groups, n, d, module, symbol) : NULL;

		/* one function's rows once, however many probes it has */
		if (!g || linetab_lookup(&g->rows, pc))
			continue;
		g->rows.finished = false;
		if (linetab_add_function(&g->rows, d, pc))
			functions++;
		linetab_finish(&g->rows);
		/* the other sections of the function (its cold part) are
		 * placed apart from the symbol's at run time */
		linetab_keep(&g->rows, g->sec_lo, g->sec_hi);
	}
	return functions;
}
