/* The functions a DWARF point names, "PAT[@FILE[:N|:N-M|:*|+OFF]]",
 * matched in one binary's function index: shared by the kernel's
 * DWARF family (kfunc.c) and the user-space one (ufunc.c), which
 * differ only in where they place a probe (the push hook).
 */
#ifndef TAPC_PROBES_DWMATCH_H
#define TAPC_PROBES_DWMATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "dwcallee.h"
#include "dwindex.h"
#include "elaborate.h"

/* Which of the matched functions a point keeps. */
enum dwmatch_keep {
	DWM_ALL,		/* .function: out-of-line and inline instances */
	DWM_CALL,		/* .call, .return: out-of-line only */
	DWM_INLINE,		/* .inline: inline instances only */
	DWM_EXPORTED,		/* .exported: out-of-line, exported */
	DWM_STATEMENT,		/* .statement: each line the point names */
};

/* The lines a point names after its file. */
enum dwmatch_lines {
	LINES_NONE,		/* none */
	LINES_RANGE,		/* :N, :N-M, a comma list of them, or :* */
	LINES_RELATIVE,		/* +OFF from the declaration's line */
};

struct dwmatch {
	const struct probe_point *pp;
	const struct pp_comp *comp;	/* the function/statement component */
	enum dwmatch_keep keep;
	/* DWM_EXPORTED: whether the binary exports F */
	bool (*exported)(const struct dwindex *ix, const struct dwfunc *f);
	/* one probe on F at ADDR, named TEXT ("name@file:line", taken) */
	void (*push)(struct dwmatch *m, const struct dwindex *ix, const struct dwfunc *f,
		     char *text, Dwarf_Addr addr);
	void *ctx;			/* the push hook's */

	/* parsed by dwmatch_parse */
	char *spec;			/* the point's string, cut in pieces */
	const char *func;		/* the function pattern */
	/* "NS::CLASS::PAT": the scopes a function must be declared in,
	 * innermost last, each a pattern or "" for the global one, as
	 * SystemTap names C++ functions; func is PAT */
	const char **scopes;
	size_t n_scopes;
	const char *file;		/* the file pattern, or NULL */
	enum dwmatch_lines lines;
	struct dwmatch_range {
		int lo, hi;
	} *ranges;			/* LINES_RANGE: each lo..hi of the list;
					 * RELATIVE: ranges[0].lo, the offset */
	size_t n_ranges;
	bool every_line;		/* ":*": the lines SystemTap's walk
					 * finds (dwindex_walk_lines) */
	bool nearest;			/* .statement(...).nearest */
	const char *label;		/* .function(...).label("PAT"): PAT */
	const char *at_label;		/* the push hook's probe is at this
					 * label (NULL: not at a label) */
	/* .callee("PAT") (.callees: "*"): a probe on each callee of the
	 * function instead (dwcallee.h), callee_depth levels deep
	 * (.callees(N)), out-of-line ones only for .call and .return */
	const char *callee;
	const struct pp_comp *callee_comp;
	long long callee_depth;
	bool callee_outline;
	const struct dwcallee *at_callee;	/* the push hook's probe is on
						 * this callee (else NULL) */
	/* SystemTap's blocklist (kblock.h), for kernel and module points
	 * outside guru mode: refused functions are left out, each with a
	 * warning added here; NULL: no blocklist.  returns: a .return */
	struct vec *blocked;
	bool returns;
	/* a .return's matches that are inline instances, by name (sorted,
	 * each once, malloc'ed): SystemTap names them
	 * when nothing else matched (dwmatch_inline_returns) */
	struct vec inline_returns;
	/* SystemTap's warning for a .function point whose line is not the
	 * declaration's of a function it selects goes here (NULL: none) */
	struct vec *warnings;
	bool warned_line;
	size_t funcs_seen;		/* functions that matched but for lines */
	size_t pushed;
	/* lines of the first function without rows at the one line the
	 * point names that SystemTap would suggest instead (0: none) */
	int try_line, try_below, try_above;
	bool tried;
};

/* Split SPEC into m's function, file and lines; false with *err filled
 * when they are malformed.  dwmatch_done frees what it made. */
bool dwmatch_parse(struct dwmatch *m, const char *spec, struct family_error *err);
void dwmatch_done(struct dwmatch *m);
/* .callee("PAT") (CALLEES false) or .callees[(N)], component C: m's
 * callee fields, its callers any function of the name, its callees the
 * out-of-line ones only when OUTLINE (.call, .return); -1 with *err
 * filled for N < 1. */
int dwmatch_callee_parse(struct dwmatch *m, const struct pp_comp *c, bool callees,
			 bool outline, struct family_error *err);
/* Push the probes of m's matches in IX; how many. */
size_t dwmatch_in(struct dwmatch *m, const struct dwindex *ix);
/* Whether m's blocklist refuses function NAME of FILE (NULL: unknown),
 * with its warning added to m->blocked. */
bool dwmatch_blocked(struct dwmatch *m, const char *name, const char *file);
/* Push the probes of m on F, one function of IX, whatever its name. */
void dwmatch_func(struct dwmatch *m, const struct dwindex *ix, const struct dwfunc *f);
/* The error for no probes at all (0 for an optional point): SystemTap's
 * "no match" (with the nearest name in IX, if any) or "no line records". */
/* SystemTap's warning for a .return that matched only inline instances
 * (none to probe): added to WARNINGS when nothing was pushed. */
void dwmatch_inline_returns(const struct dwmatch *m, struct vec *warnings);
int dwmatch_fail(const struct dwmatch *m, const struct dwindex *ix, struct family_error *err);

#endif
