/* Probe point text: the one printer of probe points, for -p2, -l/-L,
 * pp() and -t (see pptext.h). */
#include "pptext.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* Expressions in probe point conditions print as SystemTap prints them:
 * every operand of an operator in parentheses; symp goes before each name
 * (stap -p2 names a resolved condition's globals "__global_NAME"). */
static void stap_expr(struct strbuf *sb, const struct expr *e, const char *symp)
{
	const char *op;

	if (!e)
		return;
	switch (e->kind) {
	case E_NUM:
		if (e->op == PP_NUM_HEX)
			strbuf_addf(sb, "0x%" PRIx64, (uint64_t)e->num);
		else
			strbuf_addf(sb, "%" PRId64, e->num);
		return;
	case E_STR:
		strbuf_addc(sb, '"');
		strbuf_addn(sb, e->str, e->len);
		strbuf_addc(sb, '"');
		return;
	case E_SYM:
		strbuf_adds(sb, symp);
		strbuf_adds(sb, e->name);
		return;
	case E_BINARY: case E_ASSIGN:
		op = tok_spelling((enum tok_kind)e->op);
		strbuf_addc(sb, '(');
		stap_expr(sb, e->a, symp);
		strbuf_addf(sb, ") %s (", op ? op : "?");
		stap_expr(sb, e->b, symp);
		strbuf_addc(sb, ')');
		return;
	case E_UNARY: case E_PREINC:
		op = tok_spelling((enum tok_kind)e->op);
		strbuf_addf(sb, "%s(", op ? op : "?");
		stap_expr(sb, e->a, symp);
		strbuf_addc(sb, ')');
		return;
	case E_POSTINC:
		op = tok_spelling((enum tok_kind)e->op);
		strbuf_addc(sb, '(');
		stap_expr(sb, e->a, symp);
		strbuf_addf(sb, ")%s", op ? op : "?");
		return;
	case E_TERNARY:
		strbuf_addc(sb, '(');
		stap_expr(sb, e->a, symp);
		strbuf_adds(sb, ") ? (");
		stap_expr(sb, e->b, symp);
		strbuf_adds(sb, ") : (");
		stap_expr(sb, e->c, symp);
		strbuf_addc(sb, ')');
		return;
	case E_CALL: case E_INDEX:
		if (e->kind == E_CALL)
			strbuf_adds(sb, e->name);
		else
			stap_expr(sb, e->a, symp);
		strbuf_addc(sb, e->kind == E_CALL ? '(' : '[');
		for (size_t i = 0; i < e->args.n; i++) {
			if (i)
				strbuf_adds(sb, ", ");
			if (e->args.v[i])
				stap_expr(sb, e->args.v[i], symp);
			else
				strbuf_addc(sb, '*');
		}
		strbuf_addc(sb, e->kind == E_CALL ? ')' : ']');
		return;
	default: {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		ast_print_expr(f, e);
		fclose(f);
		strbuf_adds(sb, buf);
		free(buf);
		return;
	}
	}
}

void pp_comps_text(struct strbuf *sb, const struct probe_point *pp, size_t from,
		       size_t to)
{
	for (size_t i = from; i < to && i < pp->comps.n; i++) {
		const struct pp_comp *c = pp->comps.v[i];

		if (sb->len)
			strbuf_addc(sb, '.');
		strbuf_adds(sb, c->name);
		if (c->arg) {
			strbuf_addc(sb, '(');
			stap_expr(sb, c->arg, "");
			strbuf_addc(sb, ')');
		}
	}
}

static char *full_text(const struct probe_point *pp, const char *symp)
{
	return pp_marked_text(pp, NULL, symp);
}

char *pp_marked_text(const struct probe_point *pp, const char *comps, const char *symp)
{
	struct strbuf sb = STRBUF_INIT;

	if (comps)
		strbuf_adds(&sb, comps);
	else
		pp_comps_text(&sb, pp, 0, pp->comps.n);
	if (pp->sufficient)
		strbuf_addc(&sb, '!');
	else if (pp->optional && !pp->optional_inherited)
		strbuf_addc(&sb, '?');
	if (pp->cond) {
		strbuf_adds(&sb, " if (");
		stap_expr(&sb, pp->cond, symp);
		strbuf_addc(&sb, ')');
	}
	return strbuf_detach(&sb);
}

char *pp_full_text(const struct probe_point *pp)
{
	return full_text(pp, "");
}

char *pp_resolved_text(const struct probe_point *pp)
{
	return full_text(pp, "__global_");
}

char *pp_text(const struct probe_point *pp)
{
	struct strbuf sb = STRBUF_INIT;

	pp_comps_text(&sb, pp, 0, pp->comps.n);
	return strbuf_detach(&sb);
}
