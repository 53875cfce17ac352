/* Pass 2's private interface between its files (elaborate.c, the driver;
 * derive.c, probe derivation; resolve.c, name resolution; infer.c, type
 * inference; program.c and program_print.c, the program pass 3 reads and
 * its -p2 print-out).  Nothing outside pass 2 includes it. */
#ifndef TAPC_ELAB_INT_H
#define TAPC_ELAB_INT_H

#include <stdarg.h>

#include "elaborate.h"
#include "lookup.h"
#include "util.h"

#define MAX_ALIAS_DEPTH 32

struct alias_ref {
	const struct probe_alias *a;
	const struct srcfile *file;
};

struct elab {
	const struct elab_options *o;
	struct diag *d;
	struct program *P;
	struct script **user;
	int n_user;
	struct vec fns;		/* struct sem_function *: user ones first */
	/* struct sem_function *: those only elided code called, which
	 * leave the program but are type-checked all the same, as
	 * SystemTap checks them (drop_dead_functions, infer.c) */
	struct vec dead_fns;
	/* --check-version: the version-dependent probes and aliases each
	 * derived probe came through (struct version_note *, sem_version.c) */
	struct vec version_probes;
	struct vec globals;	/* struct vardecl *: every declared global */
	struct namemap fn_names;	/* name -> fns of that name, in order */
	struct namemap global_names;	/* name -> globals of that name */
	struct vec aliases;	/* struct alias_ref * */
	/* The copies of context-sensitive functions made for the probes
	 * that call them (ctxfn.c): probe -> index in ctx_probes, each a
	 * struct ctx_probe of ctxfn.c */
	struct ptrindex ctx_index;
	struct vec ctx_probes;
	bool any_ctx_sensitive;	/* some function is (ctxfn_called) */
	struct vec work;	/* functions to resolve */
	/* Library files: once anything of a file is used, its probes join
	 * the program too (as SystemTap pulls in the whole file). */
	struct script **lib;
	int n_lib;
	bool *lib_used, *lib_done;
	/* --skip-badvars: where targets were zeroed and warned about (the
	 * derived probes of one probe warn once per expression) */
	struct srcpos *zeroed_warned;
	size_t n_zeroed_warned;
	/* autocasts met by resolution, and conditions on @defined of
	 * them, for sem_autocast.c */
	struct vec autocasts;
	struct vec autocast_guards;
	bool c_globals;		/* some embedded C names a global by pragma */
	/* errors that wait for elision (sem_defer.c) */
	struct vec deferred;
};

/* elaborate.c */
void use_file(struct elab *E, const struct srcfile *f);
unsigned privilege_level(const struct elab *E);
bool pattern_allowed(const struct elab *E, const struct probe_family *fam,
		     const struct point_pattern *p);
bool embedded_allowed(const struct elab *E, unsigned pragmas);
char *describe_expr(const struct expr *e);
char *describe_token_at(const struct srcpos *pos);
void sem_error(struct elab *E, const struct srcpos *pos, const char *what,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* An error whose text was prepared elsewhere (msg), of the given kind
 * for SystemTap's "similar error" counting: the first of a kind is shown,
 * the others counted unless -v. */
void sem_error_kind(struct elab *E, const struct srcpos *pos, const char *what,
		    const char *kind, const char *msg);
void sem_warn(struct elab *E, const struct srcpos *pos, const char *what,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void ident_what(char *buf, size_t n, const char *name);
/* Whether f is one of the user's scripts (not a tapset). */
bool elab_user_file(struct elab *E, const struct srcfile *f);
struct vardecl *var_new(struct elab *E, const char *name, const struct srcpos *pos);
/* sf's parameters, new variables of sf's own, from its declaration. */
void sem_function_params(struct elab *E, struct sem_function *sf);
bool visible(bool is_private, const struct srcfile *decl_file,
	     const struct srcfile *from);

/* program.c */
struct sem_ref *ptrmap_get(const struct ptrmap *m, const void *k);
struct sem_ref *ptrmap_ref(struct ptrmap *m, const void *k);

/* derive.c: the derived probes of a user's or tapset's probe. */
void derive_probe(struct elab *E, const struct probe *p);
/* A deep copy of s (a derived probe's own body). */
struct stmt *stmt_dup(const struct stmt *s);

/* resolve.c */
void resolve_probe(struct elab *E, struct derived_probe *dp);
void drain_work(struct elab *E);
/* The globals embedded C names by pragma must not be statistics
 * (SystemTap's "Aggregates not available in embedded-C"). */
void sem_check_embedded_globals(struct elab *E);

/* infer.c */
void infer_types(struct elab *E);

#endif
