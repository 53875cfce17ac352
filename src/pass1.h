/* One tapc run: the options, the target, the scripts, and the passes. */
#ifndef TAPC_PASS1_H
#define TAPC_PASS1_H

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
	struct debuginfo_registry *debuginfo;	/* the target kernel's entry first */
	struct pass1_env env;
	struct srcfile *files;		/* every source text read, owned */
	struct script **user;		/* the main script, then -E scripts */
	int n_user;
	struct script **library;	/* parsed tapset files */
	int n_library;
	struct macro_lib *macros;	/* from the tapsets' *.stpm files */
	struct strlist library_paths;	/* every tapset *.stp file */
	struct strlist parsed_paths;	/* those parsed into library */
};

/* False after reporting an error (e.g. a bad -r). */
bool session_init(struct session *s, struct tapc_options *o);
/* Pass 1: parse the user scripts and the tapset library. Returns the
 * number of errors. */
int session_pass1(struct session *s);
/* Whether pass 1 parsed every tapset file (see tapindex.h). */
bool session_library_complete(const struct session *s);
/* Parse the tapset files pass 1 left out; returns the number of errors. */
int session_load_library_rest(struct session *s);
/* -p1 output: the user scripts as stap -p1 dumps them, or (canonical,
 * --dump-ast) in tapc's canonical form, which parses back to itself. */
void session_print_pass1(const struct session *s, bool canonical, FILE *out);
void session_free(struct session *s);

/* The module's name: -m, else stap's scheme with our prefix: "tapc_",
 * a hash of the scripts, their arguments and the options that shape the
 * module, and tapc's pid (so concurrent runs of one script differ).
 * malloc'ed; at most TAPC_MODULE_NAME_MAX characters. */
char *session_module_name(const struct session *s);

struct program;
struct debuginfo_registry;
/* The module cache key (see modcache.h) of the elaborated program prog
 * with runtime_key (build_runtime_key): 32 hex digits, malloc'ed. */
char *session_cache_key(const struct session *s, const struct program *prog,
			const char *runtime_key);

#endif
