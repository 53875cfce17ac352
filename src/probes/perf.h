/* What other passes ask of the perf family: its counters
 * (perf.type(T).config(C)[.process("PATH")].counter("NAME")), which
 * @perf("NAME") reads (src/probes/perf.c).
 */
#ifndef TAPC_PROBES_PERF_H
#define TAPC_PROBES_PERF_H

#include <stdbool.h>

#include "elaborate.h"

/* Whether dp is a .counter("NAME") point: kept even with an empty
 * handler, which it never runs, since @perf reads its event. */
bool perf_is_counter(const struct derived_probe *dp);

/*
 * The number of the counter NAME among the derived probes (struct
 * derived_probe *) that @perf("NAME") may read in a probe of the user
 * program PROGRAM (NULL: the kernel): a counter of that program or of
 * none, as SystemTap matches them; 0 when there is none.
 */
int perf_counter_find(const struct vec *probes, const char *name, const char *program);

#endif
