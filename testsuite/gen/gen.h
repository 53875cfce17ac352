/* gen.h: what gen-script.c (the valid-by-construction generator) and
 * gen-hostile.c (its --hostile mode) share: the knobs, the random numbers,
 * the output, the script's globals and functions, the context of the body
 * being generated, and the generators of expressions and statements. */
#ifndef GEN_H
#define GEN_H

#include <stdbool.h>
#include <stdint.h>

#define MAX_GLOBALS 40
#define MAX_FUNCS 40
#define MAX_LOCALS 64
#define MAX_PARAMS 4
/* Deepest call chain a probe may start: below tapc's MAXNESTING (10). */
#define MAX_CALL_DEPTH 8
/* A recursive function is called with its first argument masked to 0..3. */
#define RECURSION_DEPTH 4

/* ---- knobs ---- */

struct knobs {
	uint64_t seed;
	int globals;	/* how many globals (besides the tick counter) */
	int functions;	/* how many function definitions (about) */
	int probes;	/* how many probes besides the fixed ones */
	int stmts;	/* statements per body (at most) */
	int depth;	/* statement nesting */
	int expr_depth;	/* expression nesting */
	bool tapset;	/* call tapset functions (strlen, substr, exit...) */
	bool regex;	/* use =~ and !~ */
	bool hostile;	/* aim at the runtime's limits (gen-hostile.c) */
};

extern struct knobs K;

/* ---- random numbers, strings, output ---- */

uint64_t rnd64(void);
int rn(int n);			/* 0 .. n-1 */
bool pct(int p);		/* true p times in 100 */

char *str(const char *f, ...) __attribute__((format(printf, 1, 2)));
void out(const char *f, ...) __attribute__((format(printf, 1, 2)));
extern int indent_level;

/* Pick a random element satisfying ok(); -1 when none does. */
#define PICK(n, ok)						\
	({							\
		int _cand[64], _k = 0;				\
		for (int _i = 0; _i < (n) && _k < 64; _i++)	\
			if (ok)					\
				_cand[_k++] = _i;		\
		_k ? _cand[rn(_k)] : -1;			\
	})

/* ---- the script's declarations ---- */

enum vt { VT_LONG, VT_STR };

extern const char *vt_name[];

enum gkind { GK_SCALAR, GK_ARRAY, GK_STAT, GK_STAT_ARRAY };

struct global {
	char name[16];
	enum gkind kind;
	enum vt vt;		/* GK_SCALAR and GK_ARRAY values */
	int nkeys;		/* arrays */
	enum vt key[3];
	/* Statistics: SystemTap allows one histogram shape per aggregate. */
	bool hist_linear;
	int hist_lo, hist_hi, hist_step;
	int size;		/* hostile mode: a declared size (0: none) */
	bool wrap;		/* hostile mode: declared with % */
};

struct func {
	char name[16];
	bool has_ret;		/* returns a value of type ret */
	enum vt ret;
	int nparams;
	enum vt param[MAX_PARAMS];
	bool recursive;		/* param 0 is the depth: callers mask it */
	int depth;		/* deepest call chain it starts, itself included */
	uint64_t writes;	/* globals it may modify, through callees too */
	bool defined;		/* callable (false while its body is generated) */
};

extern struct global G[MAX_GLOBALS];
extern int n_globals;
extern struct func F[MAX_FUNCS];
extern int n_funcs;
extern int ticks_global;

/* ---- the context of the body being generated ---- */

struct local {
	char name[16];
	enum vt vt;
	bool assignable;	/* loop counters and foreach keys are read-only */
};

struct ctx {
	struct func *fn;	/* NULL in a probe */
	bool cond;		/* a probe condition: globals and literals only */
	int loops;		/* enclosing loops (break/continue are legal) */
	int call_budget;	/* deepest callee allowed */
	int calls_depth;	/* deepest callee used (sets fn->depth) */
	uint64_t iterating;	/* globals being iterated: not writable */
	uint64_t writes;	/* globals written so far */
	struct local loc[MAX_LOCALS];
	int n_loc;
};

char *fresh(const char *prefix);
struct local *add_local(struct ctx *c, const char *name, enum vt vt, bool assignable);
bool may_write(const struct ctx *c, int g);
void note_write(struct ctx *c, int g);

/* ---- expressions and statements (gen-script.c) ---- */

char *long_literal(void);
char *str_literal(void);
char *literal(enum vt t);
char *gen_expr(struct ctx *c, enum vt t, int depth);
char *gen_long(struct ctx *c, int depth);
char *gen_str(struct ctx *c, int depth);
char *gen_keys(struct ctx *c, const struct global *g, int depth);
char *stat_ref(struct ctx *c, int depth);
char *hist_of(const struct global *g, const char *ref);
char *gen_cond(struct ctx *c);
char *join(char **v, int n);
void gen_stmt(struct ctx *c, int depth);
void gen_block_body(struct ctx *c, int n, int depth);
void gen_loop_body(struct ctx *c, int depth);
void gen_prologue(struct ctx *c);
void open_block(const char *head);
void close_block(void);
struct func *new_func(const char *prefix);
void print_signature(const struct func *f, bool typed, const char *prio);
void start_function_ctx(struct ctx *c, struct func *f, int budget);
void finish_function(struct func *f, const struct ctx *c, int self_depth);
void print_probe(const char *points, bool exit_first, const char *ticks,
		 const char *alias_local, enum vt alias_vt);
char *probe_condition(void);

/* ---- hostile mode (gen-hostile.c) ---- */

/* Chooses the runtime limits of the script; returns its header line. */
char *hostile_setup(void);
/* A statement aimed at a runtime limit. */
void hostile_stmt(struct ctx *c, int depth);
/* Operators and extractors without the default mode's guards. */
char *hostile_division(struct ctx *c, int depth);
char *hostile_shift(struct ctx *c, int depth);
char *hostile_divisor(struct ctx *c, int depth);
char *hostile_shift_count(struct ctx *c, int depth);
char *hostile_extract(struct ctx *c, const char *stat);
/* A printf directive with hostile widths, precisions or conversions. */
char *hostile_directive(struct ctx *c, int depth, char **args);
/* Globals: small sizes, % wrapping, aggregates left empty. */
void hostile_globals(void);
void hostile_print_global(const struct global *g);
void hostile_init_global(const struct global *g, const char *keys);
/* Functions: unbounded recursion, writers, bodies shared by probes. */
void hostile_functions(void);
/* Probes: kernel events running the hostile bodies on every CPU. */
void hostile_probes(void);

#endif
