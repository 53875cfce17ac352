/*
 * Pass 3: what on-the-fly arming needs (SystemTap's term for it).
 *
 * A kernel event probe with a condition, probe kprobe.function("f") if
 * (on) { ... }, still checks the condition at every hit.  When the
 * condition reads nothing but numeric scalar globals, the runtime also
 * unregisters the probe while the condition is false (runtime/linux/
 * arming.c), so that an idle probe costs the kernel nothing.  For that the
 * translator gives each such probe a side-effect-free C function of its
 * condition (tap_probe.armcond), and ends every probe that may write one
 * of those globals with tap_arm_kick(), which asks for a re-evaluation.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "probes/family.h"
#include "translate_int.h"

static const char *arm_binop(int op)
{
	switch (op) {
	case TK_ANDAND: return "&&";
	case TK_OROR: return "||";
	case TK_LT: return "<";
	case TK_GT: return ">";
	case TK_LE: return "<=";
	case TK_GE: return ">=";
	case TK_EQ: return "==";
	case TK_NE: return "!=";
	case TK_AMP: return "&";
	case TK_PIPE: return "|";
	case TK_CARET: return "^";
	default: return NULL;	/* arithmetic may trap or overflow: not here */
	}
}

/* The C of e into sb when e is a pure expression of numbers and numeric
 * scalar globals (marked in uses); false otherwise. */
static bool arm_expr(const struct tr *T, const struct expr *e, struct strbuf *sb, bool *uses)
{
	const struct sem_ref *r;
	const struct tr_global *g;
	const char *op;

	switch (e->kind) {
	case E_NUM:
		strbuf_addf(sb, "%" PRId64 "LL", e->num);
		return true;
	case E_SYM:
		r = program_ref(T->p, e);
		g = r && r->var && r->var->global ? tr_global_of(T, r->var) : NULL;
		if (!g || g->v->type != SEM_LONG || g->v->arity > 0)
			return false;
		uses[g - T->globals] = true;
		strbuf_addf(sb, "(*(volatile long long *)&%s)", g->cname);
		return true;
	case E_UNARY:
		if (e->op != TK_NOT)
			return false;
		strbuf_adds(sb, "!(");
		if (!arm_expr(T, e->a, sb, uses))
			return false;
		strbuf_addc(sb, ')');
		return true;
	case E_BINARY:
		op = arm_binop(e->op);
		if (!op)
			return false;
		strbuf_addc(sb, '(');
		if (!arm_expr(T, e->a, sb, uses))
			return false;
		strbuf_addf(sb, ") %s (", op);
		if (!arm_expr(T, e->b, sb, uses))
			return false;
		strbuf_addc(sb, ')');
		return true;
	default:
		return false;
	}
}

/* The C of dp's condition if the runtime may arm dp by it, else NULL. */
static char *arm_cond(const struct tr *T, const struct derived_probe *dp, bool *uses)
{
	struct strbuf sb = STRBUF_INIT;

	if (!dp->family->armable || !dp->cond)
		return NULL;
	if (!arm_expr(T, dp->cond, &sb, uses)) {
		strbuf_free(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

void tr_arm_prepare(struct tr *T)
{
	T->arm_globals = xcalloc((size_t)T->nglobals + 1, sizeof(bool));
	for (size_t i = 0; i < T->p->probes.n; i++) {
		bool *uses = xcalloc((size_t)T->nglobals + 1, sizeof(bool));
		char *c = arm_cond(T, T->p->probes.v[i], uses);

		if (c)
			for (int g = 0; g < T->nglobals; g++)
				T->arm_globals[g] |= uses[g];
		free(c);
		free(uses);
	}
}

bool tr_arm_kicks(const struct tr *T, const struct lock_set *locks)
{
	for (int i = 0; i < locks->n; i++)
		if (locks->mode[i] == 2 && T->arm_globals[locks->g[i]])
			return true;
	return false;
}

bool tr_arm_emit_cond(const struct tr *T, FILE *out, const struct derived_probe *dp,
		      size_t index)
{
	bool *uses = xcalloc((size_t)T->nglobals + 1, sizeof(bool));
	char *c = arm_cond(T, dp, uses);

	free(uses);
	if (!c)
		return false;
	/* any non-zero value holds, not only one that fits in an int */
	fprintf(out, "static int tap_armcond_%zu(void)\n{\n\treturn (%s) != 0;\n}\n", index, c);
	free(c);
	return true;
}
