/* Pass 3 internals shared by translate.c (the module's layout),
 * translate_stmt.c (statements) and translate_expr.c (expressions).
 *
 * Every body (probe handler or script function) is generated into a
 * buffer while its frame -- a struct holding its locals and the
 * temporaries its expressions need -- is collected; the frame is written
 * out before the body.  Frames live in the per-CPU area c->locals: one
 * union of probe frames, then one union of function frames per nesting
 * depth, so recursion works up to MAXNESTING.  Temporaries are reused
 * from one statement to the next.
 */
#ifndef TAPC_TRANSLATE_INT_H
#define TAPC_TRANSLATE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "lookup.h"
#include "translate.h"
#include "util.h"

/* What one global became. */
struct tr_global {
	const struct vardecl *v;
	char *cname;			/* C variable */
};

/* A register a companion kprobe saves at a function's entry for the
 * entry values read away from it (DW_OP_entry_value). */
struct tr_entryval {
	const char *sym;		/* the kprobe's "NAME" or "MOD:NAME"; user:
					 * the binary's path (a uprobe) */
	uint64_t offset;		/* bytes past it: the function's entry */
	unsigned reg;			/* DWARF register number */
	bool user;
	/* NULL, or a value computed there instead of the register (an
	 * interned struct tvar_dwop expression) and its C: the initializer
	 * of its struct tap_ev_op array */
	const struct tvar_dwop *expr;
	unsigned nexpr;
	char *expr_c;
};

struct tr {
	const struct program *p;
	const struct translate_options *o;
	struct diag *d;
	bool failed;

	struct tr_global *globals;
	int nglobals;
	struct ptrindex global_index;	/* struct vardecl * -> index in globals */
	struct ptrindex fn_index;	/* struct sem_function * -> index in
					 * p->functions */
	struct ptrindex side_cache;	/* struct expr * -> whether it has side
					 * effects (1) or not (0) */

	struct strbuf decls;		/* file-scope data: regexes */
	int nregex;
	struct vec modsyms;		/* "MOD:NAME" of module statics'
					 * bases (char *), each once: the
					 * runtime's tap_modsyms[] */
	struct vec entryvals;		/* struct tr_entryval *, each once:
					 * the runtime's tap_entryvals[] */

	/* The body being generated. */
	const char *cfunc;		/* its C function, and frame member */
	struct strbuf body;
	struct strbuf chunks;		/* functions it calls (translate_chunk.c) */
	int nchunks;
	struct strbuf frame;		/* fields of its frame struct */
	int indent;
	struct sem_function *fn;	/* NULL in a probe */
	const struct derived_probe *dp;	/* the probe, NULL in a function */
	bool in_entry;			/* generating its entry half */
	int n_ltmp, max_ltmp;		/* long temporaries in use / needed */
	int n_stmp, max_stmp;		/* string temporaries */
	int n_fixed;			/* per-statement-persistent fields */
	int store_run;			/* stores in a row (tr_store_run) */
	int pending_actions;		/* queued, not yet spent (translate_stmt.c) */
	int nlabel;
	const char *err_label;		/* where an error unwinds to */
	const char *brk_label, *cont_label;

	bool *arm_globals;		/* [g]: some probe is armed by g */

	/* Scratch space of the lock sets (see lock_set_of). */
	int *lock_mode;			/* [g]: 0, 1 read, 2 write */
	int *lock_adds;			/* [g]: one body's "<<<" */
	int *lock_seen;			/* [function]: the walk that saw it */
	int lock_walk;
};

/* The globals a probe's handler locks, in the order of T->globals (the
 * order the runtime takes them in), with their modes: 1 read, 2 write. */
struct lock_set {
	int n;
	int *g;
	int *mode;
};

/* One generated body: its frame struct and its code. */
struct body_out {
	char *frame;		/* struct fields (NULL: it runs another's) */
	char *code;		/* the whole C function (NULL: the same) */
	char *member;		/* member name in the locals union */
	size_t handler;		/* probes: the index of the body it runs */
	char *consts;		/* probes: its row of that body's constants
				 * table (a C address), or NULL */
};

/* translate.c */
/* Generated code is indented one tab per level up to this depth only, so
 * that deep nesting does not make the C quadratic in the script. */
#define TR_MAX_INDENT 24
void tr_line(struct tr *T, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tr_error(struct tr *T, const struct srcpos *pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
char *tr_label(struct tr *T, const char *what);
/* The index of "MOD:NAME" in the runtime's tap_modsyms[] (the module
 * symbols it looks up at load and as modules come), added once. */
unsigned tr_modsym_index(struct tr *T, const char *modsym);
const struct tr_global *tr_global_of(const struct tr *T, const struct vardecl *v);
/* The C name of a script function: tapfINDEX_NAME (malloc'd). */
char *tr_fn_cname(const struct tr *T, const struct sem_function *f);
/* The frame field of f's i-th parameter (malloc'd). */
char *tr_param_field(const struct sem_function *f, int i);
/* Around an embedded expression or statement: CONTEXT, and in a script
 * function THIS, STAP_ARG_name and STAP_RETVALUE. */
void tr_embedded_names_begin(struct tr *T, const void *node);
void tr_embedded_names_end(struct tr *T, const void *node);
/* translate_cglobals.c: around embedded code (node: its E_EMBEDDED, or a
 * function's declaration), the STAP_GLOBAL_GET_ and _SET_ macros of the
 * globals its pragmas name. */
void tr_cglobals_begin(struct tr *T, const void *node);
void tr_cglobals_end(struct tr *T, const void *node);
/* The C lvalue of a scalar variable (local, parameter or global). */
char *tr_var(struct tr *T, const struct vardecl *v);
/* A new field of the frame that lives until the body ends. */
char *tr_fixed(struct tr *T, const char *ctype, const char *suffix);
/* A C string literal for bytes s[0..len). */
char *tr_cstr(const char *s, size_t len);

/* translate_arm.c: conditions the runtime arms probes by */
void tr_arm_prepare(struct tr *T);
void tr_lock_set_free(struct lock_set *set);

/* Whether a body with these locks (mode 2: writes) must call tap_arm_kick(). */
bool tr_arm_kicks(const struct tr *T, const struct lock_set *locks);
/* static int tap_armcond_INDEX(void) for dp, if it has an armable
 * condition; whether it wrote one. */
bool tr_arm_emit_cond(const struct tr *T, FILE *out, const struct derived_probe *dp,
		      size_t index);

/* translate_expr.c */
enum sem_type tr_type(const struct tr *T, const struct expr *e);
/* Evaluate e: emits what must run first and returns a side-effect-free
 * C expression of its value (long long, or const char * for strings). */
char *tr_expr(struct tr *T, const struct expr *e);
/* Evaluate e for its effects only. */
void tr_expr_void(struct tr *T, const struct expr *e);
/* "TOKEN at FILE:LINE:COL" (a C string literal) for what e runs. */
char *tr_where(struct tr *T, const struct expr *e);
char *tr_where_at(const char *what, const struct srcpos *pos);
const char *tr_stat_op_c(int op);
void tr_check(struct tr *T);		/* unwind if an error was raised */
char *tr_ltmp(struct tr *T);
/* Count one store of a long run (a call's arguments); every
 * TR_STORE_RUN of them, a TAP_STORE_BREAK() between. */
#define TR_STORE_RUN 64
void tr_store_run(struct tr *T);
char *tr_stmp(struct tr *T);
/* Key array of an index expression's arguments (NULL entries: "*"),
 * and the wildcard mask. */
char *tr_keys(struct tr *T, const struct vec *args, unsigned *wild);
/* The C expression of the map or statistic named by a global var. */
char *tr_map(struct tr *T, const struct vardecl *v);
void tr_store(struct tr *T, const struct expr *lv, const char *val);
/* Statistic base of @count(...)/@hist(...): map and key expression. */
void tr_stat_base(struct tr *T, const struct expr *a, char **map, char **keys);

/* translate_entry.c: a .return probe's values saved at entry.  Its
 * entry half (T->dp's, T->cfunc "_entry"): the C function, generated
 * with T's body, which it leaves empty; init_locals clears the frame's
 * locals as the handler does. */
char *tr_entry_half(struct tr *T, void (*init_locals)(struct tr *T));
/* The operand of T->dp's @entry e is, or -1 (also in the entry half). */
int tr_entry_slot(const struct tr *T, const struct expr *e);
/* The return handler's C for saved operand k. */
char *tr_entry_read(struct tr *T, int k);
/* struct tap_probe.entry_size of dp, as a C constant expression. */
char *tr_entry_size(const struct tr *T, const struct derived_probe *dp);

/* translate_stmt.c */
void tr_stmt(struct tr *T, const struct stmt *s);

/* translate_share.c: the probe handlers BODIES[0..n) (code NULL: the
 * probe does not run) that differ only in constants become one, which
 * reads them from the running probe's row of a constants table (emitted
 * to OUT); sets each body's handler and consts. */
void tr_share_handlers(struct body_out *bodies, size_t n, struct strbuf *out);

/* translate_chunk.c: the statements of a block, split into functions
 * when there is much code. */
void tr_block(struct tr *T, const struct vec *stmts);
/* Spend the actions queued so far, reporting an exhausted budget at
 * @s (the end of a handler, branch or loop body). */
void tr_flush_actions_at(struct tr *T, const struct stmt *s);
/* About how much C one chunk holds (and code before chunks start). */
#define TR_CHUNK_BYTES 32768
/* Whether the code since start (a T->body.len) is a chunk's worth. */
bool tr_chunk_due(const struct tr *T, size_t start);
/* What a chunk swaps out of struct tr while its code is generated. */
struct tr_chunk {
	struct strbuf body;
	int indent;
	const char *err_label, *brk_label, *cont_label;
};
/* Code from tr_chunk_open on goes into a new chunk function, which
 * tr_chunk_close ends and calls; the code generated in between must
 * leave only by T's labels (error, break, continue, out). */
void tr_chunk_open(struct tr *T, struct tr_chunk *k);
void tr_chunk_close(struct tr *T, struct tr_chunk *k);

#endif
