/* Pass 2: elaboration.
 *
 * elaborate() turns the pass-1 trees of the user scripts and the tapset
 * library into a resolved program:
 *
 *  - every probe point is expanded through aliases (=, +=, wildcards,
 *    suffixes, ?, !, if conditions) into concrete probe points of the
 *    probe families (src/probes/family.h); each
 *    derived probe owns a copy of its body with alias prologues and
 *    epilogues spliced in;
 *  - names are resolved: locals, function parameters, globals (user and
 *    library, private ones only from their own file) and functions (user
 *    first, then library; overloads by arity and priority);
 *  - types (long, string, stats, arrays with typed keys) are inferred to a
 *    fixed point and conflicts reported with SystemTap's wording;
 *  - unless -u, unused functions, globals and locals are dropped, with
 *    SystemTap's warnings.
 *
 * Library declarations are pulled in only when something uses them.
 */
#ifndef TAPC_ELABORATE_H
#define TAPC_ELABORATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ast.h"
#include "lookup.h"
#include "diag.h"
#include "privilege.h"
#include "types.h"

struct elab_options {
	bool unoptimized;	/* -u: keep unused code */
	bool guru;		/* -g */
	bool skip_badvars;	/* --skip-badvars: a target variable that does
				 * not resolve reads as 0, with a warning */
	bool listing;		/* -l/-L: as SystemTap's listing mode, a target
				 * variable that does not resolve is no error
				 * (what it is assigned to lists as unknown) */
	/* -D MAXSTRINGLEN=N, -D MAXMAPENTRIES=N, or 0: the runtime's
	 * defaults (for the limits pass 2 checks) */
	int64_t maxstringlen, maxmapentries;
	unsigned privilege;	/* --privilege: enum privilege; 0 counts as
				 * PRIV_STAPDEV */
	bool check_version;	/* --check-version (sem_version.c) */
};

/* A variable: global, function parameter or local. */
struct vardecl {
	char *name;
	struct srcpos pos;		/* declaration, or first use of a local */
	enum sem_type type;
	struct srcpos type_pos;		/* where the type was first inferred */
	bool type_declared;		/* written in the source (a:long) */
	int arity;			/* -1 not known yet, 0 scalar, N keys */
	struct srcpos arity_pos;
	enum sem_type *index_types;	/* arity entries */
	struct srcpos *index_pos;
	bool global, param;
	bool library;			/* declared in a tapset */
	bool is_private;
	bool wrap;			/* global a% */
	int64_t maxsize;		/* global a[N] */
	const struct global *decl;	/* globals: the declaration */
	int reads, writes;		/* uses seen in kept code */
	int updates;			/* of the reads, those of x++, x += ...:
					 * SystemTap still prints a global at
					 * exit that only these read */
	bool sorted;			/* iterated by a sorted foreach: not
					 * "never-assigned", as in SystemTap */
	bool elided;			/* dropped as unused (not printed) */
	bool read_dropped;		/* elided, but read by dropped assignments
					 * (sem_dead.c): still typed, as they are */
	bool auto_print;		/* global written but never read: pass 3
					 * prints it at the end of the run */
	bool holds_pointer;		/* a global its typed assignments make
					 * a C pointer (sem_autocast.c): its
					 * display is hex, as SystemTap's */
	bool listed;			/* globals: pulled into the program */
	/* Statistics: the histogram their @hist_* uses ask for, which must
	 * all agree (sem_limits.c): 0 for none, HIST_LINEAR or HIST_LOG. */
	int hist;
	int64_t hist_args[3];		/* linear: start, stop, interval */
};

/* What one body (probe handler or function) uses: filled by symbol
 * resolution, summed over the bodies that are kept. */
struct sem_body {
	struct vec reads;		/* struct vardecl *, one per read */
	struct vec writes;		/* struct vardecl *, one per write */
	struct vec updates;		/* struct vardecl *, one per read that
					 * only updates it (x++, x += 1; each
					 * also among the reads) */
	struct vec aggs;		/* struct vardecl *, one per "<<<" (each
					 * also among the writes) */
	struct vec calls;		/* struct sem_function * */
};

/* Free b's lists (not what they point to). */
void sem_body_free(struct sem_body *b);

struct sem_function {
	const struct function *decl;
	const struct srcfile *file;
	const char *name;
	enum sem_type type;		/* SEM_UNKNOWN: returns no value */
	struct srcpos type_pos;
	bool type_declared;		/* function f:long () */
	struct vardecl **params;
	int n_params;
	struct vec locals;		/* struct vardecl * */
	bool library;
	bool used;			/* reachable from a probe */
	bool resolved;
	int order;			/* declaration order, for overloads */
	/* The overloads of this name and arity in priority order: a call
	 * runs the first, "next" moves on to the following one. */
	struct sem_function **group;
	int n_group;
	struct sem_body uses;
	/* Its body names target variables ($x, $$parms ...): a call from a
	 * probe's body runs a copy resolved in that probe's context, as
	 * SystemTap 4.3 and later clone such functions (ctxfn.c). */
	bool ctx_sensitive;
	/* A copy's: the probe whose context it is resolved in, and the
	 * declaration it owns (the original's with its body copied). */
	const struct derived_probe *ctx_dp;
	struct function *own_decl;
	char *own_name;
};

/* ---- probe point families -------------------------------------------------
 *
 * A probe point matches a pattern component by component: the names (the
 * user's may hold wildcards) and the kind of argument.  Every family
 * (begin, timer.*, kprobe ...) lives in src/probes/, one file each, and
 * describes its points with these patterns plus the hooks of its struct
 * probe_family (src/probes/family.h).
 */
enum pat_arg {
	PA_NONE, PA_NUM, PA_OPTNUM, PA_STR, PA_OPTSTR,
	PA_OPTSTRNUM,		/* none, a string or a number */
	PA_STRNUM,		/* a string or a number */
};

/* One component of a pattern. */
struct pat_comp {
	const char *name;
	enum pat_arg arg;
	unsigned flags;			/* PC_* below */
	int bit;			/* added to the variant when it is there */
	int needs;			/* variant bits it needs before it */
};

#define PC_OPTIONAL	1	/* may be left out, with its PC_OR alternatives */
#define PC_OR		2	/* an alternative to the component before it:
				 * a point has at most one of them */
#define PC_RESOLVED	4	/* the concrete point leaves it out, its
				 * request met (.nearest names the line
				 * taken) */

/* A component as tables write it: plain, adding bit to the variant,
 * optional, or an alternative to the one before. */
#define PAT_C(name, arg)		{ name, arg, 0, 0, 0 }
#define PAT_BIT(name, arg, bit)		{ name, arg, 0, bit, 0 }
#define PAT_OPT(name, arg, bit)		{ name, arg, PC_OPTIONAL, bit, 0 }
#define PAT_OR(name, arg, bit)		{ name, arg, PC_OR, bit, 0 }
#define PAT_OPT_RESOLVED(name, arg, bit) { name, arg, PC_OPTIONAL | PC_RESOLVED, bit, 0 }

/*
 * A family's points, written as one row with optional components and
 * alternatives, e.g. kprobe's
 *
 *	kprobe [.module(S)] .function(S) [.call | .return [.maxactive(N)]]
 *
 * Pass 2 expands each row into the concrete patterns it stands for
 * (struct point_pattern), leftmost choices varying slowest and a left-out
 * component coming first, each with variant = the row's variant plus the
 * bits of the components it has.
 */
#define PAT_ROW_MAX 16

struct pattern_row {
	int variant;
	struct pat_comp c[PAT_ROW_MAX];	/* up to the first without a name */
};

/* One concrete pattern: a row with each choice made. */
struct point_pattern {
	int variant;			/* the family's own tag */
	int n;
	const struct pat_comp *c;	/* n components */
};

struct callee_callers;

/* One concrete probe point a family pattern expands to. */
struct family_point {
	char *target;			/* owned: symbol, tracepoint ... or NULL */
	char *module;			/* owned: kernel module, or NULL */
	int64_t num[2];			/* family-specific numbers (begin's
					 * sequence, a timer's period ...) */
	int flags;			/* family-specific, e.g. a .return */
	int target_comp;		/* the component whose string argument
					 * target replaces in the printed point
					 * (a glob's match), or -1 */
	char *label;			/* owned: a .label("PAT")'s match, which
					 * replaces PAT in the printed point */
	char *callee;			/* owned: a .callee probe's callee,
					 * "NAME@FILE:LINE": its point is
					 * FUNC.callee("CALLEE"), its pp() the
					 * callee's function point (callee.h) */
	struct callee_callers *callers;	/* owned: the calls that must lead to
					 * it (callee.h), or NULL */
	void *data;			/* owned: the family's own payload,
					 * freed by its free_data hook (or
					 * free()), or NULL */
};

struct derived_probe;
struct tvar;

/* What a family's error says: that the point found nothing (which a
 * wildcard may forgive, see derive.c), or anything else. */
enum family_err_kind { FAMILY_ERR_OTHER, FAMILY_ERR_NO_MATCH };

/* An error of a family hook: where, and the message after
 * "semantic error: ". */
struct family_error {
	struct srcpos pos;
	char *msg;			/* owned */
	enum family_err_kind kind;	/* set with msg (family_no_match) */
	char *what;			/* owned: the token the message is near,
					 * e.g. "operator '->'", or NULL for
					 * the expression itself */
	/* The expansion's warnings (owned char *), said at the user's
	 * probe whether it succeeds or not: SystemTap's blocklisted
	 * functions.  guru is an input: -g, which lifts that list. */
	struct vec warnings;
	/* The same for warnings SystemTap gives without a place ("cannot
	 * probe .return of 1 inlined functions  do_fsync"). */
	struct vec plain_warnings;
	bool guru;
};

struct probe_family;

/* Frees FP and what it owns (its data through FAM's hook; FAM may be
 * NULL when FP holds no data). */
void family_point_free(const struct probe_family *fam, struct family_point *fp);

/* @defined(X) (an E_DEFINED node) in probe DP: whether X resolves there.
 * Only target expressions can; DP may be NULL (a function: nothing). */
bool sem_defined(const struct derived_probe *dp, const struct expr *e);
/* A condition made only of @defined, numbers, !, && and || is known in
 * pass 2, separately for each probe: its value (0 or 1), or -1 when it
 * depends on run time.  Code it rules out is neither resolved nor
 * translated, so that @defined($x) ? $x : 0 works where $x does not
 * exist, as in SystemTap. */
int sem_static_cond(const struct derived_probe *dp, const struct expr *e);

/* One concrete probe. */
struct derived_probe {
	const struct probe_family *family;
	struct probe_point *loc;	/* owned: the concrete point */
	struct vec chain;		/* const char *, the program's (see
					 * program_text): how loc was derived,
					 * innermost step first: each alias as
					 * "a = begin", then the user's probe
					 * points ("a"); -p2 prints it as
					 * "<- a = begin <- a", -t as
					 * "a = begin from: a" */
	struct stmt *body;		/* owned unless body_owner: the whole
					 * handler */
	/* An earlier probe of the same expansion whose body this one
	 * shares, or NULL (derive.c: a body that reads nothing of its
	 * probe's location is one tree for all the points of a glob) */
	const struct derived_probe *body_owner;
	struct expr *cond;		/* owned: combined condition, or NULL */
	/* owned: what -l prints for it, or NULL for wellformed (see
	 * list_wellformed) or the text of loc (most often the same: kept
	 * only when different) */
	char *list_name;
	/* owned: the user's point as the family resolved it, with every
	 * component (a .nearest too) and names matched in place of globs:
	 * SystemTap's "well-formed" point, which -p2 prints as a DWARF
	 * probe's derivation (probe_family.print_point); NULL for other
	 * families */
	char *wellformed;
	/* -l lists it by its own point, not an alias's name: with the '!'
	 * or '?' of its location, as stap */
	bool list_by_point;
	/* without a list_name, what -l prints is wellformed, not the text of
	 * loc (one string for both, the most common case of a DWARF probe) */
	bool list_wellformed;
	struct vec locals;		/* struct vardecl * */
	const struct probe *origin;	/* the user's (or tapset's) probe */
	/* Derived through an alias: the user's point that named the alias
	 * (for the elision warning, sem_elide.c); NULL for a direct point. */
	const struct probe_point *user_point;
	bool runs;			/* false: checked, never run (never) */
	bool targets_resolved;		/* sem_targets_resolve ran */
	int variant;			/* the pattern's variant */
	struct family_point fp;		/* owned strings */
	struct sem_body uses;
	struct sem_targets *targets;	/* owned: its target expressions,
					 * resolved (sem_target.h); NULL when
					 * it has none */
	/* The values its entry half saves when the function is entered, for
	 * the .return handler to read (struct expr *, the operands of its
	 * @entry(...)s, in order of appearance); empty for most probes. */
	struct vec entry_exprs;
};

/* Whether dp and prev, derived one after the other, are the one probe
 * SystemTap has for both (probe_family.one_probe_per_alias): printed and
 * warned about once. */
bool derived_probe_twins(const struct derived_probe *prev, const struct derived_probe *dp);

/* What a name in an expression refers to (see program_ref). */
struct sem_ref {
	enum sem_type type;		/* the expression's inferred type */
	struct vardecl *var;		/* E_SYM, E_INDEX base, foreach vars */
	struct sem_function *fn;	/* E_CALL: the first overload */
	/* E_EMBEDDED and a %{ %} function's declaration: the globals its
	 * pragma:read: and pragma:write: comments name (struct vardecl *),
	 * whose STAP_GLOBAL_GET_ and _SET_ macros pass 3 defines */
	struct vec c_reads, c_writes;
};

struct ptrmap {
	const void **keys;
	struct sem_ref **vals;
	size_t n, cap;
};

struct program {
	struct vec globals;		/* struct vardecl *, kept ones */
	struct vec functions;		/* struct sem_function *, kept ones,
					 * sorted by name then priority */
	struct vec probes;		/* struct derived_probe * */
	struct vec embeds;		/* const struct embedded *, user files */
	/* private */
	struct vec elided;		/* struct derived_probe *, no effect
					 * (sem_elide.c): only freed */
	struct vec elided_exprs;	/* struct expr *, the side-effect-free
					 * statements' (sem_elide.c): only freed */
	struct vec elided_stmts;	/* struct stmt *, the same for the
					 * catch of an empty try (resolve.c) */
	struct vec all_vars;		/* every vardecl, for freeing */
	struct vec all_fns;		/* every sem_function, for freeing */
	struct ptrmap refs;
	struct namemap texts;		/* program_text's strings, by text */
	struct vec all_texts;		/* the same, for freeing */
};

/* Elaborate the scripts. Errors and warnings go through d; the result is
 * NULL when d->errors grew. The scripts must outlive the program (it
 * points into them). */
struct program *elaborate(struct script **user, int n_user,
			  struct script **library, int n_library,
			  const struct elab_options *o, struct diag *d);

/* A semantic error of pass 2: "MESSAGE: WHAT at FILE:LINE:COL" at pos,
 * WHAT naming the token, e.g. "identifier 'a'" (for the checks that run
 * after elaboration proper, in their own files). */
void sem_report(struct diag *d, const struct srcpos *pos, const char *what,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The derivation chain of dp, its steps joined by sep (" <- " for -p2,
 * " from: " for -t); malloc'd. */
char *derivation_text(const struct derived_probe *dp, const char *sep);
/* The program's copy of TEXT, one for all equal texts: the steps of the
 * derivation chains, which thousands of probes of one glob share. */
const char *program_text(struct program *p, const char *text);
/* What -l prints for dp (malloc'd): its list_name, else its well-formed
 * point (list_wellformed), else its point. */
char *derived_list_name(const struct derived_probe *dp);

/* -p2 output, in stap -p2's layout. */
void program_print(FILE *out, const struct program *p);

/* The resolution of an expression or a foreach/catch statement (keyed by
 * the struct stmt), or NULL. */
const struct sem_ref *program_ref(const struct program *p, const void *node);

/* Whether evaluating e has no effect besides its value (purity.c): reads,
 * operators, sprintf, calls of %{ /\* pure *\/ %} functions and of script
 * functions that do nothing their caller sees, with such arguments.  An
 * assignment of such a value to a local nobody reads is dropped, as
 * SystemTap drops it (an alias's argstr in a script that only counts
 * system calls costs nothing), and so are the reads in it (sem_dead.c). */
bool program_pure_expr(const struct program *p, const struct expr *e);
/* Whether e is pure and writes no variable at all, not even a local of a
 * function it calls: what SystemTap's constant folding asks of an operand
 * that it leaves out (0 * f() keeps f() when f sets a local). */
bool program_writes_nothing(const struct program *p, const struct expr *e);
/* Whether the statement e is such an assignment: its types are checked,
 * then it is dropped (no reads, no code, no action), as SystemTap drops
 * it. */
bool program_dropped_assign(const struct program *p, const struct expr *e);

/* The global NAME as -G may name it: one the program keeps, or one a user
 * script declares (dropped when unused); NULL when there is none. */
const struct vardecl *program_global(const struct program *p, const char *name);

void program_free(struct program *p);

#endif
