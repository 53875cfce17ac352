/* One tapc run: the options, the target, the scripts, and the passes. */
#ifndef TAPC_SESSION_H
#define TAPC_SESSION_H

#include <stdio.h>

#include "ast.h"
#include "diag.h"
#include "lexer.h"
#include "options.h"
#include "target.h"

struct session {
	struct tapc_options *opts;
	struct diag diag;
	struct target target;
	struct pass1_env env;
	struct srcfile *files;		/* every source text read, owned */
	struct script **user;		/* the main script, then -E scripts */
	int n_user;
	struct script **library;	/* parsed tapset files */
	int n_library;
	struct macro_lib *macros;	/* from the tapsets' *.stpm files */
};

/* False after reporting an error (e.g. a bad -r). */
bool session_init(struct session *s, struct tapc_options *o);
/* Pass 1: parse the user scripts and the tapset library. Returns the
 * number of errors. */
int session_pass1(struct session *s);
/* -p1 output: the user scripts in canonical form. */
void session_print_pass1(const struct session *s, FILE *out);
void session_free(struct session *s);

#endif
