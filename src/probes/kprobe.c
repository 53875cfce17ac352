/* Dwarfless kprobes, as SystemTap has them:
 *
 *   kprobe.function("NAME")[.call]
 *   kprobe.function("NAME").return[.maxactive(N)]
 *   kprobe.module("MOD").function("NAME")[.call]
 *   kprobe.module("MOD").function("NAME").return[.maxactive(N)]
 *   kprobe.statement(ADDRESS).absolute		(guru mode only)
 *
 * A kernel function NAME is checked against the target kernel's symbols
 * at pass 2 and may be a glob ("vfs_*", "{vfs_read,vfs_write}"), which
 * gives one probe per matching function, as SystemTap's kprobe builder
 * does.  Module functions are not checked (the module may not even be
 * loaded yet): they are registered by "MOD:NAME" at run time, where a
 * failure is a warning and the script goes on.
 *
 * The runtime half is runtime/linux/kprobes.c; the entry's fields are:
 * target = the symbol (NULL for an address), module = MOD or NULL,
 * flags = TAP_PF_RETURN, and .u.kprobe: maxactive (-1: SystemTap's
 * default), addr (the absolute address), optional (1 for an optional
 * point: no warning when it does not register).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "glob.h"
#include "kinfo.h"
#include "ksyms.h"
#include "probes/family.h"
#include "translate_int.h"
#include "util.h"

/* Variant bits of the patterns. */
enum {
	KV_MODULE = 1,		/* kprobe.module("M").function("F") */
	KV_CALL = 2,		/* .call */
	KV_RETURN = 4,		/* .return */
	KV_MAXACTIVE = 8,	/* .return.maxactive(N) */
	KV_STATEMENT = 16,	/* kprobe.statement(ADDR).absolute */
};

static const struct pattern_row kprobe_rows[] = {
	{ 0, { PAT_C("kprobe", PA_NONE),
	       PAT_OPT("module", PA_STR, KV_MODULE),
	       PAT_C("function", PA_STR),
	       PAT_OPT("call", PA_NONE, KV_CALL),
	       PAT_OR("return", PA_NONE, KV_RETURN),
	       { "maxactive", PA_NUM, PC_OPTIONAL, KV_MAXACTIVE, KV_RETURN } } },
	{ KV_STATEMENT, { PAT_C("kprobe", PA_NONE), PAT_C("statement", PA_NUM),
			  PAT_C("absolute", PA_NONE) } },
};

/* SystemTap keeps maxactive in an unsigned short. */
#define KPROBE_MAXACTIVE_MAX 65535

static void push_point(struct vec *out, const char *name, const char *module,
		       int variant, int64_t arg, int target_comp)
{
	struct family_point *fp = xcalloc(1, sizeof(*fp));

	fp->target = name ? xstrdup(name) : NULL;
	fp->module = module ? xstrdup(module) : NULL;
	fp->num[0] = arg;
	fp->flags = (variant & KV_RETURN) ? 1 : 0;
	fp->target_comp = target_comp;
	vec_push(out, fp);
}

/*
 * A symbol table made from BTF names each function once: the entry
 * points SYSCALL_DEFINE0() makes, __x64_sys_NAME (an alias of
 * __do_sys_NAME), are not in it.  They are known to exist when the
 * function they stand for is.
 */
static bool btf_syscall_alias(const struct ksyms *ks, const char *name)
{
	static const char *const prefixes[] = { "__x64_sys_", "__ia32_sys_" };
	static const char *const bodies[] = { "__do_sys_", "__se_sys_" };
	bool found = false;

	if (ksyms_source(ks) != KSYMS_BTF)
		return false;
	for (size_t i = 0; i < 2 && !found; i++) {
		size_t len = strlen(prefixes[i]);

		if (strncmp(name, prefixes[i], len) != 0 || !name[len])
			continue;
		for (size_t j = 0; j < 2 && !found; j++) {
			char *body = xasprintf("%s%s", bodies[j], name + len);

			found = ksyms_has(ks, body);
			free(body);
		}
	}
	return found;
}

struct match_ctx {
	struct vec *out;
	int variant;
	int64_t arg;
};

static void push_match(const char *sym, void *ctx)
{
	struct match_ctx *m = ctx;

	push_point(m->out, sym, NULL, m->variant, m->arg, 1);
}

/* The kernel functions NAME names (itself, or a glob's matches, in
 * sorted order) pushed as points; how many. */
static size_t match_functions(const struct ksyms *ks, const char *name, int variant,
			      int64_t arg, struct vec *out)
{
	struct match_ctx m = { .out = out, .variant = variant, .arg = arg };

	if (!glob_is_pattern(name)) {
		if (!ksyms_has(ks, name) && !btf_syscall_alias(ks, name))
			return 0;
		push_point(out, name, NULL, variant, arg, 1);
		return 1;
	}
	return ksyms_match(ks, name, push_match, &m);
}

static int expand_function(const struct probe_point *pp, int variant, int64_t maxactive,
			   struct vec *out, struct family_error *err)
{
	const struct pp_comp *fn = family_comp(pp, 1);
	const char *why = NULL;
	const struct ksyms *ks = kinfo_ksyms(&why);

	if (!ks)
		return family_no_match(err, &fn->arg->pos,
			    xasprintf("no match (the kernel's symbols are unavailable: %s)",
				      why ? why : "unknown reason"));
	if (match_functions(ks, fn->arg->str, variant, maxactive, out) > 0)
		return (int)out->n;
	/* SystemTap lets an optional point resolve to nothing. */
	if (pp->optional)
		return 0;
	/* SystemTap suggests no names here (kernel.function does) */
	return family_no_match(err, &fn->arg->pos, xstrdup("no match"));
}

static int kprobe_expand(const struct point_pattern *pat, const struct probe_point *pp,
			 struct vec *out, struct family_error *err)
{
	int v = pat->variant;
	int64_t maxactive = -1;

	if (v & KV_STATEMENT) {
		const struct pp_comp *st = family_comp(pp, 1);

		if (!pp->pos.file || !pp->pos.file->privileged)
			return family_fail(err, &family_comp(pp, 0)->pos, xstrdup(
				"absolute statement probe in unprivileged script; need stap -g"));
		push_point(out, NULL, NULL, v, st->arg->num, -1);
		return 1;
	}
	if (v & KV_MAXACTIVE) {
		const struct pp_comp *ma = family_comp(pp, pat->n - 1);

		maxactive = ma->arg->num;
		if (maxactive < 0 || maxactive > KPROBE_MAXACTIVE_MAX)
			return family_fail(err, &ma->arg->pos, xasprintf(
				"maxactive value out of range [0,%d]", KPROBE_MAXACTIVE_MAX));
	}
	if (v & KV_MODULE) {
		/* checked when the module is there: at run time */
		push_point(out, family_comp(pp, 2)->arg->str, family_comp(pp, 1)->arg->str, v,
			   maxactive, 2);
		return 1;
	}
	return expand_function(pp, v, maxactive, out, err);
}

/* kretprobes run an entry half for @entry (runtime/linux/kprobes.c). */
static bool kprobe_saves_entry(const struct derived_probe *dp)
{
	return dp->fp.flags != 0;
}

/* -p2: SystemTap's signature comment, the symbol the probe goes on. */
static char *kprobe_print_sig(const struct derived_probe *dp)
{
	if (!dp->fp.target)
		return NULL;
	return xasprintf(" /*  name = %s%s%s*/", dp->fp.module ? dp->fp.module : "",
			 dp->fp.module ? ":" : "", dp->fp.target);
}


/* ---- pass 3 ---------------------------------------------------------- */

static void emit_str_field(FILE *out, const char *field, const char *s)
{
	if (!s) {
		fprintf(out, ".%s = NULL, ", field);
		return;
	}
	char *lit = tr_cstr(s, strlen(s));

	fprintf(out, ".%s = %s, ", field, lit);
	free(lit);
}

static void kprobe_emit(FILE *out, const struct derived_probe *dp, size_t index)
{
	(void)index;
	fputs(".kind = TAP_PROBE_KPROBE, ", out);
	emit_str_field(out, "target", dp->fp.target);
	emit_str_field(out, "module", dp->fp.module);
	fprintf(out, ".flags = %s, ", dp->fp.flags ? "TAP_PF_RETURN" : "0");
	if (dp->fp.target)
		fprintf(out, ".u.kprobe = { .maxactive = %d, .optional = %d }, ",
			(int)dp->fp.num[0], dp->loc->optional ? 1 : 0);
	else	/* an address is above 2^63 in the kernel: unsigned */
		fprintf(out, ".u.kprobe = { .addr = %" PRIu64 "UL, .maxactive = -1, "
			".optional = %d }, ", (uint64_t)dp->fp.num[0], dp->loc->optional ? 1 : 0);
}

const struct probe_family probe_family_kprobe = {
	.name = "kprobe",
	.rows = kprobe_rows,
	.n_rows = sizeof(kprobe_rows) / sizeof(kprobe_rows[0]),
	.expand = kprobe_expand,
	.target_type = NULL,
	.print_sig = kprobe_print_sig,
	.saves_entry = kprobe_saves_entry,
	.armable = true,
	.emit_entry = kprobe_emit,
};
