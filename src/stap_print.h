/* The syntax tree printed as SystemTap prints it (stap_print.c): the
 * "parse tree dump" of -p1. */
#ifndef TAPC_STAP_PRINT_H
#define TAPC_STAP_PRINT_H

#include <stdio.h>

#include "ast.h"

/* A user's script file as stap -p1 prints it, after its "# file NAME"
 * line: embedded code, globals, aliases, probes, functions. */
void stap_print_script(FILE *out, const struct script *s);

#endif
