/* @cast expressions resolved once (see sem_cast.h). */
#include "sem_cast.h"

#include <stdlib.h>
#include <string.h>

#include "ctypes.h"
#include "dwindex.h"
#include "kinfo.h"
#include "probes/uprobe.h"
#include "upath.h"
#include "lookup.h"
#include "tvar_resolve.h"
#include "uheader.h"
#include "util.h"

static struct {
	struct sem_cast **v;
	size_t n;
	struct ptrindex index;		/* expression -> v[i] */
} casts;

/* Whether module names the kernel: "kernel", or "kernel<header.h>"
 * whose header SystemTap would compile for the type. */
static bool names_kernel(const char *module, size_t len)
{
	return len >= 6 && !strncmp(module, "kernel", 6) &&
	       (len == 6 || module[6] == '<');
}

/* A user binary's DWARF types: @cast(p, "type", "/path/prog") (a name
 * without '/' is looked up as process("NAME") is); *user set. */
static bool user_types(const char *module, size_t len, struct ctypes *ct, bool *user,
		       const char **why)
{
	char *name = xstrndup(module, len), *msg = NULL;
	char *path = upath_program(name, &msg);
	const struct dwindex *ix = path ? ufunc_dwarf(path, why) : NULL;
	static char saved[512];

	if (!path) {
		snprintf(saved, sizeof(saved), "%s", msg);
		*why = saved;
	}
	free(msg);
	free(path);
	free(name);
	if (!ix)
		return false;
	*ct = ctypes_dwarf(dwindex_dwarf(ix));
	*user = true;
	return true;
}

/* The types of one module of @cast's list (len bytes at module): the
 * kernel's, a module's (split over the kernel's) or a user binary's;
 * false with *why. */
static bool module_types(const char *module, size_t len, struct ctypes *ct, bool *user,
			 const char **why)
{
	const struct btf *btf;

	*user = false;
	if (!names_kernel(module, len) && len && module[0] != '<' && memchr(module, '/', len))
		return user_types(module, len, ct, user, why);
	if (names_kernel(module, len)) {
		btf = kinfo_btf(why);
	} else if (len && module[0] == '<') {
		/* a user-space header, compiled for its types as SystemTap does */
		const struct dwindex *ix = uheader_dwarf(module, len, why);

		if (!ix)
			return false;
		*ct = ctypes_dwarf(dwindex_dwarf(ix));
		*user = true;
		return true;
	} else {
		char *name = xstrndup(module, len);

		btf = kinfo_module_btf(name, why);
		free(name);
	}
	if (!btf)
		return false;
	*ct = ctypes_btf(btf);
	return true;
}

__attribute__((format(printf, 3, 4)))
static void cast_error(struct sem_cast *sc, const struct srcpos *pos, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	sc->type = SEM_UNKNOWN;
	sc->err.pos = *pos;
	sc->err.msg = strbuf_detach(&sb);
	sc->err.what = xstrdup("operator '@cast'");
}

/* The DWARF types of one module of @cast's list, when its debuginfo is
 * installed (a module may be named by its file's path). */
static bool module_dwarf_types(const char *module, size_t len, struct ctypes *ct)
{
	const struct dwindex *ix;
	const char *why = NULL;	/* the BTF's reason is the one reported */

	if (names_kernel(module, len)) {
		ix = kinfo_dwarf(&why);
	} else if (len && module[0] == '<') {
		return false;
	} else {
		char *name = xstrndup(module, len);

		ix = kinfo_module_dwarf(name, &why);
		free(name);
	}
	if (!ix)
		return false;
	*ct = ctypes_dwarf(dwindex_dwarf(ix));
	return true;
}

/* "kernel<linux/a.h><linux/b.h>": the types of those headers, built as
 * a module (uheader.c), for a type the kernel's own lack, as SystemTap
 * builds it; false with *why when they do not build. */
static bool kernel_header_types(const char *module, size_t len, struct ctypes *ct,
				const char **why)
{
	const struct dwindex *ix;

	*why = NULL;
	if (!names_kernel(module, len) || len == 6)
		return false;
	ix = kheader_dwarf(module + 6, len - 6, why);
	if (!ix)
		return false;
	*ct = ctypes_dwarf(dwindex_dwarf(ix));
	return true;
}

/* The type e names in the first module of its list that has it: from
 * BTF, else (a type BTF does not describe, or a module without BTF) from
 * the DWARF when it is installed, as SystemTap reads it. */
static bool find_type(const struct expr *e, struct sem_cast *sc, struct ctypes *ct,
		      ctype_id *type, bool *user)
{
	const char *modules = e->module ? e->module : "kernel";
	const char *p = modules, *why = NULL;

	for (;;) {
		size_t len = strcspn(p, ":");
		const char *w = NULL;

		if (module_types(p, len, ct, user, &w)) {
			*type = ctype_find(ct, e->str);
			if (*type)
				return true;
		} else if (w && !why) {
			why = w;
		}
		if (module_dwarf_types(p, len, ct)) {
			*type = ctype_find(ct, e->str);
			if (*type)
				return true;
		}
		if (kernel_header_types(p, len, ct, &w)) {
			*type = ctype_find(ct, e->str);
			if (*type)
				return true;
		} else if (w && !why) {
			why = w;
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	if (why)
		cast_error(sc, &e->pos, "type definition '%s' not found in '%s': %s", e->str,
			   modules, why);
	else
		cast_error(sc, &e->pos, "type definition '%s' not found in '%s'", e->str,
			   modules);
	return false;
}

static void resolve(const struct expr *e, struct sem_cast *sc)
{
	struct ctypes ct;
	ctype_id type;
	bool user = false;

	if (!find_type(e, sc, &ct, &type, &user))
		return;
	sc->access = tvar_resolve_cast(&ct, type, e, &sc->err);
	if (user)	/* read from the probed process's memory */
		tvar_set_user(sc->access);
	sc->type = sc->access ? sc->access->type : SEM_UNKNOWN;
}

static void keep(const struct expr *e, struct sem_cast *sc)
{
	casts.v = xrealloc(casts.v, (casts.n + 1) * sizeof(*casts.v));
	casts.v[casts.n] = sc;
	ptrindex_set(&casts.index, e, (int)casts.n);
	casts.n++;
}

const struct sem_cast *sem_cast_known(const struct expr *e)
{
	int i = ptrindex_get(&casts.index, e);

	return i >= 0 ? casts.v[i] : NULL;
}

const struct sem_cast *sem_cast_of(const struct expr *e)
{
	const struct sem_cast *known = sem_cast_known(e);
	struct sem_cast *sc;

	if (known)
		return known;
	sc = xcalloc(1, sizeof(*sc));
	if (e->kind == E_AUTOCAST) {	/* not typed by sem_autocast.c */
		cast_error(sc, &e->pos, "unknown type in dereference");
		free(sc->err.what);
		sc->err.what = xstrdup("operator '->'");
	} else {
		resolve(e, sc);
	}
	keep(e, sc);
	return sc;
}

void sem_cast_set_autocast(const struct expr *e, struct tvar *access,
			   struct family_error *err)
{
	struct sem_cast *sc = xcalloc(1, sizeof(*sc));

	sc->access = access;
	sc->type = access ? access->type : SEM_UNKNOWN;
	if (!access)
		sc->err = *err;
	keep(e, sc);
}

bool sem_cast_typing_only(const struct expr *e)
{
	return e->kind == E_CAST && e->addressof && !e->comps.n;
}

void sem_casts_free(void)
{
	for (size_t i = 0; i < casts.n; i++) {
		free(casts.v[i]->err.msg);
		free(casts.v[i]->err.what);
		tvar_free(casts.v[i]->access);
		free(casts.v[i]);
	}
	free(casts.v);
	ptrindex_free(&casts.index);
	memset(&casts, 0, sizeof(casts));
}
