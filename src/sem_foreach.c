/* Pass 2: no array is modified while a foreach iterates it.
 *
 * A write in the loop body itself is refused while names are resolved
 * (elaborate.c: "variable 'a' modified during 'foreach' iteration").
 * This file refuses the writes made through calls, with SystemTap's
 * "function call modifies var 'a' during 'foreach' iteration" at the
 * call.  SystemTap looks only at the called function's own statements;
 * here a call counts if any function it may reach writes the array
 * (called functions, their callees, recursion, every overload "next"
 * can move on to), because the runtime's iteration snapshot cannot
 * survive a delete made two calls down any better than one made
 * directly.  Embedded-C functions write nothing we can see.
 *
 * A foreach over a histogram, foreach (b in @hist_log(s)), iterates s:
 * SystemTap refuses calls that add to s there too.
 */
#include "sem_foreach.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "astwalk.h"
#include "util.h"

struct iter_check {
	const struct program *P;
	struct diag *d;
	struct vec arrays;		/* struct vardecl *: iterated somewhere */
	int *active;			/* per array: enclosing loops over it */
	size_t words;			/* per function: a bit per array */
	const struct sem_function **fns;	/* P->functions by address */
	unsigned long *writes;		/* fns[i]'s bits at i * words */
};

#define WORD_BITS (8 * sizeof(unsigned long))

/* The variable a foreach iterates: its array or its histogram's
 * statistic; NULL when not resolved (a branch @defined ruled out). */
static struct vardecl *iterated_var(const struct program *P, const struct stmt *s)
{
	const struct expr *b = s->base;
	const struct sem_ref *r;

	if (b->kind == E_HIST)
		b = b->a->kind == E_INDEX ? b->a->a : b->a;
	r = program_ref(P, b);
	return r ? r->var : NULL;
}

static int array_index(const struct iter_check *C, const struct vardecl *v)
{
	for (size_t i = 0; i < C->arrays.n; i++)
		if (C->arrays.v[i] == v)
			return (int)i;
	return -1;
}

static void note_array(void *ctx, const struct stmt *s, bool enter)
{
	struct iter_check *C = ctx;
	struct vardecl *v = iterated_var(C->P, s);

	if (enter && v && array_index(C, v) < 0)
		vec_push(&C->arrays, v);
}

static int cmp_ptr(const void *x, const void *y)
{
	uintptr_t a = (uintptr_t)*(const void *const *)x;
	uintptr_t b = (uintptr_t)*(const void *const *)y;

	return a < b ? -1 : a > b;
}

static unsigned long *fn_writes(const struct iter_check *C, const struct sem_function *f)
{
	const struct sem_function **hit = bsearch(&f, C->fns, C->P->functions.n,
						  sizeof(*C->fns), cmp_ptr);

	return hit ? C->writes + (size_t)(hit - C->fns) * C->words : NULL;
}

static void set_bit(unsigned long *bits, int i)
{
	bits[i / WORD_BITS] |= 1UL << (i % WORD_BITS);
}

static bool test_bit(const unsigned long *bits, int i)
{
	return bits[i / WORD_BITS] >> (i % WORD_BITS) & 1;
}

/* Each function's own writes of iterated arrays, then what its callees
 * write, to a fixed point (recursion included). */
static void collect_writes(struct iter_check *C)
{
	size_t n = C->P->functions.n;
	bool changed = true;

	C->fns = xcalloc(n + 1, sizeof(*C->fns));
	for (size_t i = 0; i < n; i++)
		C->fns[i] = C->P->functions.v[i];
	qsort(C->fns, n, sizeof(*C->fns), cmp_ptr);
	C->writes = xcalloc(n * C->words + 1, sizeof(unsigned long));
	for (size_t i = 0; i < n; i++) {
		const struct sem_function *f = C->fns[i];

		for (size_t j = 0; j < f->uses.writes.n; j++) {
			int k = array_index(C, f->uses.writes.v[j]);

			if (k >= 0)
				set_bit(C->writes + i * C->words, k);
		}
	}
	while (changed) {
		changed = false;
		for (size_t i = 0; i < n; i++) {
			unsigned long *mine = C->writes + i * C->words;
			const struct sem_function *f = C->fns[i];

			for (size_t j = 0; j < f->uses.calls.n; j++) {
				const unsigned long *theirs = fn_writes(C, f->uses.calls.v[j]);

				for (size_t w = 0; theirs && w < C->words; w++) {
					if ((mine[w] | theirs[w]) != mine[w]) {
						mine[w] |= theirs[w];
						changed = true;
					}
				}
			}
		}
	}
}

static void track_loop(void *ctx, const struct stmt *s, bool enter)
{
	struct iter_check *C = ctx;
	int k = array_index(C, iterated_var(C->P, s));

	if (k >= 0)
		C->active[k] += enter ? 1 : -1;
}

/* A call in a loop body: does anything it may run write an array being
 * iterated?  Each such array is reported once per call. */
static void check_call(void *ctx, const struct expr *e)
{
	struct iter_check *C = ctx;
	const struct sem_ref *r;
	const struct sem_function *head;
	char what[300];

	if (e->kind != E_CALL)
		return;
	r = program_ref(C->P, e);
	head = r ? r->fn : NULL;
	if (!head)
		return;
	for (size_t k = 0; k < C->arrays.n; k++) {
		const struct vardecl *v = C->arrays.v[k];
		bool writes = false;

		if (!C->active[k])
			continue;
		for (int g = 0; g < (head->group ? head->n_group : 1) && !writes; g++) {
			const unsigned long *bits =
				fn_writes(C, head->group ? head->group[g] : head);

			writes = bits && test_bit(bits, (int)k);
		}
		if (!writes)
			continue;
		snprintf(what, sizeof(what), "identifier '%s'", e->name);
		sem_report(C->d, &e->pos, what,
			   "function call modifies var '%s' during 'foreach' iteration",
			   v->name);
	}
}

static void walk_bodies(const struct iter_check *C, const struct ast_visitor *v)
{
	for (size_t i = 0; i < C->P->functions.n; i++) {
		const struct sem_function *f = C->P->functions.v[i];

		ast_walk_stmt(f->decl->body, v);
	}
	for (size_t i = 0; i < C->P->probes.n; i++) {
		const struct derived_probe *dp = C->P->probes.v[i];

		ast_walk_stmt(dp->body, v);
	}
}

void sem_check_foreach_calls(const struct program *p, struct diag *d)
{
	struct iter_check C = { .P = p, .d = d };
	struct ast_visitor find = { .ctx = &C, .foreach_body = note_array };
	struct ast_visitor check = { .ctx = &C, .expr = check_call,
				     .foreach_body = track_loop };

	walk_bodies(&C, &find);
	if (C.arrays.n) {
		C.words = (C.arrays.n + WORD_BITS - 1) / WORD_BITS;
		C.active = xcalloc(C.arrays.n, sizeof(*C.active));
		collect_writes(&C);
		walk_bodies(&C, &check);
	}
	free(C.active);
	free(C.fns);
	free(C.writes);
	vec_free(&C.arrays);
}
