/* Access paths of target variables: building and freeing (see tvar.h). */
#include "tvar.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct tvar *tvar_empty_context(const struct expr *e, bool write)
{
	static const char *const names[] = { "$$vars", "$$parms", "$$locals", "$$return" };
	struct tvar *tv;

	if (write || e->addressof || e->comps.n > 1 ||
	    (e->comps.n == 1 && ((const struct tcomp *)e->comps.v[0])->kind != TC_PPRINT))
		return NULL;
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		if (strcmp(e->name, names[i]))
			continue;
		tv = tvar_new(TVAR_BASE_NONE, 0, e->name, &e->pos);
		tv->leaf = TVAR_TEXT;
		tv->type = SEM_STRING;
		tv->text = xstrdup("");
		return tv;
	}
	return NULL;
}

struct tvar *tvar_new(enum tvar_base base, unsigned slot, const char *name,
		      const struct srcpos *pos)
{
	struct tvar *tv = xcalloc(1, sizeof(*tv));

	tv->base = base;
	tv->slot = slot;
	tv->name = xstrdup(name);
	tv->pos = *pos;
	tv->type = SEM_LONG;
	return tv;
}

void tvar_push_step(struct tvar_step **steps, size_t *n, struct tvar_step step)
{
	*steps = xrealloc(*steps, (*n + 1) * sizeof(**steps));
	(*steps)[(*n)++] = step;
}

void tvar_add_arg(struct tvar *tv, struct tvar *arg)
{
	tv->args = xrealloc(tv->args, (tv->nargs + 1) * sizeof(*tv->args));
	tv->args[tv->nargs++] = arg;
}

void tvar_set_user(struct tvar *tv)
{
	if (!tv)
		return;
	tv->user = true;
	for (size_t i = 0; i < tv->nargs; i++)
		tvar_set_user(tv->args[i]);
}

void tvar_free(struct tvar *tv)
{
	if (!tv)
		return;
	for (size_t i = 0; i < tv->nargs; i++)
		tvar_free(tv->args[i]);
	free(tv->args);
	free(tv->steps);
	free(tv->pretty_steps);
	free(tv->text);
	free(tv->name);
	free(tv->modsym);
	free(tv->pieces);
	free(tv->dwops);
	free(tv);
}

bool tvar_writable(const struct tvar *tv)
{
	/* pieces are read into a copy */
	if (tv->at_entry || tv->type != SEM_LONG || tv->base == TVAR_BASE_PIECES)
		return false;
	if (tv->leaf == TVAR_READ)
		return tv->bits ? tv->bits <= 64
				: tv->size >= 1 && tv->size <= 8 && !(tv->size & (tv->size - 1));
	return tv->leaf == TVAR_VALUE && tv->base == TVAR_BASE_REG && !tv->nsteps && !tv->addr;
}

static void ops_text(const struct tvar_dwop *ops, size_t n, struct strbuf *sb);

/* "dwexpr:[v0=reg:6+8,v1=deref:8(v0),v2=0x3,v3=shl(v1,v2)]"; an entry value
 * "entry:reg:5@SYMBOL+0x0" (of an expression computed at the entry:
 * "entry:[v0=...]@SYMBOL+0x0"), a module's static "modsym:MOD:NAME+0x10",
 * a read only when v2 is not 0 "deref:8(v1)?v2" */
static void dwops_text(const struct tvar *tv, struct strbuf *sb)
{
	strbuf_adds(sb, "dwexpr:");
	ops_text(tv->dwops, tv->ndwops, sb);
}

static void ops_text(const struct tvar_dwop *ops, size_t n, struct strbuf *sb)
{
	static const char *const names[] = {
		[TVAR_OP_ADD] = "add", [TVAR_OP_SUB] = "sub", [TVAR_OP_MUL] = "mul",
		[TVAR_OP_DIV] = "div", [TVAR_OP_MOD] = "mod", [TVAR_OP_AND] = "and",
		[TVAR_OP_OR] = "or", [TVAR_OP_XOR] = "xor", [TVAR_OP_SHL] = "shl",
		[TVAR_OP_SHR] = "shr", [TVAR_OP_SHRA] = "shra", [TVAR_OP_EQ] = "eq",
		[TVAR_OP_NE] = "ne", [TVAR_OP_LT] = "lt", [TVAR_OP_GT] = "gt", [TVAR_OP_LE] = "le",
		[TVAR_OP_GE] = "ge", [TVAR_OP_NEG] = "neg", [TVAR_OP_NOT] = "not",
		[TVAR_OP_ABS] = "abs",
	};

	for (size_t i = 0; i < n; i++) {
		const struct tvar_dwop *d = &ops[i];

		strbuf_addf(sb, "%sv%zu=", i ? "," : "[", i);
		switch (d->kind) {
		case TVAR_DW_REG:
			strbuf_addf(sb, "reg:%u%+" PRId64, d->reg, (int64_t)d->val);
			break;
		case TVAR_DW_CONST:
			strbuf_addf(sb, "%#" PRIx64, d->val);
			break;
		case TVAR_DW_STATIC:
			strbuf_addf(sb, "static:%#" PRIx64, d->val);
			break;
		case TVAR_DW_DEREF:
			strbuf_addf(sb, "deref:%u(v%u)", d->size, d->a);
			if (d->guard)
				strbuf_addf(sb, "?v%u", d->guard - 1);
			break;
		case TVAR_DW_BINARY:
			strbuf_addf(sb, "%s(v%u,v%u)", names[d->op], d->a, d->b);
			break;
		case TVAR_DW_UNARY:
			strbuf_addf(sb, "%s(v%u)", names[d->op], d->a);
			break;
		case TVAR_DW_CONVERT:
			strbuf_addf(sb, "%s%u(v%u)", d->is_signed ? "s" : "u", d->size * 8, d->a);
			break;
		case TVAR_DW_ENTRY:
			strbuf_adds(sb, "entry:");
			if (d->expr)
				ops_text(d->expr, d->nexpr, sb);
			else
				strbuf_addf(sb, "reg:%u", d->reg);
			strbuf_addf(sb, "@%s%s+%#" PRIx64, d->user ? "user:" : "", d->sym, d->val);
			break;
		case TVAR_DW_MODSYM:
			strbuf_addf(sb, "modsym:%s+%#" PRIx64, d->sym, d->val);
			break;
		case TVAR_DW_CALLSITE:
			strbuf_addf(sb, "callsite(v%u,v%u)", d->a, d->b);
			break;
		case TVAR_DW_TLS:
			strbuf_addf(sb, "tls(v%u)-%#" PRIx64, d->a, d->val);
			break;
		case TVAR_DW_DTV:
			strbuf_addf(sb, "dtv(v%u)+v%u", d->a, d->b);
			break;
		}
	}
	strbuf_addc(sb, ']');
}

static const char *base_text(const struct tvar *tv, struct strbuf *sb)
{
	switch (tv->base) {
	case TVAR_BASE_NONE:
		strbuf_adds(sb, "none");
		break;
	case TVAR_BASE_SLOT:
		strbuf_addf(sb, "slot:%u", tv->slot);
		break;
	case TVAR_BASE_PARENT:
		strbuf_adds(sb, "parent");
		break;
	case TVAR_BASE_REG:
		strbuf_addf(sb, "reg:%u%+" PRId64, tv->slot, (int64_t)tv->addr);
		break;
	case TVAR_BASE_STATIC:
		strbuf_addf(sb, "static:%#" PRIx64 "@%#" PRIx64, tv->addr, tv->reloc_ref);
		break;
	case TVAR_BASE_CONST:
		strbuf_addf(sb, "const:%#" PRIx64, tv->addr);
		break;
	case TVAR_BASE_MODSYM:
		strbuf_addf(sb, "modsym:%s+%#" PRIx64, tv->modsym, tv->addr);
		break;
	case TVAR_BASE_EXPR:
		strbuf_adds(sb, "expr");
		break;
	case TVAR_BASE_PIECES:
		strbuf_adds(sb, "pieces:");
		for (size_t i = 0; i < tv->npieces; i++) {
			const struct tvar_piece *p = &tv->pieces[i];

			strbuf_adds(sb, i ? "," : "[");
			if (p->base == TVAR_BASE_DWEXPR) {
				struct tvar view = *tv;

				view.dwops = tv->dwops + p->dwop_first;
				view.ndwops = p->ndwops;
				dwops_text(&view, sb);
			} else if (p->base == TVAR_BASE_REG)
				strbuf_addf(sb, "reg:%u%+" PRId64, p->slot, (int64_t)p->addr);
			else if (p->base == TVAR_BASE_STATIC)
				strbuf_addf(sb, "static:%#" PRIx64, p->addr);
			else
				strbuf_addf(sb, "const:%#" PRIx64, p->addr);
			strbuf_addf(sb, "%s/%u", p->in_mem ? "@" : "", p->size);
		}
		strbuf_addc(sb, ']');
		break;
	case TVAR_BASE_DWEXPR:
		dwops_text(tv, sb);
		break;
	}
	return sb->buf;
}

static void steps_text(const struct tvar_step *steps, size_t n, struct strbuf *sb)
{
	strbuf_addc(sb, '[');
	for (size_t i = 0; i < n; i++) {
		const struct tvar_step *s = &steps[i];

		if (i)
			strbuf_addc(sb, ',');
		if (s->kind == TVAR_LOAD)
			strbuf_adds(sb, "load");
		else if (s->kind == TVAR_ADD)
			strbuf_addf(sb, "+%" PRIu64, s->bytes);
		else if (s->kind == TVAR_ADD_REG)
			strbuf_addf(sb, "+reg:%u*%" PRIu64, s->reg, s->bytes);
		else
			strbuf_addf(sb, "%sindex*%" PRIu64, s->load_first ? "load," : "", s->bytes);
	}
	strbuf_addc(sb, ']');
}

static const char *const leaf_names[] = {
	[TVAR_VALUE] = "value", [TVAR_READ] = "read", [TVAR_ADDRESS] = "address",
	[TVAR_RAW] = "raw", [TVAR_TEXT] = "text",
	[TVAR_FORMAT] = "format", [TVAR_PRETTY] = "pretty",
};

static void describe(const struct tvar *tv, struct strbuf *sb)
{
	strbuf_adds(sb, "base=");
	base_text(tv, sb);
	strbuf_adds(sb, " steps=");
	steps_text(tv->steps, tv->nsteps, sb);
	strbuf_addf(sb, " leaf=%s", leaf_names[tv->leaf]);
	if (tv->leaf == TVAR_VALUE || tv->leaf == TVAR_READ)
		strbuf_addf(sb, " size=%d %s", tv->size, tv->is_signed ? "signed" : "unsigned");
	if (tv->bits)
		strbuf_addf(sb, " bits=%u@%u", tv->bits, tv->bitpos);
	if (tv->fp32)
		strbuf_adds(sb, " fp32");
	if (tv->cstring)
		strbuf_adds(sb, " cstring");
	strbuf_addf(sb, " type=%s", tv->type == SEM_STRING ? "string" : "long");
	if (tv->at_entry)
		strbuf_adds(sb, " at_entry");
	if (tv->text)
		strbuf_addf(sb, " text=\"%s\"", tv->text);
	if (tv->pretty_nsteps) {
		strbuf_adds(sb, " pretty_steps=");
		steps_text(tv->pretty_steps, tv->pretty_nsteps, sb);
	}
	for (size_t i = 0; i < tv->nargs; i++) {
		strbuf_addf(sb, " arg%zu={", i);
		describe(tv->args[i], sb);
		strbuf_addc(sb, '}');
	}
}

char *tvar_describe(const struct tvar *tv)
{
	struct strbuf sb = STRBUF_INIT;

	describe(tv, &sb);
	return strbuf_detach(&sb);
}
