/* Pass 1 grammar: the SystemTap language, token stream to struct script.
 *
 * The token stream comes from preproc_next(); p1_lex() below adapts it:
 *  - it sorts identifiers and @words into the token kinds the grammar
 *    needs (print family, @cast, @hist_log, ...);
 *  - inside probe point specifications it glues wildcard pieces that touch
 *    each other ("sys_*", "foo**", "function" used as a name) into one
 *    PP_WORD, because only the lexer knows where white space was;
 *  - after an error it skips to the next top-level keyword so that one run
 *    reports several independent errors, as SystemTap does.
 *
 * Token values live in an arena owned by the parser state and are freed
 * when parsing ends, so discarded tokens never leak; tree nodes copy what
 * they keep. Nonterminals own their nodes and have %destructors.
 */

%code requires {
#include <stdbool.h>
#include "ast.h"
#include "lexer.h"

struct pstate;

/* Every token carries its text; the arena in struct pstate owns it. */
struct tokv {
	char *text;
	size_t len;
	uint64_t num;
	int kind;		/* enum tok_kind of the raw token */
};

/* Locations: where a symbol starts, and whether white space preceded it. */
struct ploc {
	struct srcpos pos;
	bool space;
};

/* One key list of a foreach head while it is being collected. */
struct fe_head {
	struct foreach_key *value;
	struct vec keys;
	int sort_dir;
	int sort_col;
	struct srcpos sort_pos;	/* the second directive */
	struct srcpos first_pos;
	bool multi;		/* more than one sort directive */
};
}

%code provides {
/* api.prefix keeps this parser's symbols apart from any other one. */
int p1_lex(P1_STYPE *lval, P1_LTYPE *lloc, struct pstate *ps);
}

%code {
#include <stdlib.h>
#include <string.h>

#include "lookup.h"
#include "parse.h"
#include "util.h"

#define YYLLOC_DEFAULT(cur, rhs, n)					\
	do {								\
		if (n)							\
			(cur) = YYRHSLOC(rhs, 1);			\
		else							\
			(cur) = YYRHSLOC(rhs, 0);			\
	} while (0)

/* Which declaration we are in: decides where return and next are legal. */
enum { CTX_NONE, CTX_PROBE, CTX_FUNCTION, CTX_GLOBAL };

/* The parser's stack: room for trees AST_MAX_DEPTH deep (a level takes
 * at most a dozen entries, in for (;;) without braces); deeper input is
 * refused when the stack is full (yyerror), or by check_tree. */
#define YYMAXDEPTH (20 * AST_MAX_DEPTH)

/* Probe point alternation must not explode: {a,b}.{a,b}... doubles. */
#define MAX_PP_EXPANSION 10000

struct pstate {
	struct preproc *pp;
	struct diag *d;
	struct script *script;
	bool privileged;
	int ctx;

	struct vec arena;	/* struct tokv * handed to the parser */
	struct token last;	/* last token handed out (text in arena) */

	struct token la;	/* one token of pushback */
	bool have_la;

	bool skipping;		/* after an error: drop tokens up to a sync */
	/* The lexer or preprocessor reported an error and dropped tokens:
	 * the syntax error that usually follows is a consequence, not news.
	 * Cleared at the next top-level declaration. */
	bool pp_error_pending;
	bool too_deep;		/* check_tree reported this body too deep */
	struct namemap global_names;	/* the script's globals so far */

	/* values handed between grammar rules that cannot nest */
	bool last_wrap;
	int64_t last_size;
	struct srcpos last_init_pos;
	int64_t last_prio;
	bool alias_epilogue;

	/* probe point mode: see pp_track() */
	bool ppmode;
	int pp_paren;
	int pp_alt;
	int prev;		/* raw kind of the previous token, or -1 */

	/* --check-version, as SystemTap decides it: a declaration depends
	 * on the language version when a systemtap_v condition was
	 * evaluated from just before its first token to its end.  The
	 * parser may have read the next declaration's keyword when it
	 * builds one, so the flag of the one before is kept too. */
	bool version_decl, version_prev;
	int raw_prev;		/* kind of the previous token read */
};

static void perr(struct pstate *ps, const struct srcpos *pos,
		 const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void perr(struct pstate *ps, const struct srcpos *pos,
		 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	/* as stap, a second parse error of a kind is counted, not shown */
	diag_verror_keyed(ps->d, pos, "parse error", fmt, fmt, ap);
	va_end(ap);
}

static char *tdup(const struct tokv *t)
{
	return xstrndup(t->text, t->len);
}

static struct expr *mk(enum expr_kind k, const YYLTYPE *l)
{
	return expr_new(k, &l->pos);
}

static struct expr *mk_bin(enum expr_kind k, int op, struct expr *a,
			   struct expr *b, const YYLTYPE *l)
{
	struct expr *e = mk(k, l);

	e->op = op;
	e->a = a;
	e->b = b;
	return e;
}

/* Left-associative chains (a + b + c ...) do not grow the parser stack;
 * check_tree bounds their depth with every other kind of nesting. */
static struct expr *bin(int op, struct expr *a, struct expr *b, const YYLTYPE *l)
{
	return mk_bin(E_BINARY, op, a, b, l);
}

static struct expr *mk_str(const struct tokv *t, const YYLTYPE *l)
{
	struct expr *e = mk(E_STR, l);

	e->str = xmalloc(t->len + 1);
	memcpy(e->str, t->text, t->len);
	e->str[t->len] = '\0';
	e->len = t->len;
	return e;
}

static void str_append(struct expr *e, const struct tokv *t)
{
	e->str = xrealloc(e->str, e->len + t->len + 1);
	memcpy(e->str + e->len, t->text, t->len);
	e->len += t->len;
	e->str[e->len] = '\0';
}

static void exprs_free(struct vec *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++)
		expr_free(v->v[i]);
	vec_free(v);
	free(v);
}

static void points_free(struct vec *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++)
		probe_point_free(v->v[i]);
	vec_free(v);
	free(v);
}

static void fe_head_free(struct fe_head *h)
{
	if (!h)
		return;
	if (h->value) {
		free(h->value->name);
		free(h->value);
	}
	for (size_t i = 0; i < h->keys.n; i++) {
		struct foreach_key *k = h->keys.v[i];

		free(k->name);
		free(k);
	}
	vec_free(&h->keys);
	free(h);
}

static struct vec *vec_new1(void *p)
{
	struct vec *v = xcalloc(1, sizeof(*v));

	vec_push(v, p);
	return v;
}

static struct foreach_key *fe_key(const struct tokv *t, const YYLTYPE *l)
{
	struct foreach_key *k = xcalloc(1, sizeof(*k));

	k->name = tdup(t);
	k->pos = l->pos;
	return k;
}

/* Record a +/- sort directive on column col; remembers a second one. */
static void fe_sort(struct fe_head *h, int dir, int col, const YYLTYPE *l)
{
	if (!dir)
		return;
	if (h->sort_dir) {
		if (!h->multi)
			h->sort_pos = l->pos;
		h->multi = true;
		return;
	}
	h->sort_dir = dir;
	h->sort_col = col;
	h->first_pos = l->pos;
}

/* Cartesian product of two sets of partial probe points: every component
 * list of a followed by every component list of b. Consumes both. */
static struct vec *pp_concat(struct pstate *ps, struct vec *a, struct vec *b,
			     const YYLTYPE *l, bool *ok)
{
	struct vec *r = xcalloc(1, sizeof(*r));

	*ok = true;
	for (size_t i = 0; i < a->n; i++) {
		struct probe_point *x = a->v[i];

		if (x->optional || x->cond) {
			perr(ps, &x->pos, "'?', '!' or condition must only be specified in suffix");
			*ok = false;
			break;
		}
	}
	if (*ok && a->n * b->n > MAX_PP_EXPANSION) {
		perr(ps, &l->pos, "too many probe point alternatives");
		*ok = false;
	}
	for (size_t i = 0; *ok && i < a->n; i++) {
		for (size_t j = 0; j < b->n; j++) {
			struct probe_point *x = probe_point_dup(a->v[i]);
			struct probe_point *y = b->v[j];

			for (size_t k = 0; k < y->comps.n; k++)
				vec_push(&x->comps, pp_comp_dup(y->comps.v[k]));
			/* the tail's own flags: kernel.{trace("a")!, ...} */
			x->optional = y->optional;
			x->sufficient = y->sufficient;
			x->cond = expr_dup(y->cond);
			vec_push(r, x);
		}
	}
	points_free(a);
	points_free(b);
	return r;
}

static struct probe_point *pp_single(struct pp_comp *c)
{
	struct probe_point *pp = probe_point_new(&c->pos);

	vec_push(&pp->comps, c);
	return pp;
}

static bool check_number(struct pstate *ps, const struct tokv *t, bool neg,
			 const YYLTYPE *l)
{
	if (neg && t->num > 9223372036854775808ULL) {
		perr(ps, &l->pos, "number invalid or out of range");
		return false;
	}
	return true;
}

static struct expr *mk_num(const struct tokv *t, bool neg, const YYLTYPE *l)
{
	struct expr *e = mk(E_NUM, l);

	e->num = neg ? (int64_t)(0 - t->num) : (int64_t)t->num;
	return e;
}

/* The print family: which form of argument list each one takes, and
 * what it does (enum print_flag). */
static const struct {
	const char *name;
	int tok;
	int flags;
} print_forms[] = {
	{ "printf", PRINT_FMT, PF_FORMAT },
	{ "sprintf", PRINT_FMT, PF_STRING | PF_FORMAT },
	{ "printd", PRINT_DELIM, PF_DELIM },
	{ "printdln", PRINT_DELIM, PF_DELIM | PF_NEWLINE },
	{ "sprintd", PRINT_DELIM, PF_STRING | PF_DELIM },
	{ "sprintdln", PRINT_DELIM, PF_STRING | PF_DELIM | PF_NEWLINE },
	{ "print", PRINT_PLAIN, 0 },
	{ "sprint", PRINT_PLAIN, PF_STRING },
	{ "println", PRINT_LN, PF_NEWLINE },
	{ "sprintln", PRINT_LN, PF_STRING | PF_NEWLINE },
	{ "print_char", PRINT_PLAIN, PF_CHAR },
};

static int print_form(const char *s)
{
	for (size_t i = 0; i < sizeof(print_forms) / sizeof(print_forms[0]); i++)
		if (strcmp(s, print_forms[i].name) == 0)
			return (int)i;
	return -1;
}

static int print_class(const char *s)
{
	int i = print_form(s);

	return i < 0 ? IDENT : print_forms[i].tok;
}


static struct vec *pp_finish(struct pstate *ps, struct vec *path, int flag,
			     const YYLTYPE *flag_loc, struct expr *cond);
static void fn_body(struct pstate *ps, struct function *f, struct stmt *b);
static void fn_embedded(struct pstate *ps, struct function *f,
			const struct tokv *t, const YYLTYPE *l);
static struct stmt *build_foreach(struct pstate *ps, const YYLTYPE *l,
				  struct fe_head *h, struct expr *base,
				  struct vec *slice, int aggr, int dir,
				  const YYLTYPE *dirl, struct expr *limit);
static struct expr *mk_print(const struct tokv *fn, const YYLTYPE *l,
			     struct expr *fmt, struct vec *args);
static struct expr *mk_atop(struct pstate *ps, const struct tokv *t,
			    const YYLTYPE *l, bool guru, struct expr *a,
			    struct expr *b);
static bool alias_names_ok(struct pstate *ps, struct vec *names);
static bool params_unique(struct pstate *ps, struct vec *params);
static void add_global(struct pstate *ps, struct global *g, bool is_private, int la);
static bool version_dependent(const struct pstate *ps, int la);
static struct expr *build_target(struct pstate *ps, struct expr *e,
				 const struct tokv *t);
static bool add_member(struct pstate *ps, struct expr *e,
		       const struct tokv *t, const YYLTYPE *l);
static bool check_pprint_tail(struct pstate *ps, struct expr *e,
			      const YYLTYPE *l);
static void check_tree(struct pstate *ps, struct stmt *s);
static void check_cond(struct pstate *ps, struct expr *e);
static bool is_sync_token(int yytok);
static void yyerror(YYLTYPE *l, struct pstate *ps, const char *msg);
}

%define api.pure full
%define api.prefix {p1_}
%define api.location.type {struct ploc}
%define parse.error custom
%define parse.lac full
%locations
%param {struct pstate *ps}

%union {
	struct tokv *t;
	struct expr *e;
	struct stmt *s;
	struct vec *v;
	struct probe_point *pp;
	struct pp_comp *ppc;
	struct fe_head *fh;
	struct global *g;
	struct function *f;
	struct param *prm;
	int i;
}

%token <t> END 0 "end of input"
%token <t> ERRTOK "invalid token"
%token <t> IDENT "identifier" PP_WORD "probe point component"
%token <t> TARGET "target variable" PPRINT "'$'"
%token <t> NUMBER "number" STRING "literal string" EMBEDDED "embedded code"
%token <t> PRINT_FMT "'printf'" PRINT_DELIM "'printd'" PRINT_PLAIN "'print'"
%token <t> PRINT_LN "'println'"
%token <t> AT_CAST "'@cast'" AT_VAR "'@var'" AT_DEFINED "'@defined'"
%token <t> AT_ENTRY "'@entry'" AT_STAT "statistic operator"
%token <t> AT_HIST_LINEAR "'@hist_linear'" AT_HIST_LOG "'@hist_log'"
%token <t> AT_CONST "'@const'" AT_KDEREF "'@kderef'" AT_UDEREF "'@uderef'"
%token <t> AT_KREGISTER "'@kregister'" AT_UREGISTER "'@uregister'"
%token <t> AT_PROBEWRITE "'@probewrite'" AT_PERF "'@perf'"
%token <t> AT_OTHER "'@' operator"
%token <t> PROBE "'probe'" GLOBAL "'global'" PRIVATE "'private'"
%token <t> FUNCTION "'function'" IF "'if'" ELSE "'else'" FOR "'for'"
%token <t> FOREACH "'foreach'" IN "'in'" LIMIT "'limit'" RETURN "'return'"
%token <t> DELETE "'delete'" WHILE "'while'" BREAK "'break'"
%token <t> CONTINUE "'continue'" NEXT "'next'" TRY "'try'" CATCH "'catch'"
%token <t> KW_STRING "'string'" KW_LONG "'long'"
%token <t> LBRACE "'{'" RBRACE "'}'" LPAREN "'('" RPAREN "')'"
%token <t> LBRACKET "'['" RBRACKET "']'" SEMI "';'" COMMA "','" DOT "'.'"
%token <t> COLON "':'" QUESTION "'?'" ASSIGN "'='"
%token <t> PLUS "'+'" MINUS "'-'" STAR "'*'" SLASH "'/'" PERCENT "'%'"
%token <t> LT "'<'" GT "'>'" LE "'<='" GE "'>='" EQ "'=='" NE "'!='"
%token <t> NOT "'!'" TILDE "'~'" AMP "'&'" PIPE "'|'" CARET "'^'"
%token <t> ANDAND "'&&'" OROR "'||'" SHL "'<<'" SHR "'>>'" USHR "'>>>'"
%token <t> INC "'++'" DEC "'--'" ARROW "'->'" MATCH "'=~'" NMATCH "'!~'"
%token <t> AGG "'<<<'" ADD_ASSIGN "'+='" SUB_ASSIGN "'-='"
%token <t> MUL_ASSIGN "'*='" DIV_ASSIGN "'/='" MOD_ASSIGN "'%='"
%token <t> AND_ASSIGN "'&='" OR_ASSIGN "'|='" XOR_ASSIGN "'^='"
%token <t> SHL_ASSIGN "'<<='" SHR_ASSIGN "'>>='" CAT_ASSIGN "'.='"

/* Precedence only settles the classic ambiguities, all towards shifting:
 * dangling else, the optional ';' after a statement, adjacent string
 * literals, and the right-hand side of ?: swallowing an assignment. */
%precedence LOWEST
%precedence ELSE SEMI STRING
%precedence ASSIGN AGG ADD_ASSIGN SUB_ASSIGN MUL_ASSIGN DIV_ASSIGN
	MOD_ASSIGN AND_ASSIGN OR_ASSIGN XOR_ASSIGN SHL_ASSIGN SHR_ASSIGN
	CAT_ASSIGN

/* Statements need no separator, so where an expression could end or go
 * on (a [ ( + - & ++ -- after a value, an expression after a bare return)
 * bison sees a conflict; shifting, i.e. taking the longest expression, is
 * what SystemTap's recursive descent does. 34 of these come from
 * "return", the rest from the operators above. */
%expect 50

%type <e> expr ternary lor land bor bxor band in_expr cmp shift concat
%type <e> additive mult unary crement value literal string_lit target
%type <e> hist_op primary autocast match_rhs indexable opt_expr idx_item in_item pp_arg
%type <e> global_init opt_ppcond opt_limit tcomps
%type <v> args opt_args idx_list in_list opt_slice
%type <s> stmt simple_stmt block stmts foreach_stmt foreach_hdr opt_epilogue
%type <fh> fe_head fe_keyspec fe_keylist
%type <v> pp_list pp_path pp_seg pp_alts pp_alt alias_head
%type <v> pp
%type <ppc> pp_comp
%type <g> global_var
%type <f> func_head
%type <v> params param_list
%type <prm> param
%type <i> opt_sort opt_type assign_op cmp_op opt_ppflag fe_tail
%type <t> member fname opt_module

%destructor { expr_free($$); } <e>
%destructor { stmt_free($$); } <s>
%destructor { fe_head_free($$); } <fh>
%destructor { pp_comp_free($$); } <ppc>
%destructor { global_free($$); } <g>
%destructor { function_free($$); } <f>
%destructor { param_free($$); } <prm>
%destructor { points_free($$); } pp pp_list pp_path pp_seg pp_alts pp_alt
	alias_head
%destructor { exprs_free($$); } args opt_args idx_list in_list opt_slice
%destructor {
	for (size_t i = 0; i < $$->n; i++)
		param_free($$->v[i]);
	vec_free($$);
	free($$);
} params param_list

%%

script:
	  %empty
	| script decl
	;

decl:
	  probe_decl
	| GLOBAL { ps->ctx = CTX_GLOBAL; } global_list opt_semi
	| PRIVATE GLOBAL { ps->ctx = CTX_GLOBAL; } private_global_list opt_semi
	| PRIVATE private_global_list opt_semi
	| function_decl
	| EMBEDDED
		{
			if (!ps->privileged) {
				perr(ps, &@1.pos, "embedded code in unprivileged script; need stap -g");
			} else {
				struct embedded *em = xcalloc(1, sizeof(*em));

				em->pos = @1.pos;
				em->code = tdup($1);
				script_add(ps->script, D_EMBEDDED, em);
			}
		}
	| error
		{
			/* Keep the lookahead if a declaration can start there,
			 * otherwise drop tokens up to the next one. */
			yyerrok;
			if (!(yychar >= 0 && is_sync_token(yychar))) {
				yyclearin;
				ps->skipping = true;
			}
		}
	;

opt_semi:
	  %empty
	| SEMI
	;

global_list:
	  global_var			{ add_global(ps, $1, false, yychar); }
	| global_list COMMA global_var	{ add_global(ps, $3, false, yychar); }
	;

private_global_list:
	  global_var				{ add_global(ps, $1, true, yychar); }
	| private_global_list COMMA global_var	{ add_global(ps, $3, true, yychar); }
	;

global_var:
	  IDENT opt_wrap_size global_init
		{
			struct global *g = xcalloc(1, sizeof(*g));

			g->pos = @1.pos;
			g->name = tdup($1);
			g->wrap = ps->last_wrap;
			g->size = ps->last_size;
			g->init = $3;
			if (g->init && g->size) {
				perr(ps, &ps->last_init_pos,
				     "only scalar globals can be initialized");
				global_free(g);
				YYERROR;
			}
			$$ = g;
		}
	;

opt_wrap_size:
	  opt_wrap opt_size
	;

opt_wrap:
	  %empty	{ ps->last_wrap = false; }
	| PERCENT	{ ps->last_wrap = true; }
	;

opt_size:
	  %empty	{ ps->last_size = 0; }
	| LBRACKET NUMBER RBRACKET
		{
			/* SystemTap 4.8's bounds: 1 to INT_MAX (pass 2
			 * then checks that the runtime can hold it) */
			if ($2->num == 0 || $2->num > 2147483647) {
				perr(ps, &@2.pos, "array size out of range");
				YYERROR;
			}
			ps->last_size = (int64_t)$2->num;
		}
	| LBRACKET MINUS NUMBER RBRACKET
		{
			perr(ps, &@3.pos, "array size out of range");
			YYERROR;
		}
	;

global_init:
	  %empty		{ $$ = NULL; }
	| ASSIGN literal	{ ps->last_init_pos = @1.pos; $$ = $2; }
	;

literal:
	  string_lit %prec LOWEST	{ $$ = $1; }
	| NUMBER			{ $$ = mk_num($1, false, &@1); }
	| MINUS NUMBER
		{
			if (!check_number(ps, $2, true, &@2))
				YYERROR;
			$$ = mk_num($2, true, &@1);
		}
	;

string_lit:
	  STRING		{ $$ = mk_str($1, &@1); }
	| string_lit STRING	{ str_append($1, $2); $$ = $1; }
	;

/* ---- functions ---- */

function_decl:
	  func_head block
		{ $1->version_dependent = version_dependent(ps, yychar); fn_body(ps, $1, $2); }
	| func_head EMBEDDED
		{
			$1->version_dependent = version_dependent(ps, yychar);
			fn_embedded(ps, $1, $2, &@2);
		}
	| PRIVATE func_head block
		{
			$2->is_private = true;
			$2->version_dependent = version_dependent(ps, yychar);
			fn_body(ps, $2, $3);
		}
	| PRIVATE func_head EMBEDDED
		{
			$2->is_private = true;
			$2->version_dependent = version_dependent(ps, yychar);
			fn_embedded(ps, $2, $3, &@3);
		}
	;

func_head:
	  FUNCTION { ps->ctx = CTX_FUNCTION; } fname opt_type
	  LPAREN params RPAREN opt_priority
		{
			struct function *f = xcalloc(1, sizeof(*f));

			if (!params_unique(ps, $6)) {
				for (size_t i = 0; i < $6->n; i++)
					param_free($6->v[i]);
				vec_free($6);
				free($6);
				free(f);
				YYERROR;
			}
			f->pos = @3.pos;
			f->name = tdup($3);
			f->type = $4;
			f->params = *$6;
			free($6);
			f->priority = ps->last_prio;
			$$ = f;
		}
	;

fname:
	  IDENT
	| KW_STRING
	| KW_LONG
	| PRINT_FMT
	| PRINT_DELIM
	| PRINT_PLAIN
	| PRINT_LN
	;

opt_type:
	  %empty		{ $$ = TYPE_NONE; }
	| COLON KW_LONG		{ $$ = TYPE_LONG; }
	| COLON KW_STRING	{ $$ = TYPE_STRING; }
	;

opt_priority:
	  %empty		{ ps->last_prio = 0; }
	| COLON NUMBER
		{
			if ($2->num < 1 || $2->num > INT64_MAX) {
				perr(ps, &@2.pos, "specified priority must be > 0");
				YYERROR;
			}
			ps->last_prio = (int64_t)$2->num;
		}
	;

params:
	  %empty		{ $$ = xcalloc(1, sizeof(struct vec)); }
	| param_list
	;

param_list:
	  param				{ $$ = vec_new1($1); }
	| param_list COMMA param	{ vec_push($1, $3); $$ = $1; }
	;

param:
	  IDENT opt_type
		{
			$$ = xcalloc(1, sizeof(struct param));
			$$->name = tdup($1);
			$$->pos = @1.pos;
			$$->type = $2;
		}
	;

/* ---- probes ---- */

probe_decl:
	  probe_kw pp_list block
		{
			struct probe *p = xcalloc(1, sizeof(*p));

			p->pos = @1.pos;
			p->points = *$2;
			free($2);
			p->body = $3;
			p->privileged = ps->privileged;
			p->version_dependent = version_dependent(ps, yychar);
			check_tree(ps, $3);
			script_add(ps->script, D_PROBE, p);
		}
	| probe_kw alias_head pp_list block opt_epilogue
		{
			struct probe_alias *a;

			if (ps->alias_epilogue && $5) {
				perr(ps, &@5.pos, "Combined prologue and epilogue cannot be defined with '+='");
				points_free($2);
				points_free($3);
				stmt_free($4);
				stmt_free($5);
				YYERROR;
			}
			a = xcalloc(1, sizeof(*a));
			a->pos = @1.pos;
			a->names = *$2;
			free($2);
			a->points = *$3;
			free($3);
			a->epilogue = ps->alias_epilogue;
			a->body = $4;
			a->epi_body = $5;
			a->privileged = ps->privileged;
			a->version_dependent = version_dependent(ps, yychar);
			check_tree(ps, $4);
			check_tree(ps, $5);
			script_add(ps->script, D_ALIAS, a);
		}
	;

opt_epilogue:
	  %empty		{ $$ = NULL; }
	| COMMA block		{ $$ = $2; }
	;

/* probe a = b = POINTS: every name before an = or += is an alias name. */
alias_head:
	  pp alias_op
		{
			if (!alias_names_ok(ps, $1)) {
				points_free($1);
				YYERROR;
			}
			$$ = $1;
		}
	| alias_head pp alias_op
		{
			if (!alias_names_ok(ps, $2)) {
				points_free($1);
				points_free($2);
				YYERROR;
			}
			for (size_t i = 0; i < $2->n; i++)
				vec_push($1, $2->v[i]);
			vec_free($2);
			free($2);
			$$ = $1;
		}
	;

probe_kw:
	  PROBE		{ ps->ctx = CTX_PROBE; ps->alias_epilogue = false; }
	;

alias_op:
	  ASSIGN
	| ADD_ASSIGN	{ ps->alias_epilogue = true; }
	;

pp_list:
	  pp
	| pp_list COMMA pp
		{
			for (size_t i = 0; i < $3->n; i++)
				vec_push($1, $3->v[i]);
			vec_free($3);
			free($3);
			$$ = $1;
		}
	;

/* One written probe point. Alternation ({a,b}) is expanded right here,
 * as SystemTap does, so later passes only see plain points; pp_finish
 * returns the first of them with the rest chained for pp_list. */
pp:
	  pp_path opt_ppflag opt_ppcond
		{
			$$ = pp_finish(ps, $1, $2, &@2, $3);
			if (!$$)
				YYERROR;
		}
	;

opt_ppflag:
	  %empty	{ $$ = 0; }
	| QUESTION	{ $$ = 1; }
	| NOT		{ $$ = 2; }
	;

opt_ppcond:
	  %empty		{ $$ = NULL; }
	| IF LPAREN expr RPAREN	{ check_cond(ps, $3); $$ = $3; }
	;

pp_path:
	  pp_seg		{ $$ = $1; }
	| pp_path DOT pp_seg
		{
			bool ok;

			$$ = pp_concat(ps, $1, $3, &@2, &ok);
			if (!ok) {
				points_free($$);
				YYERROR;
			}
		}
	;

pp_seg:
	  pp_comp			{ $$ = vec_new1(pp_single($1)); }
	| LBRACE pp_alts RBRACE		{ $$ = $2; }
	;

pp_alt:
	  pp_path opt_ppflag opt_ppcond
		{
			$$ = pp_finish(ps, $1, $2, &@2, $3);
			if (!$$)
				YYERROR;
		}
	;

pp_alts:
	  pp_alt			{ $$ = $1; }
	| pp_alts COMMA pp_alt
		{
			for (size_t i = 0; i < $3->n; i++)
				vec_push($1, $3->v[i]);
			vec_free($3);
			free($3);
			if ($1->n > MAX_PP_EXPANSION) {
				perr(ps, &@3.pos, "too many probe point alternatives");
				points_free($1);
				YYERROR;
			}
			$$ = $1;
		}
	;

pp_comp:
	  PP_WORD
		{ $$ = pp_comp_new(tdup($1), NULL, &@1.pos); }
	| PP_WORD LPAREN pp_arg RPAREN
		{ $$ = pp_comp_new(tdup($1), $3, &@1.pos); }
	;

pp_arg:
	  literal
	;

/* ---- statements ---- */

block:
	  LBRACE stmts RBRACE	{ $$ = $2; $$->pos = @1.pos; }
	;

stmts:
	  %empty		{ $$ = stmt_new(S_BLOCK, NULL); }
	| stmts stmt		{ vec_push(&$1->stmts, $2); $$ = $1; }
	;

stmt:
	  block
	| SEMI			{ $$ = stmt_new(S_NULL, &@1.pos); }
	| simple_stmt %prec LOWEST
	| simple_stmt SEMI
	| IF LPAREN expr RPAREN stmt %prec LOWEST
		{
			$$ = stmt_new(S_IF, &@1.pos);
			$$->e1 = $3;
			$$->body = $5;
		}
	| IF LPAREN expr RPAREN stmt ELSE stmt
		{
			$$ = stmt_new(S_IF, &@1.pos);
			$$->e1 = $3;
			$$->body = $5;
			$$->els = $7;
		}
	| WHILE LPAREN expr RPAREN stmt
		{
			$$ = stmt_new(S_WHILE, &@1.pos);
			$$->e1 = $3;
			$$->body = $5;
		}
	| FOR LPAREN opt_expr SEMI opt_expr SEMI opt_expr RPAREN stmt
		{
			$$ = stmt_new(S_FOR, &@1.pos);
			$$->e1 = $3;
			$$->e2 = $5;
			$$->e3 = $7;
			$$->body = $9;
		}
	| foreach_stmt
	| TRY block CATCH block
		{
			$$ = stmt_new(S_TRY, &@1.pos);
			$$->body = $2;
			$$->els = $4;
		}
	| TRY block CATCH LPAREN IDENT RPAREN block
		{
			$$ = stmt_new(S_TRY, &@1.pos);
			$$->body = $2;
			$$->name = tdup($5);
			$$->name_pos = @5.pos;
			$$->els = $7;
		}
	;

opt_expr:
	  %empty	{ $$ = NULL; }
	| expr
	;

simple_stmt:
	  expr
		{
			$$ = stmt_new(S_EXPR, &@1.pos);
			$$->e1 = $1;
		}
	| RETURN
		{
			if (ps->ctx != CTX_FUNCTION) {
				perr(ps, &@1.pos, "found 'return' not in function context");
				YYERROR;
			}
			$$ = stmt_new(S_RETURN, &@1.pos);
		}
	| RETURN expr
		{
			if (ps->ctx != CTX_FUNCTION) {
				perr(ps, &@1.pos, "found 'return' not in function context");
				expr_free($2);
				YYERROR;
			}
			$$ = stmt_new(S_RETURN, &@1.pos);
			$$->e1 = $2;
		}
	| DELETE expr
		{
			$$ = stmt_new(S_DELETE, &@1.pos);
			$$->e1 = $2;
		}
	| BREAK		{ $$ = stmt_new(S_BREAK, &@1.pos); }
	| CONTINUE	{ $$ = stmt_new(S_CONTINUE, &@1.pos); }
	/* Statements only occur in probes and functions; in a function,
	 * next passes the call on to the next overload. */
	| NEXT		{ $$ = stmt_new(S_NEXT, &@1.pos); }
	;

foreach_stmt:
	  foreach_hdr stmt	{ $$ = $1; $$->body = $2; }
	;

foreach_hdr:
	  FOREACH LPAREN fe_head IN indexable opt_slice fe_tail
	  opt_limit RPAREN
		{
			$$ = build_foreach(ps, &@1, $3, $5, $6, $7 >> 2,
					   ($7 & 3) - 1, &@7, $8);
			if (!$$)
				YYERROR;
		}
	;

fe_head:
	  fe_keyspec
	| IDENT opt_sort ASSIGN fe_keyspec
		{
			$$ = $4;
			$$->value = fe_key($1, &@1);
			if ($2) {
				struct fe_head *h = $$;

				/* The value sort comes first in the text, so a
				 * key sort is the second directive. */
				if (h->sort_dir) {
					h->multi = true;
					h->sort_pos = h->first_pos;
				}
				h->sort_dir = $2;
				h->sort_col = 0;
			}
		}
	;

fe_keyspec:
	  IDENT opt_sort
		{
			$$ = xcalloc(1, sizeof(struct fe_head));
			vec_push(&$$->keys, fe_key($1, &@1));
			fe_sort($$, $2, 1, &@2);
		}
	| LBRACKET fe_keylist RBRACKET	{ $$ = $2; }
	;

fe_keylist:
	  IDENT opt_sort
		{
			$$ = xcalloc(1, sizeof(struct fe_head));
			vec_push(&$$->keys, fe_key($1, &@1));
			fe_sort($$, $2, 1, &@2);
		}
	| fe_keylist COMMA IDENT opt_sort
		{
			vec_push(&$1->keys, fe_key($3, &@3));
			fe_sort($1, $4, (int)$1->keys.n, &@4);
			$$ = $1;
		}
	;

opt_sort:
	  %empty	{ $$ = 0; }
	| PLUS		{ $$ = 1; }
	| MINUS		{ $$ = -1; }
	;

opt_slice:
	  %empty				{ $$ = NULL; }
	| LBRACKET idx_list RBRACKET		{ $$ = $2; }
	;

/* The sort on the value, possibly of an aggregate: "+", "-", "@sum+".
 * Encoded as aggregate << 2 | (direction + 1). */
fe_tail:
	  opt_sort		{ $$ = $1 + 1; }
	| AT_STAT PLUS		{ $$ = (int)$1->num << 2 | 2; @$ = @2; }
	| AT_STAT MINUS		{ $$ = (int)$1->num << 2 | 0; @$ = @2; }
	;

opt_limit:
	  %empty		{ $$ = NULL; }
	| LIMIT expr		{ $$ = $2; }
	;

/* ---- expressions, loosest first ---- */

expr:
	  ternary %prec LOWEST
	| ternary assign_op expr
		{ $$ = mk_bin(E_ASSIGN, $2, $1, $3, &@1); $$->op_pos = @2.pos; }
	;

assign_op:
	  ASSIGN	{ $$ = TK_ASSIGN; }
	| AGG		{ $$ = TK_AGG; }
	| ADD_ASSIGN	{ $$ = TK_ADD_ASSIGN; }
	| SUB_ASSIGN	{ $$ = TK_SUB_ASSIGN; }
	| MUL_ASSIGN	{ $$ = TK_MUL_ASSIGN; }
	| DIV_ASSIGN	{ $$ = TK_DIV_ASSIGN; }
	| MOD_ASSIGN	{ $$ = TK_MOD_ASSIGN; }
	| AND_ASSIGN	{ $$ = TK_AND_ASSIGN; }
	| OR_ASSIGN	{ $$ = TK_OR_ASSIGN; }
	| XOR_ASSIGN	{ $$ = TK_XOR_ASSIGN; }
	| SHL_ASSIGN	{ $$ = TK_SHL_ASSIGN; }
	| SHR_ASSIGN	{ $$ = TK_SHR_ASSIGN; }
	| CAT_ASSIGN	{ $$ = TK_CAT_ASSIGN; }
	;

ternary:
	  lor
	| lor QUESTION expr COLON expr
		{
			$$ = mk(E_TERNARY, &@1);
			$$->a = $1;
			$$->b = $3;
			$$->c = $5;
		}
	;

lor:
	  land
	| lor OROR land		{ $$ = bin(TK_OROR, $1, $3, &@1); }
	;

land:
	  bor
	| land ANDAND bor	{ $$ = bin(TK_ANDAND, $1, $3, &@1); }
	;

bor:
	  bxor
	| bor PIPE bxor		{ $$ = bin(TK_PIPE, $1, $3, &@1); }
	;

bxor:
	  band
	| bxor CARET band	{ $$ = bin(TK_CARET, $1, $3, &@1); }
	;

band:
	  in_expr
	| band AMP in_expr	{ $$ = bin(TK_AMP, $1, $3, &@1); }
	;

in_expr:
	  cmp
	| cmp IN indexable
		{
			$$ = mk(E_IN, &@1);
			vec_push(&$$->args, $1);
			$$->a = $3;
		}
	| LBRACKET in_list RBRACKET IN indexable
		{
			$$ = mk(E_IN, &@1);
			$$->args = *$2;
			free($2);
			$$->a = $5;
		}
	/* as SystemTap's parser: "[e]" not followed by "in" is e, and a
	 * list is blamed on the token after it (the lookahead, read to
	 * see that it is not "in") */
	| LBRACKET in_list RBRACKET
		{
			struct vec *items = $2;

			if (items->n != 1 || !items->v[0]) {
				perr(ps, &yylloc.pos, items->n != 1
				     ? "unexpected comma-separated expression list"
				     : "unexpected '*' outside an index list");
				for (size_t i = 0; i < items->n; i++)
					expr_free(items->v[i]);
				vec_free(items);
				free(items);
				YYERROR;
			}
			$$ = items->v[0];
			vec_free(items);
			free(items);
		}
	;

in_list:
	  in_item			{ $$ = vec_new1($1); }
	| in_list COMMA in_item		{ vec_push($1, $3); $$ = $1; }
	;

in_item:
	  cmp
	| STAR		{ $$ = NULL; }
	;

indexable:
	  IDENT
		{
			$$ = mk(E_SYM, &@1);
			$$->name = tdup($1);
		}
	| hist_op
	;

cmp:
	  shift
	| cmp cmp_op shift	{ $$ = bin($2, $1, $3, &@1); }
	| cmp MATCH match_rhs	{ $$ = bin(TK_MATCH, $1, $3, &@1); }
	| cmp NMATCH match_rhs	{ $$ = bin(TK_NMATCH, $1, $3, &@1); }
	;

/* The regular expression is compiled at translation time: a literal. */
match_rhs:
	  string_lit %prec LOWEST
	;

cmp_op:
	  LT		{ $$ = TK_LT; }
	| GT		{ $$ = TK_GT; }
	| LE		{ $$ = TK_LE; }
	| GE		{ $$ = TK_GE; }
	| EQ		{ $$ = TK_EQ; }
	| NE		{ $$ = TK_NE; }
	;

shift:
	  concat
	| shift SHL concat	{ $$ = bin(TK_SHL, $1, $3, &@1); }
	| shift SHR concat	{ $$ = bin(TK_SHR, $1, $3, &@1); }
	| shift USHR concat	{ $$ = bin(TK_USHR, $1, $3, &@1); }
	;

concat:
	  additive
	| concat DOT additive	{ $$ = bin(TK_DOT, $1, $3, &@1); }
	;

additive:
	  mult
	| additive PLUS mult	{ $$ = bin(TK_PLUS, $1, $3, &@1); }
	| additive MINUS mult	{ $$ = bin(TK_MINUS, $1, $3, &@1); }
	;

mult:
	  unary
	| mult STAR unary	{ $$ = bin(TK_STAR, $1, $3, &@1); }
	| mult SLASH unary	{ $$ = bin(TK_SLASH, $1, $3, &@1); }
	| mult PERCENT unary	{ $$ = bin(TK_PERCENT, $1, $3, &@1); }
	;

unary:
	  crement
	| PLUS unary	{ $$ = mk_bin(E_UNARY, TK_PLUS, $2, NULL, &@1); }
	| NOT unary	{ $$ = mk_bin(E_UNARY, TK_NOT, $2, NULL, &@1); }
	| TILDE unary	{ $$ = mk_bin(E_UNARY, TK_TILDE, $2, NULL, &@1); }
	| MINUS unary
		{
			/* -N written directly folds into a negative literal,
			 * which lets -9223372036854775808 through.  A larger N
			 * (up to 2^64-1) has already wrapped to a negative
			 * long and stays a negation of it, as in SystemTap. */
			if ($2->kind == E_NUM && !$2->paren && $2->op == 0 &&
			    (uint64_t)$2->num <= 9223372036854775808ULL) {
				$2->num = (int64_t)(0 - (uint64_t)$2->num);
				$2->op = 1;	/* folded */
				$2->pos = @1.pos;
				$$ = $2;
			} else {
				$$ = mk_bin(E_UNARY, TK_MINUS, $2, NULL, &@1);
			}
		}
	;

crement:
	  value
	| INC value	{ $$ = mk_bin(E_PREINC, TK_INC, $2, NULL, &@1); }
	| DEC value	{ $$ = mk_bin(E_PREINC, TK_DEC, $2, NULL, &@1); }
	| value INC	{ $$ = mk_bin(E_POSTINC, TK_INC, $1, NULL, &@1); $$->op_pos = @2.pos; }
	| value DEC	{ $$ = mk_bin(E_POSTINC, TK_DEC, $1, NULL, &@1); $$->op_pos = @2.pos; }
	;

value:
	  primary
	| target
	/* its place stays the target's, where SystemTap's errors point */
	| AMP target		{ $$ = $2; $$->addressof = true; }
	/* &task_current()->fs, &mm->mm_mt: a member's address, by autocast */
	| AMP autocast
		{
			if (!check_pprint_tail(ps, $2, &@2)) {
				expr_free($2);
				YYERROR;
			}
			$$ = $2;
			$$->addressof = true;
		}
	/* & foo, & (foo): SystemTap parses the address of any value, an
	 * autocast without members that pass 2 then rejects */
	| AMP primary
		{
			$$ = mk(E_AUTOCAST, &@1);
			$$->a = $2;
			$$->addressof = true;
		}
	| autocast
		{
			if (!check_pprint_tail(ps, $1, &@1)) {
				expr_free($1);
				YYERROR;
			}
			$$ = $1;
		}
	;

/* task_current()->pid: member access on any value (SystemTap's autocast;
 * the type comes from the value in pass 2). */
autocast:
	  primary ARROW member
		{
			$$ = mk(E_AUTOCAST, &@1);
			$$->a = $1;
			add_member(ps, $$, $3, &@2);
		}
	/* (argv)[0]: a parenthesized value indexed, as SystemTap's autocast */
	| LPAREN expr RPAREN LBRACKET expr RBRACKET
		{
			struct tcomp *c = tcomp_new(TC_INDEX, &@4.pos);

			$2->paren = true;
			$$ = mk(E_AUTOCAST, &@1);
			$$->a = $2;
			c->index = $5;
			vec_push(&$$->comps, c);
		}
	| autocast ARROW member		{ add_member(ps, $1, $3, &@2); $$ = $1; }
	| autocast LBRACKET expr RBRACKET
		{
			struct tcomp *c = tcomp_new(TC_INDEX, &@2.pos);

			c->index = $3;
			vec_push(&$1->comps, c);
			$$ = $1;
		}
	| autocast PPRINT
		{
			struct tcomp *c = tcomp_new(TC_PPRINT, &@2.pos);

			c->name = tdup($2);
			vec_push(&$1->comps, c);
			$$ = $1;
		}
	;

primary:
	  NUMBER		{ $$ = mk_num($1, false, &@1); }
	| string_lit %prec LOWEST
	| LPAREN expr RPAREN	{ $$ = $2; $$->paren = true; }
	| EMBEDDED
		{
			if (!ps->privileged)
				perr(ps, &@1.pos, "embedded expression code in unprivileged script; need stap -g");
			$$ = mk(E_EMBEDDED, &@1);
			$$->str = tdup($1);
			$$->len = $1->len;
		}
	| IDENT
		{
			$$ = mk(E_SYM, &@1);
			$$->name = tdup($1);
		}
	| IDENT LBRACKET idx_list RBRACKET
		{
			struct expr *b = mk(E_SYM, &@1);

			b->name = tdup($1);
			$$ = mk(E_INDEX, &@1);
			$$->a = b;
			$$->args = *$3;
			free($3);
		}
	| hist_op %prec LOWEST	/* only valid where check_tree allows it */
	| hist_op LBRACKET expr RBRACKET
		{
			$$ = mk(E_INDEX, &@1);
			$$->a = $1;
			vec_push(&$$->args, $3);
		}
	| IDENT LPAREN opt_args RPAREN
		{
			$$ = mk(E_CALL, &@1);
			$$->name = tdup($1);
			$$->args = *$3;
			free($3);
		}
	| PRINT_FMT LPAREN string_lit RPAREN
		{ $$ = mk_print($1, &@1, $3, NULL); }
	| PRINT_FMT LPAREN string_lit COMMA args RPAREN
		{ $$ = mk_print($1, &@1, $3, $5); }
	| PRINT_DELIM LPAREN string_lit COMMA expr COMMA args RPAREN
		{
			/* at least two values after the delimiter */
			struct vec *v = vec_new1($5);

			for (size_t i = 0; i < $7->n; i++)
				vec_push(v, $7->v[i]);
			vec_free($7);
			free($7);
			$$ = mk_print($1, &@1, $3, v);
		}
	| PRINT_PLAIN LPAREN args RPAREN
		{ $$ = mk_print($1, &@1, NULL, $3); }
	| PRINT_LN LPAREN opt_args RPAREN
		{ $$ = mk_print($1, &@1, NULL, $3); }
	| AT_DEFINED LPAREN expr RPAREN
		{ $$ = mk_bin(E_DEFINED, 0, $3, NULL, &@1); }
	| AT_ENTRY LPAREN expr RPAREN
		{ $$ = mk_bin(E_ENTRY, 0, $3, NULL, &@1); }
	| AT_STAT LPAREN expr RPAREN
		{ $$ = mk_bin(E_STAT, (int)$1->num, $3, NULL, &@1); }
	| AT_STAT LPAREN expr COMMA NUMBER RPAREN
		{
			if ($1->num != STAT_VARIANCE) {
				perr(ps, &@4.pos, "not more than 1 parameter allowed");
				expr_free($3);
				YYERROR;
			}
			$$ = mk_bin(E_STAT, (int)$1->num, $3, NULL, &@1);
			vec_push(&$$->args, mk_num($5, false, &@5));
		}
	| AT_STAT LPAREN expr COMMA NUMBER COMMA args RPAREN
		{
			if ($1->num != STAT_VARIANCE)
				perr(ps, &@4.pos, "not more than 1 parameter allowed");
			else
				perr(ps, &@6.pos, "not more than 2 parameters allowed");
			expr_free($3);
			exprs_free($7);
			$$ = NULL;
			YYERROR;
		}
	| AT_CONST LPAREN string_lit RPAREN
		{ $$ = mk_atop(ps, $1, &@1, true, $3, NULL); }
	| AT_PERF LPAREN string_lit RPAREN
		{
			/* a counter has a name: SystemTap blames the ')' */
			if ($3->kind == E_STR && !$3->len) {
				perr(ps, &@4.pos, "expected non-empty string, saw operator ')'");
				expr_free($3);
				YYERROR;
			}
			$$ = mk_atop(ps, $1, &@1, false, $3, NULL);
		}
	| AT_KREGISTER LPAREN NUMBER RPAREN
		{ $$ = mk_atop(ps, $1, &@1, true, mk_num($3, false, &@3), NULL); }
	| AT_UREGISTER LPAREN NUMBER RPAREN
		{ $$ = mk_atop(ps, $1, &@1, false, mk_num($3, false, &@3), NULL); }
	| AT_KDEREF LPAREN NUMBER COMMA expr RPAREN
		{ $$ = mk_atop(ps, $1, &@1, true, mk_num($3, false, &@3), $5); }
	| AT_UDEREF LPAREN NUMBER COMMA expr RPAREN
		{ $$ = mk_atop(ps, $1, &@1, false, mk_num($3, false, &@3), $5); }
	| AT_PROBEWRITE LPAREN IDENT RPAREN
		{
			struct expr *v = mk(E_SYM, &@3);

			v->name = tdup($3);
			$$ = mk_atop(ps, $1, &@1, false, v, NULL);
		}
	| AT_OTHER
		{
			perr(ps, &@1.pos, "unknown operator %s", $1->text);
			$$ = NULL;
			YYERROR;
		}
	;

hist_op:
	  AT_HIST_LINEAR LPAREN expr COMMA literal COMMA literal COMMA literal RPAREN
		{
			struct expr *lits[3] = { $5, $7, $9 };
			bool bad = false;

			for (int i = 0; i < 3; i++)
				if (lits[i]->kind != E_NUM && !bad) {
					perr(ps, &lits[i]->pos, "expected number");
					bad = true;
				}
			$$ = mk(E_HIST, &@1);
			$$->op = HIST_LINEAR;
			$$->a = $3;
			for (int i = 0; i < 3; i++)
				vec_push(&$$->args, lits[i]);
			if (bad) {
				expr_free($$);
				YYERROR;
			}
		}
	| AT_HIST_LOG LPAREN expr RPAREN
		{
			$$ = mk(E_HIST, &@1);
			$$->op = HIST_LOG;
			$$->a = $3;
		}
	;

target:
	  TARGET tcomps
		{
			$$ = build_target(ps, $2, $1);
			$$->pos = @1.pos;
			if (!check_pprint_tail(ps, $$, &@2)) {
				expr_free($$);
				YYERROR;
			}
		}
	| AT_VAR LPAREN string_lit opt_module RPAREN tcomps
		{
			$$ = $6;
			$$->kind = E_VAR;
			$$->pos = @1.pos;
			$$->str = $3->str;
			$$->len = $3->len;
			$3->str = NULL;
			expr_free($3);
			$$->module = $4 ? tdup($4) : NULL;
			if (!check_pprint_tail(ps, $$, &@6)) {
				expr_free($$);
				YYERROR;
			}
		}
	| AT_CAST LPAREN expr COMMA string_lit opt_module RPAREN tcomps
		{
			$$ = $8;
			$$->kind = E_CAST;
			$$->pos = @1.pos;
			$$->a = $3;
			$$->str = $5->str;
			$$->len = $5->len;
			$5->str = NULL;
			expr_free($5);
			$$->module = $6 ? tdup($6) : NULL;
			if (!check_pprint_tail(ps, $$, &@8)) {
				expr_free($$);
				YYERROR;
			}
		}
	;

opt_module:
	  %empty		{ $$ = NULL; }
	| COMMA STRING		{ $$ = $2; }
	;

tcomps:
	  %empty	{ $$ = expr_new(E_TARGET, NULL); }
	| tcomps ARROW member
		{
			if (!add_member(ps, $1, $3, &@2)) {
				expr_free($1);
				YYERROR;
			}
			$$ = $1;
		}
	| tcomps LBRACKET expr RBRACKET
		{
			struct tcomp *c = tcomp_new(TC_INDEX, &@2.pos);

			c->index = $3;
			vec_push(&$1->comps, c);
			$$ = $1;
		}
	| tcomps PPRINT
		{
			struct tcomp *c = tcomp_new(TC_PPRINT, &@2.pos);

			c->name = tdup($2);
			vec_push(&$1->comps, c);
			$$ = $1;
		}
	;

/* A bare "$" or "$$" after "->" is the pretty-printing suffix, as stap -p1
 * prints one ($a$ as $a->$) and SystemTap's parser takes it back. */
member:
	  IDENT | PPRINT | PRINT_FMT | PRINT_DELIM | PRINT_PLAIN | PRINT_LN | PROBE | GLOBAL | PRIVATE | FUNCTION | IF | ELSE
	| FOR | FOREACH | IN | LIMIT | RETURN | DELETE | WHILE | BREAK
	| CONTINUE | NEXT | TRY | CATCH | KW_STRING | KW_LONG
	;

opt_args:
	  %empty	{ $$ = xcalloc(1, sizeof(struct vec)); }
	| args
	;

args:
	  expr			{ $$ = vec_new1($1); }
	| args COMMA expr	{ vec_push($1, $3); $$ = $1; }
	;

idx_list:
	  idx_item			{ $$ = vec_new1($1); }
	| idx_list COMMA idx_item	{ vec_push($1, $3); $$ = $1; }
	;

idx_item:
	  expr
	| STAR		{ $$ = NULL; }
	;

%%

/* ---- helpers used by the actions ---- */

static void fn_body(struct pstate *ps, struct function *f, struct stmt *b)
{
	f->body = b;
	check_tree(ps, b);
	script_add(ps->script, D_FUNCTION, f);
}

static void fn_embedded(struct pstate *ps, struct function *f,
			const struct tokv *t, const YYLTYPE *l)
{
	if (!ps->privileged)
		perr(ps, &l->pos, "embedded code in unprivileged script; need stap -g");
	f->embedded = tdup(t);
	f->embedded_pos = l->pos;
	f->pragmas = embedded_pragmas(f->embedded);
	script_add(ps->script, D_FUNCTION, f);
}

static struct expr *mk_and(struct expr *a, struct expr *b)
{
	struct expr *e = expr_new(E_BINARY, &a->pos);

	e->op = TK_ANDAND;
	e->a = a;
	e->b = b;
	return e;
}

/* Attach ?, ! and if (cond) to every point a written point expanded to. */
static struct vec *pp_finish(struct pstate *ps, struct vec *path, int flag,
			     const YYLTYPE *flag_loc, struct expr *cond)
{
	for (size_t i = 0; flag && i < path->n; i++) {
		struct probe_point *pp = path->v[i];

		if (pp->optional) {
			perr(ps, &flag_loc->pos, "'?' or '!' respecified");
			points_free(path);
			expr_free(cond);
			return NULL;
		}
	}
	for (size_t i = 0; i < path->n; i++) {
		struct probe_point *pp = path->v[i];

		/* flags written inside {a?, b} combine with the outer ones */
		pp->optional = pp->optional || flag != 0;
		pp->sufficient = pp->sufficient || flag == 2;
		if (!cond)
			continue;
		if (pp->cond)
			pp->cond = mk_and(pp->cond, expr_dup(cond));
		else
			pp->cond = expr_dup(cond);
	}
	expr_free(cond);
	return path;
}

static struct stmt *build_foreach(struct pstate *ps, const YYLTYPE *l,
				  struct fe_head *h, struct expr *base,
				  struct vec *slice, int aggr, int dir,
				  const YYLTYPE *dirl, struct expr *limit)
{
	struct stmt *s = stmt_new(S_FOREACH, &l->pos);
	bool bad = false;

	fe_sort(h, dir, 0, dirl);
	if (aggr && !dir) {
		perr(ps, &dirl->pos, "expected sort directive");
		bad = true;
	} else if (h->multi) {
		perr(ps, &h->sort_pos, "multiple sort directives");
		bad = true;
	}
	s->value = h->value;
	s->keys = h->keys;
	h->value = NULL;
	memset(&h->keys, 0, sizeof(h->keys));
	s->sort_dir = h->sort_dir;
	s->sort_col = h->sort_col;
	s->sort_aggr = aggr;
	fe_head_free(h);
	s->base = base;
	if (slice) {
		s->slice = *slice;
		s->has_slice = true;
		free(slice);
	}
	s->limit = limit;
	if (bad) {
		stmt_free(s);
		return NULL;
	}
	return s;
}

static struct expr *mk_print(const struct tokv *fn, const YYLTYPE *l,
			     struct expr *fmt, struct vec *args)
{
	struct expr *e = mk(E_PRINT, l);
	int form;

	e->name = tdup(fn);
	form = print_form(e->name);
	e->op = form < 0 ? 0 : print_forms[form].flags;
	if (fmt) {
		e->str = fmt->str;
		e->len = fmt->len;
		fmt->str = NULL;
		expr_free(fmt);
	}
	if (args) {
		/* print(@hist_log(s)): the histogram itself is printed */
		if (!fmt && args->n == 1
		    && ((struct expr *)args->v[0])->kind == E_HIST) {
			e->a = args->v[0];
			vec_free(args);
		} else {
			e->args = *args;
		}
		free(args);
	}
	return e;
}

static struct expr *mk_atop(struct pstate *ps, const struct tokv *t,
			    const YYLTYPE *l, bool guru, struct expr *a,
			    struct expr *b)
{
	struct expr *e = mk(E_ATOP, l);

	if (guru && !ps->privileged)
		perr(ps, &l->pos, "using %s operator not permitted; need stap -g", t->text);
	e->name = tdup(t);
	vec_push(&e->args, a);
	if (b)
		vec_push(&e->args, b);
	return e;
}

static void add_global(struct pstate *ps, struct global *g, bool is_private, int la)
{
	const struct vec *same = namemap_get(&ps->global_names, g->name);

	/* SystemTap's words when one of the two is private */
	if (same)
		perr(ps, &g->pos, ((const struct global *)same->v[0])->is_private != is_private ?
		     "global versus private variable declaration conflict" :
		     "duplicate global name");
	g->is_private = is_private;
	g->version_dependent = version_dependent(ps, la);
	script_add(ps->script, D_GLOBAL, g);
	namemap_add(&ps->global_names, g->name, g);
}

static bool params_unique(struct pstate *ps, struct vec *params)
{
	struct namemap seen = { 0 };
	bool unique = true;

	for (size_t i = 0; i < params->n && unique; i++) {
		struct param *p = params->v[i];

		if (namemap_get(&seen, p->name)) {
			perr(ps, &p->pos, "duplicate parameter names");
			unique = false;
		}
		namemap_add(&seen, p->name, p);
	}
	namemap_free(&seen);
	return unique;
}

static bool alias_names_ok(struct pstate *ps, struct vec *names)
{
	for (size_t i = 0; i < names->n; i++) {
		struct probe_point *n = names->v[i];

		if (n->optional || n->sufficient) {
			perr(ps, &n->pos, "probe point alias name cannot be optional nor sufficient");
			return false;
		}
	}
	return true;
}

/* Length of the trailing run of '$' in s[0..len), when something other
 * than '$' precedes it: "$foo$$" -> 2, "$$vars" -> 0, "$$" -> 0. */
static size_t pprint_suffix(const char *s, size_t len)
{
	size_t k = len;

	while (k > 0 && s[k - 1] == '$')
		k--;
	return k == 0 ? 0 : len - k;
}

static struct expr *build_target(struct pstate *ps, struct expr *e,
				 const struct tokv *t)
{
	size_t sfx = pprint_suffix(t->text, t->len);

	(void)ps;
	e->kind = E_TARGET;
	e->name = xstrndup(t->text, t->len - sfx);
	if (sfx) {
		struct tcomp *c = tcomp_new(TC_PPRINT, &e->pos);

		c->name = xstrndup(t->text + t->len - sfx, sfx);
		/* the suffix comes before anything parsed after it */
		vec_push(&e->comps, NULL);
		memmove(e->comps.v + 1, e->comps.v,
			(e->comps.n - 1) * sizeof(*e->comps.v));
		e->comps.v[0] = c;
	}
	return e;
}

static bool add_member(struct pstate *ps, struct expr *e,
		       const struct tokv *t, const YYLTYPE *l)
{
	size_t sfx = pprint_suffix(t->text, t->len);
	struct tcomp *c;

	(void)ps;
	if (t->len && strspn(t->text, "$") == t->len) {
		/* a bare "$"/"$$" after "->" */
		c = tcomp_new(TC_PPRINT, &l->pos);
		c->name = tdup(t);
		vec_push(&e->comps, c);
		return true;
	}
	c = tcomp_new(TC_FIELD, &l->pos);
	c->name = xstrndup(t->text, t->len - sfx);
	vec_push(&e->comps, c);
	if (sfx) {
		c = tcomp_new(TC_PPRINT, &l->pos);
		c->name = xstrndup(t->text + t->len - sfx, sfx);
		vec_push(&e->comps, c);
	}
	return true;
}

/* A pretty-printing request ends a target expression. */
static bool check_pprint_tail(struct pstate *ps, struct expr *e,
			      const YYLTYPE *l)
{
	for (size_t i = 0; i + 1 < e->comps.n; i++) {
		struct tcomp *c = e->comps.v[i];

		if (c->kind == TC_PPRINT) {
			struct tcomp *nx = e->comps.v[i + 1];

			perr(ps, nx ? &nx->pos : &l->pos,
			     "-> and [ are not accepted for a pretty-printing variable");
			return false;
		}
	}
	return true;
}

/* Rules the grammar leaves to a walk over each finished body:
 *  - "*" in an index is only meaningful where a slice is: delete a[*],
 *    [*, k] in a, foreach (... in a[*, k]);
 *  - a histogram (@hist_log(s)) is not a value: it may only be indexed,
 *    iterated, tested with "in" or printed whole.
 * Keeping one index rule and one primary rule in the grammar is simpler
 * than encoding these places in it. */
static void check_expr(struct pstate *ps, struct expr *e, int depth);

/* Whether a node at this depth is too deep: reported once per body, at
 * the first such node.  The checks below go no deeper, so that they
 * cannot run out of stack themselves. */
static bool too_deep(struct pstate *ps, const struct srcpos *pos, const char *what,
		     int depth)
{
	if (depth <= AST_MAX_DEPTH)
		return false;
	if (!ps->too_deep)
		perr(ps, pos, "%s nested too deeply (more than %d levels)", what,
		     AST_MAX_DEPTH);
	ps->too_deep = true;
	return true;
}

/* The array operand of an index, "in", foreach or print. */
static void check_base(struct pstate *ps, struct expr *e, int depth)
{
	if (e && e->kind == E_HIST) {
		check_expr(ps, e->a, depth + 1);
		return;
	}
	check_expr(ps, e, depth);
}

static void check_index_args(struct pstate *ps, struct expr *e, bool allow, int depth)
{
	for (size_t i = 0; i < e->args.n; i++) {
		if (e->args.v[i])
			check_expr(ps, e->args.v[i], depth + 1);
		else if (!allow)
			perr(ps, &e->pos, "wildcard not allowed in array index");
	}
	check_base(ps, e->a, depth + 1);
}

static void check_expr(struct pstate *ps, struct expr *e, int depth)
{
	if (!e || too_deep(ps, &e->pos, "expression", depth))
		return;
	switch (e->kind) {
	case E_INDEX:
	case E_IN:
		check_index_args(ps, e, e->kind == E_IN, depth);
		return;
	case E_HIST:
		perr(ps, &e->pos, "base histogram operator where expression expected");
		return;
	case E_PRINT:
		check_base(ps, e->a, depth + 1);
		break;
	default:
		check_expr(ps, e->a, depth + 1);
		break;
	}
	check_expr(ps, e->b, depth + 1);
	check_expr(ps, e->c, depth + 1);
	for (size_t i = 0; i < e->args.n; i++)
		check_expr(ps, e->args.v[i], depth + 1);
	for (size_t i = 0; i < e->comps.n; i++) {
		struct tcomp *c = e->comps.v[i];

		check_expr(ps, c->index, depth + 1);
	}
}

/* The braces of a statement's body are no level of their own: the
 * statements in them are one level below the statement. */
static int body_depth(const struct stmt *body, int depth)
{
	return body && body->kind == S_BLOCK ? depth : depth + 1;
}

static void check_stmt(struct pstate *ps, struct stmt *s, int depth)
{
	if (!s || too_deep(ps, &s->pos, "statement", depth))
		return;
	if (s->kind == S_DELETE && s->e1 && s->e1->kind == E_INDEX)
		check_index_args(ps, s->e1, true, depth + 1);
	else
		check_expr(ps, s->e1, depth + 1);
	check_expr(ps, s->e2, depth + 1);
	check_expr(ps, s->e3, depth + 1);
	check_base(ps, s->base, depth + 1);
	for (size_t i = 0; i < s->slice.n; i++)
		check_expr(ps, s->slice.v[i], depth + 1);
	check_expr(ps, s->limit, depth + 1);
	check_stmt(ps, s->body, body_depth(s->body, depth));
	check_stmt(ps, s->els, body_depth(s->els, depth));
	for (size_t i = 0; i < s->stmts.n; i++)
		check_stmt(ps, s->stmts.v[i], depth + 1);
}

/* What the grammar cannot say about a probe or function body, and its
 * depth (AST_MAX_DEPTH). */
static void check_tree(struct pstate *ps, struct stmt *s)
{
	ps->too_deep = false;
	check_stmt(ps, s, 1);
}

/* The same for a probe point's condition. */
static void check_cond(struct pstate *ps, struct expr *e)
{
	ps->too_deep = false;
	check_expr(ps, e, 1);
}

/* ---- the token stream ---- */

static bool is_sync(int kind)
{
	return kind == TK_PROBE || kind == TK_GLOBAL || kind == TK_FUNCTION
		|| kind == TK_PRIVATE || kind == TK_EMBEDDED || kind == TK_EOF;
}

static bool is_sync_token(int yytok)
{
	return yytok == PROBE || yytok == GLOBAL || yytok == FUNCTION
		|| yytok == PRIVATE || yytok == EMBEDDED || yytok == END;
}

/* A declaration starts at probe, global, function, or private (then not
 * again at the global or function after it). */
static void track_version(struct pstate *ps, int kind)
{
	bool seen = preproc_take_version_seen(ps->pp);
	bool starts = kind == TK_PROBE || kind == TK_GLOBAL || kind == TK_FUNCTION ||
		      kind == TK_PRIVATE;

	if (starts && ps->raw_prev != TK_PRIVATE) {
		ps->version_prev = ps->version_decl;
		ps->version_decl = seen;
	} else {
		ps->version_decl |= seen;
	}
	ps->raw_prev = kind;
}

/* Whether the declaration being built depends on the language version;
 * la is the parser's lookahead token. */
static bool version_dependent(const struct pstate *ps, int la)
{
	if (la == PROBE || la == GLOBAL || la == FUNCTION || la == PRIVATE)
		return ps->version_prev;
	return ps->version_decl;
}

static void raw_next(struct pstate *ps, struct token *t)
{
	if (ps->have_la) {
		*t = ps->la;
		ps->have_la = false;
		return;
	}
	int errors = ps->d->errors;

	memset(t, 0, sizeof(*t));
	preproc_next(ps->pp, t);
	track_version(ps, t->kind);
	if (t->kind != TK_EOF)
		ps->script->parsed_tokens = true;
	if (ps->d->errors != errors)
		ps->pp_error_pending = true;
	else if (is_sync(t->kind))
		ps->pp_error_pending = false;
}

static bool is_keyword(int k)
{
	return k >= TK_PROBE && k <= TK_KW_LONG;
}

static bool is_piece(int k)
{
	return k == TK_IDENT || k == TK_STAR || is_keyword(k);
}

#define PREV_WORD (-2)

/* Can a probe point component start after a token of kind prev? */
static bool word_start(int prev)
{
	return prev == TK_PROBE || prev == TK_DOT || prev == TK_COMMA
		|| prev == TK_ASSIGN || prev == TK_ADD_ASSIGN
		|| prev == TK_LBRACE;
}

/* Glue the pieces of one probe point component that touch: sys_*, foo**,
 * *_read. t holds the first piece and receives the whole word. */
static void glue_word(struct pstate *ps, struct token *t)
{
	struct strbuf sb = STRBUF_INIT;
	struct token n;

	strbuf_addn(&sb, t->text ? t->text : "", t->text ? t->len : 0);
	for (;;) {
		raw_next(ps, &n);
		if (!is_piece(n.kind) || n.space_before) {
			ps->la = n;
			ps->have_la = true;
			break;
		}
		strbuf_addn(&sb, n.text ? n.text : "", n.text ? n.len : 0);
		token_free(&n);
	}
	free(t->text);
	t->len = sb.len;
	t->text = strbuf_detach(&sb);
	t->kind = TK_IDENT;
}

/* Track where probe point specifications are; returns true when t was
 * turned into a PP_WORD. */
static bool pp_track(struct pstate *ps, struct token *t)
{
	int k = t->kind;

	if (k == TK_PROBE) {
		ps->ppmode = true;
		ps->pp_paren = 0;
		ps->pp_alt = 0;
		return false;
	}
	if (!ps->ppmode)
		return false;
	if (ps->pp_paren > 0) {
		if (k == TK_LPAREN)
			ps->pp_paren++;
		else if (k == TK_RPAREN)
			ps->pp_paren--;
		else if (k == TK_EOF || k == TK_EMBEDDED)
			ps->ppmode = false;
		return false;
	}
	if (is_piece(k) && word_start(ps->prev) && k != TK_GLOBAL
	    && k != TK_PRIVATE) {
		glue_word(ps, t);
		return true;
	}
	switch (k) {
	case TK_LPAREN:
		ps->pp_paren++;
		break;
	case TK_LBRACE:
		if (word_start(ps->prev))
			ps->pp_alt++;
		else
			ps->ppmode = false;	/* the body */
		break;
	case TK_RBRACE:
		if (ps->pp_alt > 0)
			ps->pp_alt--;
		else
			ps->ppmode = false;
		break;
	case TK_GLOBAL: case TK_FUNCTION: case TK_PRIVATE: case TK_EMBEDDED:
	case TK_EOF: case TK_SEMI:
		ps->ppmode = false;
		break;
	default:
		break;
	}
	return false;
}

static int map_at(const char *s, uint64_t *num)
{
	static const struct {
		const char *name;
		int stat;
	} stats[] = {
		{ "@count", STAT_COUNT }, { "@sum", STAT_SUM },
		{ "@min", STAT_MIN }, { "@max", STAT_MAX },
		{ "@avg", STAT_AVG }, { "@variance", STAT_VARIANCE },
	};

	if (strcmp(s, "@cast") == 0)
		return AT_CAST;
	if (strcmp(s, "@var") == 0)
		return AT_VAR;
	if (strcmp(s, "@defined") == 0)
		return AT_DEFINED;
	if (strcmp(s, "@entry") == 0)
		return AT_ENTRY;
	if (strcmp(s, "@hist_linear") == 0)
		return AT_HIST_LINEAR;
	if (strcmp(s, "@hist_log") == 0)
		return AT_HIST_LOG;
	if (strcmp(s, "@const") == 0)
		return AT_CONST;
	if (strcmp(s, "@kderef") == 0)
		return AT_KDEREF;
	if (strcmp(s, "@uderef") == 0)
		return AT_UDEREF;
	if (strcmp(s, "@kregister") == 0)
		return AT_KREGISTER;
	if (strcmp(s, "@uregister") == 0)
		return AT_UREGISTER;
	if (strcmp(s, "@probewrite") == 0)
		return AT_PROBEWRITE;
	if (strcmp(s, "@perf") == 0)
		return AT_PERF;
	for (size_t i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
		if (strcmp(s, stats[i].name) == 0) {
			*num = (uint64_t)stats[i].stat;
			return AT_STAT;
		}
	}
	return AT_OTHER;
}

static int map_kind(const struct token *t, uint64_t *num)
{
	static const int fixed[TK_COUNT] = {
		[TK_PROBE] = PROBE, [TK_GLOBAL] = GLOBAL,
		[TK_PRIVATE] = PRIVATE, [TK_FUNCTION] = FUNCTION,
		[TK_IF] = IF, [TK_ELSE] = ELSE, [TK_FOR] = FOR,
		[TK_FOREACH] = FOREACH, [TK_IN] = IN, [TK_LIMIT] = LIMIT,
		[TK_RETURN] = RETURN, [TK_DELETE] = DELETE,
		[TK_WHILE] = WHILE, [TK_BREAK] = BREAK,
		[TK_CONTINUE] = CONTINUE, [TK_NEXT] = NEXT, [TK_TRY] = TRY,
		[TK_CATCH] = CATCH, [TK_KW_STRING] = KW_STRING,
		[TK_KW_LONG] = KW_LONG,
		[TK_LBRACE] = LBRACE, [TK_RBRACE] = RBRACE,
		[TK_LPAREN] = LPAREN, [TK_RPAREN] = RPAREN,
		[TK_LBRACKET] = LBRACKET, [TK_RBRACKET] = RBRACKET,
		[TK_SEMI] = SEMI, [TK_COMMA] = COMMA, [TK_DOT] = DOT,
		[TK_COLON] = COLON, [TK_QUESTION] = QUESTION,
		[TK_ASSIGN] = ASSIGN, [TK_PLUS] = PLUS, [TK_MINUS] = MINUS,
		[TK_STAR] = STAR, [TK_SLASH] = SLASH, [TK_PERCENT] = PERCENT,
		[TK_LT] = LT, [TK_GT] = GT, [TK_LE] = LE, [TK_GE] = GE,
		[TK_EQ] = EQ, [TK_NE] = NE, [TK_NOT] = NOT,
		[TK_TILDE] = TILDE, [TK_AMP] = AMP, [TK_PIPE] = PIPE,
		[TK_CARET] = CARET, [TK_ANDAND] = ANDAND, [TK_OROR] = OROR,
		[TK_SHL] = SHL, [TK_SHR] = SHR, [TK_USHR] = USHR,
		[TK_INC] = INC, [TK_DEC] = DEC, [TK_ARROW] = ARROW,
		[TK_MATCH] = MATCH, [TK_NMATCH] = NMATCH, [TK_AGG] = AGG,
		[TK_ADD_ASSIGN] = ADD_ASSIGN, [TK_SUB_ASSIGN] = SUB_ASSIGN,
		[TK_MUL_ASSIGN] = MUL_ASSIGN, [TK_DIV_ASSIGN] = DIV_ASSIGN,
		[TK_MOD_ASSIGN] = MOD_ASSIGN, [TK_AND_ASSIGN] = AND_ASSIGN,
		[TK_OR_ASSIGN] = OR_ASSIGN, [TK_XOR_ASSIGN] = XOR_ASSIGN,
		[TK_SHL_ASSIGN] = SHL_ASSIGN, [TK_SHR_ASSIGN] = SHR_ASSIGN,
		[TK_CAT_ASSIGN] = CAT_ASSIGN,
	};
	const char *text = t->text ? t->text : "";

	switch (t->kind) {
	case TK_EOF:
		return END;
	case TK_IDENT:
		return print_class(text);
	case TK_TARGET:
		return pprint_suffix(text, t->len) == 0
			&& strspn(text, "$") == t->len ? PPRINT : TARGET;
	case TK_AT:
		return map_at(text, num);
	case TK_NUMBER:
		*num = t->num;
		return NUMBER;
	case TK_STRING:
		return STRING;
	case TK_EMBEDDED:
		return EMBEDDED;
	default:
		break;
	}
	if (t->kind > TK_ERROR && t->kind < TK_COUNT && fixed[t->kind])
		return fixed[t->kind];
	return ERRTOK;
}

int p1_lex(P1_STYPE *lval, P1_LTYPE *lloc, struct pstate *ps)
{
	struct token t;
	struct tokv *v;
	bool word;
	int tok;

	for (;;) {
		raw_next(ps, &t);
		if (!ps->skipping || is_sync(t.kind))
			break;
		ps->prev = t.kind;
		token_free(&t);
	}
	if (ps->skipping) {
		ps->skipping = false;
		ps->ppmode = false;
	}
	word = pp_track(ps, &t);
	ps->prev = word ? PREV_WORD : (int)t.kind;

	v = xcalloc(1, sizeof(*v));
	v->kind = t.kind;
	tok = word ? PP_WORD : map_kind(&t, &v->num);
	if (t.text) {
		v->text = t.text;
		v->len = t.len;
	} else {
		const char *sp = tok_spelling(t.kind);

		v->text = xstrdup(sp ? sp : "");
		v->len = strlen(v->text);
	}
	t.text = NULL;
	vec_push(&ps->arena, v);

	ps->last = t;
	ps->last.text = v->text;
	ps->last.len = v->len;
	lval->t = v;
	lloc->pos = t.pos;
	lloc->space = t.space_before;
	return tok;
}

/* ---- error messages ---- */

static const char *sym_name(yysymbol_kind_t k, char *buf, size_t len)
{
	const char *n = yysymbol_name(k);
	size_t l = strlen(n);

	/* Aliases are quoted ("';'"); show them without the outer quotes. */
	if (l >= 2 && n[0] == '"' && n[l - 1] == '"') {
		snprintf(buf, len, "%.*s", (int)(l - 2), n + 1);
		return buf;
	}
	return n;
}

static bool has_sym(const yysymbol_kind_t *v, int n, yysymbol_kind_t k)
{
	for (int i = 0; i < n; i++)
		if (v[i] == k)
			return true;
	return false;
}

/* "expected X, saw Y": X names up to four tokens; longer lists are
 * summed up the way SystemTap words them. */
/* Tokens that only continue an expression: when the list is long, they
 * are left out so that "expected ')'" says what is actually missing. */
static bool continues_expr(yysymbol_kind_t k)
{
	switch (k) {
	case YYSYMBOL_QUESTION: case YYSYMBOL_ASSIGN: case YYSYMBOL_PLUS:
	case YYSYMBOL_MINUS: case YYSYMBOL_STAR: case YYSYMBOL_SLASH:
	case YYSYMBOL_PERCENT: case YYSYMBOL_LT: case YYSYMBOL_GT:
	case YYSYMBOL_LE: case YYSYMBOL_GE: case YYSYMBOL_EQ: case YYSYMBOL_NE:
	case YYSYMBOL_AMP: case YYSYMBOL_PIPE: case YYSYMBOL_CARET:
	case YYSYMBOL_ANDAND: case YYSYMBOL_OROR: case YYSYMBOL_SHL:
	case YYSYMBOL_SHR: case YYSYMBOL_USHR: case YYSYMBOL_INC:
	case YYSYMBOL_DEC: case YYSYMBOL_ARROW: case YYSYMBOL_MATCH:
	case YYSYMBOL_NMATCH: case YYSYMBOL_AGG: case YYSYMBOL_ADD_ASSIGN:
	case YYSYMBOL_SUB_ASSIGN: case YYSYMBOL_MUL_ASSIGN:
	case YYSYMBOL_DIV_ASSIGN: case YYSYMBOL_MOD_ASSIGN:
	case YYSYMBOL_AND_ASSIGN: case YYSYMBOL_OR_ASSIGN:
	case YYSYMBOL_XOR_ASSIGN: case YYSYMBOL_SHL_ASSIGN:
	case YYSYMBOL_SHR_ASSIGN: case YYSYMBOL_CAT_ASSIGN: case YYSYMBOL_DOT:
	case YYSYMBOL_IN: case YYSYMBOL_STRING: case YYSYMBOL_LBRACKET:
	case YYSYMBOL_LPAREN: case YYSYMBOL_PPRINT:
		return true;
	default:
		return false;
	}
}

static void list_tokens(struct strbuf *sb, const yysymbol_kind_t *v, int n)
{
	char buf[64];

	for (int i = 0; i < n; i++) {
		if (i > 0)
			strbuf_adds(sb, i == n - 1 ? " or " : ", ");
		strbuf_adds(sb, sym_name(v[i], buf, sizeof(buf)));
	}
}

/* "expected X, saw Y": X names up to four tokens; longer lists are
 * summed up the way SystemTap words them. */
static void describe_expected(const yypcontext_t *ctx, struct strbuf *sb)
{
	yysymbol_kind_t exp[YYNTOKENS], rest[YYNTOKENS];
	int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
	int m = 0;

	if (n <= 0) {
		strbuf_adds(sb, "end of input");
		return;
	}
	/* foreach's array, and the value where one is needed, in
	 * SystemTap's words */
	if (n == 3 && has_sym(exp, n, YYSYMBOL_IDENT) &&
	    has_sym(exp, n, YYSYMBOL_AT_HIST_LINEAR) && has_sym(exp, n, YYSYMBOL_AT_HIST_LOG)) {
		strbuf_adds(sb, "identifier or statistical operation");
		return;
	}
	/* a probe point's argument: a string or a number, maybe negative */
	if (n == 3 && has_sym(exp, n, YYSYMBOL_NUMBER) && has_sym(exp, n, YYSYMBOL_STRING) &&
	    has_sym(exp, n, YYSYMBOL_MINUS)) {
		strbuf_adds(sb, "literal string or number");
		return;
	}
	/* where a probe point starts: a name, a wildcard or {a,b} */
	if (n == 2 && has_sym(exp, n, YYSYMBOL_PP_WORD) && has_sym(exp, n, YYSYMBOL_LBRACE)) {
		strbuf_adds(sb, "identifier or '*' or '{'");
		return;
	}
	/* after a probe point, where SystemTap names one list whatever may
	 * still come ('.', '(', '?', '!', 'if' ...) */
	if (has_sym(exp, n, YYSYMBOL_COMMA) && has_sym(exp, n, YYSYMBOL_LBRACE) &&
	    !has_sym(exp, n, YYSYMBOL_PLUS)) {
		strbuf_adds(sb, "one of ', { } = +='");
		return;
	}
	if (n <= 4) {
		list_tokens(sb, exp, n);
		return;
	}
	/* a member's name after "->", which may be a keyword */
	if (has_sym(exp, n, YYSYMBOL_IDENT) && has_sym(exp, n, YYSYMBOL_PROBE) &&
	    has_sym(exp, n, YYSYMBOL_IF) && !has_sym(exp, n, YYSYMBOL_NUMBER)) {
		strbuf_adds(sb, "identifier or keyword");
		return;
	}
	if (has_sym(exp, n, YYSYMBOL_PROBE)) {
		strbuf_adds(sb, "'probe', 'global', 'private', 'function', or '%{'");
		return;
	}
	if (has_sym(exp, n, YYSYMBOL_IF) && has_sym(exp, n, YYSYMBOL_NUMBER)) {
		strbuf_adds(sb, "statement");
		return;
	}
	if (has_sym(exp, n, YYSYMBOL_NUMBER) && has_sym(exp, n, YYSYMBOL_IDENT)) {
		strbuf_adds(sb, "literal string or number");
		return;
	}
	for (int i = 0; i < n; i++)
		if (!continues_expr(exp[i]))
			rest[m++] = exp[i];
	if (m > 0 && m <= 4) {
		list_tokens(sb, rest, m);
		return;
	}
	list_tokens(sb, exp, 4);
	strbuf_adds(sb, ", ...");
}

static int yyreport_syntax_error(const yypcontext_t *ctx, struct pstate *ps)
{
	struct strbuf sb = STRBUF_INIT;
	char *saw;

	/* The lexer has already reported a bad token, or the preprocessor
	 * dropped some: what follows would only repeat the problem. */
	if (yypcontext_token(ctx) == YYSYMBOL_ERRTOK || ps->pp_error_pending) {
		ps->pp_error_pending = false;
		return 0;
	}
	describe_expected(ctx, &sb);
	saw = tok_describe(&ps->last);
	/* its kind, for stap's similar-error suppression: what was expected */
	diag_error_keyed(ps->d, &yypcontext_location(ctx)->pos, "parse error",
			 sb.buf ? sb.buf : "", "expected %s, saw %s",
			 sb.buf ? sb.buf : "", saw);
	free(saw);
	strbuf_free(&sb);
	return 0;
}

/* Only bison's own failures come here (syntax errors go to
 * yyreport_syntax_error): a full stack means nesting deeper than
 * YYMAXDEPTH allows. */
static void yyerror(YYLTYPE *l, struct pstate *ps, const char *msg)
{
	if (strcmp(msg, "memory exhausted") == 0)
		perr(ps, &l->pos, "nested too deeply (parser stack exhausted)");
	else
		perr(ps, &l->pos, "%s", msg);
}

struct script *parse_script(struct srcfile *f, const struct pass1_env *env,
			    struct diag *d)
{
	struct pstate ps;

	memset(&ps, 0, sizeof(ps));
	ps.d = d;
	ps.pp = preproc_new(f, env, d);
	ps.script = script_new(f);
	ps.privileged = f->privileged || (env && env->guru_mode);
	ps.prev = -1;
	ps.raw_prev = -1;
	p1_parse(&ps);
	if (ps.have_la)
		token_free(&ps.la);
	for (size_t i = 0; i < ps.arena.n; i++) {
		struct tokv *v = ps.arena.v[i];

		free(v->text);
		free(v);
	}
	vec_free(&ps.arena);
	namemap_free(&ps.global_names);
	ps.script->lexed_tokens = preproc_saw_token(ps.pp);
	preproc_free(ps.pp);
	return ps.script;
}
