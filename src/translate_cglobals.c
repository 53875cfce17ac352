/*
 * Pass 3: script globals in embedded C.  Code that names a global in a
 * pragma:read:NAME (pragma:write:NAME) comment reads (writes) it as
 * SystemTap's embedded C does, through macros defined around the code:
 *
 *   STAP_GLOBAL_GET_NAME()             a scalar's value (a string's text)
 *   STAP_GLOBAL_SET_NAME(v)            a scalar set to v
 *   STAP_GLOBAL_GET_NAME(k1, ..., kN)  an array element's value
 *   STAP_GLOBAL_SET_NAME(k1, ..., kN, v)
 *
 * Pass 2 resolved the names (sem_ref.c_reads/c_writes on the code's node)
 * and counted the uses, so the probe holds the globals' locks.  A missing
 * element reads as 0 or ""; a string element is read into a frame buffer
 * of the code's own, which the next read of that array reuses.  A setter
 * is a statement: it yields no value (SystemTap's neither), and a full
 * array raises the run-time error the script's own write would.
 */
#include "translate_int.h"

#include <stdlib.h>

#include "util.h"

/* "k1, k2" and the union tap_idx[] of those keys for v's key types. */
static void key_texts(const struct vardecl *v, struct strbuf *params, struct strbuf *keys)
{
	strbuf_adds(keys, "(const union tap_idx[]){ ");
	for (int i = 0; i < v->arity; i++) {
		strbuf_addf(params, "%sk%d_", i ? ", " : "", i + 1);
		strbuf_addf(keys, "{ .%c = (k%d_) }, ", v->index_types[i] == SEM_STRING ? 's' : 'l',
			    i + 1);
	}
	strbuf_adds(keys, "}");
}

static void define_get(struct tr *T, const struct vardecl *v)
{
	struct strbuf params = STRBUF_INIT, keys = STRBUF_INIT;
	char *map, *buf;

	if (v->arity <= 0) {
		char *var = tr_var(T, v);

		tr_line(T, "#define STAP_GLOBAL_GET_%s() (%s)", v->name, var);
		free(var);
		return;
	}
	key_texts(v, &params, &keys);
	map = tr_map(T, v);
	if (v->type == SEM_STRING) {
		buf = tr_stmp(T);
		tr_line(T, "#define STAP_GLOBAL_GET_%s(%s) ({ tap_map_get_str(%s, %s, %s); "
			"(const char *)%s; })", v->name, params.buf, map, keys.buf, buf, buf);
		free(buf);
	} else {
		tr_line(T, "#define STAP_GLOBAL_GET_%s(%s) tap_map_get_long(%s, %s)", v->name,
			params.buf, map, keys.buf);
	}
	free(map);
	strbuf_free(&params);
	strbuf_free(&keys);
}

static void define_set(struct tr *T, const struct vardecl *v)
{
	struct strbuf params = STRBUF_INIT, keys = STRBUF_INIT;
	char *map, *var;

	if (v->arity <= 0) {
		var = tr_var(T, v);
		if (v->type == SEM_STRING)
			tr_line(T, "#define STAP_GLOBAL_SET_%s(v_) tap_strlcpy(%s, (v_), "
				"MAXSTRINGLEN)", v->name, var);
		else
			tr_line(T, "#define STAP_GLOBAL_SET_%s(v_) ((void)(%s = (v_)))", v->name,
				var);
		free(var);
		return;
	}
	key_texts(v, &params, &keys);
	map = tr_map(T, v);
	tr_line(T, "#define STAP_GLOBAL_SET_%s(%s, v_) ((void)tap_map_set_%s(c, %s, %s, (v_)))",
		v->name, params.buf, v->type == SEM_STRING ? "str" : "long", map, keys.buf);
	free(map);
	strbuf_free(&params);
	strbuf_free(&keys);
}

void tr_cglobals_begin(struct tr *T, const void *node)
{
	const struct sem_ref *r = program_ref(T->p, node);

	for (size_t i = 0; r && i < r->c_reads.n; i++)
		define_get(T, r->c_reads.v[i]);
	for (size_t i = 0; r && i < r->c_writes.n; i++)
		define_set(T, r->c_writes.v[i]);
}

void tr_cglobals_end(struct tr *T, const void *node)
{
	const struct sem_ref *r = program_ref(T->p, node);

	for (size_t i = 0; r && i < r->c_reads.n; i++)
		tr_line(T, "#undef STAP_GLOBAL_GET_%s", ((const struct vardecl *)r->c_reads.v[i])->name);
	for (size_t i = 0; r && i < r->c_writes.n; i++)
		tr_line(T, "#undef STAP_GLOBAL_SET_%s",
			((const struct vardecl *)r->c_writes.v[i])->name);
}
