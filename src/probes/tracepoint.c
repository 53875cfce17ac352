/* kernel.trace("NAME"): the kernel's tracepoints, from its BTF, and its
 * modules' (sunrpc:rpc_task_begin), from theirs (modtp.h names which
 * module defines which; the runtime registers those while the module is
 * loaded).
 *
 * NAME is a glob over the event names ("sched_*"), or "SYSTEM:NAME" with
 * globs in both ("sched:*").  Each match is one probe, printed as
 * kernel.trace("SYSTEM:NAME") (just "NAME" when the system is unknown).
 * The event's arguments are the probe's $variables with their BTF types,
 * resolved in pass 2 into access paths from their slot of the event
 * (src/tvar_resolve.h); $$parms and $$vars print them all, $$name and
 * $$system name the event.
 *
 * kernel.tracepoint("NAME") is newer SystemTap's spelling for the same
 * events, from the types of their btf_trace_NAME callbacks: printed
 * without the system, its arguments are $arg1..$argN in order.
 *
 * Pass 3 writes one callback per probe with the tracepoint's own
 * signature: on x86-64 every argument an event may have here (an
 * integer, enum, bool or pointer) arrives in its own unsigned long, so
 * the callback stores them in an array on its stack and hands that to
 * the runtime as the event (runtime/linux/tracepoints.c registers it).
 */
#include <stdlib.h>
#include <string.h>

#include "btf.h"
#include "ctypes.h"
#include "glob.h"
#include "kinfo.h"
#include "modtp.h"
#include "probes/family.h"
#include "probes/tracepoint.h"
#include "suggest.h"
#include "tpcatalog.h"
#include "translate_int.h"
#include "tvar_resolve.h"
#include "types.h"
#include "util.h"

enum { TRACE_NAMED, TRACE_POSITIONAL };

static const struct pattern_row trace_rows[] = {
	{ TRACE_NAMED, { PAT_C("kernel", PA_NONE), PAT_C("trace", PA_STR) } },
	{ TRACE_POSITIONAL, { PAT_C("kernel", PA_NONE), PAT_C("tracepoint", PA_STR) } },
};

/* The payload of a tracepoint probe: its event, resolved by pass 2 (in
 * the catalogue kinfo keeps for the whole run), the BTF its types are in
 * and the module that defines it (NULL: the kernel itself), and whether
 * its arguments are $arg1..$argN (kernel.tracepoint). */
struct trace_data {
	const struct btf_tracepoint *tp;
	const struct btf *btf;
	const char *module;
	bool positional;
};

/* The name of argument i of tp ("prev", or "arg2" when positional),
 * "" for one without a name; owned by the caller. */
static char *arg_name(const struct btf_tracepoint *tp, uint32_t i, bool positional)
{
	return positional ? xasprintf("arg%u", i + 1) : xstrdup(tp->args[i].name);
}

/* The BTF and event of a tracepoint probe. */
static const struct btf_tracepoint *probe_event(const struct derived_probe *dp,
						const struct btf **btf)
{
	const struct trace_data *td = dp->fp.data;

	*btf = td ? td->btf : NULL;
	return td && *btf ? td->tp : NULL;
}

/* Whether the callback can receive every argument in a register. */
static bool event_attachable(const struct btf *btf, const struct btf_tracepoint *tp)
{
	struct ctypes ct = ctypes_btf(btf);

	for (uint32_t i = 0; i < tp->nargs; i++)
		if (!tvar_fits_register(&ct, tp->args[i].type))
			return false;
	return true;
}

struct expand_ctx {
	const struct btf *btf;
	const char *module;	/* of the events being added, or NULL */
	struct vec *out;
	bool positional;
	const struct btf_tracepoint *unattachable;	/* first one seen */
};

static void add_match(const struct btf_tracepoint *tp, void *arg)
{
	struct expand_ctx *x = arg;
	struct family_point *fp;
	struct trace_data *td;

	if (!event_attachable(x->btf, tp)) {
		if (!x->unattachable)
			x->unattachable = tp;
		return;
	}
	fp = xcalloc(1, sizeof(*fp));
	if (tp->system && !x->positional)
		fp->target = xasprintf("%s:%s", tp->system, tp->name);
	else
		fp->target = xstrdup(tp->name);
	fp->target_comp = 1;
	td = xcalloc(1, sizeof(*td));
	td->tp = tp;
	td->btf = x->btf;
	td->module = x->module;
	td->positional = x->positional;
	fp->data = td;
	vec_push(x->out, fp);
}

/* SystemTap's "no match", with the nearest event names. */
static char *no_match_message(const struct btf_tracepoints *tps, const char *pattern)
{
	const char *colon = strchr(pattern, ':');
	size_t n = btf_tracepoints_count(tps);
	struct nearest nr;

	nearest_init(&nr, colon ? colon + 1 : pattern);
	for (size_t i = 0; i < n; i++)
		nearest_offer(&nr, btf_tracepoint_at(tps, i)->name);
	return nearest_no_match(&nr, "tracepoints");
}

/* Whether module (a name the module index holds: one string each) is in
 * modules. */
static bool has_header_events(const struct vec *modules, const char *module)
{
	for (size_t i = 0; i < modules->n; i++)
		if (modules->v[i] == module)
			return true;
	return false;
}

/*
 * The events of modules that match pattern, as SystemTap finds them in
 * the kernel's headers (sunrpc:rpc_task_begin): the modules named for
 * each event are read only when the headers' system and the name match,
 * and each matching module's BTF gives the event's arguments.
 */
static void add_module_matches(const struct btf_tracepoints *tps, const char *pattern,
			       struct expand_ctx *x)
{
	const struct modtp_index *idx;
	const struct btf *kernel_btf = x->btf;
	const char *colon = strchr(pattern, ':');
	/* the event names pattern asks for, when it says without braces */
	const char *name_pattern = strchr(pattern, '{') ? NULL : colon ? colon + 1 : pattern;
	struct vec in_headers = { 0 };	/* modules with events the headers name */
	size_t n;

	/* an event of the kernel's named in full is not a module's */
	if (!glob_is_pattern(pattern) && x->out->n > 0)
		return;
	idx = kinfo_module_events();
	n = idx ? modtp_count(idx) : 0;
	for (size_t i = 0; i < n; i++) {
		const struct modtp_event *ev = modtp_at(idx, i);

		if (btf_tracepoints_header_system(tps, ev->event) &&
		    !has_header_events(&in_headers, ev->module))
			vec_push(&in_headers, (void *)ev->module);
	}

	for (size_t i = 0; i < n; i++) {
		const struct modtp_event *ev = modtp_at(idx, i);
		const char *system = btf_tracepoints_header_system(tps, ev->event);
		const struct btf_tracepoints *mtps;
		const struct btf_tracepoint *tp;

		/* an event the headers declare through a macro of their own
		 * has its system from its class, in the module's BTF: its
		 * name must match before that is read, and for SYSTEM:NAME
		 * its module must have events the headers name (the module
		 * of a header a headers package does not ship has none, and
		 * its events no system) */
		/* (an event the kernel has too is the kernel's) */
		if (btf_tracepoint_find(tps, ev->event) ||
		    (system && !glob_match_pair(pattern, ':', system, ev->event)) ||
		    (!system && name_pattern && !glob_match(name_pattern, ev->event)) ||
		    (!system && colon && !has_header_events(&in_headers, ev->module)))
			continue;
		mtps = kinfo_module_tracepoints(ev->module, NULL);
		tp = mtps ? btf_tracepoint_find(mtps, ev->event) : NULL;
		if (!tp || !glob_match_pair(pattern, ':', tp->system, tp->name))
			continue;
		x->btf = kinfo_module_btf(ev->module, NULL);
		x->module = ev->module;
		add_match(tp, x);
	}
	x->btf = kernel_btf;
	x->module = NULL;
	vec_free(&in_headers);
}

static int trace_expand(const struct point_pattern *pat, const struct probe_point *pp,
			struct vec *out, struct family_error *err)
{
	const struct pp_comp *comp = pp->comps.v[1];
	const char *pattern = comp->arg->str, *why = NULL;
	const struct btf_tracepoints *tps = kinfo_tracepoints(&why);
	struct expand_ctx x = { .btf = kinfo_btf(NULL), .out = out,
				.positional = pat->variant == TRACE_POSITIONAL };

	err->pos = comp->pos;
	if (!tps) {
		err->msg = xasprintf("cannot list the kernel's tracepoints: %s", why);
		return -1;
	}
	btf_tracepoints_match(tps, pattern, add_match, &x);
	add_module_matches(tps, pattern, &x);
	if (out->n > 0 || pp->optional)
		return (int)out->n;
	if (x.unattachable)
		err->msg = xasprintf("tracepoint '%s' has an argument passed by value "
				     "that tapc cannot receive", x.unattachable->name);
	else
		family_no_match(err, &comp->pos, no_match_message(tps, pattern));
	return -1;
}

/* ---- target variables ------------------------------------------------- */

static bool is_context_var(const char *name)
{
	return !strcmp(name, "$$parms") || !strcmp(name, "$$vars") ||
	       !strcmp(name, "$$name") || !strcmp(name, "$$system");
}

/* The argument called name ("$prev", "$arg2"), or -1. */
static int arg_index(const struct btf_tracepoint *tp, const char *name, bool positional)
{
	if (name[0] != '$' || name[1] == '$')
		return -1;
	for (uint32_t i = 0; i < tp->nargs; i++) {
		char *an = arg_name(tp, i, positional);
		bool same = *an && !strcmp(an, name + 1);

		free(an);
		if (same)
			return (int)i;
	}
	return -1;
}

static char *unknown_var_message(const struct btf_tracepoint *tp, const char *name,
				 bool positional)
{
	struct strbuf sb = STRBUF_INIT;
	struct vec alt = { 0 };

	vec_push(&alt, xstrdup("$$parms"));
	vec_push(&alt, xstrdup("$$vars"));
	for (uint32_t i = 0; i < tp->nargs; i++) {
		char *an = arg_name(tp, i, positional);

		if (*an)
			vec_push(&alt, xasprintf("$%s", an));
		free(an);
	}
	vec_push(&alt, xstrdup("$$name"));
	/* nearest to the name asked for (without its '$') first, as stap */
	sem_sort_nearest(name + 1, (const char **)alt.v, alt.n);
	strbuf_addf(&sb, "unable to find tracepoint variable '%s' (alternatives: ", name);
	for (size_t i = 0; i < alt.n; i++) {
		strbuf_addf(&sb, "%s%s", i ? ", " : "", (char *)alt.v[i]);
		free(alt.v[i]);
	}
	strbuf_adds(&sb, ")");
	vec_free(&alt);
	return strbuf_detach(&sb);
}

/* $$parms / $$vars: "name=%p" for pointers, "name=%#x" for the others,
 * separated by spaces, formatted by SystemTap's sprintf; with a "$" or
 * "$$" suffix (e), "name=%s" of each argument pretty-printed so. */
static struct tvar *parms_access(const struct ctypes *ct, const struct btf_tracepoint *tp,
				 const struct expr *e, bool positional)
{
	struct tvar *tv = tvar_new(TVAR_BASE_NONE, 0, e->name, &e->pos);
	struct strbuf fmt = STRBUF_INIT;
	bool pretty = e->comps.n > 0;

	tv->leaf = TVAR_FORMAT;
	tv->type = SEM_STRING;
	for (uint32_t i = 0; i < tp->nargs; i++) {
		struct tvar *arg;
		char *an = arg_name(tp, i, positional);

		if (!*an) {
			free(an);
			continue;
		}
		if (pretty) {
			/* $name$ (or $$) with e's suffix: cannot fail */
			struct expr named = *e;
			struct family_error err = { 0 };

			named.name = xasprintf("$%s", an);
			named.addressof = false;
			arg = tvar_resolve(ct, tp->args[i].type, TVAR_BASE_SLOT, i, &named,
					   "tracepoint", &err);
			free(named.name);
			free(err.msg);
			free(err.what);
			if (!arg) {
				free(an);
				continue;
			}
		} else {
			char *name = xasprintf("$%s", an);

			arg = tvar_value(ct, tp->args[i].type, TVAR_BASE_SLOT, i, name, &e->pos);
			free(name);
		}
		strbuf_addf(&fmt, "%s%s=%s", i ? " " : "", an, pretty ? "%s" :
			    tvar_is_pointer(ct, tp->args[i].type) ? "%p" : "%#x");
		free(an);
		tvar_add_arg(tv, arg);
	}
	tv->text = fmt.buf ? strbuf_detach(&fmt) : xstrdup("");
	return tv;
}

/* $$name, $$system: the event's. */
static struct tvar *text_access(const struct expr *e, const char *text)
{
	struct tvar *tv = tvar_new(TVAR_BASE_NONE, 0, e->name, &e->pos);

	tv->leaf = TVAR_TEXT;
	tv->type = SEM_STRING;
	tv->text = xstrdup(text ? text : "");
	return tv;
}

/* The target expression e of a probe on event tp (with btf; NULL when
 * the event is no longer known, named by name). */
static enum sem_type event_target_type(const struct btf *btf, const struct btf_tracepoint *tp,
				       bool positional, const char *name, const struct expr *e,
				       bool write, struct family_error *err,
				       struct tvar **access)
{
	struct ctypes ct;
	int i;

	err->pos = e->pos;
	if (!tp) {
		err->msg = xasprintf("tracepoint '%s' is no longer known", name);
		return SEM_UNKNOWN;
	}
	ct = ctypes_btf(btf);
	if (is_context_var(e->name)) {
		if (write) {
			err->msg = xasprintf("write to tracepoint variable '%s' not permitted",
					     e->name);
			return SEM_UNKNOWN;
		}
		if (!tvar_ctx_whole(e, "tracepoint", !strcmp(e->name, "$$parms") ||
						     !strcmp(e->name, "$$vars"), err))
			return SEM_UNKNOWN;
		if (!strcmp(e->name, "$$name"))
			*access = text_access(e, tp->name);
		else if (!strcmp(e->name, "$$system"))
			*access = text_access(e, tp->system);
		else
			*access = parms_access(&ct, tp, e, positional);
		return SEM_STRING;
	}
	i = arg_index(tp, e->name, positional);
	if (i < 0) {
		err->msg = unknown_var_message(tp, e->name, positional);
		return SEM_UNKNOWN;
	}
	*access = tvar_resolve(&ct, tp->args[i].type, TVAR_BASE_SLOT, (unsigned)i, e,
			       "tracepoint", err);
	/* the argument itself is the event's; what it points to may be
	 * written (guru mode), as in SystemTap */
	if (write && *access && (!e->comps.n || !tvar_writable(*access))) {
		tvar_free(*access);
		*access = NULL;
		err->msg = xasprintf("write to tracepoint variable '%s' not permitted", e->name);
	}
	return *access ? (*access)->type : SEM_UNKNOWN;
}

static enum sem_type trace_target_type(const struct derived_probe *dp, const struct expr *e,
				       bool write, struct family_error *err,
				       struct tvar **access)
{
	const struct btf *btf;
	const struct btf_tracepoint *tp = probe_event(dp, &btf);
	const struct trace_data *td = dp->fp.data;

	return event_target_type(btf, tp, td && td->positional, dp->fp.target, e, write,
				 err, access);
}

/* The event called name in the kernel's BTF, with *btf, or NULL. */
static const struct btf_tracepoint *event_named(const char *name, const struct btf **btf)
{
	const struct btf_tracepoints *tps = kinfo_tracepoints(NULL);

	*btf = kinfo_btf(NULL);
	return tps && *btf ? btf_tracepoint_find(tps, name) : NULL;
}

enum sem_type tracepoint_target_type(const char *name, const struct expr *e, bool write,
				     struct family_error *err, struct tvar **access)
{
	const struct btf *btf;
	const struct btf_tracepoint *tp = event_named(name, &btf);

	return event_target_type(btf, tp, false, name, e, write, err, access);
}

/* -L: "$name:TYPE" for each argument. */
static void event_list_targets(const struct btf *btf, const struct btf_tracepoint *tp,
			       bool positional, struct vec *out)
{
	struct ctypes ct;

	if (!tp)
		return;
	ct = ctypes_btf(btf);
	for (uint32_t i = 0; i < tp->nargs; i++) {
		char *an = arg_name(tp, i, positional), *tn;

		if (*an) {
			tn = tvar_type_name(&ct, tp->args[i].type);
			vec_push(out, xasprintf("$%s:%s", an, tn));
			free(tn);
		}
		free(an);
	}
}

static void trace_list_targets(const struct derived_probe *dp, struct vec *out)
{
	const struct btf *btf;
	const struct btf_tracepoint *tp = probe_event(dp, &btf);
	const struct trace_data *td = dp->fp.data;

	event_list_targets(btf, tp, td && td->positional, out);
}

void tracepoint_list_targets(const char *name, struct vec *out)
{
	const struct btf *btf;
	const struct btf_tracepoint *tp = event_named(name, &btf);

	event_list_targets(btf, tp, false, out);
}

/* ---- pass 3 ------------------------------------------------------------ */

static void trace_emit_support(FILE *out, const struct derived_probe *dp, size_t index)
{
	const struct trace_data *td = dp->fp.data;
	uint32_t n = td ? td->tp->nargs : 0;

	fprintf(out, "static void tap_tp_cb_%zu(void *data", index);
	for (uint32_t i = 0; i < n; i++)
		fprintf(out, ", unsigned long a%u", i);
	fprintf(out, ")\n{\n");
	if (n) {
		fprintf(out, "\tconst unsigned long args[%u] = {", n);
		for (uint32_t i = 0; i < n; i++)
			fprintf(out, "%s a%u", i ? "," : "", i);
		fprintf(out, " };\n\n");
	}
	/* The runtime registers the callback with its probe as the data:
	 * index is the probe's row, not its place in tap_probes[], which
	 * leaves out the probes that do not run. */
	fprintf(out, "\ttap_run_event(data, NULL, 0, %s);\n}\n\n", n ? "args" : "NULL");
}

static void trace_emit_entry(FILE *out, const struct derived_probe *dp, size_t index)
{
	const struct trace_data *td = dp->fp.data;
	char *lit = tr_cstr(td->tp->name, strlen(td->tp->name));

	fprintf(out, ".kind = TAP_PROBE_TRACEPOINT, .target = %s, "
		".callback = (void *)tap_tp_cb_%zu, ", lit, index);
	free(lit);
	if (td->module) {
		lit = tr_cstr(td->module, strlen(td->module));
		fprintf(out, ".module = %s, ", lit);
		free(lit);
	}
}


const struct probe_family probe_family_trace = {
	.name = "kernel.trace",
	.rows = trace_rows,
	.n_rows = sizeof(trace_rows) / sizeof(trace_rows[0]),
	.expand = trace_expand,
	.target_type = trace_target_type,
	.list_targets = trace_list_targets,
	.armable = true,
	.emit_entry = trace_emit_entry,
	.emit_support = trace_emit_support,
};
