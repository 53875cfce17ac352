/* Target variables of DWARF probes (see dwtvar.h).
 *
 * The variables of a scope are the parameters and variables of its
 * function (an inline instance's carry their names and types through
 * their abstract origin, with locations of their own) and those of the
 * lexical blocks around scope->pc, the innermost winning.  Each one's
 * location (dwloc.c) gives where the walk over its type starts; the
 * walk itself is tvar_resolve.c's, over the DWARF types (ctypes_dwarf.c).
 */
#include "dwtvar.h"

#include <dwarf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dwfentry.h"
#include "dwloc.h"
#include "dwscope.h"
#include "suggest.h"
#include "tvar_resolve.h"
#include "util.h"

#define FAMILY_WORD "DWARF"

struct dwvar {
	Dwarf_Die die;
	const char *name;
	bool is_parm;
	/* 0: the function's own; deeper: nested blocks; -1: the CU's
	 * (globals and file statics: found by name, never listed) */
	int depth;
};

struct dwvars {
	struct dwvar *v;
	size_t n;
};

static void collect(const struct dwarf_scope *scope, Dwarf_Die *parent, int depth,
		    struct dwvars *out)
{
	Dwarf_Die child;

	if (depth > 64 || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		const char *name;

		if (tag == DW_TAG_lexical_block) {
			if (dwarf_haspc(&child, scope->pc) > 0)
				collect(scope, &child, depth + 1, out);
			continue;
		}
		if (tag != DW_TAG_formal_parameter && tag != DW_TAG_variable)
			continue;
		name = dwarf_diename(&child);
		if (!name)
			continue;
		out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
		out->v[out->n++] = (struct dwvar){ .die = child, .name = name, .depth = depth,
						   .is_parm = tag == DW_TAG_formal_parameter };
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* The variables of the CU (after the function's: they never shadow). */
static void collect_globals(const struct dwarf_scope *scope, struct dwvars *out)
{
	Dwarf_Die child;

	if (dwarf_child((Dwarf_Die *)&scope->cu, &child) != 0)
		return;
	do {
		const char *name = dwarf_diename(&child);

		if (dwarf_tag(&child) != DW_TAG_variable || !name)
			continue;
		out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
		out->v[out->n++] = (struct dwvar){ .die = child, .name = name, .depth = -1 };
	} while (dwarf_siblingof(&child, &child) == 0);
}

static struct dwvars scope_vars(const struct dwarf_scope *scope)
{
	struct dwvars vars = { 0 };

	collect(scope, (Dwarf_Die *)&scope->func, 0, &vars);
	collect_globals(scope, &vars);
	return vars;
}

static bool has_location(const struct dwvar *v)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate((Dwarf_Die *)&v->die, DW_AT_location, &attr) ||
	       dwarf_attr_integrate((Dwarf_Die *)&v->die, DW_AT_const_value, &attr);
}

/* The variable called name, the innermost one when blocks shadow; of
 * two in one scope, one with a location: a global declared (as a header
 * does) and then defined in the CU has a DIE for each, as SystemTap
 * works around for GCC PR51410. */
static const struct dwvar *find_var(const struct dwvars *vars, const char *name)
{
	const struct dwvar *best = NULL;

	for (size_t i = 0; i < vars->n; i++) {
		const struct dwvar *v = &vars->v[i];

		if (strcmp(v->name, name))
			continue;
		if (!best || v->depth > best->depth ||
		    (v->depth == best->depth && !has_location(best) && has_location(v)))
			best = v;
	}
	return best;
}

/* Enumerator name among the children of the enumeration types directly
 * in parent (and, in a function, in its blocks that hold the pc): its
 * enum type and value. */
static bool enumerator_in(const struct dwarf_scope *scope, Dwarf_Die *parent, const char *name,
			  int depth, Dwarf_Die *type, int64_t *value)
{
	Dwarf_Die child, e;

	if (depth > 64 || dwarf_child(parent, &child) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_lexical_block && dwarf_haspc(&child, scope->pc) > 0 &&
		    enumerator_in(scope, &child, name, depth + 1, type, value))
			return true;
		if (tag != DW_TAG_enumeration_type || dwarf_child(&child, &e) != 0)
			continue;
		do {
			Dwarf_Attribute attr;
			Dwarf_Sword v;
			const char *n = dwarf_diename(&e);

			if (dwarf_tag(&e) == DW_TAG_enumerator && n && !strcmp(n, name) &&
			    dwarf_attr(&e, DW_AT_const_value, &attr) &&
			    dwarf_formsdata(&attr, &v) == 0) {
				*type = child;
				*value = v;
				return true;
			}
		} while (dwarf_siblingof(&e, &e) == 0);
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/* $NAME where no variable is called NAME: an enumerator of the function's
 * or the CU's enum types, a constant of its enum type (SystemTap 4.5 and
 * later, PR25346). */
static bool find_enumerator(const struct dwarf_scope *scope, const char *name,
			    Dwarf_Die *type, int64_t *value)
{
	return enumerator_in(scope, (Dwarf_Die *)&scope->func, name, 0, type, value) ||
	       enumerator_in(scope, (Dwarf_Die *)&scope->cu, name, 64, type, value);
}

static struct ctypes scope_types(const struct dwarf_scope *scope)
{
	return ctypes_dwarf(dwarf_cu_getdwarf(scope->cu.cu));
}

static const char *module_of(const struct dwarf_scope *scope)
{
	return scope->module ? scope->module : "kernel";
}

/* ---- messages ------------------------------------------------------------ */

/* SystemTap's list: the names ("$x") nearest to the one asked (measured
 * without its '$', as stap does), nearest first, at most
 * ALTERNATIVES_MAX of them. */
#define ALTERNATIVES_MAX 5

static char *alternatives(const struct dwvars *vars, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char **dollars = xcalloc(vars->n + 1, sizeof(*dollars));
	size_t n = 0;

	for (size_t i = 0; i < vars->n; i++) {
		bool dup = vars->v[i].depth < 0;

		for (size_t j = 0; j < n && !dup; j++)
			dup = !strcmp(dollars[j] + 1, vars->v[i].name);
		if (!dup)
			dollars[n++] = xasprintf("$%s", vars->v[i].name);
	}
	sem_sort_nearest(name[0] == '$' ? name + 1 : name, (const char **)dollars, n);
	for (size_t i = 0; i < n && i < ALTERNATIVES_MAX; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", dollars[i]);
	for (size_t i = 0; i < n; i++)
		free(dollars[i]);
	free(dollars);
	return strbuf_detach(&sb);
}

static char *unknown_message(const struct dwarf_scope *scope, const struct dwvars *vars,
			     const char *name)
{
	char *alt = alternatives(vars, name);
	const char *fname = dwarf_diename((Dwarf_Die *)&scope->func);
	const char *cuname = dwarf_diename((Dwarf_Die *)&scope->cu);
	char *msg;

	msg = xasprintf("unable to find local '%s', [man error::dwarf] dieoffset %#" PRIx64
			" in %s, near pc %#" PRIx64 " in %s %s (%s%s%s)", name + 1,
			(uint64_t)dwarf_dieoffset((Dwarf_Die *)&scope->func), module_of(scope),
			(uint64_t)scope->pc, fname ? fname : "<unknown>",
			cuname ? cuname : "<unknown>", alt && *alt ? "alternatives: " : "",
			alt && *alt ? alt : "<no alternatives>", alt && *alt ? ")" : "");
	free(alt);
	return msg;
}

/* ---- single variables --------------------------------------------------- */

/* The access path of e (whose base is variable v). */
static struct tvar *var_access(const struct dwarf_scope *scope, const struct ctypes *ct,
			       const struct dwvar *v, const struct expr *e,
			       struct family_error *err)
{
	struct tvar_origin o;
	struct tvar *tv;
	ctype_id type;
	char *msg;

	if (dwloc_variable(scope, (Dwarf_Die *)&v->die, &o, &msg) != 0) {
		err->pos = e->pos;
		err->msg = msg;
		return NULL;
	}
	type = dwloc_type_of((Dwarf_Die *)&v->die);
	if (o.pointee && !e->comps.n) {
		err->pos = e->pos;
		err->msg = xasprintf("not accessible at this address (pc: %#" PRIx64 ") "
				     "[man error::dwarf]: the pointer '%s' is optimized out "
				     "(DW_OP_implicit_pointer), what it points to is not: "
				     "%s->member", (uint64_t)scope->pc, e->name, e->name);
		free(o.modsym);
		free(o.pieces);
		free(o.dwops);
		return NULL;
	}
	if (o.pointee)	/* $p->x where p's target is known, p itself gone */
		type = ctype_pointee(ct, ctype_resolve(ct, type));
	tv = tvar_resolve_from(ct, type, &o, e, FAMILY_WORD, err);
	free(o.modsym);
	free(o.pieces);
	free(o.dwops);
	return tv;
}

static struct tvar *return_access(const struct dwarf_scope *scope, const struct ctypes *ct,
				  const struct expr *e, struct family_error *err)
{
	ctype_id type = dwloc_type_of((Dwarf_Die *)&scope->func);
	struct tvar_origin o;
	bool float_ret;

	if (!type) {
		err->msg = xasprintf("function '%s' returns no value: '%s' is not available",
				     dwarf_diename((Dwarf_Die *)&scope->func) ?: "?", e->name);
		return NULL;
	}
	/* x86-64 returns a float or double in xmm0, which only a user
	 * function's return can have (the kernel keeps no floats) */
	float_ret = tvar_float_size(ct, ctype_resolve(ct, type)) && !e->comps.n;
	if (float_ret && !scope->user) {
		err->msg = xasprintf("not accessible at this address (pc: %#" PRIx64 ") "
				     "[man error::dwarf]: function '%s' returns a floating-point "
				     "value, in a register that is not one of pt_regs",
				     (uint64_t)scope->pc,
				     dwarf_diename((Dwarf_Die *)&scope->func) ?: "?");
		return NULL;
	}
	dwloc_return_value(&o, float_ret);
	return tvar_resolve_from(ct, type, &o, e, FAMILY_WORD, err);
}

/* ---- $$vars, $$parms, $$locals, $$return -------------------------------- */

enum ctx_set { CTX_VARS, CTX_PARMS, CTX_LOCALS, CTX_RETURN };

static bool ctx_var(const char *name, enum ctx_set *set)
{
	static const char *const names[] = { "$$vars", "$$parms", "$$locals", "$$return" };

	for (int i = 0; i < 4; i++) {
		if (!strcmp(name, names[i])) {
			*set = (enum ctx_set)i;
			return true;
		}
	}
	return false;
}

/* One "name=..." of a context variable: pretty with e's suffix, else
 * the value (%p for pointers, %#x for other numbers); "name=?" when it
 * cannot be read or is no number. */
static void ctx_item(const struct dwarf_scope *scope, const struct ctypes *ct,
		     const struct dwvar *v, const char *name, const struct expr *e,
		     struct tvar *tv, struct strbuf *fmt)
{
	struct expr named = *e;
	struct family_error err = { 0 };
	bool pretty = e->comps.n > 0;
	ctype_id type = v ? dwloc_type_of((Dwarf_Die *)&v->die) : dwloc_type_of((Dwarf_Die *)&scope->func);
	struct tvar *arg = NULL;

	named.name = xasprintf("$%s", v ? name : "return");
	named.addressof = false;
	if (!pretty)
		named.comps.n = 0;
	/* a float's value is its bits, in hex, as SystemTap prints them */
	if (pretty || tvar_fits_register(ct, type) ||
	    tvar_float_size(ct, ctype_resolve(ct, type)))
		arg = v ? var_access(scope, ct, v, &named, &err) :
			  return_access(scope, ct, &named, &err);
	strbuf_addf(fmt, "%s%s=", fmt->len ? " " : "", name);
	if (arg) {
		strbuf_adds(fmt, pretty ? "%s" : tvar_is_pointer(ct, type) ? "%p" : "%#x");
		tvar_add_arg(tv, arg);
	} else {
		strbuf_adds(fmt, "?");
	}
	free(named.name);
	free(err.msg);
	free(err.what);
}

static struct tvar *ctx_access(const struct dwarf_scope *scope, const struct ctypes *ct,
			       const struct dwvars *vars, enum ctx_set set, const struct expr *e)
{
	struct tvar *tv = tvar_new(TVAR_BASE_NONE, 0, e->name, &e->pos);
	struct strbuf fmt = STRBUF_INIT;

	tv->leaf = TVAR_FORMAT;
	tv->type = SEM_STRING;
	if (set == CTX_RETURN) {
		ctx_item(scope, ct, NULL, "return", e, tv, &fmt);
	} else {
		for (size_t i = 0; i < vars->n; i++) {
			const struct dwvar *v = &vars->v[i];

			if ((set == CTX_PARMS && !v->is_parm) || (set == CTX_LOCALS && v->is_parm) ||
			    v->depth < 0 || find_var(vars, v->name) != v)
				continue;
			ctx_item(scope, ct, v, v->name, e, tv, &fmt);
		}
	}
	tv->text = fmt.buf ? strbuf_detach(&fmt) : xstrdup("");
	return tv;
}

/* ---- the hooks ------------------------------------------------------------ */

/*
 * A .return probe reads its function's variables as they were at entry,
 * as SystemTap does: the probe's pc is the function's entry, where they
 * are resolved, and the probe's entry half reads them then (tvar
 * at_entry, resolve.c), for the return handler.
 */
static struct dwarf_scope at_entry(const struct dwarf_scope *scope)
{
	struct dwarf_scope entry = *scope;

	entry.at_return = false;
	return entry;
}

static enum sem_type type_of_ctx(const struct dwarf_scope *scope, const struct ctypes *ct,
				 const struct dwvars *vars, enum ctx_set set,
				 const struct expr *e, struct family_error *err,
				 struct tvar **access)
{
	if (!tvar_ctx_whole(e, "dwarf", true, err))
		return SEM_UNKNOWN;
	if (set == CTX_RETURN && !scope->at_return) {
		err->msg = xasprintf("'%s' is only available in .return probes", e->name);
		return SEM_UNKNOWN;
	}
	if (set != CTX_RETURN && scope->at_return) {
		struct dwarf_scope entry = at_entry(scope);

		*access = ctx_access(&entry, ct, vars, set, e);
		(*access)->at_entry = true;
		return SEM_STRING;
	}
	*access = ctx_access(scope, ct, vars, set, e);
	return SEM_STRING;
}

static enum sem_type type_of_var(const struct dwarf_scope *scope, const struct ctypes *ct,
				 const struct dwvars *vars, const struct expr *e,
				 struct family_error *err, struct tvar **access)
{
	const struct dwvar *v;

	if (!strcmp(e->name, "$return")) {
		if (!scope->at_return) {
			err->msg = xstrdup("'$return' is only available in .return probes");
			return SEM_UNKNOWN;
		}
		*access = return_access(scope, ct, e, err);
		return *access ? (*access)->type : SEM_UNKNOWN;
	}
	v = find_var(vars, e->name + 1);
	if (!v) {
		Dwarf_Die enum_type;
		int64_t value;

		if (find_enumerator(scope, e->name + 1, &enum_type, &value)) {
			struct tvar_origin o = { .base = TVAR_BASE_CONST, .addr = (uint64_t)value };

			*access = tvar_resolve_from(ct, dwarf_dieoffset(&enum_type), &o, e,
						    FAMILY_WORD, err);
			return *access ? (*access)->type : SEM_UNKNOWN;
		}
		err->msg = unknown_message(scope, vars, e->name);
		return SEM_UNKNOWN;
	}
	if (scope->at_return) {
		struct dwarf_scope entry = at_entry(scope);

		*access = var_access(&entry, ct, v, e, err);
		if (*access)
			(*access)->at_entry = true;
		return *access ? (*access)->type : SEM_UNKNOWN;
	}
	*access = var_access(scope, ct, v, e, err);
	return *access ? (*access)->type : SEM_UNKNOWN;
}

enum sem_type dwtvar_type(const struct dwarf_scope *scope, const struct expr *e, bool write,
			  struct family_error *err, struct tvar **access)
{
	struct ctypes ct = scope_types(scope);
	struct dwvars vars;
	enum ctx_set set;
	enum sem_type t;

	err->pos = e->pos;
	*access = NULL;
	vars = scope_vars(scope);
	if (ctx_var(e->name, &set))
		t = type_of_ctx(scope, &ct, &vars, set, e, err, access);
	else
		t = type_of_var(scope, &ct, &vars, e, err, access);
	free(vars.v);
	if (write && *access && !tvar_writable(*access)) {
		err->msg = xasprintf("cannot write to target variable '%s': %s", e->name,
				     (*access)->at_entry ? "a .return probe reads it at entry" :
				     "it is not an integer or pointer held in memory or a register");
		tvar_free(*access);
		*access = NULL;
		return SEM_UNKNOWN;
	}
	return t;
}

/* Whether V has a value at the scope's pc: a constant, or a location
 * (list) that covers the pc, or the pc past an -mfentry call (dwfentry.h). */
static bool located_at(const struct dwarf_scope *scope, const struct dwvar *v)
{
	Dwarf_Attribute attr;
	Dwarf_Addr pc = scope->pc;
	Dwarf_Op *ops;
	size_t n = 0;

	if (dwarf_attr_integrate((Dwarf_Die *)&v->die, DW_AT_const_value, &attr))
		return true;
	return dwarf_attr_integrate((Dwarf_Die *)&v->die, DW_AT_location, &attr) &&
	       dwfentry_getlocation((Dwarf_Die *)&scope->func, &attr, &pc, &ops, &n) == 1 &&
	       n > 0;
}

/* As SystemTap's -L lists them: $return first, then the innermost
 * block's variables (a function's probe: the function's own only),
 * each scope's in declaration order (the function's parameters, then its
 * locals), and only those with a value at the probe's address. */
void dwtvar_list(const struct dwarf_scope *scope, struct vec *out)
{
	struct ctypes ct = scope_types(scope);
	struct dwvars vars = scope_vars(scope);
	int deepest = 0;

	if (scope->at_return && dwloc_type_of((Dwarf_Die *)&scope->func)) {
		char *tn = tvar_type_name(&ct, dwloc_type_of((Dwarf_Die *)&scope->func));

		vec_push(out, xasprintf("$return:%s", tn));
		free(tn);
	}
	for (size_t i = 0; i < vars.n; i++)
		if (vars.v[i].depth > deepest)
			deepest = vars.v[i].depth;
	if (scope->function_entry)
		deepest = 0;
	for (int depth = deepest; depth >= 0; depth--) {
		for (size_t i = 0; i < vars.n; i++) {
			const struct dwvar *v = &vars.v[i];
			ctype_id type;
			char *tn;

			if (v->depth != depth || find_var(&vars, v->name) != v ||
			    !located_at(scope, v) || !(type = dwloc_type_of((Dwarf_Die *)&v->die)))
				continue;
			tn = tvar_type_name(&ct, type);
			vec_push(out, xasprintf("$%s:%s", v->name, tn));
			free(tn);
		}
	}
	free(vars.v);
}
