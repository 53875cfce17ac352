/* @var over DWARF (see dwatvar.h). */
#include "dwatvar.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "ctypes.h"
#include "dwloc.h"
#include "dwscope.h"
#include "glob.h"
#include "tvar_resolve.h"
#include "util.h"

/* What @var looks for: NAME, in the compile units FILE matches (any
 * when NULL). */
struct wanted {
	char *name;
	const char *file;
};

/* What was found: a definition (with a location) wins over a
 * declaration (type only; its address from the symbol table). */
struct found {
	Dwarf_Die cu, var;
	bool have_def, have_decl;
};

static bool has_attr(Dwarf_Die *die, unsigned name)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, name, &attr) != NULL;
}

/* The variables at the top level of cu named w->name. */
static void scan_cu(Dwarf_Die *cu, const struct wanted *w, struct found *f)
{
	Dwarf_Die child;

	if (dwarf_child(cu, &child) != 0)
		return;
	do {
		const char *name;
		bool def;

		if (dwarf_tag(&child) != DW_TAG_variable)
			continue;
		name = dwarf_diename(&child);
		if (!name || strcmp(name, w->name))
			continue;
		def = has_attr(&child, DW_AT_location) || has_attr(&child, DW_AT_const_value);
		if (def || !f->have_decl) {
			f->cu = *cu;
			f->var = child;
			f->have_decl = true;
			f->have_def = def;
		}
		if (def)
			return;
	} while (dwarf_siblingof(&child, &child) == 0);
}

static bool find(Dwarf *dw, const struct wanted *w, struct found *f)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	memset(f, 0, sizeof(*f));
	while (!f->have_def && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(dw, off + hsize, &cu) &&
		    (!w->file || glob_match_path_tail(w->file, dwarf_diename(&cu))))
			scan_cu(&cu, w, f);
		off = next;
	}
	return f->have_decl;
}

/* Where a variable only declared is: its symbol, relocated as the
 * kernel's statics are.  A module's symbols are section-relative in its
 * .ko, so only the kernel's are read so. */
static int declared_origin(Dwarf *dw, const char *module, const char *name,
			   struct tvar_origin *o, char **msg)
{
	memset(o, 0, sizeof(*o));
	o->base = TVAR_BASE_STATIC;
	o->in_mem = true;
	if (module) {
		*msg = xasprintf("global '%s' of module '%s' is only declared in its DWARF",
				 name, module);
		return -1;
	}
	if (!dwloc_symbol(dw, name, &o->addr) || !dwloc_symbol(dw, "jiffies_64", &o->reloc_ref)) {
		*msg = xasprintf("global '%s' is only declared in the kernel's DWARF and "
				 "not in its symbol table", name);
		return -1;
	}
	return 0;
}

static int origin_of(Dwarf *dw, const char *module, bool user, const struct found *f,
		     const struct wanted *w, struct tvar_origin *o, char **msg)
{
	struct dwarf_scope scope = { .cu = f->cu, .func = f->cu, .module = module, .user = user };

	if (!f->have_def)
		return declared_origin(dw, module, w->name, o, msg);
	return dwloc_variable(&scope, (Dwarf_Die *)&f->var, o, msg);
}

struct tvar *dwatvar_resolve(Dwarf *dw, const char *module, bool user, const struct expr *e,
			     struct family_error *err)
{
	char *at = strchr(e->str, '@');
	struct wanted w = { .name = xstrndup(e->str, at ? (size_t)(at - e->str) : strlen(e->str)),
			    .file = at ? at + 1 : NULL };
	struct expr named = *e;
	struct tvar *tv = NULL;
	struct tvar_origin o;
	struct found f;
	struct ctypes ct = ctypes_dwarf(dw);
	char *msg = NULL;

	if (module && !strcmp(module, "kernel"))
		module = NULL;
	err->pos = e->pos;
	if (!find(dw, &w, &f)) {
		err->msg = xasprintf("unable to find global '%s' in %s%s%s", w.name,
				     module ? module : "kernel", w.file ? ", in " : "",
				     w.file ? w.file : "");
	} else if (origin_of(dw, module, user, &f, &w, &o, &msg) != 0) {
		err->msg = msg;
	} else {
		named.name = xasprintf("@var(\"%s\")", e->str);
		tv = tvar_resolve_from(&ct, dwloc_type_of(&f.var), &o, &named, "@var", err);
		if (tv && user)
			tvar_set_user(tv);
		free(named.name);
		free(o.modsym);
		free(o.pieces);
		free(o.dwops);
	}
	free(w.name);
	return tv;
}
