/* Pass 3: a .return probe's values saved at entry (@entry(EXPR)).
 *
 * Pass 2 listed the operands of a probe's @entry(...)s (dp->entry_exprs).
 * Its entry half, probe_N_entry(), evaluates each when the function is
 * entered and stores it in the bytes the runtime hands it at c->saved (a
 * kretprobe instance's data): the numbers first, eight bytes each, then
 * the strings, MAXSTRINGLEN bytes each.  The return handler reads an
 * operand from there instead of evaluating it.  Both halves use the
 * probe's one frame: they never run in the same hit.
 */
#include <stdlib.h>

#include "translate_int.h"

/* Where operand k is kept: its offset in bytes, as C. */
static char *slot_offset(const struct tr *T, const struct derived_probe *dp, size_t k)
{
	size_t longs = 0, strings = 0, nlongs = 0;

	for (size_t i = 0; i < dp->entry_exprs.n; i++)
		nlongs += tr_type(T, dp->entry_exprs.v[i]) != SEM_STRING;
	for (size_t i = 0; i < k; i++) {
		if (tr_type(T, dp->entry_exprs.v[i]) == SEM_STRING)
			strings++;
		else
			longs++;
	}
	if (tr_type(T, dp->entry_exprs.v[k]) != SEM_STRING)
		return xasprintf("%zu", 8 * longs);
	return xasprintf("%zu + %zu * MAXSTRINGLEN", 8 * nlongs, strings);
}

char *tr_entry_size(const struct tr *T, const struct derived_probe *dp)
{
	size_t nlongs = 0, nstrings = 0;

	for (size_t i = 0; i < dp->entry_exprs.n; i++) {
		if (tr_type(T, dp->entry_exprs.v[i]) == SEM_STRING)
			nstrings++;
		else
			nlongs++;
	}
	return xasprintf("%zu + %zu * MAXSTRINGLEN", 8 * nlongs, nstrings);
}

int tr_entry_slot(const struct tr *T, const struct expr *e)
{
	if (!T->dp || T->in_entry)
		return -1;
	for (size_t k = 0; k < T->dp->entry_exprs.n; k++)
		if (T->dp->entry_exprs.v[k] == e)
			return (int)k;
	return -1;
}

char *tr_entry_read(struct tr *T, int k)
{
	const struct expr *e = T->dp->entry_exprs.v[k];
	char *off = slot_offset(T, T->dp, (size_t)k);
	char *c;

	if (tr_type(T, e) == SEM_STRING)
		c = xasprintf("((const char *)c->saved + %s)", off);
	else
		c = xasprintf("(*(long long *)((char *)c->saved + %s))", off);
	free(off);
	return c;
}

char *tr_entry_half(struct tr *T, void (*init_locals)(struct tr *T))
{
	const struct derived_probe *dp = T->dp;
	struct strbuf fn = STRBUF_INIT;

	tr_line(T, "struct %s_frame *l = &((struct tap_locals *)c->locals)->probe.%s;",
		T->cfunc, T->cfunc);
	tr_line(T, "(void)l;");
	/* the entry half shares the return half's frame: clear its locals
	 * here too, but declare them once, in the return half */
	size_t frame_len = T->frame.len;
	init_locals(T);
	if (T->frame.buf) {
		T->frame.len = frame_len;
		T->frame.buf[frame_len] = '\0';
	}
	T->in_entry = true;
	for (size_t k = 0; k < dp->entry_exprs.n; k++) {
		const struct expr *e = dp->entry_exprs.v[k];
		char *val = tr_expr(T, e);
		char *off = slot_offset(T, dp, k);

		if (tr_type(T, e) == SEM_STRING)
			tr_line(T, "tap_strlcpy((char *)c->saved + %s, %s, MAXSTRINGLEN);", off,
				val);
		else
			tr_line(T, "*(long long *)((char *)c->saved + %s) = %s;", off, val);
		free(off);
		free(val);
		T->n_ltmp = T->n_stmp = 0;
	}
	T->in_entry = false;
	T->indent = 0;
	tr_line(T, "out: __attribute__((unused));");
	T->indent = 1;
	tr_line(T, "return;");
	strbuf_addf(&fn, "static void %s_entry(struct tap_context *c)\n{\n%s}\n\n", T->cfunc,
		    T->body.buf ? T->body.buf : "");
	strbuf_free(&T->body);
	return strbuf_detach(&fn);
}
