/* A read-only walk over statement and expression trees, for the pass-2
 * checks that run once names and types are resolved (sem_foreach.c,
 * sem_limits.c). */
#ifndef TAPC_ASTWALK_H
#define TAPC_ASTWALK_H

#include <stdbool.h>

#include "ast.h"

struct ast_visitor {
	void *ctx;
	/* Every statement, before its parts; may be NULL. */
	void (*stmt)(void *ctx, const struct stmt *s);
	/* Every expression, parents before their operands; may be NULL. */
	void (*expr)(void *ctx, const struct expr *e);
	/* Called with enter true before the body of a foreach statement
	 * runs and false after it (the loop header is walked outside);
	 * may be NULL. */
	void (*foreach_body)(void *ctx, const struct stmt *s, bool enter);
};

void ast_walk_stmt(const struct stmt *s, const struct ast_visitor *v);
void ast_walk_expr(const struct expr *e, const struct ast_visitor *v);

#endif
