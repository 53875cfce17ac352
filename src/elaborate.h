/* Pass 2: elaboration.
 *
 * elaborate() turns the pass-1 trees of the user scripts and the tapset
 * library into a resolved program:
 *
 *  - every probe point is expanded through aliases (=, +=, wildcards,
 *    suffixes, ?, !, if conditions) into concrete probe points of the
 *    families this stage knows (begin, end, error, never, timer.*); each
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
#include "diag.h"
#include "privilege.h"
#include "types.h"

struct elab_options {
	bool unoptimized;	/* -u: keep unused code */
	bool guru;		/* -g */
	/* -D MAXSTRINGLEN=N, -D MAXMAPENTRIES=N, or 0: the runtime's
	 * defaults (for the limits pass 2 checks) */
	int64_t maxstringlen, maxmapentries;
	unsigned privilege;	/* --privilege: enum privilege; 0 counts as
				 * PRIV_STAPDEV */
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
	bool elided;			/* dropped as unused (not printed) */
	bool auto_print;		/* global written but never read: pass 3
					 * prints it at the end of the run */
	bool listed;			/* globals: pulled into the program */
};

/* What one body (probe handler or function) uses: filled by symbol
 * resolution, summed over the bodies that are kept. */
struct sem_body {
	struct vec reads;		/* struct vardecl *, one per read */
	struct vec writes;		/* struct vardecl *, one per write */
	struct vec aggs;		/* struct vardecl *, one per "<<<" (each
					 * also among the writes) */
	struct vec calls;		/* struct sem_function * */
};

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
};

enum dprobe_kind {
	DP_BEGIN, DP_END, DP_ERROR, DP_NEVER, DP_TIMER, DP_JIFFIES, DP_HZ,
	DP_FAMILY,	/* a kernel event family of src/probes (dp->family) */
};

/* ---- probe point families -------------------------------------------------
 *
 * A probe point matches a pattern component by component: the names (the
 * user's may hold wildcards) and the kind of argument.  The built-in
 * families are patterns of elaborate.c; the kernel event families live in
 * src/probes/, one file each, and describe their points with the same
 * patterns plus the hooks of struct point_family.
 */
enum pat_arg { PA_NONE, PA_NUM, PA_OPTNUM, PA_STR, PA_OPTSTR };

struct pat_comp {
	const char *name;
	enum pat_arg arg;
};

#define PAT_MAX_COMPS 6

struct point_pattern {
	enum dprobe_kind kind;
	int64_t ns_per_unit;		/* timer.UNIT: nanoseconds per unit */
	int variant;			/* DP_FAMILY: the family's own tag */
	int n;
	struct pat_comp c[PAT_MAX_COMPS];
};

/* One concrete probe point a family pattern expands to. */
struct family_point {
	char *target;			/* owned: symbol, tracepoint ... or NULL */
	char *module;			/* owned: kernel module, or NULL */
	int64_t num[2];			/* family-specific numbers */
	int flags;			/* family-specific, e.g. a .return */
	int target_comp;		/* the component whose string argument
					 * target replaces in the printed point
					 * (a glob's match), or -1 */
};

struct derived_probe;
struct tvar;

/* An error of a family hook: where, and the message after
 * "semantic error: ". */
struct family_error {
	struct srcpos pos;
	char *msg;			/* owned */
	char *what;			/* owned: the token the message is near,
					 * e.g. "operator '->'", or NULL for
					 * the expression itself */
};

struct point_family {
	const char *name;		/* for messages: "kprobe" */
	const struct point_pattern *patterns;
	size_t n_patterns;
	/*
	 * Pass 2: the concrete points of pp, which matched patterns[i] (pat):
	 * push struct family_point * (malloc'd) onto out and return how many
	 * (0: none, e.g. a glob without matches), or return -1 with *err
	 * filled.
	 */
	int (*expand)(const struct point_pattern *pat, const struct probe_point *pp,
		      struct vec *out, struct family_error *err);
	/*
	 * Pass 2: the type (SEM_LONG or SEM_STRING) of the target expression
	 * e ($name with its ->field/[index] steps, or $$parms ...) in a probe
	 * of the family; write is true for an assignment to it.  On error
	 * return SEM_UNKNOWN with *err filled.  A family whose values pass 3
	 * reads the same way for all (tvar.h) sets *access to e's access
	 * path (malloc'd); one that writes the C of its targets itself
	 * (target_c) leaves it NULL.  Asked once per expression as read
	 * (sem_target.h).  NULL: the family has none.
	 */
	enum sem_type (*target_type)(const struct derived_probe *dp, const struct expr *e,
				     bool write, struct family_error *err,
				     struct tvar **access);
	/*
	 * -L: push the target variables dp offers onto out, each a malloc'd
	 * "$name:TYPE" with the C type as SystemTap prints it (for example
	 * "$prev:struct task_struct*").  NULL: the family has none.
	 */
	void (*list_targets)(const struct derived_probe *dp, struct vec *out);
	/*
	 * -p2: text printed right after the concrete point: SystemTap's
	 * probe signature comment, such as the name a kprobe resolves to;
	 * malloc'd, or NULL for nothing.  NULL: the family prints none.
	 */
	char *(*print_sig)(const struct derived_probe *dp);
	/*
	 * Pass 2: the point SystemTap names the derived probe by, in pp()
	 * and -p2, when that is not the matched point (perf adds its
	 * default ".sample(N)"): a new probe_point without condition, or
	 * NULL to keep dp->loc.  -l and -L keep the matched point.  NULL:
	 * the family's points name themselves.
	 */
	struct probe_point *(*derived_point)(const struct derived_probe *dp);
	/*
	 * Pass 2: whether users of --privilege=stapusr may use the points of
	 * pattern pat (SystemTap's: only those that can be limited to the
	 * user's own processes).  NULL: none of the family's points; every
	 * family is open to stapsys and stapdev.
	 */
	bool (*unprivileged)(const struct point_pattern *pat);
};

void family_point_free(struct family_point *fp);

/* @defined(X) (an E_DEFINED node) in probe DP: whether X resolves there.
 * Only target expressions can; DP may be NULL (a function: nothing). */
bool sem_defined(const struct derived_probe *dp, const struct expr *e);
/* A condition made only of @defined, numbers, !, && and || is known in
 * pass 2, separately for each probe: its value (0 or 1), or -1 when it
 * depends on run time.  Code it rules out is neither resolved nor
 * translated, so that @defined($x) ? $x : 0 works where $x does not
 * exist, as in SystemTap. */
int sem_static_cond(const struct derived_probe *dp, const struct expr *e);

/* Every kernel event family (src/probes/provider.c), NULL-terminated. */
extern const struct point_family *const point_families[];

/* One concrete probe. */
struct derived_probe {
	enum dprobe_kind kind;
	struct probe_point *loc;	/* owned: the concrete point */
	char *chain;			/* owned: the derivation comment printed
					 * after loc by -p2: a C comment holding
					 * "<- " and each step back to the
					 * user's probe, e.g. "<- a = begin <- a" */
	struct stmt *body;		/* owned: the whole handler */
	struct expr *cond;		/* owned: combined condition, or NULL */
	char *list_name;		/* owned: what -l prints for it */
	struct vec locals;		/* struct vardecl * */
	const struct probe *origin;	/* the user's (or tapset's) probe */
	int64_t seq;			/* begin/end/error sequence number */
	int64_t interval;		/* timer: N of the unit below */
	int64_t ns_per_unit;		/* timer.s ... timer.ns: 1e9 ... 1 */
	int64_t randomize;		/* timer ... .randomize(M), else 0 */
	/* DP_FAMILY: */
	const struct point_family *family;
	int variant;			/* the pattern's variant */
	struct family_point fp;		/* owned strings */
	struct sem_body uses;
	struct sem_targets *targets;	/* owned: its target expressions,
					 * resolved (sem_target.h) */
};

/* What a name in an expression refers to (see program_ref). */
struct sem_ref {
	enum sem_type type;		/* the expression's inferred type */
	struct vardecl *var;		/* E_SYM, E_INDEX base, foreach vars */
	struct sem_function *fn;	/* E_CALL: the first overload */
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
	struct vec all_vars;		/* every vardecl, for freeing */
	struct vec all_fns;		/* every sem_function, for freeing */
	struct ptrmap refs;
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

/* -p2 output, in stap -p2's layout. */
void program_print(FILE *out, const struct program *p);

/* The resolution of an expression or a foreach/catch statement (keyed by
 * the struct stmt), or NULL. */
const struct sem_ref *program_ref(const struct program *p, const void *node);

/* The global NAME as -G may name it: one the program keeps, or one a user
 * script declares (dropped when unused); NULL when there is none. */
const struct vardecl *program_global(const struct program *p, const char *name);

void program_free(struct program *p);

#endif
