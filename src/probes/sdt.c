/* SDT markers of user binaries, as SystemTap has them:
 *
 *   process("PATH").mark("NAME")
 *   process("PATH").provider("PROVIDER").mark("NAME")
 *   process("PATH").library("LIB")[.provider("PROVIDER")].mark("NAME")
 *
 * NAME and PROVIDER may be globs; a "-" in NAME stands for "__" (the
 * dtrace spelling, as SystemTap maps it).  PATH is resolved as for every
 * process("...") point (upath.h), and the markers are read from its
 * .note.stapsdt (sdt.h): no DWARF is needed.  Each marker site is one
 * probe, named in pp() by the resolved path and the marker's name
 * (process("/usr/bin/python3.11").mark("function__entry")).  With
 * .library("LIB"), the markers are LIB's (found for PATH as for
 * process(...).library(...).function), the probe goes on LIB's file and
 * pp() names both files resolved.
 *
 * Target variables: $arg1..$argN, longs of the width and sign of the
 * marker's argument descriptors (sdt_arg.h), read from the registers
 * and the user memory of the process at the marker; $$name, $$provider;
 * $$parms and $$vars ("$arg1=0x.. $arg2=0x..").
 *
 * The runtime half is runtime/linux/uprobes.c (TAP_PROBE_UPROBE): a
 * uprobe at the marker's file offset, with the semaphore's file offset
 * as the reference counter the kernel increments in each process while
 * the probe is registered, so that markers guarded by
 * STAP_PROBE_ENABLED-style semaphores fire; it is decremented again
 * when the probe goes.
 */
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "glob.h"
#include "probes/family.h"
#include "probes/uprobe.h"
#include "sdt.h"
#include "sdt_arg.h"
#include "translate_int.h"
#include "tvar.h"
#include "upath.h"
#include "util.h"

enum {
	SV_PROVIDER = 1,	/* .provider("P") */
	SV_LIBRARY = 2,		/* .library("LIB") */
};

static const struct pattern_row sdt_rows[] = {
	{ 0, { PAT_C("process", PA_OPTSTRNUM), PAT_OPT("library", PA_STR, SV_LIBRARY),
	       PAT_OPT("provider", PA_STR, SV_PROVIDER), PAT_C("mark", PA_STR) } },
};

/* A probe's marker (the family point's payload). */
struct sdt_point {
	char *provider;
	char *program;			/* process("...") resolved, for .library
					 * and globs */
	long long pid;			/* the process it is limited to, 0: any,
					 * -1: target() */
	char *args_text;		/* the descriptors as the note has them */
	struct sdt_arg *args;		/* parsed, or NULL with args_err */
	size_t nargs;			/* how many descriptors there are */
	char *args_err;
	uint64_t pc, pc_offset, sem_offset;
	bool pie;			/* ET_DYN: -p2 says ".dynamic" */
	uint64_t load_base;		/* else ".absolute", from this address */
};

static void sdt_free_data(void *data)
{
	struct sdt_point *sp = data;

	free(sp->provider);
	free(sp->program);
	free(sp->args_text);
	sdt_args_free(sp->args, sp->args ? sp->nargs : 0);
	free(sp->args_err);
	free(sp);
}

/* How many whitespace-separated descriptors text holds. */
static size_t count_args(const char *text)
{
	size_t n = 0;

	for (const char *p = text; *p;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		n++;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	return n;
}

/* The global a SYMBOL descriptor names becomes memory at %rip, which is
 * the marker's address when the uprobe hits: its displacement is the
 * symbol's distance from the marker, wherever the binary is loaded. */
static int resolve_symbols(const char *path, struct sdt_point *sp)
{
	for (size_t i = 0; i < sp->nargs; i++) {
		struct sdt_arg *a = &sp->args[i];
		uint64_t addr;

		if (a->kind != SDT_ARG_SYMBOL)
			continue;
		if (!sdt_symbol(path, a->symbol, &addr)) {
			sp->args_err = xasprintf("cannot find symbol '%s' of SDT argument %zu "
						 "in '%s'", a->symbol, i + 1, path);
			return -1;
		}
		a->kind = SDT_ARG_MEM;
		a->reg = SDT_REG_RIP;
		a->value += (int64_t)(addr - sp->pc);
	}
	return 0;
}

static struct sdt_point *make_point(const char *path, const struct sdt_file *f,
				    const struct sdt_marker *m)
{
	struct sdt_point *sp = xcalloc(1, sizeof(*sp));

	sp->provider = xstrdup(m->provider);
	sp->args_text = xstrdup(m->args);
	sp->pc = m->pc;
	sp->pc_offset = m->pc_offset;
	sp->sem_offset = m->sem_offset;
	sp->pie = f->pie;
	sp->load_base = f->pie ? 0 : f->load_base;
	sp->nargs = count_args(m->args);
	if (f->machine != EM_X86_64) {
		sp->args_err = xstrdup("SDT arguments are read on x86-64 binaries only");
	} else if (sdt_args_parse(m->args, &sp->args, &sp->nargs, &sp->args_err) == 0) {
		if (resolve_symbols(path, sp) != 0) {
			sdt_args_free(sp->args, sp->nargs);
			sp->args = NULL;
		}
		sp->nargs = count_args(m->args);
	}
	return sp;
}

/* PR10245 in SystemTap: "a-b" names marker a__b. */
static char *mark_pattern(const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = name; *p; p++)
		if (*p == '-')
			strbuf_adds(&sb, "__");
		else
			strbuf_addc(&sb, *p);
	return sb.buf ? strbuf_detach(&sb) : xstrdup("");
}

/* The markers of PATH (PROGRAM's, or a library of it) that match the
 * point, pushed onto out; false with *err filled when PATH has no SDT
 * notes to read. */
static bool mark_file(const struct probe_point *pp, const struct point_pattern *pat,
		      const char *program, const char *path, bool name_program,
		      long long pid, struct vec *out, struct family_error *err)
{
	const struct pp_comp *prov = (pat->variant & SV_PROVIDER) ?
				     family_comp_named(pp, "provider") : NULL;
	const struct pp_comp *file = (pat->variant & SV_LIBRARY) ?
				     family_comp_named(pp, "library") : family_comp(pp, 0);
	const struct pp_comp *mark = family_comp(pp, pat->n - 1);
	char *why = NULL, *name;
	struct sdt_file f;

	if (sdt_read(path, &f, &why) != 0) {
		family_fail(err, file->arg ? &file->arg->pos : &file->pos, why);
		return false;
	}
	name = mark_pattern(mark->arg->str);
	for (size_t i = 0; i < f.n; i++) {
		const struct sdt_marker *m = &f.v[i];
		struct family_point *fp;
		struct sdt_point *sp;

		if (!glob_match(name, m->name) || (prov && !glob_match(prov->arg->str, m->provider)))
			continue;
		fp = xcalloc(1, sizeof(*fp));
		fp->target = xstrdup(m->name);
		fp->module = xstrdup(path);
		fp->target_comp = pat->n - 1;
		fp->data = sp = make_point(path, &f, m);
		sp->pid = pid;
		if (name_program)
			sp->program = xstrdup(program);
		vec_push(out, fp);
	}
	sdt_file_free(&f);
	free(name);
	return true;
}

static int sdt_expand(const struct point_pattern *pat, const struct probe_point *pp,
		      struct vec *out, struct family_error *err)
{
	const struct pp_comp *proc = family_comp(pp, 0);
	const struct pp_comp *lib = (pat->variant & SV_LIBRARY) ?
				    family_comp_named(pp, "library") : NULL;
	const struct pp_comp *mark = family_comp(pp, pat->n - 1);
	bool globbed = (proc->arg && proc->arg->kind == E_STR && upath_has_glob(proc->arg->str)) ||
		       (lib && upath_has_glob(lib->arg->str));
	/* one file of a glob that fails in an optional point is left out */
	bool skip_failure = globbed && pp->optional;
	long long pid;
	size_t nprog, npath;
	char *why = NULL, **programs = uprobe_programs(pp, &pid, &nprog, err);

	if (!programs)
		return -1;
	for (size_t i = 0; i < nprog; i++) {
		char **paths = lib ? upath_libraries(programs[i], lib->arg->str, &npath, &why)
				   : upath_list_of(xstrdup(programs[i]), &npath);
		bool ok = true;

		if (!paths && skip_failure) {
			free(why);
			continue;
		}
		if (!paths) {
			upath_list_free(programs);
			return family_fail(err, &lib->arg->pos, why);
		}
		for (size_t j = 0; ok && j < npath; j++) {
			struct family_error mine = { 0 };

			ok = mark_file(pp, pat, programs[i], paths[j], lib || globbed, pid, out,
				       &mine);
			if (!ok && skip_failure) {
				free(mine.msg);
				ok = true;
			} else if (!ok) {
				*err = mine;
			}
		}
		upath_list_free(paths);
		if (!ok) {
			upath_list_free(programs);
			return -1;
		}
	}
	upath_list_free(programs);
	if (out->n > 0 || pp->optional)
		return (int)out->n;
	return family_no_match(err, &mark->arg->pos, xstrdup("no match"));
}

/* pp() and -p2 name the probe by the marker's provider too when the
 * point gave one (a glob among them), and by the program and the library
 * resolved for .library. */
static struct probe_point *sdt_derived_point(const struct derived_probe *dp)
{
	const struct sdt_point *sp = dp->fp.data;
	struct probe_point *named;

	if (!(dp->variant & (SV_PROVIDER | SV_LIBRARY)) && !sp->program)
		return NULL;
	named = probe_point_new(&dp->loc->pos);
	for (size_t i = 0; i < dp->loc->comps.n; i++) {
		const struct pp_comp *c = dp->loc->comps.v[i];
		struct expr *arg = expr_dup(c->arg);
		const char *text = NULL;

		if (strcmp(c->name, "provider") == 0)
			text = sp->provider;
		else if (strcmp(c->name, "process") == 0 && sp->program)
			text = sp->program;
		else if (strcmp(c->name, "library") == 0)
			text = dp->fp.module;
		if (text && arg && arg->kind == E_STR) {
			free(arg->str);
			arg->str = xstrdup(text);
			arg->len = strlen(arg->str);
		}
		vec_push(&named->comps, pp_comp_new(xstrdup(c->name), arg, &c->pos));
	}
	return named;
}

/* -p2: where the uprobe goes, as SystemTap prints it. */
static char *sdt_print_sig(const struct derived_probe *dp)
{
	const struct sdt_point *sp = dp->fp.data;

	return xasprintf(" /* pc=%s+%#" PRIx64 " */", sp->pie ? ".dynamic" : ".absolute",
			 sp->pc - sp->load_base);
}

/* -p2: a marker is the statement(ADDR) SystemTap places it as, in the
 * binary that holds it, for its point and its derivation. */
static void sdt_print_point(const struct derived_probe *dp, char **point, char **chain)
{
	const struct sdt_point *sp = dp->fp.data;

	*point = xasprintf("process(\"%s\").statement(0x%" PRIx64 ")",
			   dp->fp.module ? dp->fp.module : sp->program ? sp->program : "", sp->pc);
	*chain = xstrdup(*point);
}

/* @cast's default: the binary that holds the marker. */
static const char *sdt_cast_module(const struct derived_probe *dp)
{
	return dp->fp.module;
}

/* ---- target variables ------------------------------------------------- */

static struct tvar *text_access(const struct expr *e, const char *text)
{
	struct tvar *tv = tvar_new(TVAR_BASE_NONE, 0, e->name, &e->pos);

	tv->leaf = TVAR_TEXT;
	tv->type = SEM_STRING;
	tv->text = xstrdup(text);
	return tv;
}

/* Argument a as an access path: a register's value, a constant, or a
 * read of the process's memory. */
static struct tvar *arg_access(const struct sdt_arg *a, const char *name,
			       const struct srcpos *pos)
{
	struct tvar *tv;

	switch (a->kind) {
	case SDT_ARG_CONST:
		tv = tvar_new(TVAR_BASE_CONST, 0, name, pos);
		tv->addr = (uint64_t)a->value;
		tv->leaf = TVAR_VALUE;
		tv->size = a->size;
		break;
	case SDT_ARG_REG:
		tv = tvar_new(TVAR_BASE_REG, a->reg, name, pos);
		tv->leaf = TVAR_VALUE;
		/* the bits the register holds, extended as the argument's type */
		tv->size = a->reg_size < a->size ? a->reg_size : a->size;
		break;
	default:
		tv = tvar_new(TVAR_BASE_REG, a->reg, name, pos);
		tv->addr = (uint64_t)a->value;
		if (a->has_index)
			tvar_push_step(&tv->steps, &tv->nsteps, (struct tvar_step){
				.kind = TVAR_ADD_REG, .reg = a->index_reg, .bytes = a->scale });
		tv->leaf = TVAR_READ;
		tv->size = a->size;
		tv->user = true;
		break;
	}
	tv->is_signed = a->is_signed;
	tv->type = SEM_LONG;
	return tv;
}

/* $argN's N, or 0 for any other name. */
static size_t arg_number(const char *name)
{
	char *end;
	unsigned long n;

	if (strncmp(name, "$arg", 4) != 0 || name[4] < '1' || name[4] > '9')
		return 0;
	n = strtoul(name + 4, &end, 10);
	return *end ? 0 : n;
}

/* $$parms, $$vars: "$arg1=%#x $arg2=%#x ..." as SystemTap's sprintf. */
static struct tvar *parms_access(const struct sdt_point *sp, const struct expr *e)
{
	struct tvar *tv = tvar_new(TVAR_BASE_NONE, 0, e->name, &e->pos);
	struct strbuf fmt = STRBUF_INIT;

	tv->leaf = TVAR_FORMAT;
	tv->type = SEM_STRING;
	for (size_t i = 0; i < sp->nargs; i++) {
		char *name = xasprintf("$arg%zu", i + 1);

		strbuf_addf(&fmt, "%s%s=%%#x", i ? " " : "", name);
		tvar_add_arg(tv, arg_access(&sp->args[i], name, &e->pos));
		free(name);
	}
	tv->text = fmt.buf ? strbuf_detach(&fmt) : xstrdup("");
	return tv;
}

static enum sem_type fail_type(struct family_error *err, char *msg)
{
	err->msg = msg;
	return SEM_UNKNOWN;
}

static bool is_context_var(const char *name)
{
	return !strcmp(name, "$$name") || !strcmp(name, "$$provider") ||
	       !strcmp(name, "$$parms") || !strcmp(name, "$$vars");
}

static enum sem_type context_type(const struct derived_probe *dp, const struct expr *e,
				  bool write, struct family_error *err, struct tvar **access)
{
	const struct sdt_point *sp = dp->fp.data;

	if (e->addressof)
		return fail_type(err, xstrdup("cannot take address of context variable"));
	if (write)
		return fail_type(err, xasprintf("write to sdt variable '%s' not permitted",
						e->name));
	if (e->comps.n)
		return fail_type(err, xasprintf("'%s' takes no '->', '[' or '$'", e->name));
	if (!strcmp(e->name, "$$name")) {
		*access = text_access(e, dp->fp.target);
	} else if (!strcmp(e->name, "$$provider")) {
		*access = text_access(e, sp->provider);
	} else {
		if (!sp->args && sp->nargs)
			return fail_type(err, xstrdup(sp->args_err));
		*access = parms_access(sp, e);
	}
	return SEM_STRING;
}

static enum sem_type sdt_target_type(const struct derived_probe *dp, const struct expr *e,
				     bool write, struct family_error *err,
				     struct tvar **access)
{
	const struct sdt_point *sp = dp->fp.data;
	size_t n = arg_number(e->name);

	err->pos = e->pos;
	if (is_context_var(e->name))
		return context_type(dp, e, write, err, access);
	/* SystemTap looks any other name up in DWARF, which .mark has not */
	if (n < 1 || n > sp->nargs)
		return fail_type(err, xstrdup("target-symbol requires debuginfo"));
	if (!sp->args)
		return fail_type(err, xstrdup(sp->args_err));
	if (e->addressof)
		return fail_type(err, xstrdup("cannot take address of sdt variable"));
	if (e->comps.n)
		return fail_type(err, xasprintf("'%s' is a long without debuginfo: it takes no "
						"'->', '[' or '$'", e->name));
	if (write)
		return fail_type(err, xasprintf("write to sdt variable '%s' not permitted",
						e->name));
	*access = arg_access(&sp->args[n - 1], e->name, &e->pos);
	return SEM_LONG;
}

/* -L: "$argN:long" for each argument, as SystemTap lists them. */
static void sdt_list_targets(const struct derived_probe *dp, struct vec *out)
{
	const struct sdt_point *sp = dp->fp.data;

	for (size_t i = 0; i < sp->nargs; i++)
		vec_push(out, xasprintf("$arg%zu:long", i + 1));
}

/* --privilege=stapusr: the runtime reports only the user's processes. */
static bool sdt_unprivileged(const struct point_pattern *pat)
{
	(void)pat;
	return true;
}

/* ---- pass 3 ------------------------------------------------------------ */

static void sdt_emit(FILE *out, const struct derived_probe *dp, size_t index)
{
	const struct sdt_point *sp = dp->fp.data;
	char *path = tr_cstr(dp->fp.module, strlen(dp->fp.module));

	(void)index;
	/* .addr, the marker's link-time address, gives the load bias that
	 * @var's statics of the binary are read at */
	fprintf(out, ".kind = TAP_PROBE_UPROBE, .target = %s, .arg = { %lldLL, 0 }, "
		".u.uprobe = { .offset = %#" PRIx64 "ULL, .ref_ctr = %#" PRIx64 "ULL, "
		".addr = %#" PRIx64 "ULL, .maxactive = -1 }, ", path, sp->pid, sp->pc_offset,
		sp->sem_offset, sp->pc);
	free(path);
}

/* @var("name") in a marker probe looks in the file the marker sits in,
 * as in SystemTap (whose markers are statement probes of that file). */
static const char *sdt_debug_module(const struct derived_probe *dp)
{
	return dp->fp.module;
}

const struct probe_family probe_family_sdt = {
	.name = "process.mark",
	.rows = sdt_rows,
	.n_rows = sizeof(sdt_rows) / sizeof(sdt_rows[0]),
	.expand = sdt_expand,
	.target_type = sdt_target_type,
	.list_targets = sdt_list_targets,
	.print_sig = sdt_print_sig,
	.print_point = sdt_print_point,
	.cast_module = sdt_cast_module,
	.derived_point = sdt_derived_point,
	.unprivileged = sdt_unprivileged,
	.debug_module = sdt_debug_module,
	.free_data = sdt_free_data,
	.emit_entry = sdt_emit,
};
