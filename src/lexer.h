/* Pass 1 front end: the lexer (lexer.l, flex) turns a source file into
 * tokens; the preprocessor (preproc.c) sits on top of it and hands the
 * parser a clean token stream. */
#ifndef TAPC_LEXER_H
#define TAPC_LEXER_H

#include "diag.h"
#include "token.h"

struct macro_lib;	/* macros from *.stpm files, seen by every file */

/* What the preprocessor needs to know about the target and the command
 * line. Filled by the driver (main.c) from the options. */
struct pass1_env {
	const char *kernel_vr;	/* full release, e.g. "6.1.0-57-amd64" */
	const char *kernel_v;	/* release without the "-..." suffix: "6.1.0" */
	const char *arch;	/* "x86_64" */
	const char *runtime;	/* "kernel" */
	const char *systemtap_v;	/* compatibility version, e.g. "5.1" */
	bool guru_mode;		/* -g */
	int argc;		/* script arguments $1..$N */
	char **argv;
	/* Value of a kernel config option ("y", "m", a string, or NULL when
	 * unset). May be NULL: then every CONFIG_* is unset. */
	const char *(*config)(void *ctx, const char *name);
	void *config_ctx;
	/* for systemtap_privilege: "stapusr", "stapsys" or "stapdev";
	 * NULL means "stapdev" */
	const char *privilege;
	/* Macros of the tapset library's *.stpm files, visible in every
	 * file (see macro_lib_load); NULL for none. */
	struct macro_lib *library;
};

struct lexer;		/* raw tokens from one srcfile */
struct preproc;		/* conditionals, macros and arguments */

/* The lexer returns lexical errors as TK_ERROR tokens (text = message)
 * without reporting them; the preprocessor reports those it does not
 * skip. TK_PP_* tokens come out as they are. The srcfile must outlive
 * the tokens (their positions point into it). */
struct lexer *lexer_new(struct srcfile *f, struct diag *d);
/* Next raw token. At the end, returns TK_EOF forever. The caller owns
 * the token's text (token_free). */
void lexer_next(struct lexer *lx, struct token *out);
void lexer_free(struct lexer *lx);

/* The token stream for the parser: no TK_PP_* and no TK_ERROR tokens are
 * left; every problem has been reported through d ("parse error"). env
 * must stay valid while the preprocessor is used. After the last token,
 * returns TK_EOF forever.
 *
 * Tokens produced by macro expansion have expanded_from pointing at the
 * macro use; that storage belongs to the preprocessor and stays valid
 * until preproc_free. */
struct preproc *preproc_new(struct srcfile *f, const struct pass1_env *env,
			    struct diag *d);
void preproc_next(struct preproc *pp, struct token *out);
/* Whether the file held any token before preprocessing (a lexical error
 * included): more than blanks and comments. */
bool preproc_saw_token(const struct preproc *pp);
/* Whether a %( systemtap_v ... %) condition was evaluated since the last
 * call: the declaration being parsed then depends on the language
 * version (--check-version). */
bool preproc_take_version_seen(struct preproc *pp);
void preproc_free(struct preproc *pp);

/* Make the library macros visible to this file (call before the first
 * preproc_next). lib must outlive pp. */
void preproc_set_library(struct preproc *pp, struct macro_lib *lib);

/* Is "@name" one of SystemTap's built-in @ operators (@cast, @entry,
 * @count, ...)? name is given without the '@'. */
bool preproc_is_atword(const char *name);

/* Library macros. macro_lib_load preprocesses a .stpm file (conditionals
 * apply, only @define is allowed in it) and adds its macros to lib. As in
 * SystemTap, a file containing anything else, or redefining a macro that
 * the library already has, is refused as a whole: false is returned and
 * the errors have been reported. f must outlive lib: macro bodies point
 * into it. */
struct macro_lib *macro_lib_new(void);
bool macro_lib_load(struct macro_lib *lib, struct srcfile *f,
		    const struct pass1_env *env, struct diag *d);
void macro_lib_free(struct macro_lib *lib);

#endif
