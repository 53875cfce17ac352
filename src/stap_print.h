/* The syntax tree printed as SystemTap prints it (stap_print.c): the
 * "parse tree dump" of -p1. */
#ifndef TAPC_STAP_PRINT_H
#define TAPC_STAP_PRINT_H

#include <stdio.h>

#include "ast.h"

struct stap_printer {
	FILE *out;
	/* Optional: the name to print for a symbol, an array or a called
	 * function (e), or NULL for the name as written. */
	const char *(*rename)(void *ctx, const struct expr *e);
	void *ctx;
};

void stap_print_expr(const struct stap_printer *p, const struct expr *e);
void stap_print_stmt(const struct stap_printer *p, const struct stmt *s);

/* A user's script file as stap -p1 prints it, after its "# file NAME"
 * line: embedded code, globals, aliases, probes, functions. */
void stap_print_script(FILE *out, const struct script *s);

#endif
