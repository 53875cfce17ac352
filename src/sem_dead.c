/* Pass 2: locals read only by dead assignments are unused too.
 *
 * A local nobody reads is elided, and an assignment of a pure value to it
 * is dropped (program_pure_expr; pass 3 emits nothing for it).  The reads
 * in such a dropped assignment are then no reads at all, so SystemTap
 * elides the locals only they read as well, again until nothing changes:
 * an alias's `argstr = sprintf("%d, %p", fd, buf_uaddr)` unused makes
 * fd and buf_uaddr unused, and a script that only counts system calls
 * keeps of the syscall aliases no more than their `name = "..."`.
 * The (pure) functions only such dropped assignments call are then not
 * called at all, and elaborate.c leaves them out of the program.
 */
#include "sem_dead.h"

#include <stdlib.h>

#include "astwalk.h"
#include "elab_int.h"
#include "lookup.h"

struct dead_walk {
	const struct program *P;
	struct ptrindex index;	/* struct vardecl * -> index in locals */
	struct namemap names;	/* a local's name -> the local */
	int *reads;		/* [local]: reads that are not dropped */
	int *dropped;		/* [local]: reads in dropped assignments */
	int sign;		/* +1 counting reads, -1 taking dropped ones off */
};

/* The local (of the body being walked) e names, or -1. */
static int local_of(const struct dead_walk *W, const struct expr *e)
{
	const struct sem_ref *r;

	if (!e || e->kind != E_SYM)
		return -1;
	r = program_ref(W->P, e);
	return r && r->var ? ptrindex_get(&W->index, r->var) : -1;
}

static void count_read(void *ctx, const struct expr *e)
{
	struct dead_walk *W = ctx;
	int k = local_of(W, e);

	if (k >= 0) {
		W->reads[k] += W->sign;
		W->dropped[k] += W->sign < 0;
	}
	/* a plain assignment's target is walked as an E_SYM but written */
	if (e->kind == E_ASSIGN && e->op == TK_ASSIGN) {
		k = local_of(W, e->a);
		if (k >= 0)
			W->reads[k] -= W->sign;
	}
}

/* The variables a statement names besides its expressions (foreach's
 * keys and value, a catch's message) stay as they are: counted as read. */
static void keep_named(struct dead_walk *W, const char *name)
{
	const struct vec *v = name ? namemap_get(&W->names, name) : NULL;
	int k = v ? ptrindex_get(&W->index, v->v[0]) : -1;

	if (k >= 0)
		W->reads[k]++;
}

/* A statement both passes drop (program_dropped_assign): its reads are
 * taken off. */
static void drop_dead(void *ctx, const struct stmt *s)
{
	struct dead_walk *W = ctx;
	const struct expr *e = s->e1;
	struct ast_visitor off = { .ctx = W, .expr = count_read };

	if (s->kind == S_FOREACH) {
		keep_named(W, s->value ? s->value->name : NULL);
		for (size_t i = 0; i < s->keys.n; i++)
			keep_named(W, ((const struct foreach_key *)s->keys.v[i])->name);
	}
	if (s->kind == S_TRY)
		keep_named(W, s->name);
	if (s->kind != S_EXPR || !program_dropped_assign(W->P, e))
		return;
	W->sign = -1;
	ast_walk_expr(e->b, &off);
	W->sign = 1;
}

void sem_elide_dead(const struct program *P, const struct stmt *body,
		    const struct vec *locals)
{
	struct dead_walk W = { .P = P, .sign = 1 };
	struct ast_visitor walk = { .ctx = &W, .expr = count_read, .stmt = drop_dead };
	bool changed = true;
	size_t nelided = 0;

	for (size_t i = 0; i < locals->n; i++)
		nelided += ((const struct vardecl *)locals->v[i])->elided;
	/* only an assignment to an elided local is ever dropped */
	if (!body || !nelided)
		return;
	W.reads = xcalloc(locals->n + 1, sizeof(int));
	W.dropped = xcalloc(locals->n + 1, sizeof(int));
	for (size_t i = 0; i < locals->n; i++) {
		struct vardecl *v = locals->v[i];

		ptrindex_set(&W.index, v, (int)i);
		namemap_add(&W.names, v->name, v);
	}
	while (changed) {
		changed = false;
		for (size_t i = 0; i < locals->n; i++)
			W.reads[i] = W.dropped[i] = 0;
		ast_walk_stmt(body, &walk);
		/* only what the walk saw read, and only in dropped code */
		for (size_t i = 0; i < locals->n; i++) {
			struct vardecl *v = locals->v[i];

			if (v->elided || W.reads[i] > 0 || !W.dropped[i])
				continue;
			v->elided = v->read_dropped = true;
			changed = true;
		}
	}
	free(W.reads);
	free(W.dropped);
	ptrindex_free(&W.index);
	namemap_free(&W.names);
}

struct call_walk {
	const struct program *P;
	struct vec *calls;	/* where the walk pushes what it sees */
	struct vec dropped;	/* calls in dropped assignments */
};

static void push_call(struct vec *out, const struct program *P, const struct expr *e)
{
	const struct sem_ref *r = e->kind == E_CALL ? program_ref(P, e) : NULL;
	const struct sem_function *head = r ? r->fn : NULL;

	if (!head)
		return;
	if (!head->group) {
		vec_push(out, (void *)head);
		return;
	}
	for (int i = 0; i < head->n_group; i++)
		vec_push(out, head->group[i]);
}

static void see_call(void *ctx, const struct expr *e)
{
	struct call_walk *W = ctx;

	push_call(W->calls, W->P, e);
}

static void see_dropped(void *ctx, const struct stmt *s)
{
	struct call_walk *W = ctx;
	struct call_walk in_dropped = { .P = W->P, .calls = &W->dropped };
	struct ast_visitor v = { .ctx = &in_dropped, .expr = see_call };

	if (s->kind == S_EXPR && program_dropped_assign(W->P, s->e1))
		ast_walk_expr(s->e1->b, &v);
}

void sem_live_calls(const struct program *P, const struct stmt *body, struct vec *out)
{
	struct call_walk W = { .P = P, .calls = out };
	struct ast_visitor v = { .ctx = &W, .expr = see_call, .stmt = see_dropped };
	size_t first = out->n;

	if (!body)
		return;
	ast_walk_stmt(body, &v);
	/* each dropped call takes one of the calls seen off */
	for (size_t i = 0; i < W.dropped.n; i++) {
		for (size_t j = first; j < out->n; j++) {
			if (out->v[j] != W.dropped.v[i])
				continue;
			out->v[j] = out->v[--out->n];
			break;
		}
	}
	vec_free(&W.dropped);
}
