/* Canonical printing of the syntax tree (tapc -p1 --dump-ast).
 *
 * The canonical form is chosen so that parsing it gives the same tree and
 * printing that tree again gives the same bytes:
 *
 *  - declarations in source order, one per line group; each global on its
 *    own "global" line ("private global a%[100] = 5"); functions as
 *    "function f:long(a:long, b) :2 {"; probes as "probe a.b(1)?, c {";
 *    aliases as "probe n = a, b {" or "+="; probe point alternation is
 *    already expanded by the parser;
 *  - one statement per line, indented with tabs; simple statements end in
 *    ';' (which the parser swallows), blocks open on the line of their
 *    statement; if/while/for bodies that are not blocks go on the next
 *    line, one tab deeper;
 *  - operands that are themselves binary, ternary, assignment, "in" or
 *    unary expressions are parenthesised, so the tree shape is visible and
 *    precedence never matters: x = (a + (b * c)); the top expression of a
 *    statement, argument or index is not;
 *  - a negative literal prints as -N; a literal under a unary operator is
 *    parenthesised, -(5), so that it does not fold into a literal;
 *  - strings are re-escaped (\" \\ \n \t \r \a \b \f \v, other control
 *    and non-ASCII bytes as three-digit octal);
 *  - foreach always writes its keys in brackets and a sort on the value
 *    after the array: foreach (v = [k1, k2+] in a[*, 1] @sum- limit 5);
 *  - embedded C is printed verbatim between %{ and %}.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ast.h"

static void print_stmt(FILE *out, const struct stmt *s, int depth);
static void print_operand(FILE *out, const struct expr *e);

static void indent(FILE *out, int depth)
{
	for (int i = 0; i < depth; i++)
		fputc('\t', out);
}

static void print_string(FILE *out, const char *s, size_t len)
{
	fputc('"', out);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		case '\a': fputs("\\a", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		case '\v': fputs("\\v", out); break;
		default:
			if (c < 0x20 || c >= 0x7f)
				fprintf(out, "\\%03o", c);
			else
				fputc(c, out);
		}
	}
	fputc('"', out);
}

static const char *op_text(int op)
{
	const char *s = tok_spelling((enum tok_kind)op);

	return s ? s : "?";
}

const char *ast_stat_name(int op)
{
	switch (op) {
	case STAT_COUNT: return "@count";
	case STAT_SUM: return "@sum";
	case STAT_MIN: return "@min";
	case STAT_MAX: return "@max";
	case STAT_AVG: return "@avg";
	case STAT_VARIANCE: return "@variance";
	default: return "@?";
	}
}

static void print_list(FILE *out, const struct vec *v, bool operands)
{
	for (size_t i = 0; i < v->n; i++) {
		if (i)
			fputs(", ", out);
		if (!v->v[i])
			fputc('*', out);
		else if (operands)
			print_operand(out, v->v[i]);
		else
			ast_print_expr(out, v->v[i]);
	}
}

static void print_comps(FILE *out, const struct vec *comps)
{
	for (size_t i = 0; i < comps->n; i++) {
		const struct tcomp *c = comps->v[i];

		switch (c->kind) {
		case TC_FIELD:
			fprintf(out, "->%s", c->name);
			break;
		case TC_INDEX:
			fputc('[', out);
			ast_print_expr(out, c->index);
			fputc(']', out);
			break;
		case TC_PPRINT:
			fputs(c->name, out);
			break;
		}
	}
}

/* Expressions that need no parentheses as an operand. */
static bool is_atom(const struct expr *e)
{
	switch (e->kind) {
	case E_BINARY: case E_TERNARY: case E_ASSIGN: case E_IN:
	case E_UNARY: case E_PREINC: case E_POSTINC:
		return false;
	case E_NUM:
		return e->num >= 0;
	default:
		return true;
	}
}

static void print_operand(FILE *out, const struct expr *e)
{
	if (is_atom(e)) {
		ast_print_expr(out, e);
		return;
	}
	fputc('(', out);
	ast_print_expr(out, e);
	fputc(')', out);
}

static void print_unary_operand(FILE *out, const struct expr *e)
{
	/* Literals go in parentheses so that -(5) stays a unary minus. */
	if (e->kind == E_NUM || !is_atom(e)) {
		fputc('(', out);
		ast_print_expr(out, e);
		fputc(')', out);
	} else {
		ast_print_expr(out, e);
	}
}

static void print_target(FILE *out, const struct expr *e)
{
	if (e->addressof)
		fputc('&', out);
	switch (e->kind) {
	case E_TARGET:
		fputs(e->name, out);
		break;
	case E_VAR:
		fputs("@var(", out);
		print_string(out, e->str, e->len);
		if (e->module) {
			fputs(", ", out);
			print_string(out, e->module, strlen(e->module));
		}
		fputc(')', out);
		break;
	default:	/* E_CAST */
		fputs("@cast(", out);
		ast_print_expr(out, e->a);
		fputs(", ", out);
		print_string(out, e->str, e->len);
		if (e->module) {
			fputs(", ", out);
			print_string(out, e->module, strlen(e->module));
		}
		fputc(')', out);
		break;
	}
	print_comps(out, &e->comps);
}

static void print_hist(FILE *out, const struct expr *e)
{
	fputs(e->op == HIST_LINEAR ? "@hist_linear(" : "@hist_log(", out);
	ast_print_expr(out, e->a);
	for (size_t i = 0; i < e->args.n; i++) {
		fputs(", ", out);
		ast_print_expr(out, e->args.v[i]);
	}
	fputc(')', out);
}

static void print_print(FILE *out, const struct expr *e)
{
	fprintf(out, "%s(", e->name);
	if (e->a) {
		print_hist(out, e->a);
	} else {
		bool any = false;

		if (e->str) {
			print_string(out, e->str, e->len);
			any = true;
		}
		for (size_t i = 0; i < e->args.n; i++) {
			if (any)
				fputs(", ", out);
			ast_print_expr(out, e->args.v[i]);
			any = true;
		}
	}
	fputc(')', out);
}

void ast_print_expr(FILE *out, const struct expr *e)
{
	if (!e)
		return;
	switch (e->kind) {
	case E_NUM:
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
			print_hist(out, e->a);
		else
			ast_print_expr(out, e->a);
		fputc('[', out);
		print_list(out, &e->args, false);
		fputc(']', out);
		break;
	case E_CALL:
	case E_ATOP:
		fprintf(out, "%s(", e->name);
		print_list(out, &e->args, false);
		fputc(')', out);
		break;
	case E_PRINT:
		print_print(out, e);
		break;
	case E_UNARY:
		fputs(op_text(e->op), out);
		print_unary_operand(out, e->a);
		break;
	case E_BINARY:
	case E_ASSIGN:
		print_operand(out, e->a);
		fprintf(out, " %s ", op_text(e->op));
		print_operand(out, e->b);
		break;
	case E_TERNARY:
		print_operand(out, e->a);
		fputs(" ? ", out);
		print_operand(out, e->b);
		fputs(" : ", out);
		print_operand(out, e->c);
		break;
	case E_PREINC:
		fputs(op_text(e->op), out);
		print_operand(out, e->a);
		break;
	case E_POSTINC:
		print_operand(out, e->a);
		fputs(op_text(e->op), out);
		break;
	case E_IN:
		fputc('[', out);
		print_list(out, &e->args, true);
		fputs("] in ", out);
		if (e->a->kind == E_HIST)
			print_hist(out, e->a);
		else
			ast_print_expr(out, e->a);
		break;
	case E_TARGET:
	case E_VAR:
	case E_CAST:
		print_target(out, e);
		break;
	case E_DEFINED:
		fputs("@defined(", out);
		ast_print_expr(out, e->a);
		fputc(')', out);
		break;
	case E_ENTRY:
		fputs("@entry(", out);
		ast_print_expr(out, e->a);
		fputc(')', out);
		break;
	case E_STAT:
		fprintf(out, "%s(", ast_stat_name(e->op));
		ast_print_expr(out, e->a);
		for (size_t i = 0; i < e->args.n; i++) {
			fputs(", ", out);
			ast_print_expr(out, e->args.v[i]);
		}
		fputc(')', out);
		break;
	case E_AUTOCAST:
		if (e->addressof)
			fputc('&', out);
		/* (a)[0]: without its parentheses a[0] would index an array */
		if (e->comps.n && ((const struct tcomp *)e->comps.v[0])->kind == TC_INDEX) {
			fputc('(', out);
			ast_print_expr(out, e->a);
			fputc(')', out);
		} else {
			print_operand(out, e->a);
		}
		/* task_current()->$: a value takes its suffix after "->" only */
		if (e->comps.n && ((const struct tcomp *)e->comps.v[0])->kind == TC_PPRINT)
			fputs("->", out);
		print_comps(out, &e->comps);
		break;
	case E_HIST:
		print_hist(out, e);
		break;
	case E_EMBEDDED:
		fprintf(out, "%%{%s%%}", e->str);
		break;
	}
}

static void print_block(FILE *out, const struct stmt *s, int depth)
{
	fputs("{\n", out);
	for (size_t i = 0; i < s->stmts.n; i++)
		print_stmt(out, s->stmts.v[i], depth + 1);
	indent(out, depth);
	fputc('}', out);
}

/* The body of if/while/for/foreach: a block stays on the line, anything
 * else goes on its own line one level deeper. */
static void print_body(FILE *out, const struct stmt *s, int depth)
{
	if (s->kind == S_BLOCK) {
		fputc(' ', out);
		print_block(out, s, depth);
		fputc('\n', out);
	} else {
		fputc('\n', out);
		print_stmt(out, s, depth + 1);
	}
}

static void print_foreach(FILE *out, const struct stmt *s, int depth)
{
	const char *dir = s->sort_dir > 0 ? "+" : "-";

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
		print_hist(out, s->base);
	else
		ast_print_expr(out, s->base);
	if (s->has_slice) {
		fputc('[', out);
		print_list(out, &s->slice, false);
		fputc(']', out);
	}
	if (s->sort_aggr)
		fprintf(out, " %s", ast_stat_name(s->sort_aggr));
	if (s->sort_dir && s->sort_col == 0)
		fputs(dir, out);
	if (s->limit) {
		fputs(" limit ", out);
		ast_print_expr(out, s->limit);
	}
	fputc(')', out);
	print_body(out, s->body, depth);
}

static void print_stmt(FILE *out, const struct stmt *s, int depth)
{
	indent(out, depth);
	switch (s->kind) {
	case S_BLOCK:
		print_block(out, s, depth);
		fputc('\n', out);
		break;
	case S_NULL:
		fputs(";\n", out);
		break;
	case S_EXPR:
		ast_print_expr(out, s->e1);
		fputs(";\n", out);
		break;
	case S_IF:
		fputs("if (", out);
		ast_print_expr(out, s->e1);
		fputc(')', out);
		print_body(out, s->body, depth);
		if (s->els) {
			indent(out, depth);
			fputs("else", out);
			print_body(out, s->els, depth);
		}
		break;
	case S_WHILE:
		fputs("while (", out);
		ast_print_expr(out, s->e1);
		fputc(')', out);
		print_body(out, s->body, depth);
		break;
	case S_FOR:
		fputs("for (", out);
		ast_print_expr(out, s->e1);
		fputs("; ", out);
		ast_print_expr(out, s->e2);
		fputs("; ", out);
		ast_print_expr(out, s->e3);
		fputc(')', out);
		print_body(out, s->body, depth);
		break;
	case S_FOREACH:
		print_foreach(out, s, depth);
		break;
	case S_RETURN:
		fputs("return", out);
		if (s->e1) {
			fputc(' ', out);
			ast_print_expr(out, s->e1);
		}
		fputs(";\n", out);
		break;
	case S_DELETE:
		fputs("delete ", out);
		ast_print_expr(out, s->e1);
		fputs(";\n", out);
		break;
	case S_BREAK:
		fputs("break;\n", out);
		break;
	case S_CONTINUE:
		fputs("continue;\n", out);
		break;
	case S_NEXT:
		fputs("next;\n", out);
		break;
	case S_TRY:
		fputs("try ", out);
		print_block(out, s->body, depth);
		fputs(" catch ", out);
		if (s->name)
			fprintf(out, "(%s) ", s->name);
		print_block(out, s->els, depth);
		fputc('\n', out);
		break;
	}
}

void ast_print_probe_point(FILE *out, const struct probe_point *pp)
{
	for (size_t i = 0; i < pp->comps.n; i++) {
		const struct pp_comp *c = pp->comps.v[i];

		if (i)
			fputc('.', out);
		fputs(c->name, out);
		if (c->arg) {
			fputc('(', out);
			ast_print_expr(out, c->arg);
			fputc(')', out);
		}
	}
	if (pp->sufficient)
		fputc('!', out);
	else if (pp->optional)
		fputc('?', out);
	if (pp->cond) {
		fputs(" if (", out);
		ast_print_expr(out, pp->cond);
		fputc(')', out);
	}
}

static void print_points(FILE *out, const struct vec *v)
{
	for (size_t i = 0; i < v->n; i++) {
		if (i)
			fputs(", ", out);
		ast_print_probe_point(out, v->v[i]);
	}
}

static const char *type_name(enum value_type t)
{
	return t == TYPE_LONG ? ":long" : t == TYPE_STRING ? ":string" : "";
}

static void print_function(FILE *out, const struct function *f)
{
	if (f->is_private)
		fputs("private ", out);
	fprintf(out, "function %s%s(", f->name, type_name(f->type));
	for (size_t i = 0; i < f->params.n; i++) {
		const struct param *p = f->params.v[i];

		fprintf(out, "%s%s%s", i ? ", " : "", p->name,
			type_name(p->type));
	}
	fputc(')', out);
	if (f->priority)
		fprintf(out, " :%" PRId64, f->priority);
	if (f->embedded) {
		fprintf(out, " %%{%s%%}\n", f->embedded);
	} else if (f->body) {
		fputc(' ', out);
		print_block(out, f->body, 0);
		fputc('\n', out);
	} else {
		fputs(" {\n}\n", out);
	}
}

static void print_global(FILE *out, const struct global *g)
{
	if (g->is_private)
		fputs("private ", out);
	fprintf(out, "global %s", g->name);
	if (g->wrap)
		fputc('%', out);
	if (g->size)
		fprintf(out, "[%" PRId64 "]", g->size);
	if (g->init) {
		fputs(" = ", out);
		ast_print_expr(out, g->init);
	}
	fputc('\n', out);
}

void ast_print(FILE *out, const struct script *s)
{
	for (size_t i = 0; i < s->decls.n; i++) {
		const struct decl *d = s->decls.v[i];

		switch (d->kind) {
		case D_PROBE: {
			const struct probe *p = d->p;

			fputs("probe ", out);
			print_points(out, &p->points);
			fputc(' ', out);
			print_block(out, p->body, 0);
			fputc('\n', out);
			break;
		}
		case D_ALIAS: {
			const struct probe_alias *a = d->p;

			fputs("probe ", out);
			for (size_t j = 0; j < a->names.n; j++) {
				ast_print_probe_point(out, a->names.v[j]);
				fputs(a->epilogue ? " += " : " = ", out);
			}
			print_points(out, &a->points);
			fputc(' ', out);
			print_block(out, a->body, 0);
			if (a->epi_body) {
				fputs(", ", out);
				print_block(out, a->epi_body, 0);
			}
			fputc('\n', out);
			break;
		}
		case D_FUNCTION:
			print_function(out, d->p);
			break;
		case D_GLOBAL:
			print_global(out, d->p);
			break;
		case D_EMBEDDED: {
			const struct embedded *em = d->p;

			fprintf(out, "%%{%s%%}\n", em->code);
			break;
		}
		}
	}
}
