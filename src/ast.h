/* The pass-1 syntax tree.
 *
 * Nodes are plain structs owned by their parent; script_free() releases a
 * whole tree, including partial trees left behind by parse errors. Every
 * node records where it came from (struct srcpos) so that later passes can
 * point at the source.
 *
 * Expressions and statements use one struct each with a kind tag; each
 * kind documents which fields it uses and the rest stay zero/NULL. That
 * keeps tree walkers short: a walker can visit a, b, c, args and comps
 * without knowing the kind.
 */
#ifndef TAPC_AST_H
#define TAPC_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "token.h"
#include "util.h"

enum expr_kind {
	E_NUM,		/* num */
	E_STR,		/* str, len (may contain NUL bytes) */
	E_SYM,		/* name */
	E_INDEX,	/* a[args]: a is E_SYM or E_HIST; args may hold NULL
			 * for a "*" wildcard (slices in delete, in, foreach) */
	E_CALL,		/* name(args) */
	E_PRINT,	/* print family: name; op = its enum print_flag
			 * set; str/len = format (printf, sprintf) or
			 * delimiter (printd...); args; a = hist for
			 * print(@hist_log(s)) */
	E_UNARY,	/* op a: op is TK_PLUS TK_MINUS TK_NOT TK_TILDE */
	E_BINARY,	/* a op b: arithmetic, bitwise, shifts, comparisons,
			 * =~ !~, TK_DOT (concatenation), && || */
	E_TERNARY,	/* a ? b : c */
	E_ASSIGN,	/* a op b: TK_ASSIGN, TK_AGG (<<<), TK_ADD_ASSIGN... */
	E_PREINC,	/* op a: TK_INC or TK_DEC */
	E_POSTINC,	/* a op */
	E_IN,		/* [args] in a: a is E_SYM or E_HIST; NULL args are "*" */
	E_TARGET,	/* $name (name includes the '$'), comps, addressof */
	E_VAR,		/* @var("str", "module"), comps, addressof */
	E_CAST,		/* @cast(a, "str", "module"), comps, addressof */
	E_AUTOCAST,	/* a->field...: member access on any value, comps */
	E_DEFINED,	/* @defined(a) */
	E_ENTRY,	/* @entry(a) */
	E_STAT,		/* @count(a) ...: op is an enum stat_op; args holds
			 * the E_NUM bit shift of @variance(a, n) */
	E_HIST,		/* @hist_linear(a, args...) / @hist_log(a):
			 * op is HIST_LINEAR or HIST_LOG; args are 3 E_NUM */
	E_ATOP,		/* other @ operators: name and args:
			 * @const("s") @perf("s"): E_STR;
			 * @kregister(n) @uregister(n): E_NUM;
			 * @kderef(n, e) @uderef(n, e): E_NUM size, address;
			 * @probewrite(v): E_SYM */
	E_EMBEDDED,	/* %{ code %} used as an expression: str/len */
};

enum stat_op {
	STAT_NONE = 0, STAT_COUNT, STAT_SUM, STAT_MIN, STAT_MAX, STAT_AVG,
	STAT_VARIANCE,
};

enum hist_kind { HIST_LINEAR = 1, HIST_LOG };

/* Which of the print family an E_PRINT is (its op): set by the parser
 * from the function's name, read by passes 2 and 3. */
enum print_flag {
	PF_STRING = 1,		/* sprint...: the value is the text */
	PF_FORMAT = 2,		/* printf, sprintf: str/len is the format */
	PF_DELIM = 4,		/* printd...: str/len is the delimiter */
	PF_NEWLINE = 8,		/* ...ln */
	PF_CHAR = 16,		/* print_char: numbers as characters */
};

/* One step after a target variable: ->name, [index], or a pretty-print
 * request "$" / "$$". */
enum tcomp_kind { TC_FIELD, TC_INDEX, TC_PPRINT };

struct tcomp {
	enum tcomp_kind kind;
	struct srcpos pos;
	char *name;		/* TC_FIELD: member; TC_PPRINT: "$" or "$$" */
	struct expr *index;	/* TC_INDEX */
};

struct expr {
	enum expr_kind kind;
	struct srcpos pos;
	int op;
	bool paren;		/* written inside ( ): keeps -(5) from folding */
	bool addressof;		/* &$var, &@cast(...) */
	int64_t num;
	char *name;
	char *str;
	size_t len;
	char *module;		/* E_VAR, E_CAST; NULL when not given */
	struct expr *a, *b, *c;
	struct srcpos op_pos;	/* E_ASSIGN, postfix E_POSTINC: where its operator is */
	struct vec args;	/* struct expr * (NULL = "*") */
	struct vec comps;	/* struct tcomp * */
};

enum stmt_kind {
	S_BLOCK,	/* { stmts } */
	S_NULL,		/* ; */
	S_EXPR,		/* e1 */
	S_IF,		/* if (e1) body else els */
	S_WHILE,	/* while (e1) body */
	S_FOR,		/* for (e1; e2; e3) body; any may be NULL */
	S_FOREACH,	/* see the foreach fields */
	S_RETURN,	/* return e1 (NULL: bare return) */
	S_DELETE,	/* delete e1 */
	S_BREAK,
	S_CONTINUE,
	S_NEXT,
	S_TRY,		/* try body catch (name) els; name may be NULL */
};

struct foreach_key {
	char *name;
	struct srcpos pos;
};

struct stmt {
	enum stmt_kind kind;
	struct srcpos pos;
	struct expr *e1, *e2, *e3;
	struct stmt *body, *els;
	struct vec stmts;	/* S_BLOCK: struct stmt * */
	char *name;		/* S_TRY: catch variable */
	struct srcpos name_pos;

	/* S_FOREACH:
	 *   foreach (value = [keys] in base[slice] @aggr+ limit e1) body
	 * value is NULL when absent; slice is empty unless given (NULL
	 * entries are "*"); sort_dir is -1, 0 or +1; sort_col is 0 for the
	 * value, k for the k-th key (1-based); sort_aggr is an enum stat_op
	 * for a sort on an aggregate of the value. */
	struct foreach_key *value;
	struct vec keys;	/* struct foreach_key * */
	struct expr *base;	/* E_SYM or E_HIST */
	struct vec slice;	/* struct expr * */
	bool has_slice;
	int sort_dir;
	int sort_col;
	int sort_aggr;
	struct expr *limit;
};

/* A probe point: kernel.function("foo").return? if (cond) */
struct pp_comp {
	char *name;		/* may contain '*' wildcards */
	struct expr *arg;	/* E_NUM or E_STR literal, or NULL */
	struct srcpos pos;
};

struct probe_point {
	struct srcpos pos;
	struct vec comps;	/* struct pp_comp * */
	bool optional;		/* ? (also set by !) */
	bool optional_inherited;	/* optional only through the point naming
				 * its alias, which -p2 shows without '?' */
	bool sufficient;	/* ! */
	struct expr *cond;	/* if (cond); NULL when absent */
};

struct probe {
	struct srcpos pos;
	bool version_dependent;	/* parsed under a systemtap_v condition
				 * (--check-version) */
	struct vec points;	/* struct probe_point * */
	struct stmt *body;
	bool privileged;
};

/* probe NAME = POINTS { body } (prologue style) or += (epilogue style). */
struct probe_alias {
	struct srcpos pos;
	bool version_dependent;	/* parsed under a systemtap_v condition
				 * (--check-version) */
	struct vec names;	/* struct probe_point * */
	struct vec points;	/* struct probe_point * */
	bool epilogue;		/* written with += */
	struct stmt *body;
	struct stmt *epi_body;	/* = POINTS { prologue }, { epilogue } */
	bool privileged;
};

struct global {
	struct srcpos pos;
	bool version_dependent;	/* parsed under a systemtap_v condition
				 * (--check-version) */
	char *name;
	bool is_private;
	bool wrap;		/* global a% */
	int64_t size;		/* global a[N]; 0 when not given */
	struct expr *init;	/* E_NUM or E_STR literal, or NULL */
};

enum value_type { TYPE_NONE = 0, TYPE_LONG, TYPE_STRING };

struct param {
	char *name;
	struct srcpos pos;
	enum value_type type;
};

/* Pragmas found in an embedded-C function body, as comments. */
enum {
	PRAGMA_PURE = 1 << 0,
	PRAGMA_UNPRIVILEGED = 1 << 1,
	PRAGMA_MYPROC_UNPRIVILEGED = 1 << 2,
	PRAGMA_GURU = 1 << 3,
	PRAGMA_UNMANGLED = 1 << 4,
	PRAGMA_STABLE = 1 << 5,
	PRAGMA_UNMODIFIED_FNARGS = 1 << 6,
};

struct function {
	struct srcpos pos;
	bool version_dependent;	/* parsed under a systemtap_v condition
				 * (--check-version) */
	char *name;
	bool is_private;
	enum value_type type;
	struct vec params;	/* struct param * */
	int64_t priority;	/* function f() :N {...}; 0 when not given */
	struct stmt *body;	/* NULL for an embedded-C body */
	char *embedded;		/* %{ ... %} body text, or NULL */
	struct srcpos embedded_pos;
	unsigned pragmas;	/* PRAGMA_* found in the embedded body */
};

struct embedded {
	struct srcpos pos;
	char *code;
};

enum decl_kind { D_PROBE, D_ALIAS, D_FUNCTION, D_GLOBAL, D_EMBEDDED };

struct decl {
	enum decl_kind kind;
	void *p;
};

struct script {
	const struct srcfile *file;
	struct vec probes;	/* struct probe * */
	struct vec aliases;	/* struct probe_alias * */
	struct vec functions;	/* struct function * */
	struct vec globals;	/* struct global * */
	struct vec embeds;	/* struct embedded * */
	struct vec decls;	/* struct decl *: all of the above in source
				 * order (the printer uses it) */
	/* Whether the lexer found a token in the file (before
	 * preprocessing), and whether the parser got one (after): a file
	 * the parser got nothing of is "empty", or "empty after
	 * preprocessing" when the lexer found something. */
	bool lexed_tokens;
	bool parsed_tokens;
};

/*
 * How deep statements and expressions may nest: every statement, block
 * and operator on the way from a probe or function body to a node is a
 * level; parentheses are not, nor are the braces around the body of an
 * if, loop, try or catch.  Every pass walks the tree recursively; the
 * parser refuses deeper trees with an error (check_tree in parser.y), so
 * that no pass can run out of stack: a level takes at most about 1 KB
 * of stack (under AddressSanitizer), well within the usual 8 MB.
 */
#define AST_MAX_DEPTH 4000

/* Constructors: every field not named is zero. */
struct expr *expr_new(enum expr_kind kind, const struct srcpos *pos);
struct stmt *stmt_new(enum stmt_kind kind, const struct srcpos *pos);
struct tcomp *tcomp_new(enum tcomp_kind kind, const struct srcpos *pos);
struct pp_comp *pp_comp_new(char *name, struct expr *arg,
			    const struct srcpos *pos);
struct probe_point *probe_point_new(const struct srcpos *pos);
struct script *script_new(const struct srcfile *f);

/* Deep copies (probe point alternation expands into several points). */
struct expr *expr_dup(const struct expr *e);
struct pp_comp *pp_comp_dup(const struct pp_comp *c);
struct probe_point *probe_point_dup(const struct probe_point *pp);

/* Destructors accept NULL.  expr_free and stmt_free do not recurse:
 * they also free trees deeper than AST_MAX_DEPTH, which the parser
 * builds before it refuses them. */
void expr_free(struct expr *e);
void stmt_free(struct stmt *s);
void tcomp_free(struct tcomp *c);
void pp_comp_free(struct pp_comp *c);
void probe_point_free(struct probe_point *pp);
void probe_free(struct probe *p);
void probe_alias_free(struct probe_alias *a);
void global_free(struct global *g);
void param_free(struct param *p);
void function_free(struct function *f);
void embedded_free(struct embedded *e);
void script_free(struct script *s);

/* Add a declaration to the script (and to the source-order list). */
void script_add(struct script *s, enum decl_kind kind, void *p);

/* Scan embedded C for the pragma comments, e.g. slash-star pure star-slash. */
unsigned embedded_pragmas(const char *code);
/* The next "pragma:read:NAME" or "pragma:write:NAME" of embedded code,
 * from *at on (SystemTap's access to script globals): NAME (not
 * NUL-terminated, len bytes) and whether it is write; false at the end. */
bool embedded_global_pragma(const char **at, const char **name, size_t *len, bool *write);

/* Whether s has no statement that does anything: NULL, ";", or blocks
 * of those only. */
bool stmt_empty(const struct stmt *s);

/* Print the script in canonical form (see ast_print.c). */
void ast_print(FILE *out, const struct script *s);
void ast_print_expr(FILE *out, const struct expr *e);
/* The spelling of a statistic operator (enum stat_op): "@count" ... */
const char *ast_stat_name(int op);
void ast_print_probe_point(FILE *out, const struct probe_point *pp);

#endif
