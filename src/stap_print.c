/*
 * The syntax tree as SystemTap prints it: stap -p1's "parse tree dump"
 * (see stap_print.h).  Every operand of an operator is in parentheses,
 * a block ends each statement with ";", a while loop is a for loop, a
 * printf format has its backslashes doubled: the text stap 4.8 prints,
 * byte for byte, so that a dump can be compared with stap's.
 */
#include "stap_print.h"

#include <inttypes.h>
#include <string.h>

#include "token.h"

/* Where the dump goes (a struct, so that every printer takes one p). */
struct stap_printer {
	FILE *out;
};

static void print_stmt(const struct stap_printer *p, const struct stmt *s);
static void print_expr(const struct stap_printer *p, const struct expr *e);

static const char *op_text(int op)
{
	const char *s = tok_spelling((enum tok_kind)op);

	return s ? s : "?";
}

/* S (LEN bytes, escapes decoded) with its escapes written back, as the
 * script most likely wrote them; doubled: with the backslash of each
 * escape but \" doubled (stap prints a print format or delimiter so). */
static void print_escaped(FILE *out, const char *s, size_t len, bool doubled)
{
	const char *bs = doubled ? "\\\\" : "\\";

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *esc = NULL;

		switch (c) {
		case '"': fputs("\\\"", out); continue;
		case '\\': esc = "\\"; break;
		case '\n': esc = "n"; break;
		case '\t': esc = "t"; break;
		case '\r': esc = "r"; break;
		case '\a': esc = "a"; break;
		case '\b': esc = "b"; break;
		case '\f': esc = "f"; break;
		case '\v': esc = "v"; break;
		default:
			if (c < 0x20 || c >= 0x7f)
				fprintf(out, "%s%03o", bs, c);
			else
				fputc(c, out);
			continue;
		}
		fprintf(out, "%s%s", bs, c == '\\' ? bs : esc);
	}
}

static void print_string(FILE *out, const char *s, size_t len)
{
	fputc('"', out);
	print_escaped(out, s, len, false);
	fputc('"', out);
}

/* "(e)": an operand. */
static void operand(const struct stap_printer *p, const struct expr *e)
{
	fputc('(', p->out);
	print_expr(p, e);
	fputc(')', p->out);
}

static void print_list(const struct stap_printer *p, const struct vec *v)
{
	for (size_t i = 0; i < v->n; i++) {
		if (i)
			fputs(", ", p->out);
		if (v->v[i])
			print_expr(p, v->v[i]);
		else
			fputc('*', p->out);
	}
}

static void print_comps(const struct stap_printer *p, const struct vec *comps)
{
	for (size_t i = 0; i < comps->n; i++) {
		const struct tcomp *c = comps->v[i];

		switch (c->kind) {
		case TC_FIELD:
			fprintf(p->out, "->%s", c->name);
			break;
		case TC_INDEX:
			fputc('[', p->out);
			print_expr(p, c->index);
			fputc(']', p->out);
			break;
		case TC_PPRINT:		/* stap: "$foo->$$" */
			fprintf(p->out, "->%s", c->name);
			break;
		}
	}
}

static void print_hist(const struct stap_printer *p, const struct expr *e)
{
	fputs(e->op == HIST_LINEAR ? "@hist_linear(" : "@hist_log(", p->out);
	print_expr(p, e->a);
	for (size_t i = 0; i < e->args.n; i++) {
		fputs(", ", p->out);
		print_expr(p, e->args.v[i]);
	}
	fputc(')', p->out);
}

static void print_print(const struct stap_printer *p, const struct expr *e)
{
	bool any = false;

	fprintf(p->out, "%s(", e->name);
	if (e->a) {
		print_hist(p, e->a);
		any = true;
	}
	if (e->str && (e->op & (PF_FORMAT | PF_DELIM))) {
		fputc('"', p->out);
		print_escaped(p->out, e->str, e->len, true);
		fputc('"', p->out);
		any = true;
	}
	for (size_t i = 0; i < e->args.n; i++) {
		if (any)
			fputs(", ", p->out);
		print_expr(p, e->args.v[i]);
		any = true;
	}
	fputc(')', p->out);
}

static void print_target(const struct stap_printer *p, const struct expr *e)
{
	if (e->addressof)
		fputc('&', p->out);
	switch (e->kind) {
	case E_TARGET:
		fputs(e->name, p->out);
		break;
	case E_VAR:
		fputs("@var(", p->out);
		print_string(p->out, e->str, e->len);
		break;
	case E_CAST:
		fputs("@cast(", p->out);
		print_expr(p, e->a);
		fputs(", ", p->out);
		print_string(p->out, e->str, e->len);
		break;
	default:	/* E_AUTOCAST */
		operand(p, e->a);
		break;
	}
	if (e->kind == E_VAR || e->kind == E_CAST) {
		if (e->module) {
			fputs(", ", p->out);
			print_string(p->out, e->module, strlen(e->module));
		}
		fputc(')', p->out);
	}
	print_comps(p, &e->comps);
}

/* @const("NAME"): stap's parser makes it embedded C. */
static bool print_atop(const struct stap_printer *p, const struct expr *e)
{
	const struct expr *a = e->args.n ? e->args.v[0] : NULL;

	if (strcmp(e->name, "@const") || !a || a->kind != E_STR)
		return false;
	fprintf(p->out, "%%{ /* pure */ /* unprivileged */ /* stable */ %.*s %%}", (int)a->len,
		a->str);
	return true;
}

static void print_binary(const struct stap_printer *p, const struct expr *e)
{
	operand(p, e->a);
	fprintf(p->out, " %s ", op_text(e->op));
	/* a regular expression is a literal, printed bare */
	if (e->kind == E_BINARY && (e->op == TK_MATCH || e->op == TK_NMATCH))
		print_expr(p, e->b);
	else
		operand(p, e->b);
}

static void print_expr(const struct stap_printer *p, const struct expr *e)
{
	FILE *out = p->out;

	if (!e)
		return;
	switch (e->kind) {
	case E_NUM:	/* "-N", which the parser folds, is a minus on N */
		if (e->op == 1)
			fprintf(out, "-(%" PRId64 ")", (int64_t)(0 - (uint64_t)e->num));
		else
			fprintf(out, "%" PRId64, e->num);
		break;
	case E_STR:
		print_string(out, e->str, e->len);
		break;
	case E_SYM:
		fputs(e->name, out);
		break;
	case E_INDEX:
		if (e->a->kind == E_HIST)
			print_hist(p, e->a);
		else
			fputs(e->a->name, out);
		fputc('[', out);
		print_list(p, &e->args);
		fputc(']', out);
		break;
	case E_CALL:
		fprintf(out, "%s(", e->name);
		print_list(p, &e->args);
		fputc(')', out);
		break;
	case E_PRINT:
		print_print(p, e);
		break;
	case E_UNARY: case E_PREINC:
		fputs(op_text(e->op), out);
		operand(p, e->a);
		break;
	case E_POSTINC:
		operand(p, e->a);
		fputs(op_text(e->op), out);
		break;
	case E_BINARY: case E_ASSIGN:
		print_binary(p, e);
		break;
	case E_TERNARY:
		operand(p, e->a);
		fputc('?', out);
		operand(p, e->b);
		fputc(':', out);
		operand(p, e->c);
		break;
	case E_IN:
		fputc('[', out);
		print_list(p, &e->args);
		fputs("] in ", out);
		if (e->a->kind == E_HIST)
			print_hist(p, e->a);
		else
			fputs(e->a->name, out);
		break;
	case E_TARGET: case E_VAR: case E_CAST: case E_AUTOCAST:
		print_target(p, e);
		break;
	case E_DEFINED: case E_ENTRY:
		fputs(e->kind == E_DEFINED ? "@defined(" : "@entry(", out);
		print_expr(p, e->a);
		fputc(')', out);
		break;
	case E_STAT:
		fprintf(out, "%s(", ast_stat_name(e->op));
		print_expr(p, e->a);
		for (size_t i = 0; i < e->args.n; i++) {
			fputs(", ", out);
			print_expr(p, e->args.v[i]);
		}
		fputc(')', out);
		break;
	case E_HIST:
		print_hist(p, e);
		break;
	case E_ATOP:
		if (print_atop(p, e))
			break;
		fprintf(out, "%s(", e->name);
		print_list(p, &e->args);
		fputc(')', out);
		break;
	case E_EMBEDDED:
		fprintf(out, "%%{ %.*s %%}", (int)e->len, e->str);
		break;
	}
}

static void print_foreach(const struct stap_printer *p, const struct stmt *s)
{
	const char *dir = s->sort_dir > 0 ? "+" : "-";
	FILE *out = p->out;

	fputs("foreach (", out);
	if (s->value)
		fprintf(out, "%s = ", s->value->name);
	fputc('[', out);
	for (size_t i = 0; i < s->keys.n; i++) {
		const struct foreach_key *k = s->keys.v[i];

		fprintf(out, "%s%s%s", i ? ", " : "", k->name,
			s->sort_dir && s->sort_col == (int)i + 1 ? dir : "");
	}
	fputs("] in ", out);
	if (s->base->kind == E_HIST)
		print_hist(p, s->base);
	else
		fputs(s->base->name, out);
	if (s->has_slice) {
		fputc('[', out);
		print_list(p, &s->slice);
		fputc(']', out);
	}
	if (s->sort_aggr)
		fprintf(out, " %s", ast_stat_name(s->sort_aggr));
	if (s->sort_dir && s->sort_col == 0)
		fputs(dir, out);
	if (s->limit) {
		fputs(" limit ", out);
		print_expr(p, s->limit);
	}
	fputs(") ", out);
	print_stmt(p, s->body);
}

/* try { BLOCK } catch [(NAME)] { BLOCK }: stap prints each part's block
 * inside braces of its own. */
static void print_try(const struct stap_printer *p, const struct stmt *s)
{
	fputs("try {\n", p->out);
	print_stmt(p, s->body);
	fputs("\n} catch", p->out);
	if (s->name)
		fprintf(p->out, " (%s)", s->name);
	fputs(" {\n", p->out);
	if (s->els)
		print_stmt(p, s->els);
	else
		fputs("{\n}", p->out);
	fputs("\n}\n", p->out);
}

static void print_stmt(const struct stap_printer *p, const struct stmt *s)
{
	FILE *out = p->out;

	switch (s->kind) {
	case S_BLOCK:
		fputs("{\n", out);
		for (size_t i = 0; i < s->stmts.n; i++) {
			print_stmt(p, s->stmts.v[i]);
			fputs(";\n", out);
		}
		fputc('}', out);
		break;
	case S_NULL:
		fputc(';', out);
		break;
	case S_EXPR:
		print_expr(p, s->e1);
		break;
	case S_IF:
		fputs("if (", out);
		print_expr(p, s->e1);
		fputs(") ", out);
		print_stmt(p, s->body);
		fputc('\n', out);
		if (s->els) {
			fputs("else ", out);
			print_stmt(p, s->els);
			fputc('\n', out);
		}
		break;
	case S_WHILE: case S_FOR:	/* a while loop is a for loop */
		fputs("for (", out);
		if (s->kind == S_FOR)
			print_expr(p, s->e1);
		fputs("; ", out);
		if (s->e2 || s->kind == S_WHILE)
			print_expr(p, s->kind == S_WHILE ? s->e1 : s->e2);
		else
			fputc('1', out);
		fputs("; ", out);
		if (s->kind == S_FOR)
			print_expr(p, s->e3);
		fputs(") ", out);
		print_stmt(p, s->body);
		break;
	case S_FOREACH:
		print_foreach(p, s);
		break;
	case S_RETURN:
		fputs("return", out);
		if (s->e1) {
			fputc(' ', out);
			print_expr(p, s->e1);
		}
		break;
	case S_DELETE:
		fputs("delete ", out);
		print_expr(p, s->e1);
		break;
	case S_BREAK:
		fputs("break", out);
		break;
	case S_CONTINUE:
		fputs("continue", out);
		break;
	case S_NEXT:
		fputs("next", out);
		break;
	case S_TRY:
		print_try(p, s);
		break;
	}
}

/* A literal of a probe point or a global's initializer: stap's parser
 * reads its sign with it ("begin(-1)"). */
static void print_literal(const struct stap_printer *p, const struct expr *e)
{
	if (e->kind == E_NUM)
		fprintf(p->out, "%" PRId64, e->num);
	else
		print_expr(p, e);
}

/* A probe point as stap -p1 prints it: numbers in decimal. */
static void print_point(const struct stap_printer *p, const struct probe_point *pp)
{
	for (size_t i = 0; i < pp->comps.n; i++) {
		const struct pp_comp *c = pp->comps.v[i];

		fprintf(p->out, "%s%s", i ? "." : "", c->name);
		if (c->arg) {
			fputc('(', p->out);
			print_literal(p, c->arg);
			fputc(')', p->out);
		}
	}
	if (pp->sufficient)
		fputc('!', p->out);
	else if (pp->optional)
		fputc('?', p->out);
	if (pp->cond) {
		fputs(" if (", p->out);
		print_expr(p, pp->cond);
		fputc(')', p->out);
	}
}

/* sep: ",", or ", " between an alias's points */
static void print_points(const struct stap_printer *p, const struct vec *v, const char *sep)
{
	for (size_t i = 0; i < v->n; i++) {
		if (i)
			fputs(sep, p->out);
		print_point(p, v->v[i]);
	}
}

static void print_global(const struct stap_printer *p, const struct global *g)
{
	fprintf(p->out, "global %s%s", g->name, g->wrap ? "%" : "");
	if (g->size)
		fprintf(p->out, "[%" PRId64 "]", g->size);
	if (g->init) {
		fputs(" = ", p->out);
		print_literal(p, g->init);
	}
	fputc('\n', p->out);
}

static void print_function(const struct stap_printer *p, const struct function *f)
{
	fprintf(p->out, "function %s (", f->name);
	for (size_t i = 0; i < f->params.n; i++)
		fprintf(p->out, "%s%s", i ? ", " : "", ((const struct param *)f->params.v[i])->name);
	fputs(")\n", p->out);
	if (f->embedded)
		fprintf(p->out, "%%{%s%%}", f->embedded);
	else
		print_stmt(p, f->body);
	fputc('\n', p->out);
}

void stap_print_script(FILE *out, const struct script *s)
{
	const struct stap_printer p = { .out = out };

	/* as stap: top-level embedded code with no newline after it */
	for (size_t i = 0; i < s->embeds.n; i++)
		fprintf(out, "%%{%s%%}", ((const struct embedded *)s->embeds.v[i])->code);
	for (size_t i = 0; i < s->globals.n; i++)
		print_global(&p, s->globals.v[i]);
	for (size_t i = 0; i < s->aliases.n; i++) {
		const struct probe_alias *a = s->aliases.v[i];

		fputs("probe ", out);
		for (size_t j = 0; j < a->names.n; j++) {	/* a = b = begin */
			print_point(&p, a->names.v[j]);
			fputs(a->epilogue ? " += " : " = ", out);
		}
		print_points(&p, &a->points, ", ");
		print_stmt(&p, a->body);
		fputc('\n', out);
	}
	for (size_t i = 0; i < s->probes.n; i++) {
		const struct probe *pr = s->probes.v[i];

		fputs("probe ", out);
		print_points(&p, &pr->points, ",");
		print_stmt(&p, pr->body);
		fputc('\n', out);
	}
	for (size_t i = 0; i < s->functions.n; i++)
		print_function(&p, s->functions.v[i]);
	fputc('\n', out);
}
