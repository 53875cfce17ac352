/* Probe point text, as SystemTap prints it: the one printer of probe
 * points (-p2, -l and -L, pp(), -t's derivation). */
#ifndef TAPC_PPTEXT_H
#define TAPC_PPTEXT_H

#include <stddef.h>

#include "ast.h"
#include "util.h"

/* The op of an E_NUM argument a family puts in the point it names a
 * probe by (its derived_point hook): print the number as SystemTap
 * prints an address, "0x" and unsigned hex digits. */
#define PP_NUM_HEX 'x'

/* Components [from, to) of pp appended to sb: "name(arg).name...", with
 * a '.' first when sb already holds text. */
void pp_comps_text(struct strbuf *sb, const struct probe_point *pp, size_t from, size_t to);
/* The components only: what pp() and -l print ("timer.ms(100)"). */
char *pp_text(const struct probe_point *pp);
/* The components, then '!' or '?', then " if (COND)": -p2 and the
 * derivation chain. */
char *pp_full_text(const struct probe_point *pp);
/* The same, with the names in its condition as stap -p2 prints a derived
 * probe's resolved condition (all are globals there: "__global_NAME"). */
char *pp_resolved_text(const struct probe_point *pp);

/* COMPS (components' text; NULL: pp's own) followed by pp's '!' or '?'
 * and its condition, whose variables are named with the prefix SYMP
 * ("" or "__global_"); malloc'd. */
char *pp_marked_text(const struct probe_point *pp, const char *comps, const char *symp);

#endif
