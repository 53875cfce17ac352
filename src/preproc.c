/* The pass-1 preprocessor: sits between the lexer and the parser.
 *
 * Three layers, each pulling tokens from the one below:
 *
 *   src     raw tokens from the lexer, with $N @N $# @# replaced by the
 *           script arguments (SystemTap pastes them into the input, so a
 *           $1 may become any number of tokens);
 *   pp1     @define macro definitions and macro expansion;
 *   cond    %( COND %? ... %: ... %) conditionals.
 *
 * Errors are reported as they are found and followed by a local recovery,
 * so that one mistake does not hide the rest of the file. Tokens in an
 * untaken branch are still scanned (their %( %) must balance) but any
 * error in them is silent, as in SystemTap.
 *
 * Macro expansion is bounded in depth and in the number of tokens it may
 * produce, so that a recursive or exponentially growing macro ends in an
 * error instead of a hang.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* strverscmp */
#endif
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"
#include "util.h"

#define PP_MAX_DEPTH		256
/* Tokens that macro expansion may produce in one file. Real tapsets stay
 * far below it (tens of thousands); an exponential macro hits it fast, and
 * the parser must not spend seconds on the flood it would produce. */
#define PP_MAX_EXPANDED		(1u << 17)

#define PARSE_ERROR		"parse error"

struct tokvec {
	struct token *v;
	size_t n, cap;
};

struct activation;

struct macro {
	char *name;
	struct srcpos pos;		/* of the name in the definition */
	char **params;
	size_t nparams;
	struct tokvec body;
	bool library;			/* defined in a .stpm file */
	/* A macro parameter is a macro too: its body is the argument and it
	 * expands with the parameters of the invocation's caller. */
	struct activation *parent_act;
	bool is_closure;
	struct macro *next;
};

/* Macros by name; the chains go through macro.next. */
#define MT_SIZE 256
struct macro_table {
	struct macro *bucket[MT_SIZE];
};

struct macro_lib {
	struct macro_table macros;
};

/* One macro expansion in progress. */
struct activation {
	struct macro *macro;
	size_t cursor;
	struct macro **params;		/* bound parameters (closures) */
	size_t nparams;
	bool params_shared;		/* borrowed from an outer activation */
	const struct srcpos *use;	/* where the macro was used */
	struct activation *below;
};

enum cond_state {
	PP_KEEP_THEN, PP_SKIP_THEN, PP_KEEP_ELSE, PP_SKIP_ELSE,
	PP_SKIP_COND,		/* bad condition: skip up to its %? */
	PP_SKIP_BOTH,		/* bad condition: drop both branches */
};

struct cond {
	struct srcpos pos;	/* of the %( */
	enum cond_state state;
	bool saw_else;
};

struct preproc {
	struct lexer *lx;
	struct srcfile *file;
	struct diag *diag;
	const struct pass1_env *env;
	struct macro_lib *lib;

	struct tokvec pending;		/* src: tokens waiting to come out */
	size_t pending_at;
	struct srcpos eof_pos;

	struct macro_table macros;	/* defined in this file */
	struct activation *act;		/* innermost expansion */
	unsigned depth;
	size_t expanded;		/* tokens produced by expansion */
	bool expansion_dead;		/* the budget ran out */
	struct srcpos *reported;	/* set of error positions in expanded
					 * code, open addressing */
	size_t nreported, capreported;

	struct cond *conds;
	size_t nconds, capconds;

	int quiet;			/* > 0 while skipping a branch */
	bool saw_token;			/* the lexer returned one */
	/* a systemtap_v condition was evaluated since the parser last
	 * asked (--check-version, preproc_take_version_seen) */
	bool version_seen;
	bool collect_library;		/* loading a .stpm file */
	bool lib_stray_reported;
};

static const char *const atwords[] = {
	"cast", "defined", "probewrite", "entry", "perf", "var", "avg",
	"count", "sum", "min", "max", "hist_linear", "hist_log", "const",
	"variance", "kregister", "uregister", "kderef", "uderef",
};

bool preproc_is_atword(const char *name)
{
	for (size_t i = 0; i < sizeof(atwords) / sizeof(atwords[0]); i++)
		if (strcmp(atwords[i], name) == 0)
			return true;
	return false;
}

/* ---- small helpers ---------------------------------------------------- */

static void tokvec_push(struct tokvec *tv, struct token *t)
{
	if (tv->n == tv->cap) {
		tv->cap = tv->cap ? tv->cap * 2 : 16;
		tv->v = xrealloc(tv->v, tv->cap * sizeof(*tv->v));
	}
	tv->v[tv->n++] = *t;
	memset(t, 0, sizeof(*t));
}

static void tokvec_free(struct tokvec *tv)
{
	for (size_t i = 0; i < tv->n; i++)
		token_free(&tv->v[i]);
	free(tv->v);
	memset(tv, 0, sizeof(*tv));
}

static size_t pos_hash(const struct srcpos *p)
{
	size_t h = (size_t)(uintptr_t)p->file;

	h = h * 31 + (size_t)p->line;
	return h * 31 + (size_t)p->col;
}

static bool pos_equal(const struct srcpos *a, const struct srcpos *b)
{
	return a->file == b->file && a->line == b->line && a->col == b->col;
}

static void reported_insert(struct preproc *pp, const struct srcpos *pos)
{
	size_t i = pos_hash(pos) & (pp->capreported - 1);

	while (pp->reported[i].file)
		i = (i + 1) & (pp->capreported - 1);
	pp->reported[i] = *pos;
	pp->nreported++;
}

/* True the first time pos is seen. */
static bool first_report_at(struct preproc *pp, const struct srcpos *pos)
{
	size_t i;

	if (!pos->file)
		return true;
	if (pp->capreported) {
		i = pos_hash(pos) & (pp->capreported - 1);
		for (; pp->reported[i].file; i = (i + 1) & (pp->capreported - 1))
			if (pos_equal(&pp->reported[i], pos))
				return false;
	}
	if (2 * (pp->nreported + 1) > pp->capreported) {
		struct srcpos *old = pp->reported;
		size_t oldcap = pp->capreported;

		pp->capreported = oldcap ? oldcap * 2 : 64;
		pp->reported = xcalloc(pp->capreported, sizeof(*old));
		pp->nreported = 0;
		for (i = 0; i < oldcap; i++)
			if (old[i].file)
				reported_insert(pp, &old[i]);
		free(old);
	}
	reported_insert(pp, pos);
	return true;
}

static void pp_verror(struct preproc *pp, const struct srcpos *pos,
		      const struct srcpos *from, const char *fmt, va_list ap)
{
	if (pp->quiet)
		return;
	/* A macro used many times would repeat the same error in its body
	 * for every use: report it once. */
	if (from && !first_report_at(pp, pos))
		return;
	/* (the macro uses it came through are in pos->from: diag shows them) */
	diag_verror(pp->diag, pos, PARSE_ERROR, fmt, ap);
}

/* Report at token t, mentioning the macro use it came from. */
static void __attribute__((format(printf, 3, 4)))
pp_error(struct preproc *pp, const struct token *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pp_verror(pp, &t->pos, t->expanded_from, fmt, ap);
	va_end(ap);
}

/* "expected WHAT, saw TOKEN", like the parser's own errors; reported at
 * the token at. */
static void pp_expected(struct preproc *pp, const struct token *at,
			const struct token *saw, const char *what)
{
	char *desc;

	if (pp->quiet)
		return;
	desc = tok_describe(saw);
	pp_error(pp, at, "expected %s, saw %s", what, desc);
	free(desc);
}

static void __attribute__((format(printf, 3, 4)))
pp_error_at(struct preproc *pp, const struct srcpos *pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pp_verror(pp, pos, NULL, fmt, ap);
	va_end(ap);
}

/* A second line for an error, e.g. where a macro was first defined. It is
 * part of the error just reported, so it does not count as another. */
static void pp_note(struct preproc *pp, const struct srcpos *pos,
		    const char *fmt, const char *arg)
{
	FILE *out = pp->diag->stream;

	if (pp->quiet || (pp->diag->max_errors &&
			  pp->diag->errors > pp->diag->max_errors))
		return;
	if (pos->file)
		fprintf(out, "%s:%d:%d: ", pos->file->name, pos->line, pos->col);
	fputs("note: ", out);
	fprintf(out, fmt, arg);
	fputc('\n', out);
	diag_show_line(pp->diag, pos);
}

static void make_token(struct token *t, enum tok_kind k, const char *text,
		       const struct srcpos *pos)
{
	memset(t, 0, sizeof(*t));
	t->kind = k;
	t->pos = *pos;
	t->text = xstrdup(text);
	t->len = strlen(text);
}

/* ---- layer 0: source tokens and script arguments ------------------- */

static int env_argc(const struct preproc *pp)
{
	return pp->env && pp->env->argc > 0 ? pp->env->argc : 0;
}

static const char *env_arg(const struct preproc *pp, unsigned long idx)
{
	if (idx < 1 || idx > (unsigned long)env_argc(pp) ||
	    !pp->env->argv || !pp->env->argv[idx - 1])
		return NULL;
	return pp->env->argv[idx - 1];
}

/* $N: the argument text lexed as tokens, all placed at the $N. */
static void paste_raw_arg(struct preproc *pp, const struct token *at,
			  const char *arg)
{
	struct srcfile *f = srcfile_new("<argument>", arg, strlen(arg));
	struct lexer *lx = lexer_new(f, pp->diag);
	bool first = true;
	struct token t;

	for (;;) {
		lexer_next(lx, &t);
		if (t.kind == TK_EOF) {
			token_free(&t);
			break;
		}
		if (t.kind == TK_PP_ARG) {
			token_free(&t);
			t.kind = TK_ERROR;
			t.text = xstrdup("invalid nested substitution of command line arguments");
			t.len = strlen(t.text);
		}
		t.pos = at->pos;
		t.expanded_from = NULL;
		if (first)
			t.space_before = at->space_before;
		first = false;
		tokvec_push(&pp->pending, &t);
	}
	lexer_free(lx);
	srcfile_free(f);
}

static void expand_arg(struct preproc *pp, struct token *at)
{
	struct token t;
	unsigned long idx = 0;
	const char *arg;
	char buf[32];

	if (at->text[1] == '#') {
		snprintf(buf, sizeof(buf), "%d", env_argc(pp));
		make_token(&t, at->text[0] == '$' ? TK_NUMBER : TK_STRING, buf,
			   &at->pos);
		t.num = (uint64_t)env_argc(pp);
		t.space_before = at->space_before;
		tokvec_push(&pp->pending, &t);
		return;
	}
	for (const char *p = at->text + 1; *p && idx <= 1000000; p++)
		idx = idx * 10 + (unsigned long)(*p - '0');
	arg = env_arg(pp, idx);
	if (!arg) {
		memset(&t, 0, sizeof(t));
		t.kind = TK_ERROR;
		t.pos = at->pos;
		t.text = xasprintf("command line argument out of range [1-%d]",
				   env_argc(pp));
		t.len = strlen(t.text);
		tokvec_push(&pp->pending, &t);
		return;
	}
	if (at->text[0] == '$') {
		paste_raw_arg(pp, at, arg);
		return;
	}
	make_token(&t, TK_STRING, arg, &at->pos);
	t.space_before = at->space_before;
	tokvec_push(&pp->pending, &t);
}

static void src_next(struct preproc *pp, struct token *t)
{
	for (;;) {
		if (pp->pending_at < pp->pending.n) {
			*t = pp->pending.v[pp->pending_at++];
			if (pp->pending_at == pp->pending.n)
				pp->pending.n = pp->pending_at = 0;
			return;
		}
		lexer_next(pp->lx, t);
		if (t->kind == TK_EOF)
			pp->eof_pos = t->pos;
		else
			pp->saw_token = true;
		if (t->kind != TK_PP_ARG)
			return;
		expand_arg(pp, t);
		token_free(t);
	}
}

/* Put t back in front of the source tokens. */
static void src_unget(struct preproc *pp, struct token *t)
{
	struct tokvec *tv = &pp->pending;
	struct token tmp = *t;

	if (pp->pending_at > 0) {
		tv->v[--pp->pending_at] = tmp;
	} else {
		tokvec_push(tv, t);	/* only to make room */
		memmove(tv->v + 1, tv->v, (tv->n - 1) * sizeof(*tv->v));
		tv->v[0] = tmp;
	}
	memset(t, 0, sizeof(*t));
}

/* ---- layer 1: macros ------------------------------------------------ */

static struct macro *macro_new(const char *name, const struct srcpos *pos)
{
	struct macro *m = xcalloc(1, sizeof(*m));

	m->name = xstrdup(name);
	m->pos = *pos;
	return m;
}

static void macro_free(struct macro *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nparams; i++)
		free(m->params[i]);
	free(m->params);
	tokvec_free(&m->body);
	free(m->name);
	free(m);
}

static unsigned name_hash(const char *s)
{
	unsigned h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % MT_SIZE;
}

static void table_add(struct macro_table *mt, struct macro *m)
{
	unsigned h = name_hash(m->name);

	m->next = mt->bucket[h];
	mt->bucket[h] = m;
}

static struct macro *macro_find(const struct macro_table *mt,
				const char *name)
{
	struct macro *m = mt->bucket[name_hash(name)];

	for (; m; m = m->next)
		if (strcmp(m->name, name) == 0)
			return m;
	return NULL;
}

static void table_free(struct macro_table *mt)
{
	for (unsigned i = 0; i < MT_SIZE; i++) {
		struct macro *m = mt->bucket[i];

		while (m) {
			struct macro *next = m->next;

			macro_free(m);
			m = next;
		}
		mt->bucket[i] = NULL;
	}
}

/* A macro use's position, for token.expanded_from and srcpos.from: kept
 * with the file, as the AST keeps the positions that name it. */
static const struct srcpos *keep_pos(struct preproc *pp,
				     const struct srcpos *pos)
{
	return srcfile_keep_pos(pp->file, pos);
}

static void act_free(struct activation *a)
{
	if (!a)
		return;
	if (!a->params_shared) {
		for (size_t i = 0; i < a->nparams; i++)
			macro_free(a->params[i]);
		free(a->params);
	}
	free(a);
}

static void act_pop(struct preproc *pp)
{
	struct activation *a = pp->act;

	pp->act = a->below;
	pp->depth--;
	act_free(a);
}

/* Drop every expansion in progress, after a runaway one. */
static void act_pop_all(struct preproc *pp)
{
	while (pp->act)
		act_pop(pp);
}

/* The next token of the innermost macro body, or of the source. Returns
 * false at the end of a macro body and at the end of the file. */
static bool next_pp1(struct preproc *pp, struct token *t)
{
	struct activation *a = pp->act;

	if (!a) {
		src_next(pp, t);
		if (t->kind != TK_EOF)
			return true;
		token_free(t);
		return false;
	}
	if (a->cursor >= a->macro->body.n)
		return false;
	token_copy(t, &a->macro->body.v[a->cursor++]);
	t->expanded_from = a->use;
	/* a parameter's tokens are the caller's own, positions included */
	if (!a->macro->is_closure)
		t->pos.from = a->use;
	pp->expanded++;
	return true;
}

/* Undo next_pp1 for one token. */
static void unget_pp1(struct preproc *pp, struct token *t)
{
	if (pp->act) {
		pp->act->cursor--;
		pp->expanded--;
		token_free(t);
	} else {
		src_unget(pp, t);
	}
}

/* Collect a macro body up to the %) that closes it; false at EOF. */
static bool slurp_body(struct preproc *pp, struct tokvec *body)
{
	unsigned nesting = 0;
	struct token t;

	while (next_pp1(pp, &t)) {
		if (t.kind == TK_PP_OPEN) {
			nesting++;
		} else if (t.kind == TK_PP_CLOSE) {
			if (!nesting) {
				token_free(&t);
				return true;
			}
			nesting--;
		}
		tokvec_push(body, &t);
	}
	return false;
}

/* After a bad macro signature: drop tokens up to its body and drop the
 * body too. A top-level keyword ends the search, since the definition
 * was evidently abandoned. */
static void skip_definition(struct preproc *pp, struct token *t)
{
	struct tokvec junk = { 0 };

	for (;;) {
		switch (t->kind) {
		case TK_EOF:
			token_free(t);
			return;
		case TK_PROBE: case TK_GLOBAL: case TK_FUNCTION:
		case TK_PRIVATE:
			src_unget(pp, t);
			return;
		case TK_PP_OPEN:
			token_free(t);
			slurp_body(pp, &junk);
			tokvec_free(&junk);
			return;
		default:
			token_free(t);
			src_next(pp, t);
		}
	}
}

static bool check_macro_name(struct preproc *pp, const struct token *t)
{
	struct macro *old = macro_find(&pp->macros, t->text);

	if (old) {
		pp_error(pp, t, "attempt to redefine macro '@%s' in the same file",
			 t->text);
		pp_note(pp, &old->pos, "macro '@%s' first defined here", t->text);
		return false;
	}
	if (strcmp(t->text, "define") == 0) {
		pp_error(pp, t, "attempt to redefine '@define'");
		return false;
	}
	if (preproc_is_atword(t->text) && !pp->quiet)
		diag_warning(pp->diag, &t->pos,
			     "macro redefines built-in operator '@%s'", t->text);
	return true;
}

/* Read "(a, b)" after a macro name; t holds the token after the name and
 * is left holding the token after the list. */
static bool read_params(struct preproc *pp, struct macro *m, struct token *t)
{
	if (t->kind != TK_LPAREN)
		return true;
	for (;;) {
		token_free(t);
		src_next(pp, t);
		if (t->kind != TK_IDENT) {
			pp_expected(pp, t, t, "identifier");
			return false;
		}
		m->params = xrealloc(m->params,
				     (m->nparams + 1) * sizeof(*m->params));
		m->params[m->nparams++] = xstrdup(t->text);
		token_free(t);
		src_next(pp, t);
		if (t->kind == TK_COMMA)
			continue;
		if (t->kind == TK_RPAREN) {
			token_free(t);
			src_next(pp, t);
			return true;
		}
		pp_expected(pp, t, t, "',' or ')'");
		return false;
	}
}

/* @define NAME[(PARAMS)] %( BODY %) ; the @define token is consumed. */
static void define_macro(struct preproc *pp, struct token *def)
{
	struct macro *m;
	struct token t;
	bool ok, saw_params;

	src_next(pp, &t);
	if (t.kind != TK_IDENT) {
		pp_expected(pp, t.kind == TK_EOF ? def : &t, &t, "identifier");
		token_free(def);
		skip_definition(pp, &t);
		return;
	}
	token_free(def);
	ok = check_macro_name(pp, &t);
	m = macro_new(t.text, &t.pos);
	token_free(&t);
	src_next(pp, &t);
	saw_params = t.kind == TK_LPAREN;
	if (!read_params(pp, m, &t)) {
		macro_free(m);
		skip_definition(pp, &t);
		return;
	}
	if (t.kind != TK_PP_OPEN) {
		pp_expected(pp, &t, &t, saw_params ? "'%('" : "'%(' or '('");
		macro_free(m);
		skip_definition(pp, &t);
		return;
	}
	token_free(&t);
	if (!slurp_body(pp, &m->body)) {
		pp_error_at(pp, &m->pos,
			    "incomplete macro definition - missing '%%)'");
		ok = false;
	}
	if (!ok) {
		macro_free(m);
		return;
	}
	m->library = pp->collect_library;
	table_add(&pp->macros, m);
}

/* Which macro (or bound parameter) @name refers to, if any. */
static struct macro *lookup(struct preproc *pp, const char *name)
{
	struct activation *a = pp->act;
	struct macro *m;

	if (a) {
		for (size_t i = 0; i < a->nparams; i++)
			if (strcmp(a->params[i]->name, name) == 0)
				return a->params[i];
	}
	/* a library macro sees only other library macros */
	if (!(a && a->macro->library)) {
		m = macro_find(&pp->macros, name);
		if (m)
			return m;
	}
	return pp->lib ? macro_find(&pp->lib->macros, name) : NULL;
}

/* One argument of a macro use, up to an unnested ',' or ')', which is
 * left in *sep. False at the end of the input or of a macro body. */
static bool slurp_arg(struct preproc *pp, struct tokvec *arg,
		      struct token *sep)
{
	unsigned nesting = 0;
	struct token t;

	while (next_pp1(pp, &t)) {
		if (t.kind == TK_LPAREN || t.kind == TK_LBRACKET) {
			nesting++;
		} else if (nesting && (t.kind == TK_RPAREN ||
				       t.kind == TK_RBRACKET)) {
			nesting--;
		} else if (!nesting && (t.kind == TK_RPAREN ||
					t.kind == TK_COMMA)) {
			*sep = t;
			return true;
		}
		tokvec_push(arg, &t);
	}
	return false;
}

/* Read the arguments of a use of m into a. False after an error. */
static bool read_args(struct preproc *pp, struct activation *a,
		      const struct token *use)
{
	struct macro *m = a->macro;
	struct token t;

	bool got = next_pp1(pp, &t);

	if (!got || t.kind != TK_LPAREN) {
		char *what = xasprintf("'(' in invocation of macro '@%s' taking %zu parameter%s",
				       m->name, m->nparams,
				       m->nparams == 1 ? "" : "s");

		if (got) {
			pp_expected(pp, &t, &t, what);
			unget_pp1(pp, &t);
		} else {
			pp_error(pp, use, "expected %s", what);
		}
		free(what);
		return false;
	}
	token_free(&t);
	a->params = xcalloc(m->nparams, sizeof(*a->params));
	for (size_t i = 0; i < m->nparams; i++) {
		struct macro *p = macro_new(m->params[i], &use->pos);

		p->is_closure = true;
		p->parent_act = pp->act;
		a->params[a->nparams++] = p;
		if (!slurp_arg(pp, &p->body, &t)) {
			pp_error(pp, use, "could not find end of macro invocation");
			return false;
		}
		if (t.kind == TK_COMMA && i + 1 == m->nparams) {
			pp_error(pp, &t, "too many parameters for macro '@%s' (expected %zu)",
				 m->name, m->nparams);
			token_free(&t);
			return false;
		}
		if (t.kind == TK_RPAREN && i + 1 != m->nparams) {
			pp_error(pp, &t, "too few parameters for macro '@%s' (expected %zu)",
				 m->name, m->nparams);
			token_free(&t);
			return false;
		}
		token_free(&t);
	}
	return true;
}

/* Start expanding m, used at token use (consumed). */
static void invoke(struct preproc *pp, struct token *use, struct macro *m)
{
	struct activation *a;

	if (pp->depth >= PP_MAX_DEPTH) {
		pp_error(pp, use, "macro expansion nested too deeply (more than %d levels) at '@%s'",
			 PP_MAX_DEPTH, m->name);
		token_free(use);
		act_pop_all(pp);
		return;
	}
	a = xcalloc(1, sizeof(*a));
	a->macro = m;
	a->use = keep_pos(pp, &use->pos);
	if (m->is_closure) {
		/* a parameter expands with its caller's parameters */
		if (m->parent_act) {
			a->params = m->parent_act->params;
			a->nparams = m->parent_act->nparams;
		}
		a->params_shared = true;
	} else if (m->nparams && !read_args(pp, a, use)) {
		token_free(use);
		act_free(a);
		return;
	}
	token_free(use);
	a->below = pp->act;
	pp->act = a;
	pp->depth++;
}

/* The next token with macros expanded. While skipping an untaken branch
 * (ignore_defs), @define is passed through instead of being obeyed, like
 * SystemTap does, so that a skipped definition does not count. */
static bool scan_pp1(struct preproc *pp, struct token *t, bool ignore_defs)
{
	struct macro *m;

	for (;;) {
		if (!next_pp1(pp, t)) {
			if (!pp->act)
				return false;
			act_pop(pp);
			continue;
		}
		if (pp->expanded > PP_MAX_EXPANDED && pp->act) {
			/* Inside an untaken branch the error would go
			 * unreported, so expansion is only cut short there;
			 * it is disabled for good once the error is shown. */
			pp_error(pp, t, "macro expansion produced more than %u tokens",
				 PP_MAX_EXPANDED);
			if (!pp->quiet)
				pp->expansion_dead = true;
			token_free(t);
			act_pop_all(pp);
			continue;
		}
		if (t->kind == TK_PP_DEFINE && !ignore_defs) {
			if (pp->act) {
				pp_error(pp, t, "'@define' forbidden inside macro body");
				token_free(t);
				continue;
			}
			define_macro(pp, t);
			continue;
		}
		if (t->kind != TK_AT || t->len < 2)
			return true;
		m = lookup(pp, t->text + 1);
		if (!m)
			return true;	/* @cast, @entry, ... or unknown */
		if (pp->expansion_dead) {
			token_free(t);
			continue;
		}
		invoke(pp, t, m);
	}
}

/* ---- layer 2: conditionals ----------------------------------------- */

static bool is_operator(enum tok_kind k)
{
	return strcmp(tok_kind_class(k), "operator") == 0;
}

static bool is_ident(const struct token *t, const char *name)
{
	return t->kind == TK_IDENT && strcmp(t->text, name) == 0;
}

enum cmp { CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_EQ, CMP_NE, CMP_BAD };

static enum cmp cmp_of(const struct token *op)
{
	switch (op->kind) {
	case TK_LT: return CMP_LT;
	case TK_LE: return CMP_LE;
	case TK_GT: return CMP_GT;
	case TK_GE: return CMP_GE;
	case TK_EQ: return CMP_EQ;
	case TK_NE: return CMP_NE;
	default: return CMP_BAD;
	}
}

static bool cmp_holds(enum cmp c, int sign)
{
	switch (c) {
	case CMP_LT: return sign < 0;
	case CMP_LE: return sign <= 0;
	case CMP_GT: return sign > 0;
	case CMP_GE: return sign >= 0;
	case CMP_EQ: return sign == 0;
	case CMP_NE: return sign != 0;
	default: return false;
	}
}

/* Compare with op; -1 after reporting a bad operator. */
static int compare(struct preproc *pp, const struct token *op, int sign)
{
	enum cmp c = cmp_of(op);

	if (c == CMP_BAD) {
		pp_expected(pp, op, op, "comparison operator");
		return -1;
	}
	return cmp_holds(c, sign);
}

static int sign_of_i64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

/* == or != against a glob pattern. */
static int glob_compare(struct preproc *pp, const struct token *op,
			const char *pattern, const char *value)
{
	bool match = fnmatch(pattern, value, FNM_NOESCAPE) == 0;

	if (op->kind == TK_EQ)
		return match;
	if (op->kind == TK_NE)
		return !match;
	pp_expected(pp, op, op, "'==' or '!='");
	return -1;
}

static const char *str_or_empty(const char *s)
{
	return s ? s : "";
}

static int eval_version(struct preproc *pp, const struct token *l,
			const struct token *op, const struct token *r)
{
	const struct pass1_env *env = pp->env;
	const char *target;
	enum cmp c = cmp_of(op);
	int v;

	if (r->kind != TK_STRING) {
		pp_expected(pp, r, r, "string literal");
		return -1;
	}
	if (strcmp(l->text, "kernel_v") == 0)
		target = env ? env->kernel_v : NULL;
	else if (strcmp(l->text, "kernel_vr") == 0)
		target = env ? env->kernel_vr : NULL;
	else
		target = env ? env->systemtap_v : NULL;
	target = str_or_empty(target);
	if (c == CMP_BAD) {
		pp_expected(pp, op, op, "comparison operator");
		return -1;
	}
	if (strpbrk(r->text, "*?[")) {
		if (c != CMP_EQ && c != CMP_NE) {
			pp_error(pp, op, "wildcard not allowed with order comparison operators");
			return -1;
		}
		return glob_compare(pp, op, r->text, target);
	}
	v = strverscmp(target, r->text);
	return cmp_holds(c, v < 0 ? -1 : v > 0);
}

/* A kernel config value as a number, as strtoll(..., 0) reads it. As in
 * SystemTap, an unset option is the empty string, which reads as 0. */
static bool config_number(const char *s, int64_t *out)
{
	char *end;

	errno = 0;
	*out = (int64_t)strtoll(s, &end, 0);
	return errno != ERANGE && errno != EINVAL && *end == '\0';
}

static const char *config_value(struct preproc *pp, const char *name)
{
	const struct pass1_env *env = pp->env;

	if (!env || !env->config)
		return "";
	return str_or_empty(env->config(env->config_ctx, name));
}

static int eval_config(struct preproc *pp, const struct token *l,
		       const struct token *op, const struct token *r)
{
	const char *lhs = config_value(pp, l->text);
	int64_t a, b;

	if (r->kind == TK_STRING)
		return glob_compare(pp, op, r->text, lhs);
	if (r->kind == TK_NUMBER) {
		if (!config_number(lhs, &a)) {
			pp_error(pp, l, "Config option value not a number");
			return -1;
		}
		return compare(pp, op, sign_of_i64(a, (int64_t)r->num));
	}
	if (r->kind == TK_IDENT && strncmp(r->text, "CONFIG_", 7) == 0) {
		const char *rhs = config_value(pp, r->text);

		if (config_number(lhs, &a) && config_number(rhs, &b))
			return compare(pp, op, sign_of_i64(a, b));
		return compare(pp, op, strcmp(lhs, rhs));
	}
	pp_expected(pp, r, r, "string, number literal or other CONFIG_... as right side operand");
	return -1;
}

static int string_sign(const struct token *a, const struct token *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->text, b->text, n);

	if (c)
		return c < 0 ? -1 : 1;
	return a->len < b->len ? -1 : a->len > b->len;
}

/* Evaluate "l op r": 1 true, 0 false, -1 after reporting an error. */
static int eval_cond(struct preproc *pp, const struct token *l,
		     const struct token *op, const struct token *r)
{
	const struct pass1_env *env = pp->env;

	if (is_ident(l, "systemtap_v"))
		pp->version_seen = true;
	if (is_ident(l, "kernel_v") || is_ident(l, "kernel_vr") ||
	    is_ident(l, "systemtap_v"))
		return eval_version(pp, l, op, r);
	if (is_ident(l, "systemtap_privilege")) {
		if (r->kind != TK_STRING) {
			pp_expected(pp, r, r, "string literal");
			return -1;
		}
		if (op->kind != TK_EQ && op->kind != TK_NE) {
			pp_expected(pp, op, op, "'==' or '!='");
			return -1;
		}
		return (strcmp(str_or_empty(env && env->privilege ?
					    env->privilege : "stapdev"),
			       r->text) == 0) == (op->kind == TK_EQ);
	}
	if (is_ident(l, "guru_mode")) {
		if (r->kind != TK_NUMBER) {
			pp_expected(pp, r, r, "number");
			return -1;
		}
		if (r->num > 1) {
			pp_error(pp, op, "expected 0 or 1");
			return -1;
		}
		if (op->kind != TK_EQ && op->kind != TK_NE) {
			pp_expected(pp, op, op, "'==' or '!='");
			return -1;
		}
		return compare(pp, op, sign_of_i64(env && env->guru_mode,
						    (int64_t)r->num));
	}
	if (is_ident(l, "arch") || is_ident(l, "runtime")) {
		const char *target;

		if (r->kind != TK_STRING) {
			pp_expected(pp, r, r, "string literal");
			return -1;
		}
		if (l->text[0] == 'a')
			target = str_or_empty(env ? env->arch : NULL);
		else
			target = env && env->runtime ? env->runtime : "kernel";
		return glob_compare(pp, op, r->text, target);
	}
	if (l->kind == TK_IDENT && strncmp(l->text, "CONFIG_", 7) == 0)
		return eval_config(pp, l, op, r);
	if (l->kind == TK_STRING && r->kind == TK_STRING)
		return compare(pp, op, string_sign(l, r));
	if (l->kind == TK_NUMBER && r->kind == TK_NUMBER)
		return compare(pp, op, sign_of_i64((int64_t)l->num,
						   (int64_t)r->num));
	if (l->kind == TK_STRING && r->kind == TK_NUMBER && is_operator(op->kind)) {
		pp_expected(pp, r, r, "string literal as right value");
		return -1;
	}
	if (l->kind == TK_NUMBER && r->kind == TK_STRING && is_operator(op->kind)) {
		pp_expected(pp, r, r, "number literal as right value");
		return -1;
	}
	pp_error(pp, l, "expected 'arch', 'kernel_v', 'kernel_vr', 'systemtap_v',\n"
		 "             'runtime', 'systemtap_privilege', 'CONFIG_...', or\n"
		 "             comparison between strings or integers");
	return -1;
}

static void cond_push(struct preproc *pp, const struct srcpos *pos,
		      enum cond_state s)
{
	if (pp->nconds == pp->capconds) {
		pp->capconds = pp->capconds ? pp->capconds * 2 : 8;
		pp->conds = xrealloc(pp->conds,
				     pp->capconds * sizeof(*pp->conds));
	}
	pp->conds[pp->nconds].pos = *pos;
	pp->conds[pp->nconds].state = s;
	pp->conds[pp->nconds].saw_else = false;
	pp->nconds++;
}

/* A token used in a condition: errors in it are reported now. */
static bool cond_token_ok(struct preproc *pp, struct token *t)
{
	uint64_t v;

	if (t->kind == TK_ERROR) {
		pp_error(pp, t, "%s", t->text);
		return false;
	}
	if (t->kind == TK_NUMBER && !tok_parse_number(t->text, &v)) {
		pp_error(pp, t, "number invalid or out of range");
		return false;
	}
	return true;
}

static bool is_pp_marker(enum tok_kind k)
{
	return k == TK_PP_THEN || k == TK_PP_ELSE || k == TK_PP_CLOSE;
}

/* After a bad condition: marker is the %? %: %) or TK_EOF already read
 * in its place, TK_COUNT if none; decide how the rest of the conditional
 * is skipped. */
static void cond_recover(struct preproc *pp, const struct srcpos *open,
			 enum tok_kind marker)
{
	switch (marker) {
	case TK_PP_THEN:
		cond_push(pp, open, PP_SKIP_BOTH);
		break;
	case TK_PP_ELSE:
		cond_push(pp, open, PP_SKIP_BOTH);
		pp->conds[pp->nconds - 1].saw_else = true;
		break;
	case TK_PP_CLOSE:
		break;
	case TK_EOF:
		break;		/* the next read sees the end again */
	default:
		cond_push(pp, open, PP_SKIP_COND);
	}
}

/* Read the three tokens of one comparison. On failure, *marker says what
 * stopped it (see cond_recover). */
static bool read_triple(struct preproc *pp, const struct token *open,
			struct token tr[3], enum tok_kind *marker)
{
	bool ok = true;
	int i;

	for (i = 0; i < 3; i++) {
		if (!scan_pp1(pp, &tr[i], false)) {
			pp_error(pp, open, "incomplete condition after '%%('");
			*marker = TK_EOF;
			ok = false;
			break;
		}
		if (!cond_token_ok(pp, &tr[i]))
			ok = false;
		if (is_pp_marker(tr[i].kind)) {
			*marker = tr[i].kind;
			if (ok)	/* let the evaluator say what is wrong */
				eval_cond(pp, &tr[0], i > 0 ? &tr[1] : &tr[0],
					  i > 1 ? &tr[2] : &tr[i]);
			ok = false;
			i++;
			break;
		}
	}
	if (ok)
		return true;
	while (--i >= 0)
		token_free(&tr[i]);
	return false;
}

/* Handle "%( COND %?"; open is the %( token. */
static void pp_conditional(struct preproc *pp, const struct token *open)
{
	bool result = false, and_result = true;
	enum tok_kind marker = TK_COUNT;
	struct token tr[3], n;
	int v;

	for (;;) {
		if (!read_triple(pp, open, tr, &marker)) {
			cond_recover(pp, &open->pos, marker);
			return;
		}
		v = eval_cond(pp, &tr[0], &tr[1], &tr[2]);
		for (int i = 0; i < 3; i++)
			token_free(&tr[i]);
		if (v < 0) {
			cond_recover(pp, &open->pos, TK_COUNT);
			return;
		}
		and_result = and_result && v;
		if (!scan_pp1(pp, &n, false)) {
			pp_error(pp, open, "expected '%%?' marker for conditional");
			return;
		}
		if (n.kind == TK_ANDAND) {
			token_free(&n);
			continue;
		}
		result = result || and_result;
		and_result = true;
		if (n.kind != TK_OROR)
			break;
		token_free(&n);
	}
	if (n.kind != TK_PP_THEN) {
		pp_error(pp, open, "expected '%%?' marker for conditional");
		marker = n.kind;
		token_free(&n);
		cond_recover(pp, &open->pos,
			     is_pp_marker(marker) ? marker : TK_COUNT);
		return;
	}
	token_free(&n);
	cond_push(pp, &open->pos, result ? PP_KEEP_THEN : PP_SKIP_THEN);
}

/* Skip an untaken branch up to its %? %: or %) (returned in t), minding
 * nested conditionals. False at the end of the input. */
static bool skip_pp(struct preproc *pp, struct token *t)
{
	unsigned nesting = 0;
	bool got;

	pp->quiet++;
	for (;;) {
		got = scan_pp1(pp, t, true);
		if (!got)
			break;
		if (t->kind == TK_PP_OPEN) {
			nesting++;
		} else if (nesting && t->kind == TK_PP_CLOSE) {
			nesting--;
		} else if (!nesting && is_pp_marker(t->kind)) {
			break;
		}
		token_free(t);
	}
	pp->quiet--;
	return got;
}

static bool cond_skipping(enum cond_state s)
{
	return s != PP_KEEP_THEN && s != PP_KEEP_ELSE;
}

/* %: seen; false if it was misplaced. */
static void cond_else(struct preproc *pp, const struct token *t)
{
	struct cond *c;

	if (!pp->nconds) {
		pp_error(pp, t, "incomplete conditional - missing '%%('");
		return;
	}
	c = &pp->conds[pp->nconds - 1];
	if (c->saw_else) {
		pp_error(pp, t, "invalid conditional - duplicate '%%:'");
		return;
	}
	c->saw_else = true;
	switch (c->state) {
	case PP_KEEP_THEN: c->state = PP_SKIP_ELSE; break;
	case PP_SKIP_THEN: c->state = PP_KEEP_ELSE; break;
	case PP_SKIP_COND: c->state = PP_SKIP_BOTH; break;
	default: break;
	}
}

/* One token for the parser, or false at the end of the input. */
static bool scan_pp(struct preproc *pp, struct token *t)
{
	enum cond_state s;
	bool got;
	uint64_t v;

	for (;;) {
		s = pp->nconds ? pp->conds[pp->nconds - 1].state : PP_KEEP_THEN;
		got = pp->nconds && cond_skipping(s) ? skip_pp(pp, t)
						     : scan_pp1(pp, t, false);
		if (!got) {
			if (!pp->nconds)
				return false;
			pp_error_at(pp, &pp->conds[--pp->nconds].pos,
				    "incomplete conditional at end of file");
			continue;
		}
		switch (t->kind) {
		case TK_PP_THEN:
			if (pp->nconds && s == PP_SKIP_COND)
				pp->conds[pp->nconds - 1].state = PP_SKIP_BOTH;
			else
				pp_error(pp, t, "incomplete conditional - missing '%%('");
			break;
		case TK_PP_ELSE:
			cond_else(pp, t);
			break;
		case TK_PP_CLOSE:
			if (pp->nconds)
				pp->nconds--;
			else
				pp_error(pp, t, "incomplete conditional - missing '%%('");
			break;
		case TK_PP_OPEN:
			pp_conditional(pp, t);
			break;
		case TK_ERROR:
			pp_error(pp, t, "%s", t->text);
			break;
		case TK_NUMBER:
			if (!tok_parse_number(t->text, &v))
				pp_error(pp, t, "number invalid or out of range");
			return true;
		default:
			return true;
		}
		token_free(t);
	}
}

/* ---- public interface ------------------------------------------------ */

struct preproc *preproc_new(struct srcfile *f, const struct pass1_env *env,
			    struct diag *d)
{
	struct preproc *pp = xcalloc(1, sizeof(*pp));

	pp->lx = lexer_new(f, d);
	pp->file = f;
	pp->diag = d;
	pp->env = env;
	pp->lib = env ? env->library : NULL;
	pp->eof_pos.file = f;
	pp->eof_pos.line = 1;
	pp->eof_pos.col = 1;
	return pp;
}

void preproc_set_library(struct preproc *pp, struct macro_lib *lib)
{
	pp->lib = lib;
}

void preproc_next(struct preproc *pp, struct token *out)
{
	if (scan_pp(pp, out))
		return;
	make_token(out, TK_EOF, "", &pp->eof_pos);
}

bool preproc_take_version_seen(struct preproc *pp)
{
	bool seen = pp->version_seen;

	pp->version_seen = false;
	return seen;
}

bool preproc_saw_token(const struct preproc *pp)
{
	return pp->saw_token;
}

void preproc_free(struct preproc *pp)
{
	if (!pp)
		return;
	act_pop_all(pp);
	lexer_free(pp->lx);
	while (pp->pending_at < pp->pending.n)
		token_free(&pp->pending.v[pp->pending_at++]);
	free(pp->pending.v);
	table_free(&pp->macros);
	free(pp->conds);
	free(pp->reported);
	free(pp);
}

struct macro_lib *macro_lib_new(void)
{
	return xcalloc(1, sizeof(struct macro_lib));
}

void macro_lib_free(struct macro_lib *lib)
{
	if (!lib)
		return;
	table_free(&lib->macros);
	free(lib);
}

/* Refuse the whole file if any of its macros is already in the library,
 * as SystemTap does. */
static bool lib_check_duplicates(struct preproc *pp, struct macro_lib *lib)
{
	for (unsigned i = 0; i < MT_SIZE; i++) {
		for (struct macro *m = pp->macros.bucket[i]; m; m = m->next) {
			struct macro *old = macro_find(&lib->macros, m->name);

			if (!old)
				continue;
			pp_error_at(pp, &m->pos,
				    "duplicate definition of library macro '@%s'",
				    m->name);
			pp_note(pp, &old->pos, "macro '@%s' first defined here",
				m->name);
			return false;
		}
	}
	return true;
}

bool macro_lib_load(struct macro_lib *lib, struct srcfile *f,
		    const struct pass1_env *env, struct diag *d)
{
	struct preproc *pp = preproc_new(f, env, d);
	int errors = d->errors;
	struct token t;
	bool ok;

	pp->collect_library = true;
	pp->lib = lib;
	while (scan_pp(pp, &t)) {
		if (!pp->lib_stray_reported)
			pp_error(pp, &t, "unexpected token in library macro file '%s'",
				 f->name);
		pp->lib_stray_reported = true;
		token_free(&t);
	}
	ok = d->errors == errors && lib_check_duplicates(pp, lib);
	for (unsigned i = 0; ok && i < MT_SIZE; i++) {
		struct macro *m = pp->macros.bucket[i], *next;

		for (; m; m = next) {
			next = m->next;
			table_add(&lib->macros, m);
		}
		pp->macros.bucket[i] = NULL;
	}
	preproc_free(pp);
	return ok;
}
