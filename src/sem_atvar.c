/* @var expressions resolved once (see sem_atvar.h). */
#include "sem_atvar.h"

#include <stdlib.h>
#include <string.h>

#include "dwatvar.h"
#include "dwindex.h"
#include "kinfo.h"
#include "lookup.h"
#include "probes/uprobe.h"
#include "upath.h"
#include "util.h"

static struct {
	struct sem_atvar **v;
	size_t n;
	struct ptrindex index;		/* expression -> v[i] */
} atvars;

/* Whether module names a user binary: a path, not of a kernel module
 * (a .ko file). */
static bool names_user_binary(const char *module)
{
	size_t len = strlen(module);

	return strchr(module, '/') && !(len > 3 && !strcmp(module + len - 3, ".ko")) &&
	       !strstr(module, ".ko.");
}

/* @var("name@file", "/path/prog"): in the binary's DWARF (found as
 * process("PATH") finds it). */
static void resolve_user(const struct expr *e, struct sem_atvar *sa)
{
	char *msg = NULL, *path = upath_program(e->module, &msg);
	const char *why = msg;
	const struct dwindex *ix = path ? ufunc_dwarf(path, &why) : NULL;

	if (!ix) {
		sa->err.pos = e->pos;
		sa->err.msg = xasprintf("unable to find global '%.*s' in %s: %s",
					(int)strcspn(e->str, "@"), e->str, e->module,
					why ? why : "no debuginfo");
	} else {
		sa->access = dwatvar_resolve(dwindex_dwarf(ix), path, true, e, &sa->err);
	}
	free(path);
	free(msg);
}

/* @var("name@file"[, "module"]): in the kernel's or a module's DWARF. */
static void resolve_kernel(const struct expr *e, const char *module, struct sem_atvar *sa)
{
	bool kernel = !strcmp(module, "kernel");
	const char *why = NULL;
	const struct dwindex *ix = kernel ? kinfo_dwarf(&why) : kinfo_module_dwarf(module, &why);
	/* the module's name, also when module is its file's path */
	const char *name = kernel || !ix ? module : kinfo_module_name(module, &why);

	if (!ix) {
		sa->err.pos = e->pos;
		sa->err.msg = xasprintf("unable to find global '%.*s' in %s: %s",
					(int)strcspn(e->str, "@"), e->str, module,
					why ? why : "no debuginfo");
	} else {
		sa->access = dwatvar_resolve(dwindex_dwarf(ix), name, false, e, &sa->err);
	}
}

static void resolve(const struct expr *e, struct sem_atvar *sa)
{
	const char *module = e->module ? e->module : "kernel";

	sa->type = SEM_UNKNOWN;
	if (names_user_binary(module))
		resolve_user(e, sa);
	else
		resolve_kernel(e, module, sa);
	if (sa->access)
		sa->type = sa->access->type;
	else if (!sa->err.what)
		sa->err.what = xstrdup("operator '@var'");
}

const struct sem_atvar *sem_atvar_of(const struct expr *e)
{
	int i = ptrindex_get(&atvars.index, e);
	struct sem_atvar *sa;

	if (i >= 0)
		return atvars.v[i];
	sa = xcalloc(1, sizeof(*sa));
	resolve(e, sa);
	atvars.v = xrealloc(atvars.v, (atvars.n + 1) * sizeof(*atvars.v));
	atvars.v[atvars.n] = sa;
	ptrindex_set(&atvars.index, e, (int)atvars.n);
	atvars.n++;
	return sa;
}

void sem_atvars_free(void)
{
	for (size_t i = 0; i < atvars.n; i++) {
		free(atvars.v[i]->err.msg);
		free(atvars.v[i]->err.what);
		tvar_free(atvars.v[i]->access);
		free(atvars.v[i]);
	}
	free(atvars.v);
	ptrindex_free(&atvars.index);
	memset(&atvars, 0, sizeof(atvars));
}
