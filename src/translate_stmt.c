/* Pass 3: statements.
 *
 * Control flow is plain C with goto: an error jumps to the innermost
 * try's catch or to the body's "out" label (which leaves the function's
 * nesting level), break/continue to the loop's labels.  Each statement
 * records where it is (TAP_STMT, for error messages).
 *
 * Actions are counted as SystemTap's translator counts them: an
 * expression statement or a delete queues one action, an if, a jump
 * (break, continue, return, next), a catch and each loop iteration one
 * more; a for loop's initialiser one plus one for starting the loop, its
 * step one in all (SystemTap queues it once, where the loop ends).  The
 * queue is spent, and the budget checked, at the end of each block that
 * is a branch or loop body, before an if, a jump or a loop, at the end of
 * the handler, and whenever ten actions have queued up; running out
 * ("remaining <= 0") is reported at the place the queue was spent.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "translate_int.h"

static char *stmt_where(const struct stmt *s)
{
	switch (s->kind) {
	case S_BLOCK:
		return tr_where_at("operator '{'", &s->pos);
	case S_NULL:
		return tr_where_at("operator ';'", &s->pos);
	default:
		return tr_where_at("keyword", &s->pos);
	}
}

/* Where SystemTap reports a statement: its expression's operator or
 * identifier, or its keyword. */
static char *stmt_where_any(struct tr *T, const struct stmt *s)
{
	return s->kind == S_EXPR ? tr_where(T, s->e1) : stmt_where(s);
}

/* Spend the queued actions; out of budget, the error is at @where. */
static void flush_actions(struct tr *T, const char *where)
{
	if (T->pending_actions <= 0)
		return;
	tr_line(T, "TAP_SPEND_AT(c, %d, %s, %s);", T->pending_actions, where,
		T->err_label);
	T->pending_actions = 0;
}

/* Queue @n actions of the statement at @where; spend them (with what
 * was queued before) when @now or ten have queued up. */
static void queue_actions(struct tr *T, int n, const char *where, bool now)
{
	T->pending_actions += n;
	if (now || T->pending_actions >= 10)
		flush_actions(T, where);
}

static void queue_actions_at(struct tr *T, int n, const struct stmt *s, bool now)
{
	char *w = stmt_where_any(T, s);

	queue_actions(T, n, w, now);
	free(w);
}

void tr_flush_actions_at(struct tr *T, const struct stmt *s)
{
	if (s)
		queue_actions_at(T, 0, s, true);
}

static void mark_stmt(struct tr *T, const struct stmt *s)
{
	char *w = stmt_where_any(T, s);

	tr_line(T, "TAP_STMT(c, %s);", w);
	free(w);
}

static void start(struct tr *T, const struct stmt *s)
{
	T->n_ltmp = T->n_stmp = T->store_run = 0;
	mark_stmt(T, s);
}

static void block(struct tr *T, const struct stmt *s)
{
	tr_line(T, "{");
	T->indent++;
	tr_stmt(T, s);
	T->indent--;
	tr_line(T, "}");
}

static void if_stmt(struct tr *T, const struct stmt *s)
{
	int known = sem_static_cond(T->dp, s->e1);
	char *cond;

	/* if (@defined(...)): only the branch that exists in this probe */
	if (known >= 0) {
		const struct stmt *live = known ? s->body : s->els;

		if (live) {
			tr_line(T, "{");
			T->indent++;
			tr_stmt(T, live);
			T->indent--;
			tr_line(T, "}");
		}
		return;
	}
	queue_actions_at(T, 1, s, true);
	cond = tr_expr(T, s->e1);

	tr_line(T, "if (tap_op_true(%s)) {", cond);
	T->indent++;
	tr_stmt(T, s->body);
	tr_flush_actions_at(T, s->body);
	T->indent--;
	if (s->els) {
		tr_line(T, "} else {");
		T->indent++;
		tr_stmt(T, s->els);
		tr_flush_actions_at(T, s->els);
		T->indent--;
	}
	tr_line(T, "}");
	free(cond);
}

/* A loop body with its own break and continue labels. */
static void loop_body(struct tr *T, const struct stmt *body, const char *brk,
		      const char *cont)
{
	const char *ob = T->brk_label, *oc = T->cont_label;

	T->brk_label = brk;
	T->cont_label = cont;
	/* an iteration's action is queued with the body's and spent at its
	 * end, as in SystemTap */
	if (body) {
		mark_stmt(T, body);
		queue_actions_at(T, 1, body, false);
	}
	block(T, body);
	tr_flush_actions_at(T, body);
	T->brk_label = ob;
	T->cont_label = oc;
}

static void while_stmt(struct tr *T, const struct stmt *s)
{
	char *brk = tr_label(T, "brk"), *cont = tr_label(T, "cont");
	char *cond;

	queue_actions_at(T, 1, s, true);
	tr_line(T, "for (;;) {");
	T->indent++;
	T->n_ltmp = T->n_stmp = 0;
	cond = tr_expr(T, s->e1);
	tr_line(T, "if (!tap_op_true(%s))", cond);
	tr_line(T, "\tbreak;");
	loop_body(T, s->body, brk, cont);
	tr_line(T, "%s: __attribute__((unused));", cont);
	T->indent--;
	tr_line(T, "}");
	tr_line(T, "%s: __attribute__((unused));", brk);
	free(cond);
	free(brk);
	free(cont);
}

static void for_stmt(struct tr *T, const struct stmt *s)
{
	char *brk = tr_label(T, "brk"), *cont = tr_label(T, "cont");

	if (s->e1) {
		char *w = tr_where(T, s->e1);

		tr_expr_void(T, s->e1);
		queue_actions(T, 1, w, false);
		free(w);
	}
	queue_actions_at(T, 1, s, true);
	tr_line(T, "for (;;) {");
	T->indent++;
	if (s->e2) {
		char *cond;

		T->n_ltmp = T->n_stmp = 0;
		cond = tr_expr(T, s->e2);
		tr_line(T, "if (!tap_op_true(%s))", cond);
		tr_line(T, "\tbreak;");
		free(cond);
	}
	loop_body(T, s->body, brk, cont);
	tr_line(T, "%s: __attribute__((unused));", cont);
	if (s->e3) {
		T->n_ltmp = T->n_stmp = 0;
		tr_expr_void(T, s->e3);
		/* queued once, statically: spent after the loop */
		T->pending_actions++;
	}
	T->indent--;
	tr_line(T, "}");
	tr_line(T, "%s: __attribute__((unused));", brk);
	free(brk);
	free(cont);
}

static struct vardecl *node_var(const struct tr *T, const void *node)
{
	const struct sem_ref *r = program_ref(T->p, node);

	return r ? r->var : NULL;
}

static void assign_from(struct tr *T, const struct vardecl *v, const char *val,
			bool str)
{
	char *var;

	if (!v || v->elided)
		return;
	var = tr_var(T, v);
	if (str)
		tr_line(T, "tap_strlcpy(%s, %s, MAXSTRINGLEN);", var, val);
	else
		tr_line(T, "%s = %s;", var, val);
	free(var);
}

/* foreach over the buckets of a histogram: keys are bucket indexes,
 * values their counts. */
static void foreach_hist(struct tr *T, const struct stmt *s)
{
	char *map, *keys, *n, *i, *fkeys, *limit = NULL;
	char *brk = tr_label(T, "brk"), *cont = tr_label(T, "cont");
	const struct vardecl *kv = s->keys.n ? node_var(T, s->keys.v[0]) : NULL;

	tr_stat_base(T, s->base->a, &map, &keys);
	n = tr_fixed(T, "long long", "");
	i = tr_fixed(T, "long long", "");
	fkeys = tr_fixed(T, "union tap_idx", "[TAP_MAX_KEYS]");
	/* the key array must outlive this statement's temporaries */
	tr_line(T, "tap_memcpy(%s, %s, sizeof(%s));", fkeys,
		strcmp(keys, "0") ? keys : "(const union tap_idx[TAP_MAX_KEYS]){ { .l = 0 } }",
		fkeys);
	if (s->limit) {
		char *lv = tr_expr(T, s->limit);

		limit = tr_fixed(T, "long long", "");
		tr_line(T, "%s = %s;", limit, lv);
		free(lv);
	}
	tr_line(T, "%s = tap_hist_buckets(c, %s, %s);", n, map, fkeys);
	tr_line(T, "if (%s < 0)", n);
	tr_line(T, "\tgoto %s;", T->err_label);
	queue_actions_at(T, 1, s, true);
	tr_line(T, "for (%s = 0; %s < %s; %s++) {", i, i, n, i);
	T->indent++;
	/* limit N: the first N buckets (none for N <= 0), as SystemTap */
	if (limit) {
		tr_line(T, "if (%s >= %s)", i, limit);
		tr_line(T, "\tbreak;");
	}
	if (kv)
		assign_from(T, kv, i, false);
	if (s->value) {
		const struct vardecl *vv = node_var(T, s->value);

		if (vv && !vv->elided) {
			char *var = tr_var(T, vv);

			tr_line(T, "if (tap_hist_get(c, %s, %s, %s, &%s))", map, fkeys, i, var);
			tr_line(T, "\tgoto %s;", T->err_label);
			free(var);
		}
	}
	loop_body(T, s->body, brk, cont);
	tr_line(T, "%s: __attribute__((unused));", cont);
	T->indent--;
	tr_line(T, "}");
	tr_line(T, "%s: __attribute__((unused));", brk);
	free(map);
	free(keys);
	free(n);
	free(i);
	free(fkeys);
	free(limit);
	free(brk);
	free(cont);
}

static void foreach_stmt(struct tr *T, const struct stmt *s)
{
	const struct vardecl *arr;
	char *map, *n, *i, *ent, *limit;
	char *brk, *cont;
	char **slice = NULL;
	char *taken = NULL;

	if (s->base->kind == E_HIST) {
		foreach_hist(T, s);
		return;
	}
	arr = node_var(T, s->base);
	if (!arr) {
		tr_error(T, &s->pos, "unresolved foreach array");
		return;
	}
	map = tr_map(T, arr);
	brk = tr_label(T, "brk");
	cont = tr_label(T, "cont");
	n = tr_fixed(T, "long long", "");
	i = tr_fixed(T, "long long", "");
	ent = tr_fixed(T, "struct tap_map_entry *", "");
	if (s->limit) {
		char *lv = tr_expr(T, s->limit);

		limit = tr_fixed(T, "long long", "");
		tr_line(T, "%s = %s;", limit, lv);
		free(lv);
	} else {
		limit = xstrdup("-1");
	}
	if (s->has_slice) {
		slice = xcalloc(s->slice.n + 1, sizeof(char *));
		for (size_t k = 0; k < s->slice.n; k++) {
			const struct expr *x = s->slice.v[k];
			bool str;
			char *v;

			if (!x)
				continue;
			str = arr->index_types && arr->index_types[k] == SEM_STRING;
			v = tr_expr(T, x);
			slice[k] = tr_fixed(T, str ? "char" : "long long",
					    str ? "[MAXSTRINGLEN]" : "");
			if (str)
				tr_line(T, "tap_strlcpy(%s, %s, MAXSTRINGLEN);", slice[k], v);
			else
				tr_line(T, "%s = %s;", slice[k], v);
			free(v);
		}
	}
	/* with a slice, limit counts the elements the slice selects */
	if (slice && s->limit) {
		taken = tr_fixed(T, "long long", "");
		tr_line(T, "%s = 0;", taken);
	}
	tr_line(T, "%s = tap_foreach_start(c, %s, %d, %d, %s, %s);", n, map,
		s->sort_dir ? s->sort_col : 0, s->sort_dir,
		arr->type == SEM_STATS ? tr_stat_op_c(s->sort_aggr) : "0",
		taken ? "-1" : limit);
	tr_line(T, "if (%s < 0)", n);
	tr_line(T, "\tgoto %s;", T->err_label);
	queue_actions_at(T, 1, s, true);
	tr_line(T, "for (%s = 0; %s < %s; %s++) {", i, i, n, i);
	T->indent++;
	/* an element deleted since the snapshot comes back NULL: skip it */
	tr_line(T, "if ((%s = tap_foreach_get(%s, %s)) == NULL)", ent, map, i);
	tr_line(T, "\tcontinue;");
	for (size_t k = 0; slice && k < s->slice.n; k++) {
		bool str = arr->index_types && arr->index_types[k] == SEM_STRING;

		if (!slice[k])
			continue;
		if (str)
			tr_line(T, "if (tap_strcmp(tap_entry_key_str(%s, %s, %zu), %s))",
				map, ent, k, slice[k]);
		else
			tr_line(T, "if (tap_entry_key_long(%s, %s, %zu) != %s)", map, ent, k,
				slice[k]);
		tr_line(T, "\tcontinue;");
	}
	if (taken) {
		tr_line(T, "if (%s >= 0 && %s >= %s)", limit, taken, limit);
		tr_line(T, "\tbreak;");
		tr_line(T, "%s++;", taken);
	}
	for (size_t k = 0; k < s->keys.n; k++) {
		bool str = arr->index_types && arr->index_types[k] == SEM_STRING;
		char *val = xasprintf("tap_entry_key_%s(%s, %s, %zu)", str ? "str" : "long",
				      map, ent, k);

		assign_from(T, node_var(T, s->keys.v[k]), val, str);
		free(val);
	}
	if (s->value) {
		const struct vardecl *vv = node_var(T, s->value);

		if (vv && !vv->elided && arr->type == SEM_STATS) {
			char *var = tr_var(T, vv);

			tr_line(T, "if (tap_entry_stat(c, %s, %s, %s, 0, &%s))", map, ent,
				tr_stat_op_c(s->sort_aggr), var);
			tr_line(T, "\tgoto %s;", T->err_label);
			free(var);
		} else if (vv) {
			bool str = arr->type == SEM_STRING;
			char *val = xasprintf("tap_entry_%s(%s, %s)", str ? "str" : "long", map,
					      ent);

			assign_from(T, vv, val, str);
			free(val);
		}
	}
	loop_body(T, s->body, brk, cont);
	tr_line(T, "%s: __attribute__((unused));", cont);
	T->indent--;
	tr_line(T, "}");
	tr_line(T, "%s: __attribute__((unused));", brk);
	for (size_t k = 0; slice && k < s->slice.n; k++)
		free(slice[k]);
	free(slice);
	free(map);
	free(n);
	free(i);
	free(ent);
	free(limit);
	free(taken);
	free(brk);
	free(cont);
}

static void return_stmt(struct tr *T, const struct stmt *s)
{
	if (s->e1 && T->fn) {
		char *v = tr_expr(T, s->e1);

		if (T->fn->type == SEM_STRING)
			tr_line(T, "tap_strlcpy(l->__retvalue, %s, MAXSTRINGLEN);", v);
		else if (T->fn->type == SEM_LONG)
			tr_line(T, "l->__retvalue = %s;", v);
		free(v);
	} else if (s->e1) {
		tr_expr_void(T, s->e1);
	}
	queue_actions_at(T, 1, s, true);
	tr_line(T, "goto out;");
}

static void delete_stmt(struct tr *T, const struct stmt *s)
{
	const struct expr *e = s->e1;
	const struct vardecl *v;

	if (e->kind == E_INDEX && e->a->kind == E_SYM) {
		unsigned wild;
		char *keys = tr_keys(T, &e->args, &wild);
		char *map = tr_map(T, node_var(T, e->a));

		tr_line(T, "tap_map_delete(%s, %s, %uU);", map, keys, wild);
		free(keys);
		free(map);
		return;
	}
	if (e->kind != E_SYM) {
		tr_error(T, &e->pos, "unsupported delete target");
		return;
	}
	v = node_var(T, e);
	if (!v || v->elided || (!v->global && v->type == SEM_UNKNOWN))
		return;
	if (v->arity > 0 || v->type == SEM_STATS) {
		char *map = tr_map(T, v);

		tr_line(T, "tap_map_clear(%s);", map);
		free(map);
	} else {
		char *var = tr_var(T, v);

		if (v->type == SEM_STRING)
			tr_line(T, "%s[0] = '\\0';", var);
		else
			tr_line(T, "%s = 0;", var);
		free(var);
	}
}

static void try_stmt(struct tr *T, const struct stmt *s)
{
	char *catch = tr_label(T, "catch"), *end = tr_label(T, "endtry");
	const char *outer = T->err_label;
	const struct vardecl *v = s->name ? node_var(T, s) : NULL;

	queue_actions_at(T, 0, s, true);
	T->err_label = catch;
	block(T, s->body);
	tr_flush_actions_at(T, s->body);
	T->err_label = outer;
	tr_line(T, "goto %s;", end);
	tr_line(T, "%s: __attribute__((unused));", catch);
	tr_line(T, "if (c->aborted)");
	tr_line(T, "\tgoto %s;", outer);
	if (v && !v->elided) {
		char *var = tr_var(T, v);

		tr_line(T, "tap_strlcpy(%s, c->last_error ? c->last_error : \"\", "
			"MAXSTRINGLEN);", var);
		free(var);
	}
	tr_line(T, "c->last_error = 0;");
	/* catching is one more action, spent before the handler starts */
	T->pending_actions = 0;
	queue_actions_at(T, 1, s, true);
	if (s->els) {
		block(T, s->els);
		tr_flush_actions_at(T, s->els);
	}
	tr_line(T, "%s: __attribute__((unused));", end);
	free(catch);
	free(end);
}

/* The last character of C code that is not blank or in a comment, and
 * whether the line it is on is a preprocessor directive. */
static char last_code_char(const char *code, bool *directive)
{
	char last = 0;
	bool line_hash = false, cur_hash = false, at_line_start = true;

	for (const char *p = code; *p; p++) {
		if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");

			if (!end)
				break;
			p = end + 1;
		} else if (p[0] == '/' && p[1] == '/') {
			while (p[1] && p[1] != '\n')
				p++;
		} else if (*p == '\n') {
			at_line_start = true;
		} else if (*p != ' ' && *p != '\t' && *p != '\r') {
			if (at_line_start)
				cur_hash = *p == '#';
			at_line_start = false;
			last = *p;
			line_hash = cur_hash;
		}
	}
	*directive = line_hash;
	return last;
}

/* %{ code %} as a statement: the code itself, with CONTEXT.  Code that
 * ends in a value rather than a statement (%{ 0 %}, %{ "s" %}) is an
 * expression statement in SystemTap, whose value is thrown away. */
static void embedded_stmt(struct tr *T, const struct expr *e)
{
	bool directive;
	char last = last_code_char(e->str, &directive);
	bool value = last && last != ';' && last != '}' && !directive;

	tr_line(T, "{");
	tr_embedded_names_begin(T, e);
	if (value)
		strbuf_addf(&T->body, "(void)(%s\n);\n", e->str);
	else {
		strbuf_adds(&T->body, e->str);
		strbuf_addc(&T->body, '\n');
	}
	tr_embedded_names_end(T, e);
	tr_line(T, "}");
	tr_check(T);
}

void tr_stmt(struct tr *T, const struct stmt *s)
{
	if (!s)
		return;
	if (s->kind == S_BLOCK) {
		tr_block(T, &s->stmts);
		return;
	}
	/* nor a dropped assignment: it is not there for SystemTap either */
	if (s->kind == S_NULL ||
	    (s->kind == S_EXPR && program_dropped_assign(T->p, s->e1)))
		return;
	start(T, s);
	switch (s->kind) {
	case S_EXPR:
		if (s->e1->kind == E_EMBEDDED) {
			embedded_stmt(T, s->e1);
		} else {
			tr_expr_void(T, s->e1);
			queue_actions_at(T, 1, s, false);
		}
		break;
	case S_IF:
		if_stmt(T, s);
		break;
	case S_WHILE:
		while_stmt(T, s);
		break;
	case S_FOR:
		for_stmt(T, s);
		break;
	case S_FOREACH:
		foreach_stmt(T, s);
		break;
	case S_RETURN:
		return_stmt(T, s);
		break;
	case S_DELETE:
		delete_stmt(T, s);
		queue_actions_at(T, 1, s, false);
		break;
	case S_BREAK:
		queue_actions_at(T, 1, s, true);
		if (T->brk_label)
			tr_line(T, "goto %s;", T->brk_label);
		else
			tr_error(T, &s->pos, "break statement outside a loop");
		break;
	case S_CONTINUE:
		queue_actions_at(T, 1, s, true);
		if (T->cont_label)
			tr_line(T, "goto %s;", T->cont_label);
		else
			tr_error(T, &s->pos, "continue statement outside a loop");
		break;
	case S_NEXT:
		queue_actions_at(T, 1, s, true);
		if (T->fn)
			tr_line(T, "next_ = 1;");
		tr_line(T, "goto out;");
		break;
	case S_TRY:
		try_stmt(T, s);
		break;
	default:
		break;
	}
}
