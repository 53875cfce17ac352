/* Target variables resolved into access paths (see tvar_resolve.h). */
#include "tvar_resolve.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"
#include "util.h"

/* Where a walk over $x->a[i]->b stands: the value is either a raw value
 * (the base, or a pointer just read) or lives in kernel memory at an
 * address. */
struct walk {
	const struct ctypes *ct;
	const struct expr *e;
	const char *family;
	struct family_error *err;
	ctype_id type;			/* of the value, typedefs kept */
	bool in_mem;			/* at an address, else a raw value */
	uint32_t bitpos, bits;		/* a bit field at the address */
	/* At @cast's object, before any step: the address is a pointer to
	 * the type, so "[i]" steps over whole objects from it. */
	bool cast_root;
	struct tvar_step *steps;	/* owned: the way here */
	size_t nsteps;
	const struct srcpos *at;	/* the last component taken, if any */
};

/* Whether the walk read a pointer on its way: it stands in memory the
 * kernel has, not in a copy of a variable's pieces. */
static bool walk_loaded(const struct walk *w)
{
	for (size_t i = 0; i < w->nsteps; i++)
		if (w->steps[i].kind == TVAR_LOAD ||
		    (w->steps[i].kind == TVAR_INDEX && w->steps[i].load_first))
			return true;
	return false;
}

/* s with a space after the first character of each "what" in it. */
static char *spaced_after(char *s, const char *what)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = s, *q;

	if (!strstr(s, what))
		return s;
	while ((q = strstr(p, what))) {
		strbuf_addf(&sb, "%.*s%c ", (int)(q - p), p, *q);
		p = q + 1;
	}
	strbuf_adds(&sb, p);
	free(s);
	return strbuf_detach(&sb);
}

char *tvar_type_name(const struct ctypes *ct, ctype_id id)
{
	char buf[512];
	char *s, *p;

	if (ctype_type_str(ct, id, buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "?");
	s = xstrdup(buf);
	while ((p = strstr(s, " *")))
		memmove(p, p + 1, strlen(p));
	/* and as SystemTap spaces a qualified pointer and a function
	 * pointer's parameters: "char const* const", "int (*) (int)" */
	s = spaced_after(s, "*const");
	s = spaced_after(s, "*volatile");
	s = spaced_after(s, ")(");
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
static bool fail(struct walk *w, const struct srcpos *pos, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!w->err->msg) {
		va_start(ap, fmt);
		strbuf_vaddf(&sb, fmt, ap);
		va_end(ap);
		w->err->pos = *pos;
		w->err->msg = strbuf_detach(&sb);
		w->err->what = near_what(w->e, pos);
	}
	return false;
}

static void step(struct walk *w, enum tvar_step_kind kind, uint64_t bytes,
		 const struct expr *index, bool load_first)
{
	struct tvar_step s = { .kind = kind, .bytes = bytes, .index = index,
			       .load_first = load_first };

	tvar_push_step(&w->steps, &w->nsteps, s);
}

/* Read the pointer at the current address: the walk then holds it as a
 * raw value. */
static void load_pointer(struct walk *w)
{
	if (!w->in_mem)
		return;
	w->in_mem = false;
	step(w, TVAR_LOAD, 0, NULL, false);
}

/* The walk holds a pointer's value: go to the memory it points to. */
static void pointer_to_memory(struct walk *w)
{
	w->in_mem = true;
	step(w, TVAR_ADD, 0, NULL, false);
}

/* Member names of struct/union id, anonymous members' own and (C++) its
 * base classes' included, as SystemTap lists them: " a b c". */
static void member_names(const struct ctypes *ct, ctype_id id, struct vec *out, int depth)
{
	uint32_t n = ctype_member_count(ct, id);
	struct ctype_member base;

	if (depth > CTYPE_MAX_DEPTH)
		return;
	for (uint32_t i = 0; i < n; i++) {
		struct ctype_member m;

		if (ctype_member_at(ct, id, i, &m) != 0)
			continue;
		if (*m.name) {
			vec_push(out, (void *)m.name);
		} else {
			ctype_id sub = ctype_resolve(ct, m.type);
			enum ctype_kind k = ctype_kind(ct, sub);

			if (k == CTYPE_STRUCT || k == CTYPE_UNION)
				member_names(ct, sub, out, depth + 1);
		}
	}
	for (uint32_t i = 0; ctype_base_at(ct, id, i, &base) == 0; i++)
		member_names(ct, ctype_resolve(ct, base.type), out, depth + 1);
}

/* The member SystemTap suggests for a struct used whole: the least of its
 * names (anonymous members' own included) in byte order; NULL if none. */
static const char *first_member_name(const struct ctypes *ct, ctype_id id)
{
	struct vec names = { 0 };
	const char *first = NULL;

	member_names(ct, id, &names, 0);
	for (size_t i = 0; i < names.n; i++)
		if (!first || strcmp(names.v[i], first) < 0)
			first = names.v[i];
	vec_free(&names);
	return first;
}

/* The members of id (those of anonymous members among them), nearest to
 * the name asked for first, as SystemTap lists them: "a, b, c". */
static void member_alternatives(const struct ctypes *ct, ctype_id id, const char *asked,
				struct strbuf *sb)
{
	struct vec names = { 0 };

	member_names(ct, id, &names, 0);
	sem_sort_nearest(asked, (const char **)names.v, names.n);
	for (size_t i = 0; i < names.n; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", (const char *)names.v[i]);
	vec_free(&names);
}

static bool is_aggregate(enum ctype_kind k)
{
	return k == CTYPE_STRUCT || k == CTYPE_UNION;
}

/* "->name" */
static bool step_member(struct walk *w, const struct tcomp *tc)
{
	const struct ctypes *ct = w->ct;
	ctype_id r = ctype_resolve(ct, w->type);
	enum ctype_kind k = ctype_kind(ct, r);
	struct ctype_member m;
	char *tn;

	if (k == CTYPE_PTR) {
		ctype_id to = ctype_resolve(ct, ctype_pointee(ct, r));

		/* SystemTap's messages name the type with its typedefs
		 * resolved, a pointer's by what it points to */
		if (!is_aggregate(ctype_kind(ct, to))) {
			tn = tvar_type_name(ct, to);
			fail(w, &tc->pos, "invalid access '->%s' vs. %s", tc->name, tn);
			free(tn);
			return false;
		}
		load_pointer(w);
		pointer_to_memory(w);
		r = to;
	} else if (k == CTYPE_ARRAY) {
		return fail(w, &tc->pos, "invalid access '->%s' for array type", tc->name);
	} else if (!is_aggregate(k) || !w->in_mem) {
		tn = tvar_type_name(ct, r);
		fail(w, &tc->pos, "invalid access '->%s' vs. %s", tc->name, tn);
		free(tn);
		return false;
	}
	if (ctype_member_find(ct, r, tc->name, &m) != 0) {
		struct strbuf alt = STRBUF_INIT;

		tn = tvar_type_name(ct, r);
		member_alternatives(ct, r, tc->name, &alt);
		fail(w, &tc->pos, "unable to find member '%s' for %s%s%s%s", tc->name, tn,
		     alt.len ? " (alternatives: " : "", alt.len ? alt.buf : "",
		     alt.len ? ")" : "");
		strbuf_free(&alt);
		free(tn);
		return false;
	}
	step(w, TVAR_ADD, m.bit_offset / 8, NULL, false);
	w->bits = m.bitfield_size;
	w->bitpos = m.bitfield_size ? (uint32_t)(m.bit_offset % 8) : 0;
	w->type = m.type;
	return true;
}

bool tvar_ctx_whole(const struct expr *e, const char *family, bool pretty_ok,
		    struct family_error *err)
{
	const struct tcomp *first = e->comps.n ? e->comps.v[0] : NULL;

	if (e->addressof) {
		err->pos = e->pos;
		err->msg = xstrdup("cannot take address of context variable");
		return false;
	}
	if (!first || (first->kind == TC_PPRINT && pretty_ok))
		return true;
	if (first->kind == TC_PPRINT) {
		err->pos = e->pos;
		err->msg = xasprintf("%s variable '%s' may not be pretty-printed", family, e->name);
		return false;
	}
	err->pos = first->pos;
	err->msg = xasprintf("%s variable '%s' may not be used as %s", family, e->name,
			     first->kind == TC_INDEX ? "array" : "a structure");
	err->what = xstrdup(first->kind == TC_INDEX ? "operator '['" : "operator '->'");
	return false;
}

/* An index as SystemTap's messages show it: "[5]" for a literal, else
 * "[...]". */
static const char *index_text(const struct tcomp *tc, char *buf, size_t size)
{
	if (tc->index && tc->index->kind == E_NUM && tc->index->num >= 0) {
		snprintf(buf, size, "[%" PRId64 "]", tc->index->num);
		return buf;
	}
	return "[...]";
}

/* "[index]" on a pointer or an array */
static bool step_index(struct walk *w, const struct tcomp *tc)
{
	char itext[32];
	const struct ctypes *ct = w->ct;
	ctype_id r = ctype_resolve(ct, w->type), elem;
	enum ctype_kind k = ctype_kind(ct, r);
	int64_t size;
	char *tn;

	if (w->cast_root) {
		elem = w->type;
	} else if (k == CTYPE_PTR) {
		elem = ctype_pointee(ct, r);
	} else if (k == CTYPE_ARRAY && w->in_mem) {
		uint64_t count;

		if (ctype_array_info(ct, r, &elem, &count) != 0)
			elem = 0;
	} else {
		/* as SystemTap's: the type with its typedefs resolved; an
		 * aggregate's error is the target variable's */
		tn = tvar_type_name(ct, r);
		if (is_aggregate(k))
			fail(w, &w->e->pos, "invalid access '%s' for %s",
			     index_text(tc, itext, sizeof(itext)), tn);
		else
			fail(w, &tc->pos, "invalid access '%s' vs. %s",
			     index_text(tc, itext, sizeof(itext)), tn);
		free(tn);
		return false;
	}
	size = ctype_size(ct, elem);
	if (size <= 0) {
		tn = tvar_type_name(ct, w->type);
		fail(w, &tc->pos, "invalid access '%s' vs '%s'",
		     index_text(tc, itext, sizeof(itext)), tn);
		free(tn);
		return false;
	}
	/* on a pointer: the index, then the pointer (read from memory when
	 * the walk stands at it), plus the index times the element's size */
	step(w, TVAR_INDEX, (uint64_t)size, tc->index,
	     k == CTYPE_PTR && w->in_mem && !w->cast_root);
	w->in_mem = true;
	w->bits = w->bitpos = 0;
	w->type = elem;
	return true;
}

/* Size and sign of an integer-like type (int, enum, bool); false if
 * the type is not one. */
static bool int_shape(const struct ctypes *ct, ctype_id id, int *size, bool *is_signed)
{
	ctype_id r = ctype_resolve(ct, id);
	enum ctype_kind k = ctype_kind(ct, r);
	struct ctype_int ii;
	int64_t sz = ctype_size(ct, r);

	if (sz <= 0 || sz > 8)
		return false;
	*size = (int)sz;
	if (k == CTYPE_INT) {
		if (ctype_int_info(ct, r, &ii) != 0)
			return false;
		*is_signed = ii.is_signed;
		return true;
	}
	if (k == CTYPE_ENUM) {
		/* negative enumerators make an enum signed */
		const char *name;
		int64_t v;

		*is_signed = false;
		for (uint32_t i = 0; ctype_enum_at(ct, r, i, &name, &v) == 0; i++)
			if (v < 0)
				*is_signed = true;
		return true;
	}
	return false;
}

/* A raw value of type: cast to its width and sign when it has a C
 * integer type of its size (size 0: as is). */
static void value_leaf(const struct ctypes *ct, ctype_id type, struct tvar *tv)
{
	int size = 8;
	bool sgn = false;

	tv->leaf = TVAR_VALUE;
	tv->type = SEM_LONG;
	if (!int_shape(ct, type, &size, &sgn) || (size != 1 && size != 2 && size != 4 &&
						  size != 8))
		size = 0;
	tv->size = size;
	tv->is_signed = sgn;
}

bool tvar_is_pointer(const struct ctypes *ct, ctype_id type)
{
	return ctype_kind(ct, ctype_resolve(ct, type)) == CTYPE_PTR;
}

bool tvar_fits_register(const struct ctypes *ct, ctype_id type)
{
	int size;
	bool sgn;

	return tvar_is_pointer(ct, type) || int_shape(ct, type, &size, &sgn);
}

struct tvar *tvar_value(const struct ctypes *ct, ctype_id type, enum tvar_base base,
			unsigned slot, const char *name, const struct srcpos *pos)
{
	struct tvar *tv = tvar_new(base, slot, name, pos);

	value_leaf(ct, ctype_resolve(ct, type), tv);
	return tv;
}

/* The walk's steps from index first on become tv's. */
static void take_steps(struct walk *w, size_t first, struct tvar *tv)
{
	for (size_t i = first; i < w->nsteps; i++)
		tvar_push_step(&tv->steps, &tv->nsteps, w->steps[i]);
}

/* The value's C type, for autocast (tvar.h). */
static void keep_ctype(const struct walk *w, struct tvar *tv, bool object)
{
	tv->ctype.ct = *w->ct;
	tv->ctype.type = w->type;
	tv->ctype.object = object;
}

int tvar_float_size(const struct ctypes *ct, ctype_id r)
{
	static const char *const names[] = { "float", "double", "_Float32", "_Float64" };
	const char *n = ctype_name(ct, r);
	int64_t size = ctype_size(ct, r);

	if (ctype_kind(ct, r) != CTYPE_OTHER || !n || (size != 4 && size != 8))
		return 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(n, names[i]))
			return (int)size;
	return 0;
}

/* A floating-point value: its bits, a float's widened to a double's. */
static void float_leaf(struct walk *w, struct tvar *tv, int size)
{
	tv->leaf = w->in_mem ? TVAR_READ : TVAR_VALUE;
	tv->size = size;
	tv->type = SEM_LONG;
	tv->is_signed = false;
	tv->fp32 = size == 4;
	keep_ctype(w, tv, false);
}

/* The value at the end of the walk, into tv's leaf. */
static bool finish(struct walk *w, struct tvar *tv)
{
	const struct ctypes *ct = w->ct;
	ctype_id r = ctype_resolve(ct, w->type);
	enum ctype_kind k = ctype_kind(ct, r);
	int size;
	bool sgn;
	char *tn;

	if (k == CTYPE_PTR || int_shape(ct, r, &size, &sgn)) {
		if (k == CTYPE_PTR) {
			size = 8;
			sgn = false;
		}
		if (!w->in_mem) {
			value_leaf(ct, r, tv);
		} else {
			tv->leaf = TVAR_READ;
			tv->type = SEM_LONG;
			tv->size = size;
			tv->is_signed = sgn;
			tv->bitpos = w->bitpos;
			tv->bits = w->bits;
		}
		keep_ctype(w, tv, false);
		return true;
	}
	if (k == CTYPE_ARRAY && w->in_mem) {
		/* every array, char arrays included, is its address: SystemTap
		 * reads a task's name as kernel_string($p->comm) */
		tv->leaf = TVAR_ADDRESS;
		tv->type = SEM_LONG;
		keep_ctype(w, tv, true);
		return true;
	}
	if (is_aggregate(k)) {
		/* as SystemTap's: at the last component, the type with its
		 * typedefs resolved, where it is declared, and a member to
		 * take instead */
		const char *such = first_member_name(ct, r);
		char decl[256];
		int n = ctype_decl(ct, r, decl, sizeof(decl));

		tn = tvar_type_name(ct, r);
		fail(w, w->at ? w->at : &w->e->pos,
		     "'%s'%s%s%s is being accessed instead of a member%s%s%s", tn,
		     n > 0 ? " (" : "", n > 0 ? decl : "", n > 0 ? ")" : "",
		     such ? " such as '->" : "", such ? such : "", such ? "'" : "");
		free(tn);
		return false;
	}
	if (tvar_float_size(ct, r) && !w->bits) {
		float_leaf(w, tv, tvar_float_size(ct, r));
		return true;
	}
	tn = tvar_type_name(ct, w->type);
	fail(w, &w->e->pos, "unsupported type %s", tn);
	free(tn);
	return false;
}

/* ---- pretty-printing: $x$ and $x$$ --------------------------------------
 *
 * As SystemTap does: one sprintf whose format follows the type ("{.a=%i,
 * .b=%p, .c={...}}"), at most 32 values, each read fault-safely; any
 * fault makes the whole string "ERROR".  Integers print as %i or %u,
 * chars as '%#c', pointers as %p, char arrays and char pointers as the
 * string there, quoted and escaped (tap_deref_cstring: in a kernel probe
 * the kernel's or else the task's memory, as SystemTap 4.8's
 * kernel_or_user_string_quoted(); neither is a fault); the top level
 * follows a pointer; nested structs and arrays print as {...} and [...]
 * unless the suffix is $$; arrays show their first element only.
 */
#define PP_MAX_ARGS 32

struct pp {
	bool full;			/* $$ */
	struct strbuf fmt;
	struct tvar *tv;		/* the TVAR_PRETTY being built */
	const struct walk *root;	/* where the arguments start from */
};

/* A new argument at walk w: its steps are those w took from the root. */
static struct tvar *pp_new_arg(struct pp *pp, struct walk *w, const char *fmt)
{
	struct tvar *arg = tvar_new(TVAR_BASE_PARENT, 0, pp->tv->name, &pp->tv->pos);

	strbuf_adds(&pp->fmt, fmt);
	if (w != pp->root)
		take_steps(w, pp->root->nsteps, arg);
	tvar_add_arg(pp->tv, arg);
	return arg;
}

static struct walk pp_clone(const struct walk *w)
{
	struct walk c = *w;

	c.steps = NULL;
	c.nsteps = 0;
	for (size_t i = 0; i < w->nsteps; i++)
		tvar_push_step(&c.steps, &c.nsteps, w->steps[i]);
	return c;
}

/* "char" and "unsigned char" (SystemTap prints arrays of and pointers to
 * them as strings). */
static bool pp_is_chars(const struct ctypes *ct, ctype_id id)
{
	ctype_id r = ctype_resolve(ct, id);
	const char *n = ctype_name(ct, r);

	return ctype_kind(ct, r) == CTYPE_INT &&
	       (!strcmp(n, "char") || !strcmp(n, "unsigned char"));
}

/* An integer, enum, bool, bit field or pointer value at the walk's end. */
static void pp_number(struct pp *pp, struct walk *w, const char *fmt)
{
	finish(w, pp_new_arg(pp, w, fmt));
}

/* The string a char pointer at the walk's end points to. */
static void pp_string_at_pointer(struct pp *pp, struct walk *w)
{
	struct tvar *arg = pp_new_arg(pp, w, "%s");

	finish(w, arg);
	arg->cstring = true;
	arg->type = SEM_STRING;
}

/* The string in the char array the walk stands at. */
static void pp_string_at_address(struct pp *pp, struct walk *w)
{
	struct tvar *arg = pp_new_arg(pp, w, "%s");

	arg->leaf = TVAR_RAW;
	arg->cstring = true;
	arg->type = SEM_STRING;
}

static void pp_recurse(struct pp *pp, struct walk *w, bool top);

/* One member of a class that starts byte_offset into the struct at w. */
static void pp_member(struct pp *pp, struct walk *w, const struct ctype_member *m,
		      uint64_t byte_offset)
{
	const struct ctypes *ct = w->ct;
	struct walk child;

	if (*m->name)
		strbuf_addf(&pp->fmt, ".%s", m->name);
	else if (ctype_kind(ct, ctype_resolve(ct, m->type)) == CTYPE_UNION)
		strbuf_adds(&pp->fmt, "<union>");
	else
		strbuf_adds(&pp->fmt, "<class>");	/* sic, as SystemTap */
	strbuf_addc(&pp->fmt, '=');
	child = pp_clone(w);
	step(&child, TVAR_ADD, (int64_t)(byte_offset + m->bit_offset / 8), NULL, false);
	child.type = m->type;
	child.bits = m->bitfield_size;
	child.bitpos = m->bitfield_size ? (uint32_t)(m->bit_offset % 8) : 0;
	if (child.bits) {
		int size;
		bool sgn;

		if (int_shape(ct, m->type, &size, &sgn))
			pp_number(pp, &child, sgn ? "%i" : "%u");
		else
			strbuf_addc(&pp->fmt, '?');
	} else {
		pp_recurse(pp, &child, false);
	}
	free(child.steps);
}

/* Whether a nearer class has printed NAME already (C++ masks it). */
static bool pp_masked(struct vec *printed, const char *name)
{
	for (size_t i = 0; i < printed->n; i++)
		if (!strcmp(printed->v[i], name))
			return true;
	vec_push(printed, (void *)name);
	return false;
}

/* A class pp_members has still to print, and where it starts. */
struct pp_class {
	ctype_id id;
	uint64_t byte_offset;
};

/* Bounds the classes one struct's printing visits: DWARF that is broken
 * could make inheritance a cycle. */
#define PP_MAX_CLASSES 256

/* The members of struct id at w: its own, then (C++) its base classes',
 * breadth first, as SystemTap prints them.  A name a nearer class has
 * printed masks a base's; the "_vptr." virtual tables are left out. */
static void pp_members(struct pp *pp, struct walk *w, ctype_id id, int *count)
{
	const struct ctypes *ct = w->ct;
	struct pp_class *queue = xmalloc(PP_MAX_CLASSES * sizeof *queue);
	struct vec printed = { 0 };
	size_t nqueued = 1;

	queue[0] = (struct pp_class){ id, 0 };
	for (size_t q = 0; q < nqueued; q++) {
		ctype_id cid = queue[q].id;
		struct ctype_member m;

		for (uint32_t i = 0; ctype_base_at(ct, cid, i, &m) == 0; i++)
			if (nqueued < PP_MAX_CLASSES)
				queue[nqueued++] = (struct pp_class){
					ctype_resolve(ct, m.type), queue[q].byte_offset + m.bit_offset / 8 };
		for (uint32_t i = 0, n = ctype_member_count(ct, cid); i < n; i++) {
			if (ctype_member_at(ct, cid, i, &m) != 0)
				continue;
			if (!strncmp(m.name, "_vptr.", 6) || (*m.name && pp_masked(&printed, m.name)))
				continue;
			if (++*count > 1)
				strbuf_adds(&pp->fmt, ", ");
			if (pp->tv->nargs >= PP_MAX_ARGS) {
				strbuf_adds(&pp->fmt, "...");
				break;
			}
			pp_member(pp, w, &m, queue[q].byte_offset);
		}
	}
	vec_free(&printed);
	free(queue);
}

static bool pp_is_char_int(const struct ctypes *ct, ctype_id r)
{
	struct ctype_int ii;
	const char *n = ctype_name(ct, r);

	return ctype_int_info(ct, r, &ii) == 0 && ii.bits == 8 &&
	       (!strcmp(n, "char") || !strcmp(n, "signed char") || !strcmp(n, "unsigned char"));
}

static void pp_recurse(struct pp *pp, struct walk *w, bool top)
{
	const struct ctypes *ct = w->ct;
	ctype_id r = ctype_resolve(ct, w->type);
	enum ctype_kind k = ctype_kind(ct, r);
	struct ctype_int ii = { 0 };
	int size;
	bool sgn;

	if (k == CTYPE_PTR) {
		ctype_id to = ctype_pointee(ct, r);

		if (ctype_resolve(ct, to) && pp_is_chars(ct, to)) {
			pp_string_at_pointer(pp, w);
		} else if (ctype_resolve(ct, to) && top) {
			load_pointer(w);
			pointer_to_memory(w);
			w->type = to;
			w->bits = w->bitpos = 0;
			pp_recurse(pp, w, true);
		} else {
			pp_number(pp, w, "%p");
		}
	} else if (k == CTYPE_FUNC) {
		pp_new_arg(pp, w, "<function>:%p")->leaf = TVAR_ADDRESS;
	} else if (is_aggregate(k)) {
		int count = 0;

		strbuf_addc(&pp->fmt, '{');
		if ((top || pp->full) && w->in_mem)
			pp_members(pp, w, r, &count);
		else
			strbuf_adds(&pp->fmt, "...");
		strbuf_addc(&pp->fmt, '}');
	} else if (k == CTYPE_ARRAY && w->in_mem) {
		ctype_id elem = 0;
		uint64_t count;

		if (!top && !pp->full) {
			strbuf_adds(&pp->fmt, "[...]");
			return;
		}
		ctype_array_info(ct, r, &elem, &count);
		if (pp_is_chars(ct, elem)) {
			pp_string_at_address(pp, w);
			return;
		}
		strbuf_addc(&pp->fmt, '[');
		w->type = elem;	/* the first element only, as SystemTap */
		pp_recurse(pp, w, false);
		strbuf_adds(&pp->fmt, ", ...]");
	} else if (k == CTYPE_INT && pp_is_char_int(ct, r)) {
		pp_number(pp, w, "'%#c'");
	} else if (int_shape(ct, r, &size, &sgn)) {
		bool plain_unsigned = k == CTYPE_INT && ctype_int_info(ct, r, &ii) == 0 &&
				      !ii.is_signed && !ii.is_bool;

		pp_number(pp, w, plain_unsigned ? "%u" : "%i");
	} else {
		strbuf_addc(&pp->fmt, '?');
	}
}

/* The walk stands at the value to pretty-print; tc is the "$"/"$$".  The
 * steps so far become tv's; those the printing takes at the top level
 * (following pointers) its pretty_steps. */
static bool pretty_print(struct walk *w, const struct tcomp *tc, struct tvar *tv)
{
	struct pp pp = { .full = strlen(tc->name) > 1, .fmt = STRBUF_INIT, .tv = tv,
			 .root = w };

	if (w->e->addressof)
		return fail(w, &w->e->pos, "cannot take address of pretty-printed variable");
	take_steps(w, 0, tv);
	free(w->steps);
	w->steps = NULL;
	w->nsteps = 0;
	tv->leaf = TVAR_PRETTY;
	tv->type = SEM_STRING;
	pp_recurse(&pp, w, true);
	tv->pretty_steps = w->steps;
	tv->pretty_nsteps = w->nsteps;
	w->steps = NULL;
	w->nsteps = 0;
	tv->text = strbuf_detach(&pp.fmt);
	if (!tv->text)
		tv->text = xstrdup("");
	return true;
}

static bool walk(struct walk *w, struct tvar *tv)
{
	for (size_t i = 0; i < w->e->comps.n; i++) {
		const struct tcomp *tc = w->e->comps.v[i];
		bool ok;

		w->at = &tc->pos;
		switch (tc->kind) {
		case TC_FIELD:
			ok = step_member(w, tc);
			break;
		case TC_INDEX:
			ok = step_index(w, tc);
			break;
		default:
			/* the parser lets "$"/"$$" only end a chain */
			return pretty_print(w, tc, tv);
		}
		if (!ok)
			return false;
		w->cast_root = false;
	}
	if (w->e->addressof) {
		/* &$p->field: the member's address (not of a copy of the
		 * pieces) */
		if (!w->in_mem && tv->base == TVAR_BASE_REG)
			return fail(w, &w->e->pos, "cannot take address of object in register");
		if (!w->in_mem || (tv->base == TVAR_BASE_PIECES && !walk_loaded(w)))
			return fail(w, &w->e->pos, "cannot take address of %s variable '%s'",
				    w->family, w->e->name ? w->e->name : "");
		if (w->bits)
			return fail(w, &w->e->pos, "cannot take address of bit-field");
		take_steps(w, 0, tv);
		tv->leaf = TVAR_ADDRESS;
		tv->type = SEM_LONG;
		keep_ctype(w, tv, true);
		return true;
	}
	take_steps(w, 0, tv);
	return finish(w, tv);
}

struct tvar *tvar_resolve(const struct ctypes *ct, ctype_id base_type, enum tvar_base base,
			  unsigned slot, const struct expr *e, const char *family,
			  struct family_error *err)
{
	struct tvar_origin o = { .base = base, .slot = slot };

	return tvar_resolve_from(ct, base_type, &o, e, family, err);
}

struct tvar *tvar_resolve_from(const struct ctypes *ct, ctype_id base_type,
			       const struct tvar_origin *o, const struct expr *e,
			       const char *family, struct family_error *err)
{
	struct walk w = { .ct = ct, .e = e, .family = family, .err = err, .type = base_type,
			  .in_mem = o->in_mem };
	struct tvar *tv = tvar_new(o->base, o->slot, e->name, &e->pos);
	bool ok;

	tv->addr = o->addr;
	tv->reloc_ref = o->reloc_ref;
	tv->modsym = o->modsym ? xstrdup(o->modsym) : NULL;
	if (o->npieces) {
		tv->pieces = xmalloc(o->npieces * sizeof(*tv->pieces));
		memcpy(tv->pieces, o->pieces, o->npieces * sizeof(*tv->pieces));
		tv->npieces = o->npieces;
	}
	if (o->ndwops) {
		tv->dwops = xmalloc(o->ndwops * sizeof(*tv->dwops));
		memcpy(tv->dwops, o->dwops, o->ndwops * sizeof(*tv->dwops));
		tv->ndwops = o->ndwops;
	}
	ok = walk(&w, tv);

	free(w.steps);
	if (!ok) {
		tvar_free(tv);
		return NULL;
	}
	return tv;
}

/* e's components walked from the value of its operand: tv, or NULL
 * (tv freed) with w's error. */
static struct tvar *walk_from_expr(struct walk *w, struct tvar *tv, const struct expr *e)
{
	bool ok;

	tv->base_expr = e->a;
	ok = walk(w, tv);
	free(w->steps);
	if (!ok) {
		tvar_free(tv);
		return NULL;
	}
	return tv;
}

struct tvar *tvar_resolve_cast(const struct ctypes *ct, ctype_id type, const struct expr *e,
			       struct family_error *err)
{
	struct walk w = { .ct = ct, .e = e, .family = "@cast", .err = err, .type = type,
			  .in_mem = true, .cast_root = true };
	struct tvar *tv = tvar_new(TVAR_BASE_EXPR, 0, "@cast", &e->pos);

	return walk_from_expr(&w, tv, e);
}

struct tvar *tvar_resolve_autocast(const struct tvar_ctype *base, const struct expr *e,
				   struct family_error *err)
{
	struct walk w = { .ct = &base->ct, .e = e, .family = "autocast", .err = err,
			  .type = base->type, .in_mem = base->object };
	const struct tcomp *first = e->comps.n ? e->comps.v[0] : NULL;
	struct tvar *tv = tvar_new(TVAR_BASE_EXPR, 0, "->", first ? &first->pos : &e->pos);

	return walk_from_expr(&w, tv, e);
}
