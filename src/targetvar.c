/* Target variables typed by BTF (see targetvar.h). */
#include "targetvar.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "btf.h"
#include "translate_int.h"
#include "util.h"

/* Where a walk over $x->a[i]->b stands: the value is either a raw
 * register value (the base) or lives in kernel memory at an address. */
struct tv_walk {
	const struct btf *btf;
	struct tr *T;			/* pass 3, else NULL (types only) */
	const struct expr *e;
	struct family_error *err;
	uint32_t type;			/* of the value, typedefs kept */
	bool in_mem;			/* c is its address, else its raw value */
	char *c;			/* pass 3: C of the address or value */
	uint32_t bitpos, bits;		/* a bit field at the address */
	const char *where;		/* pass 3: TAP_STMT text */
};

/* SystemTap's spelling of a type in messages: "struct task_struct*". */
char *targetvar_type_name(const struct btf *btf, uint32_t id)
{
	char buf[512];
	char *s, *p;

	if (btf_type_str(btf, id, NULL, buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "?");
	s = xstrdup(buf);
	while ((p = strstr(s, " *")))
		memmove(p, p + 1, strlen(p));
	return s;
}

/* SystemTap reports an error at a '->' or '[' step near that operator. */
static char *near_what(const struct expr *e, const struct srcpos *pos)
{
	for (size_t i = 0; i < e->comps.n; i++) {
		const struct tcomp *tc = e->comps.v[i];

		if (&tc->pos == pos)
			return xstrdup(tc->kind == TC_INDEX ? "operator '['" : "operator '->'");
	}
	return NULL;
}

__attribute__((format(printf, 3, 4)))
static bool fail(struct tv_walk *w, const struct srcpos *pos, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (w->err && !w->err->msg) {
		va_start(ap, fmt);
		strbuf_vaddf(&sb, fmt, ap);
		va_end(ap);
		w->err->pos = *pos;
		w->err->msg = strbuf_detach(&sb);
		w->err->what = near_what(w->e, pos);
	}
	if (w->T && w->err == NULL) {
		va_start(ap, fmt);
		strbuf_vaddf(&sb, fmt, ap);
		va_end(ap);
		tr_error(w->T, pos, "%s", sb.buf ? sb.buf : "");
		strbuf_free(&sb);
	}
	return false;
}

static void set_c(struct tv_walk *w, char *c)
{
	free(w->c);
	w->c = c;
}

static void emit_where(struct tv_walk *w)
{
	tr_line(w->T, "TAP_STMT(c, %s);", w->where);
}

/* Read the pointer at the current address: the walk then holds it as a
 * raw value. */
static void load_pointer(struct tv_walk *w)
{
	if (!w->in_mem)
		return;
	w->in_mem = false;
	if (w->T) {
		char *t = tr_ltmp(w->T);

		emit_where(w);
		tr_line(w->T, "%s = tap_deref(c, %s, 8, 0);", t, w->c);
		tr_check(w->T);
		set_c(w, xasprintf("(unsigned long)%s", t));
		free(t);
	}
}

/* The walk holds a pointer's value: go to the memory it points to,
 * plus byte_off. */
static void pointer_to_memory(struct tv_walk *w, const char *byte_off)
{
	w->in_mem = true;
	if (w->T)
		set_c(w, xasprintf("(%s + %s)", w->c, byte_off));
}

/* Member names of struct/union id, anonymous members' own included, as
 * SystemTap lists them: " a b c". */
static void member_names(const struct btf *btf, uint32_t id, struct strbuf *sb, int depth)
{
	uint32_t n = btf_vlen(btf, id);

	if (depth > BTF_MAX_DEPTH)
		return;
	for (uint32_t i = 0; i < n; i++) {
		struct btf_member_info m;

		if (btf_member_at(btf, id, i, &m) != 0)
			continue;
		if (*m.name) {
			strbuf_addf(sb, " %s", m.name);
		} else {
			uint32_t sub = btf_resolve(btf, m.type);
			enum btf_kind k = btf_kind(btf, sub);

			if (k == BTF_K_STRUCT || k == BTF_K_UNION)
				member_names(btf, sub, sb, depth + 1);
		}
	}
}

static bool is_aggregate(enum btf_kind k)
{
	return k == BTF_K_STRUCT || k == BTF_K_UNION;
}

/* "->name" */
static bool step_member(struct tv_walk *w, const struct tcomp *tc)
{
	const struct btf *btf = w->btf;
	uint32_t r = btf_resolve(btf, w->type);
	enum btf_kind k = btf_kind(btf, r);
	struct btf_member_info m;
	char *tn;

	if (k == BTF_K_PTR) {
		uint32_t to = btf_resolve(btf, btf_ref(btf, r));

		if (!is_aggregate(btf_kind(btf, to))) {
			tn = targetvar_type_name(btf, w->type);
			fail(w, &tc->pos, "invalid access '->%s' vs '%s'", tc->name, tn);
			free(tn);
			return false;
		}
		load_pointer(w);
		pointer_to_memory(w, "0UL");
		r = to;
	} else if (k == BTF_K_ARRAY) {
		return fail(w, &tc->pos, "invalid access '->%s' for array type", tc->name);
	} else if (!is_aggregate(k) || !w->in_mem) {
		tn = targetvar_type_name(btf, w->type);
		fail(w, &tc->pos, "invalid access '->%s' vs. %s", tc->name, tn);
		free(tn);
		return false;
	}
	if (btf_member_find(btf, r, tc->name, &m) != 0) {
		struct strbuf alt = STRBUF_INIT;

		tn = targetvar_type_name(btf, r);
		member_names(btf, r, &alt, 0);
		fail(w, &tc->pos, "unable to find member '%s' for %s%s%s%s", tc->name, tn,
		     alt.len ? " (alternatives:" : "", alt.len ? alt.buf : "",
		     alt.len ? ")" : "");
		strbuf_free(&alt);
		free(tn);
		return false;
	}
	if (w->T)
		set_c(w, xasprintf("(%s + %" PRIu64 "UL)", w->c, m.bit_offset / 8));
	w->bits = m.bitfield_size;
	w->bitpos = m.bitfield_size ? (uint32_t)(m.bit_offset % 8) : 0;
	w->type = m.type;
	return true;
}

/* "[index]" on a pointer or an array */
static bool step_index(struct tv_walk *w, const struct tcomp *tc)
{
	const struct btf *btf = w->btf;
	uint32_t r = btf_resolve(btf, w->type), elem;
	enum btf_kind k = btf_kind(btf, r);
	int64_t size;
	char *tn;

	if (k == BTF_K_PTR) {
		elem = btf_ref(btf, r);
	} else if (k == BTF_K_ARRAY && w->in_mem) {
		struct btf_array_info ai;

		btf_array_info(btf, r, &ai);
		elem = ai.elem_type;
	} else {
		tn = targetvar_type_name(btf, w->type);
		if (is_aggregate(k))
			fail(w, &tc->pos, "invalid access '[...]' for %s", tn);
		else
			fail(w, &tc->pos, "invalid access '[...]' vs. %s", tn);
		free(tn);
		return false;
	}
	size = btf_size(btf, elem);
	if (size <= 0) {
		tn = targetvar_type_name(btf, w->type);
		fail(w, &tc->pos, "invalid access '[...]' vs '%s'", tn);
		free(tn);
		return false;
	}
	if (w->T) {
		char *idx = tr_expr(w->T, tc->index);
		char *off = xasprintf("(unsigned long)(%s) * %" PRId64 "UL", idx, size);

		if (k == BTF_K_PTR) {
			load_pointer(w);
			pointer_to_memory(w, off);
		} else {
			set_c(w, xasprintf("(%s + %s)", w->c, off));
		}
		free(off);
		free(idx);
	} else if (k == BTF_K_PTR) {
		w->in_mem = true;
	}
	w->bits = w->bitpos = 0;
	w->type = elem;
	return true;
}

static bool is_char(const struct btf *btf, uint32_t id)
{
	struct btf_int_info ii;
	uint32_t r = btf_resolve(btf, id);

	return btf_kind(btf, r) == BTF_K_INT && btf_int_info(btf, r, &ii) == 0 &&
	       ii.bits == 8;
}

/* Size and sign of an integer-like type (int, enum, bool); false if
 * the type is not one. */
static bool int_shape(const struct btf *btf, uint32_t id, int *size, bool *is_signed)
{
	uint32_t r = btf_resolve(btf, id);
	enum btf_kind k = btf_kind(btf, r);
	struct btf_int_info ii;
	int64_t sz = btf_size(btf, r);

	if (sz <= 0 || sz > 8)
		return false;
	*size = (int)sz;
	if (k == BTF_K_INT) {
		if (btf_int_info(btf, r, &ii) != 0)
			return false;
		*is_signed = (ii.encoding & BTF_INT_SIGNED) != 0;
		return true;
	}
	if (k == BTF_K_ENUM || k == BTF_K_ENUM64) {
		/* negative enumerators make an enum signed */
		const char *name;
		int64_t v;

		*is_signed = false;
		for (uint32_t i = 0; btf_enum_at(btf, r, i, &name, &v) == 0; i++)
			if (v < 0)
				*is_signed = true;
		return true;
	}
	return false;
}

char *targetvar_value_c(const struct btf *btf, uint32_t type, const char *raw_c)
{
	static const char *const stype[] = { "", "signed char", "short", "", "int",
					     "", "", "", "long long" };
	static const char *const utype[] = { "", "unsigned char", "unsigned short", "",
					     "unsigned int", "", "", "",
					     "unsigned long long" };
	int size = 8;
	bool sgn = false;

	if (!int_shape(btf, type, &size, &sgn) || !*stype[size])
		return xasprintf("(long long)(%s)", raw_c);
	return xasprintf("(long long)(%s)(%s)", sgn ? stype[size] : utype[size], raw_c);
}

bool targetvar_is_pointer(const struct btf *btf, uint32_t type)
{
	return btf_kind(btf, btf_resolve(btf, type)) == BTF_K_PTR;
}

bool targetvar_fits_register(const struct btf *btf, uint32_t type)
{
	int size;
	bool sgn;

	return targetvar_is_pointer(btf, type) || int_shape(btf, type, &size, &sgn);
}

/* The value at the end of the walk. */
static enum sem_type finish(struct tv_walk *w, char **out)
{
	const struct btf *btf = w->btf;
	uint32_t r = btf_resolve(btf, w->type);
	enum btf_kind k = btf_kind(btf, r);
	int size;
	bool sgn;
	char *tn;

	if (k == BTF_K_PTR || int_shape(btf, r, &size, &sgn)) {
		if (k == BTF_K_PTR) {
			size = 8;
			sgn = false;
		}
		if (!w->T)
			return SEM_LONG;
		if (!w->in_mem) {
			*out = targetvar_value_c(btf, r, w->c);
		} else {
			char *t = tr_ltmp(w->T);

			emit_where(w);
			if (w->bits)
				tr_line(w->T, "%s = tap_deref_bits(c, %s, %u, %u, %d);", t, w->c,
					w->bitpos, w->bits, sgn);
			else
				tr_line(w->T, "%s = tap_deref(c, %s, %d, %d);", t, w->c, size, sgn);
			tr_check(w->T);
			*out = t;
		}
		return SEM_LONG;
	}
	if (k == BTF_K_ARRAY && w->in_mem) {
		struct btf_array_info ai;

		btf_array_info(btf, r, &ai);
		if (!is_char(btf, ai.elem_type)) {
			if (w->T)
				*out = xasprintf("(long long)%s", w->c);
			return SEM_LONG;
		}
		if (w->T) {
			char *s = tr_stmp(w->T);

			emit_where(w);
			tr_line(w->T, "tap_deref_string(c, %s, %s, %uUL);", s, w->c, ai.nelems);
			tr_check(w->T);
			*out = s;
		}
		return SEM_STRING;
	}
	tn = targetvar_type_name(btf, w->type);
	if (is_aggregate(k))
		fail(w, &w->e->pos, "'%s' is being accessed instead of a member", tn);
	else
		fail(w, &w->e->pos, "unsupported type %s", tn);
	free(tn);
	return SEM_UNKNOWN;
}

/* ---- pretty-printing: $x$ and $x$$ --------------------------------------
 *
 * As SystemTap does: one sprintf whose format follows the type ("{.a=%i,
 * .b=%p, .c={...}}"), at most 32 values, each read fault-safely; any
 * fault makes the whole string "ERROR".  Integers print as %i or %u,
 * chars as '%#c', pointers as %p, char arrays and char pointers as the
 * quoted kernel string ("<unknown>" when unreadable); the top level
 * follows a pointer; nested structs and arrays print as {...} and [...]
 * unless the suffix is $$; arrays show their first element only.
 */
#define PP_MAX_ARGS 32

struct pp {
	bool full;			/* $$ */
	struct strbuf fmt, args;
	unsigned nargs;
	struct tr *T;
};

static void pp_arg(struct pp *pp, const char *fmt, char *val, bool is_str)
{
	strbuf_adds(&pp->fmt, fmt);
	if (pp->T)
		strbuf_addf(&pp->args, "%s%s(%s)", pp->nargs ? ", " : "",
			    is_str ? "TAP_PSTR" : "TAP_PNUM", val ? val : "0LL");
	pp->nargs++;
	free(val);
}

static struct tv_walk pp_clone(const struct tv_walk *w)
{
	struct tv_walk c = *w;

	c.c = w->c ? xstrdup(w->c) : NULL;
	return c;
}

/* "char" and "unsigned char" (SystemTap prints arrays of and pointers to
 * them as strings). */
static bool pp_is_chars(const struct btf *btf, uint32_t id)
{
	uint32_t r = btf_resolve(btf, id);
	const char *n = btf_name(btf, r);

	return btf_kind(btf, r) == BTF_K_INT &&
	       (!strcmp(n, "char") || !strcmp(n, "unsigned char"));
}

/* The string at address addr_c (a NUL-terminated kernel string). */
static void pp_string(struct pp *pp, struct tv_walk *w, const char *addr_c)
{
	char *s = NULL;

	if (w->T) {
		s = tr_stmp(w->T);
		tr_line(w->T, "tap_deref_cstring(%s, %s);", s, addr_c);
	}
	pp_arg(pp, "\"%s\"", s, true);
}

/* An integer, enum, bool, bit field or pointer value at the walk's end. */
static void pp_number(struct pp *pp, struct tv_walk *w, const char *fmt)
{
	char *v = NULL;

	if (w->T)
		finish(w, &v);
	pp_arg(pp, fmt, v, false);
}

static void pp_recurse(struct pp *pp, struct tv_walk *w, bool top);

static void pp_members(struct pp *pp, struct tv_walk *w, uint32_t id, int *count)
{
	const struct btf *btf = w->btf;
	uint32_t n = btf_vlen(btf, id);

	for (uint32_t i = 0; i < n; i++) {
		struct btf_member_info m;
		struct tv_walk child;

		if (btf_member_at(btf, id, i, &m) != 0)
			continue;
		if (++*count > 1)
			strbuf_adds(&pp->fmt, ", ");
		if (pp->nargs >= PP_MAX_ARGS) {
			strbuf_adds(&pp->fmt, "...");
			return;
		}
		if (*m.name)
			strbuf_addf(&pp->fmt, ".%s", m.name);
		else if (btf_kind(btf, btf_resolve(btf, m.type)) == BTF_K_UNION)
			strbuf_adds(&pp->fmt, "<union>");
		else
			strbuf_adds(&pp->fmt, "<class>");	/* sic, as SystemTap */
		strbuf_addc(&pp->fmt, '=');
		child = pp_clone(w);
		if (child.T)
			set_c(&child, xasprintf("(%s + %" PRIu64 "UL)", child.c,
						m.bit_offset / 8));
		child.type = m.type;
		child.bits = m.bitfield_size;
		child.bitpos = m.bitfield_size ? (uint32_t)(m.bit_offset % 8) : 0;
		if (child.bits) {
			int size;
			bool sgn;

			if (int_shape(btf, m.type, &size, &sgn))
				pp_number(pp, &child, sgn ? "%i" : "%u");
			else
				strbuf_addc(&pp->fmt, '?');
		} else {
			pp_recurse(pp, &child, false);
		}
		free(child.c);
	}
}

static void pp_recurse(struct pp *pp, struct tv_walk *w, bool top)
{
	const struct btf *btf = w->btf;
	uint32_t r = btf_resolve(btf, w->type);
	enum btf_kind k = btf_kind(btf, r);
	struct btf_int_info ii = { 0 };
	int size;
	bool sgn;

	if (k == BTF_K_PTR) {
		uint32_t to = btf_ref(btf, r);

		if (btf_resolve(btf, to) && pp_is_chars(btf, to)) {
			char *v = NULL;

			if (w->T)
				finish(w, &v);
			pp_string(pp, w, v ? v : "0UL");
			free(v);
		} else if (btf_resolve(btf, to) && top) {
			load_pointer(w);
			pointer_to_memory(w, "0UL");
			w->type = to;
			w->bits = w->bitpos = 0;
			pp_recurse(pp, w, true);
		} else {
			pp_number(pp, w, "%p");
		}
	} else if (k == BTF_K_FUNC_PROTO) {
		char *v = w->T ? xasprintf("(long long)%s", w->c) : NULL;

		pp_arg(pp, "<function>:%p", v, false);
	} else if (is_aggregate(k)) {
		int count = 0;

		strbuf_addc(&pp->fmt, '{');
		if ((top || pp->full) && w->in_mem)
			pp_members(pp, w, r, &count);
		else
			strbuf_adds(&pp->fmt, "...");
		strbuf_addc(&pp->fmt, '}');
	} else if (k == BTF_K_ARRAY && w->in_mem) {
		struct btf_array_info ai;

		if (!top && !pp->full) {
			strbuf_adds(&pp->fmt, "[...]");
			return;
		}
		btf_array_info(btf, r, &ai);
		if (pp_is_chars(btf, ai.elem_type)) {
			pp_string(pp, w, w->c ? w->c : "0UL");
			return;
		}
		strbuf_addc(&pp->fmt, '[');
		w->type = ai.elem_type;	/* the first element only, as SystemTap */
		pp_recurse(pp, w, false);
		strbuf_adds(&pp->fmt, ", ...]");
	} else if (k == BTF_K_INT && btf_int_info(btf, r, &ii) == 0 && ii.bits == 8 &&
		   (!strcmp(btf_name(btf, r), "char") || !strcmp(btf_name(btf, r), "signed char") ||
		    !strcmp(btf_name(btf, r), "unsigned char"))) {
		pp_number(pp, w, "'%#c'");
	} else if (int_shape(btf, r, &size, &sgn)) {
		pp_number(pp, w, k == BTF_K_INT && !sgn &&
			  !(ii.encoding & BTF_INT_BOOL) ? "%u" : "%i");
	} else {
		strbuf_addc(&pp->fmt, '?');
	}
}

/* The walk stands at the value to pretty-print; tc is the "$"/"$$". */
static enum sem_type pretty_print(struct tv_walk *w, const struct tcomp *tc, char **out)
{
	struct pp pp = { .full = strlen(tc->name) > 1, .T = w->T,
			 .fmt = STRBUF_INIT, .args = STRBUF_INIT };
	char *fail_label, *done_label, *lit, *s;
	const char *outer;

	if (w->e->addressof)
		return fail(w, &w->e->pos, "cannot take address of pretty-printed variable"),
		       SEM_UNKNOWN;
	if (!w->T)
		return SEM_STRING;
	fail_label = tr_label(w->T, "ppfail");
	done_label = tr_label(w->T, "ppdone");
	outer = w->T->err_label;
	w->T->err_label = fail_label;
	pp_recurse(&pp, w, true);
	w->T->err_label = outer;
	s = tr_stmp(w->T);
	lit = tr_cstr(pp.fmt.buf ? pp.fmt.buf : "", pp.fmt.len);
	tr_line(w->T, "{");
	if (pp.nargs) {
		tr_line(w->T, "\tconst struct tap_parg pa[%u] = { %s };", pp.nargs, pp.args.buf);
		tr_line(w->T, "\ttap_sprintf(c, %s, MAXSTRINGLEN, %s, %u, pa);", s, lit, pp.nargs);
	} else {
		tr_line(w->T, "\ttap_sprintf(c, %s, MAXSTRINGLEN, %s, 0, NULL);", s, lit);
	}
	tr_line(w->T, "}");
	tr_line(w->T, "goto %s;", done_label);
	/* a fault anywhere makes the value "ERROR", as SystemTap's catch does */
	tr_line(w->T, "%s: __attribute__((unused));", fail_label);
	tr_line(w->T, "if (c->aborted)");
	tr_line(w->T, "\tgoto %s;", outer);
	tr_line(w->T, "c->last_error = 0;");
	tr_line(w->T, "tap_strlcpy(%s, \"ERROR\", MAXSTRINGLEN);", s);
	tr_line(w->T, "%s: __attribute__((unused));", done_label);
	free(lit);
	free(fail_label);
	free(done_label);
	strbuf_free(&pp.fmt);
	strbuf_free(&pp.args);
	*out = s;
	return SEM_STRING;
}

static enum sem_type walk(struct tv_walk *w, char **out)
{
	for (size_t i = 0; i < w->e->comps.n; i++) {
		const struct tcomp *tc = w->e->comps.v[i];
		bool ok;

		switch (tc->kind) {
		case TC_FIELD:
			ok = step_member(w, tc);
			break;
		case TC_INDEX:
			ok = step_index(w, tc);
			break;
		default:
			/* the parser lets "$"/"$$" only end a chain */
			return pretty_print(w, tc, out);
		}
		if (!ok)
			return SEM_UNKNOWN;
	}
	if (w->e->addressof) {
		/* &$p->field: the member's address */
		if (!w->in_mem)
			return fail(w, &w->e->pos, "cannot take address of "
				    "tracepoint variable '%s'", w->e->name), SEM_UNKNOWN;
		if (w->bits)
			return fail(w, &w->e->pos, "cannot take address of bit-field"),
			       SEM_UNKNOWN;
		if (w->T)
			*out = xasprintf("(long long)%s", w->c);
		return SEM_LONG;
	}
	return finish(w, out);
}

enum sem_type targetvar_type(const struct btf *btf, uint32_t base_type,
			     const struct expr *e, bool write,
			     struct family_error *err)
{
	struct tv_walk w = { .btf = btf, .e = e, .err = err, .type = base_type };

	if (write) {
		fail(&w, &e->pos, "write to tracepoint variable '%s' not permitted", e->name);
		return SEM_UNKNOWN;
	}
	return walk(&w, NULL);
}

char *targetvar_c(struct tr *T, const struct btf *btf, uint32_t base_type,
		  const char *base_c, const struct expr *e)
{
	char *what = xasprintf("identifier '%s'", e->name);
	struct tv_walk w = {
		.btf = btf, .T = T, .e = e, .type = base_type,
		.c = xstrdup(base_c), .where = tr_where_at(what, &e->pos),
	};
	char *out = NULL;

	free(what);
	if (walk(&w, &out) == SEM_UNKNOWN || !out) {
		free(out);
		out = xstrdup("0LL");
	}
	free(w.c);
	free((char *)w.where);
	return out;
}
