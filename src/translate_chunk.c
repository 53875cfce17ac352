/* Pass 3: long statement lists become several C functions.
 *
 * Every statement leaves by a conditional goto (MAXACTION, errors), and
 * gcc's optimisers are superlinear in the number of such exits in one
 * function: 10,000 statements in one probe took minutes at -O2.  So once
 * a block's code passes TR_CHUNK_BYTES, the rest of its statements go
 * into "chunks": functions of the same frame (c and l) of about that
 * size each, which the body calls in turn.
 *
 * The arguments of a call or print with much code to evaluate them are
 * split the same way; their values are in the frame, which the chunks
 * share.
 *
 * A statement inside a chunk leaves the chunk the way it would have
 * left the block, and the chunk says which way by its return value; the
 * caller then takes the same exit:
 *
 *   0  on to the next statement        3  break
 *   1  error: to the error label       4  continue
 *   2  return: to "out"                5  next: next_ = 1, to "out"
 */
#include <stdlib.h>
#include <string.h>

#include "translate_int.h"

enum chunk_exit {
	CHUNK_ON, CHUNK_ERROR, CHUNK_RETURN, CHUNK_BREAK, CHUNK_CONTINUE, CHUNK_NEXT,
};

/* The call of a chunk and the exits it may ask for. */
static void call_chunk(struct tr *T, const char *name)
{
	tr_line(T, "switch (%s(c, l)) {", name);
	tr_line(T, "case %d:", CHUNK_ERROR);
	tr_line(T, "\tgoto %s;", T->err_label);
	tr_line(T, "case %d:", CHUNK_RETURN);
	tr_line(T, "\tgoto out;");
	if (T->brk_label) {
		tr_line(T, "case %d:", CHUNK_BREAK);
		tr_line(T, "\tgoto %s;", T->brk_label);
	}
	if (T->cont_label) {
		tr_line(T, "case %d:", CHUNK_CONTINUE);
		tr_line(T, "\tgoto %s;", T->cont_label);
	}
	if (T->fn) {
		tr_line(T, "case %d:", CHUNK_NEXT);
		tr_line(T, "\tnext_ = 1;");
		tr_line(T, "\tgoto out;");
	}
	tr_line(T, "}");
}

/* The labels that end a chunk: each returns the exit it stands for. */
static void end_chunk(struct tr *T)
{
	tr_line(T, "return %d;", CHUNK_ON);
	T->indent = 0;
	tr_line(T, "out: __attribute__((unused));");
	if (T->fn)
		tr_line(T, "\treturn next_ ? %d : %d;", CHUNK_NEXT, CHUNK_RETURN);
	else
		tr_line(T, "\treturn %d;", CHUNK_RETURN);
	tr_line(T, "%s: __attribute__((unused));", T->err_label);
	tr_line(T, "\treturn %d;", CHUNK_ERROR);
	if (T->brk_label) {
		tr_line(T, "%s: __attribute__((unused));", T->brk_label);
		tr_line(T, "\treturn %d;", CHUNK_BREAK);
	}
	if (T->cont_label) {
		tr_line(T, "%s: __attribute__((unused));", T->cont_label);
		tr_line(T, "\treturn %d;", CHUNK_CONTINUE);
	}
}

bool tr_chunk_due(const struct tr *T, size_t start)
{
	return T->body.len - start >= TR_CHUNK_BYTES;
}

void tr_chunk_open(struct tr *T, struct tr_chunk *k)
{
	k->body = T->body;
	k->indent = T->indent;
	k->err_label = T->err_label;
	k->brk_label = T->brk_label;
	k->cont_label = T->cont_label;
	memset(&T->body, 0, sizeof(T->body));
	T->indent = 1;
	T->err_label = "chunk_error";
	T->brk_label = k->brk_label ? "chunk_break" : NULL;
	T->cont_label = k->cont_label ? "chunk_continue" : NULL;
	if (T->fn) {
		tr_line(T, "int next_ = 0;");
		tr_line(T, "%s", "");
	}
	tr_line(T, "(void)l;");
}

void tr_chunk_close(struct tr *T, struct tr_chunk *k)
{
	char *name = xasprintf("%s_part%d", T->cfunc, ++T->nchunks);

	end_chunk(T);
	strbuf_addf(&T->chunks, "static int __attribute__((__noinline__)) %s(struct tap_context *c, "
		    "struct %s_frame *l)\n{\n%s}\n\n", name, T->cfunc, T->body.buf);
	strbuf_free(&T->body);
	T->body = k->body;
	T->indent = k->indent;
	T->err_label = k->err_label;
	T->brk_label = k->brk_label;
	T->cont_label = k->cont_label;
	call_chunk(T, name);
	free(name);
}

void tr_block(struct tr *T, const struct vec *stmts)
{
	size_t start = T->body.len, i = 0;

	while (i < stmts->n && !tr_chunk_due(T, start))
		tr_stmt(T, stmts->v[i++]);
	while (i < stmts->n) {
		struct tr_chunk k;

		tr_chunk_open(T, &k);
		do
			tr_stmt(T, stmts->v[i++]);
		while (i < stmts->n && !tr_chunk_due(T, 0));
		tr_chunk_close(T, &k);
	}
}
