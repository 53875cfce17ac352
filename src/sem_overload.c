/* Pass 2: overloads that no call can reach.
 *
 * A call of an overloaded function runs the first overload of its group
 * (priority order, then declaration order); only a "next" in that body
 * moves on to the following one.  Once an overload of the group cannot
 * "next", the ones after it are never chosen.  SystemTap warns about each
 * of them, "instance of overloaded function will never be reached", at
 * the function's name; -W makes that an error, -w hides it.  As in
 * SystemTap, any "next" in the body counts (whether it can run or not),
 * and so does an embedded-C body that says STAP_NEXT.
 */
#include "sem_overload.h"

#include <stdlib.h>
#include <string.h>

#include "astwalk.h"
#include "util.h"

struct overload_check {
	const struct program *P;
	struct diag *d;
	struct vec warned;	/* struct sem_function *: reported already */
};

static void find_next(void *ctx, const struct stmt *s)
{
	if (s->kind == S_NEXT)
		*(bool *)ctx = true;
}

/* Whether f's body can hand the call on to the next overload. */
static bool may_next(const struct sem_function *f)
{
	struct ast_visitor v = { 0 };
	bool found = false;

	if (f->decl->embedded)
		return strstr(f->decl->embedded, "STAP_NEXT;") != NULL;
	v.ctx = &found;
	v.stmt = find_next;
	if (f->decl->body)
		ast_walk_stmt(f->decl->body, &v);
	return found;
}

static bool warned_already(struct overload_check *C, const struct sem_function *f)
{
	for (size_t i = 0; i < C->warned.n; i++)
		if (C->warned.v[i] == f)
			return true;
	vec_push(&C->warned, (void *)f);
	return false;
}

static void warn_unreachable(struct overload_check *C, const struct sem_function *f)
{
	const struct srcpos *pos = &f->decl->pos;

	if (warned_already(C, f))
		return;
	diag_warning(C->d, pos,
		     "instance of overloaded function will never be reached: "
		     "identifier '%s' at %s:%d:%d", f->name,
		     pos->file ? pos->file->name : "", pos->line, pos->col);
}

static void check_call(void *ctx, const struct expr *e)
{
	struct overload_check *C = ctx;
	const struct sem_ref *r;
	const struct sem_function *head;
	int reachable = 1;

	if (e->kind != E_CALL)
		return;
	r = program_ref(C->P, e);
	head = r ? r->fn : NULL;
	if (!head || head->n_group < 2)
		return;
	while (reachable < head->n_group && may_next(head->group[reachable - 1]))
		reachable++;
	for (int i = reachable; i < head->n_group; i++)
		warn_unreachable(C, head->group[i]);
}

void sem_warn_unreachable_overloads(const struct program *P, struct diag *d)
{
	struct overload_check C = { .P = P, .d = d };
	struct ast_visitor v = { .ctx = &C, .expr = check_call };

	for (size_t i = 0; i < P->probes.n; i++) {
		const struct derived_probe *dp = P->probes.v[i];

		ast_walk_stmt(dp->body, &v);
	}
	for (size_t i = 0; i < P->functions.n; i++) {
		const struct sem_function *f = P->functions.v[i];

		if (f->decl->body)
			ast_walk_stmt(f->decl->body, &v);
	}
	vec_free(&C.warned);
}
