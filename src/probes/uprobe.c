/* User-space function probes over the kernel's uprobes, as SystemTap has
 * them:
 *
 *   process("PATH").function("PAT[@FILE[:N]]")[.call | .exported | .inline
 *						| .return[.maxactive(N)]]
 *   process("PATH").statement("PAT@FILE:N")
 *   process("PATH").plt("NAME")[.return]
 *   process("PATH").function(ADDR)[.call | .exported | .return]
 *   process("PATH").statement(ADDR)[.nearest]
 *   process("PATH").library("LIB").function(...) ... .plt(...)
 *   process(PID)... and process... (-c CMD or -x PID: the target's program)
 *
 * PATH is resolved as SystemTap resolves it (upath.h): absolute, or found
 * on $PATH, with links resolved; LIB in the program's run path and the
 * library directories.  Functions are found in the binary's ELF symbol
 * table (ufunc.c names the probes and places them); each probe is a
 * uprobe at a file offset of the binary (runtime/linux/uprobes.c,
 * TAP_PROBE_UPROBE), which the payload carries from pass 2 to pass 3.
 *
 * A process(PID) probe, and one on the -c/-x target's program, runs
 * only in that process (arg[0]: the pid, or -1 for target()).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dwtvar.h"
#include "glob.h"
#include "probes/family.h"
#include "tvar.h"
#include "probes/uprobe.h"
#include "pptext.h"
#include "translate_int.h"
#include "uelf.h"
#include "upath.h"
#include "util.h"

static const struct pattern_row uprobe_rows[] = {
	{ 0, { PAT_C("process", PA_OPTSTRNUM),
	       PAT_OPT("library", PA_STR, UV_LIBRARY),
	       PAT_C("function", PA_STR),
	       PAT_OPT("call", PA_NONE, UV_CALL),
	       PAT_OR("exported", PA_NONE, UV_EXPORTED),
	       PAT_OR("inline", PA_NONE, UV_INLINE),
	       PAT_OR("return", PA_NONE, UV_RETURN),
	       PAT_OR("label", PA_STR, UV_LABEL),
	       { "maxactive", PA_NUM, PC_OPTIONAL, UV_MAXACTIVE, UV_RETURN } } },
	{ UV_CALLEE, { PAT_C("process", PA_OPTSTRNUM),
		       PAT_OPT("library", PA_STR, UV_LIBRARY),
		       PAT_C("function", PA_STR),
		       PAT_C("callee", PA_STR),
		       PAT_OPT("call", PA_NONE, UV_CALL),
		       PAT_OR("return", PA_NONE, UV_RETURN) } },
	{ UV_CALLEES, { PAT_C("process", PA_OPTSTRNUM),
			PAT_OPT("library", PA_STR, UV_LIBRARY),
			PAT_C("function", PA_STR),
			PAT_C("callees", PA_OPTNUM) } },
	{ UV_STATEMENT, { PAT_C("process", PA_OPTSTRNUM),
			  PAT_OPT("library", PA_STR, UV_LIBRARY),
			  PAT_C("statement", PA_STR),
			  PAT_OPT_RESOLVED("nearest", PA_NONE, UV_NEAREST) } },
	{ UV_ADDR, { PAT_C("process", PA_OPTSTRNUM),
		     PAT_OPT("library", PA_STR, UV_LIBRARY),
		     PAT_C("function", PA_NUM),
		     PAT_OPT("call", PA_NONE, UV_CALL),
		     PAT_OR("exported", PA_NONE, UV_EXPORTED),
		     PAT_OR("return", PA_NONE, UV_RETURN) } },
	/* .nearest asks nothing more of an address, as in SystemTap */
	{ UV_ADDR | UV_STATEMENT, { PAT_C("process", PA_OPTSTRNUM),
				    PAT_OPT("library", PA_STR, UV_LIBRARY),
				    PAT_C("statement", PA_NUM),
				    PAT_OPT_RESOLVED("nearest", PA_NONE, UV_NEAREST) } },
	{ UV_PLT, { PAT_C("process", PA_OPTSTRNUM),
		    PAT_OPT("library", PA_STR, UV_LIBRARY),
		    PAT_C("plt", PA_OPTSTR),
		    PAT_OPT("return", PA_NONE, UV_RETURN) } },
};

/* SystemTap keeps maxactive in an unsigned short. */
#define UPROBE_MAXACTIVE_MAX 65535

/* The component named NAME of pp (matched by pattern pat), or NULL. */
static const struct pp_comp *comp_named(const struct point_pattern *pat,
					const struct probe_point *pp, const char *name, int *index)
{
	for (int i = 0; i < pat->n; i++)
		if (strcmp(pat->c[i].name, name) == 0) {
			if (index)
				*index = i;
			return family_comp(pp, i);
		}
	return NULL;
}

char **uprobe_programs(const struct probe_point *pp, long long *pid, size_t *n,
			       struct family_error *err)
{
	const struct pp_comp *c0 = family_comp(pp, 0);
	char *why = NULL, **paths;

	*pid = 0;
	*n = 0;
	if (!c0->arg) {
		*pid = -1;
		paths = upath_list_of(upath_target_program(0, &why), n);
	} else if (c0->arg->kind == E_NUM) {
		if (c0->arg->num <= 0 || c0->arg->num > INT_MAX) {
			family_fail(err, &c0->arg->pos,
				    xasprintf("invalid process id %" PRId64, c0->arg->num));
			return NULL;
		}
		*pid = c0->arg->num;
		paths = upath_list_of(upath_target_program(*pid, &why), n);
	} else {
		paths = upath_programs(c0->arg->str, n, &why);
	}
	if (!paths)
		family_fail(err, c0->arg ? &c0->arg->pos : &c0->pos, why);
	return paths;
}

/* The probes of q (its program and library set) added to *total; false
 * with *err filled when they fail to resolve.  One file of a glob that
 * fails in an optional point ('?') is left out, as SystemTap derives
 * each match on its own. */
static bool expand_file(struct ufunc_query *q, bool skip_failure, int *total,
			struct family_error *err)
{
	struct family_error mine = { 0 };
	int n = ufunc_expand(q, &mine);

	if (n >= 0) {
		*total += n;
		return true;
	}
	if (skip_failure) {
		free(mine.msg);
		return true;
	}
	*err = mine;
	return false;
}

static int uprobe_expand(const struct point_pattern *pat, const struct probe_point *pp,
			 struct vec *out, struct family_error *err)
{
	struct ufunc_query q = { .pp = pp, .variant = pat->variant, .maxactive = -1, .out = out };
	const struct pp_comp *lib = comp_named(pat, pp, "library", NULL);
	const struct pp_comp *c0 = family_comp(pp, 0);
	bool globbed = (c0->arg && c0->arg->kind == E_STR && upath_has_glob(c0->arg->str)) ||
		       (lib && upath_has_glob(lib->arg->str));
	char *why = NULL, **programs;
	size_t nprog, nlib = 0;
	int total = 0;
	bool ok = true;

	if (pat->variant & UV_MAXACTIVE) {
		const struct pp_comp *ma = family_comp(pp, pat->n - 1);

		q.maxactive = ma->arg->num;
		if (q.maxactive < 0 || q.maxactive > UPROBE_MAXACTIVE_MAX)
			return family_fail(err, &ma->arg->pos, xasprintf(
				"maxactive value out of range [0,%d]", UPROBE_MAXACTIVE_MAX));
	}
	q.func_comp = comp_named(pat, pp, (pat->variant & UV_PLT) ? "plt"
					  : (pat->variant & UV_STATEMENT) ? "statement"
					  : "function", &q.func_index);
	if (pat->variant & UV_LABEL) {
		int at;

		q.label = comp_named(pat, pp, "label", &at)->arg->str;
	}
	if (pat->variant & (UV_CALLEE | UV_CALLEES))
		q.callee = comp_named(pat, pp, (pat->variant & UV_CALLEE) ? "callee" : "callees",
				      NULL);
	programs = uprobe_programs(pp, &q.pid, &nprog, err);
	if (!programs)
		return -1;
	for (size_t i = 0; ok && i < nprog; i++) {
		char **libs = NULL;

		q.program = programs[i];
		q.library = NULL;
		if (lib && !(libs = upath_libraries(q.program, lib->arg->str, &nlib, &why))) {
			if (globbed && pp->optional) {
				free(why);
				continue;
			}
			family_fail(err, &lib->arg->pos, why);
			ok = false;
			break;
		}
		for (size_t j = 0; ok && j < (libs ? nlib : 1); j++) {
			q.library = libs ? libs[j] : NULL;
			ok = expand_file(&q, globbed && pp->optional, &total, err);
		}
		upath_list_free(libs);
	}
	upath_list_free(programs);
	return ok ? total : -1;
}

/* pp() and -p2: the point with the files resolved and the function as
 * SystemTap names it (its declaration's file and line with DWARF). */
static struct probe_point *uprobe_derived_point(const struct derived_probe *dp)
{
	const struct uprobe_data *d = dp->fp.data;
	struct probe_point *named = probe_point_new(&dp->loc->pos);

	for (size_t i = 0; i < dp->loc->comps.n; i++) {
		const struct pp_comp *c = dp->loc->comps.v[i];
		struct expr *arg = expr_dup(c->arg);
		const char *text = NULL;

		if (strcmp(c->name, "process") == 0 && (!arg || arg->kind == E_STR))
			text = d->program;
		else if (strcmp(c->name, "library") == 0)
			text = d->library;
		else if ((dp->variant & UV_ADDR) && arg && arg->kind == E_NUM &&
			 (!strcmp(c->name, "function") || !strcmp(c->name, "statement")))
			arg->op = PP_NUM_HEX;	/* the address, as SystemTap names it */
		if (text) {
			if (!arg)
				arg = expr_new(E_STR, &c->pos);
			free(arg->str);
			arg->str = xstrdup(text);
			arg->len = strlen(text);
		}
		vec_push(&named->comps, pp_comp_new(xstrdup(c->name), arg, &c->pos));
	}
	return named;
}

/* A function(ADDR) probe is listed (and derived in -p2) from where it
 * goes, as SystemTap's: the function at 0x11b6 from 0x11c5, past its
 * prologue. */
static struct probe_point *uprobe_listed_point(const struct derived_probe *dp)
{
	const struct uprobe_data *d = dp->fp.data;
	struct probe_point *named;

	if (!(dp->variant & UV_ADDR) || (dp->variant & UV_STATEMENT) || !d)
		return NULL;
	named = uprobe_derived_point(dp);
	for (size_t i = 0; i < named->comps.n; i++) {
		struct pp_comp *c = named->comps.v[i];

		if (!strcmp(c->name, "function") && c->arg)
			c->arg->num = (int64_t)d->addr;
	}
	return named;
}

/* @cast's default: the binary probed, program or library. */
static const char *uprobe_cast_module(const struct derived_probe *dp)
{
	const struct uprobe_data *d = dp->fp.data;

	return d ? d->file : NULL;
}

/* -p2: where the probe goes, as SystemTap's "pc=" comment: the address
 * in the binary, in its ".dynamic" (position-independent) or ".absolute"
 * section. */
static char *uprobe_print_sig(const struct derived_probe *dp)
{
	const struct uprobe_data *d = dp->fp.data;

	return xasprintf(" /* pc=%s+0x%" PRIx64 " */", d->pie ? ".dynamic" : ".absolute",
			 d->rel_addr);
}

/* -p2's point, as SystemTap registers it: in the library's own
 * process("LIB") for a .library probe, without its .label, and a .plt
 * entry as the statement(ADDR) it is placed at (its derivation too); a
 * .function(ADDR) probe is derived from the address it is placed at. */
static void uprobe_print_point(const struct derived_probe *dp, char **point, char **chain)
{
	const struct uprobe_data *d = dp->fp.data;
	struct strbuf sb = STRBUF_INIT;

	if (dp->variant & UV_PLT) {
		*point = xasprintf("process(\"%s\").statement(0x%" PRIx64 ")%s", d->file, d->addr,
				   (dp->variant & UV_RETURN) ? ".return" : "");
		*chain = xstrdup(*point);
		return;
	}
	if (!(dp->variant & (UV_LIBRARY | UV_LABEL)))
		return;
	for (size_t i = 0; i < dp->loc->comps.n; i++) {
		const struct pp_comp *c = dp->loc->comps.v[i];

		if (!strcmp(c->name, "label") ||
		    (d->library && !strcmp(c->name, "process")))
			continue;
		if (d->library && !strcmp(c->name, "library"))
			strbuf_addf(&sb, "process(\"%s\")", d->library);
		else
			pp_comps_text(&sb, dp->loc, i, i + 1);
	}
	*point = strbuf_detach(&sb);
}

/* $$name in a .plt probe: the name of the PLT entry's symbol, with or
 * without DWARF (SystemTap's examples/process/ltrace.stp reads it). */
static struct tvar *plt_name(const struct derived_probe *dp, const struct expr *e, bool write)
{
	struct tvar *tv;

	if (write || e->addressof || e->comps.n || strcmp(e->name, "$$name"))
		return NULL;
	tv = tvar_new(TVAR_BASE_NONE, 0, e->name, &e->pos);
	tv->leaf = TVAR_TEXT;
	tv->type = SEM_STRING;
	tv->text = xstrdup(dp->fp.target);
	return tv;
}

/* $var ... over the binary's DWARF (dwtvar.h), read from the probed
 * process's memory. */
static enum sem_type uprobe_target_type(const struct derived_probe *dp, const struct expr *e,
					bool write, struct family_error *err,
					struct tvar **access)
{
	const struct uprobe_data *d = dp->fp.data;
	struct tvar *tv;
	enum sem_type t;

	if ((d->plt && (tv = plt_name(dp, e, write))) ||
	    (!d->has_dwarf && (tv = tvar_empty_context(e, write)))) {
		if (access)
			*access = tv;
		else
			tvar_free(tv);
		return SEM_STRING;
	}
	if (!d->has_dwarf) {
		err->pos = e->pos;
		err->msg = xasprintf("target variables need debuginfo, and '%s' has none "
				     "[man warning::debuginfo]", d->file);
		return SEM_UNKNOWN;
	}
	t = dwtvar_type(&d->scope, e, write, err, access);
	if (access)
		tvar_set_user(*access);
	return t;
}

static void uprobe_list_targets(const struct derived_probe *dp, struct vec *out)
{
	const struct uprobe_data *d = dp->fp.data;

	if (d->has_dwarf)
		dwtvar_list(&d->scope, out);
}

/* .return probes run an entry half for @entry and the parameters. */
static bool uprobe_saves_entry(const struct derived_probe *dp)
{
	return dp->fp.flags != 0;
}

/* Only the user's own processes: SystemTap lets stapusr probe those. */
static bool uprobe_unprivileged(const struct point_pattern *pat)
{
	(void)pat;
	return true;
}

/* @var("name") in a process probe looks in the binary probed (statics
 * are read at their address plus its load bias at the hit). */
static const char *uprobe_debug_module(const struct derived_probe *dp)
{
	const struct uprobe_data *d = dp->fp.data;

	return d ? d->file : NULL;
}

/* ---- pass 3 ---------------------------------------------------------- */

static void uprobe_emit(FILE *out, const struct derived_probe *dp, size_t index)
{
	const struct uprobe_data *d = dp->fp.data;
	char *lit = tr_cstr(d->file, strlen(d->file));

	(void)index;
	fprintf(out, ".kind = TAP_PROBE_UPROBE, .target = %s, .module = NULL, .flags = %s, "
		".arg = { %lldLL, 0 }, .u.uprobe = { .offset = %" PRIu64 "ULL, .ref_ctr = 0, "
		".addr = %" PRIu64 "ULL, .entry_offset = %" PRIu64 "ULL, .entry_addr = %"
		PRIu64 "ULL, .maxactive = %d }, ", lit, dp->fp.flags ? "TAP_PF_RETURN" : "0",
		d->pid, d->offset, d->addr, d->entry_offset, d->entry_addr, (int)dp->fp.num[0]);
	free(lit);
}

const struct probe_family probe_family_uprobe = {
	.name = "process.function",
	.rows = uprobe_rows,
	.n_rows = sizeof(uprobe_rows) / sizeof(uprobe_rows[0]),
	.expand = uprobe_expand,
	.target_type = uprobe_target_type,
	.list_targets = uprobe_list_targets,
	.derived_point = uprobe_derived_point,
	.listed_point = uprobe_listed_point,
	.cast_module = uprobe_cast_module,
	.print_sig = uprobe_print_sig,
	.print_point = uprobe_print_point,
	.saves_entry = uprobe_saves_entry,
	.debug_module = uprobe_debug_module,
	.unprivileged = uprobe_unprivileged,
	.emit_entry = uprobe_emit,
};
