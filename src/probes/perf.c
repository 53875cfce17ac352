/* Sampling probes on perf events:
 *
 *   timer.profile
 *	every CPU every millisecond of its clock: what SystemTap's tapset
 *	falls back to on kernels without a timer hook (6.1 has none),
 *	perf.sw.cpu_clock.sample(1000000), and named so;
 *   timer.profile.tick
 *	every CPU on each scheduler tick (HZ times a second per CPU): a
 *	software cpu-clock event of period NSEC_PER_SEC / HZ;
 *   perf.type(T).config(C)[.sample(N) | .hz(F)]
 *	the perf event (T, C) on every CPU, firing every N events
 *	(SystemTap's default N is 1000000) or F times a second;
 *   perf.type(T).config(C).process("PATH")[.counter("NAME")],
 *   perf.type(T).config(C).process, perf.type(T).config(C).counter("NAME")
 *	the event counted in each task of the program PATH (.process alone:
 *	the -c command's program, or /proc/PID/exe of -x PID), sampled every
 *	1000000 events; with .counter, only counted (SystemTap's period 0:
 *	the handler never runs) and read by @perf("NAME") in the probes of
 *	the same program (perf_counter_find).  A counter without .process
 *	counts on every CPU.
 *
 * perf.sw.NAME and perf.hw.NAME are aliases of tapsets/perf.stp over
 * perf.type().config(), as in SystemTap, which names every perf probe
 * (pp(), -p2) perf.type(T).config(C).sample(N), the period made explicit
 * (perf_derived_point); -l and -L list the point as written.  The probe
 * keeps its event and period in its payload (struct perf_data).  The
 * runtime half is runtime/linux/perf.c (TAP_PROBE_PERF): .u.perf holds
 * the type, config and sample period (or frequency), .flags says which
 * (tapc_families.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../runtime/tapc_families.h"
#include "probes/family.h"
#include "probes/perf.h"
#include "pptext.h"
#include "translate_int.h"
#include "upath.h"
#include "util.h"

extern const struct probe_family probe_family_perf;

/* SystemTap's sample period when none is given. */
#define PERF_DEFAULT_SAMPLE 1000000
/* PERF_TYPE_SOFTWARE and PERF_COUNT_SW_CPU_CLOCK (linux/perf_event.h) */
#define PERF_SW_TYPE 1
#define PERF_SW_CPU_CLOCK 0

enum {
	PERF_V_PROFILE = 1, PERF_V_EVENT, PERF_V_SAMPLE, PERF_V_HZ,
	PERF_V_PROC, PERF_V_PROC_COUNTER, PERF_V_PROC_SELF, PERF_V_COUNTER,
};

/* The payload of a perf.type().config() probe. */
struct perf_data {
	int64_t type, config;
	int64_t period;		/* .sample(N), its default, or .hz(F);
				 * 0 for a counter */
	char *process;		/* .process: the program's path, or NULL */
	char *counter;		/* .counter("NAME"), or NULL */
	int counter_id;		/* the counter's number, from 1: the
				 * runtime's name for it */
};

static const struct pattern_row perf_rows[] = {
	{ PERF_V_PROFILE, { PAT_C("timer", PA_NONE), PAT_C("profile", PA_NONE),
			    PAT_OPT("tick", PA_NONE, 0) } },
	{ PERF_V_EVENT, { PAT_C("perf", PA_NONE), PAT_C("type", PA_NUM),
			  PAT_C("config", PA_NUM),
			  PAT_OPT("sample", PA_NUM, PERF_V_SAMPLE - PERF_V_EVENT),
			  PAT_OR("hz", PA_NUM, PERF_V_HZ - PERF_V_EVENT) } },
	/* SystemTap takes neither .sample nor .hz with these */
	{ PERF_V_PROC, { PAT_C("perf", PA_NONE), PAT_C("type", PA_NUM),
			 PAT_C("config", PA_NUM), PAT_C("process", PA_STR),
			 PAT_OPT("counter", PA_STR, PERF_V_PROC_COUNTER - PERF_V_PROC) } },
	{ PERF_V_PROC_SELF, { PAT_C("perf", PA_NONE), PAT_C("type", PA_NUM),
			      PAT_C("config", PA_NUM), PAT_C("process", PA_NONE) } },
	{ PERF_V_COUNTER, { PAT_C("perf", PA_NONE), PAT_C("type", PA_NUM),
			    PAT_C("config", PA_NUM), PAT_C("counter", PA_STR) } },
};

static int64_t comp_num(const struct probe_point *pp, int i)
{
	const struct pp_comp *c = pp->comps.v[i];

	return c->arg ? c->arg->num : 0;
}

/* An error about the number of component comp, which SystemTap's
 * message names as its token: "MSG: number 'N' at FILE:LINE:COL". */
static int perf_fail(struct family_error *err, const struct probe_point *pp, int comp,
		     const char *msg)
{
	const struct expr *arg = ((const struct pp_comp *)pp->comps.v[comp])->arg;

	err->pos = arg->pos;
	err->msg = xasprintf("%s: number '%" PRId64 "' at %s:%d:%d", msg, arg->num,
			     arg->pos.file ? arg->pos.file->name : "<input>",
			     arg->pos.line, arg->pos.col);
	return -1;
}

/* An error (msg malloc'd) at component comp of pp, which SystemTap's
 * message names: "MSG: identifier 'NAME' at FILE:LINE:COL". */
static int perf_comp_fail(struct family_error *err, const struct probe_point *pp, int comp,
			  char *msg)
{
	const struct pp_comp *c = family_comp(pp, comp);

	err->pos = c->pos;
	err->msg = xasprintf("%s: identifier '%s' at %s:%d:%d", msg, c->name,
			     c->pos.file ? c->pos.file->name : "<input>",
			     c->pos.line, c->pos.col);
	free(msg);
	return -1;
}

/* NAME as SystemTap's .process("NAME") takes it: without a '/', the
 * first executable NAME on $PATH; links resolved; as written when there
 * is no such file (the probe then counts nothing). */
static char *perf_program(const char *name)
{
	char *cand = NULL, *real;

	if (!strchr(name, '/')) {
		const char *dirs = getenv("PATH");

		if (!dirs || !*dirs)
			dirs = "/usr/local/bin:/usr/bin:/bin";
		while (!cand && dirs && *name) {
			const char *end = strchr(dirs, ':');
			size_t len = end ? (size_t)(end - dirs) : strlen(dirs);

			cand = xasprintf("%.*s/%s", (int)len, len ? dirs : ".", name);
			if (access(cand, X_OK)) {
				free(cand);
				cand = NULL;
			}
			dirs = end ? end + 1 : NULL;
		}
	}
	real = realpath(cand ? cand : name, NULL);
	free(cand);
	return real ? real : xstrdup(name);
}

/* The program of .process without a path: the -x target as
 * /proc/PID/exe (which the kernel follows), else the -c command's. */
static int perf_self(const struct probe_point *pp, struct perf_data *pd,
		     struct family_error *err)
{
	long pid = upath_target_pid();
	char *why = NULL;

	if (pid > 0) {
		pd->process = xasprintf("/proc/%ld/exe", pid);
		return 0;
	}
	if (!upath_target_command())
		return perf_comp_fail(err, pp, 3,
				      xstrdup("unspecified process probe is invalid without a -c COMMAND [man stapprobes]"));
	pd->process = upath_target_program(0, &why);
	if (!pd->process)
		return perf_comp_fail(err, pp, 3, why);
	return 0;
}

/* The counters of this run, by name: SystemTap's are one namespace.
 * A point may be expanded more than once (listing, retries): the place of
 * its .counter tells it from another point's. */
struct perf_counter {
	char *name;
	struct srcpos pos;
};
static struct vec perf_counters;	/* struct perf_counter *, id i + 1 */

static bool same_pos(const struct srcpos *a, const struct srcpos *b)
{
	return a->file == b->file && a->line == b->line && a->col == b->col;
}

static int perf_add_counter(const struct probe_point *pp, int comp, struct perf_data *pd,
			    struct family_error *err)
{
	const struct pp_comp *c = family_comp(pp, comp);
	const char *name = c->arg->str;
	struct perf_counter *pc;
	size_t i;

	if (!*name)
		return perf_comp_fail(err, pp, 3, xstrdup("missing perf probe counter component name"));
	for (i = 0; i < perf_counters.n; i++) {
		pc = perf_counters.v[i];
		if (strcmp(pc->name, name))
			continue;
		if (!same_pos(&pc->pos, &c->pos))
			return perf_comp_fail(err, pp, 3, xstrdup("duplicate counter name"));
		break;
	}
	if (i == perf_counters.n) {
		pc = xcalloc(1, sizeof(*pc));
		pc->name = xstrdup(name);
		pc->pos = c->pos;
		vec_push(&perf_counters, pc);
	}
	pd->counter = xstrdup(name);
	pd->counter_id = (int)i + 1;
	pd->period = 0;		/* counted, never sampled */
	return 0;
}

/* The .process and .counter parts of the point (pattern pat). */
static int perf_task_parts(const struct point_pattern *pat, const struct probe_point *pp,
			   struct perf_data *pd, struct family_error *err)
{
	switch (pat->variant) {
	case PERF_V_PROC_SELF:
		return perf_self(pp, pd, err);
	case PERF_V_PROC:
	case PERF_V_PROC_COUNTER:
		pd->process = perf_program(family_comp(pp, 3)->arg->str);
		if (pat->variant == PERF_V_PROC_COUNTER)
			return perf_add_counter(pp, 4, pd, err);
		return 0;
	case PERF_V_COUNTER:
		return perf_add_counter(pp, 3, pd, err);
	}
	return 0;
}

static void perf_free_data(void *data)
{
	struct perf_data *pd = data;

	free(pd->process);
	free(pd->counter);
	free(pd);
}

static int perf_expand(const struct point_pattern *pat, const struct probe_point *pp,
		       struct vec *out, struct family_error *err)
{
	struct family_point *fp = xcalloc(1, sizeof(*fp));
	struct perf_data *pd;

	fp->target_comp = -1;
	if (pat->variant == PERF_V_PROFILE && pp->comps.n == 3) {	/* .tick */
		fp->flags = TAP_PERF_PROFILE;
	} else if (pat->variant == PERF_V_PROFILE) {
		/* SystemTap's timer.profile on a kernel without a tick hook:
		 * its tapset's perf.sw.cpu_clock.sample(1000000) */
		fp->data = pd = xcalloc(1, sizeof(*pd));
		pd->type = PERF_SW_TYPE;
		pd->config = PERF_SW_CPU_CLOCK;
		pd->period = PERF_DEFAULT_SAMPLE;
	} else {
		int64_t type = comp_num(pp, 1), config = comp_num(pp, 2);
		int64_t period = PERF_DEFAULT_SAMPLE;

		/* perf_event_attr.type is 32 bits */
		if (type < 0 || type > UINT32_MAX) {
			free(fp);
			return perf_fail(err, pp, 1, "invalid perf event type");
		}
		if (pat->variant == PERF_V_SAMPLE || pat->variant == PERF_V_HZ) {
			period = comp_num(pp, 3);
			if (period < 1) {
				char *msg = xasprintf("invalid perf sample %s %" PRId64,
						      pat->variant == PERF_V_HZ ?
						      "frequency" : "period", period);

				free(fp);
				perf_fail(err, pp, 3, msg);
				free(msg);
				return -1;
			}
		}
		if (pat->variant == PERF_V_HZ)
			fp->flags = TAP_PERF_FREQ;
		fp->data = pd = xcalloc(1, sizeof(*pd));
		pd->type = type;
		pd->config = config;
		pd->period = period;
		if (perf_task_parts(pat, pp, pd, err)) {
			perf_free_data(pd);
			free(fp);
			return -1;
		}
		if (pd->process)
			fp->flags |= TAP_PERF_TASK;
	}
	vec_push(out, fp);
	return 1;
}

static struct pp_comp *num_comp(const char *name, int64_t n, const struct srcpos *pos)
{
	struct expr *e = expr_new(E_NUM, pos);

	e->num = n;
	return pp_comp_new(xstrdup(name), e, pos);
}

static struct pp_comp *str_comp(const char *name, const char *s, const struct srcpos *pos)
{
	struct expr *e = expr_new(E_STR, pos);

	e->str = xstrdup(s);
	e->len = strlen(s);
	return pp_comp_new(xstrdup(name), e, pos);
}

/*
 * SystemTap names a perf probe by its event and its sample:
 * "perf.type(T).config(C).sample(N)", N being the period given, its
 * default, or the frequency of .hz(F) (which it also prints as
 * ".sample(F)"), then the program and the counter:
 * "....sample(0).process("/usr/bin/find").counter("insns")".
 */
static struct probe_point *perf_derived_point(const struct derived_probe *dp)
{
	const struct probe_point *loc = dp->loc;
	const struct perf_data *pd = dp->fp.data;
	struct probe_point *named;

	if (!pd)
		return NULL;	/* timer.profile names itself */
	named = probe_point_new(&loc->pos);
	vec_push(&named->comps, pp_comp_new(xstrdup("perf"), NULL, &loc->pos));
	vec_push(&named->comps, num_comp("type", pd->type, &loc->pos));
	vec_push(&named->comps, num_comp("config", pd->config, &loc->pos));
	vec_push(&named->comps, num_comp("sample", pd->period, &loc->pos));
	if (pd->process)
		vec_push(&named->comps, str_comp("process", pd->process, &loc->pos));
	if (pd->counter)
		vec_push(&named->comps, str_comp("counter", pd->counter, &loc->pos));
	return named;
}

/* -p2: timer.profile is derived from SystemTap's perf point itself (its
 * tapset's alias), which -p2 prints as the derivation too. */
static void perf_print_point(const struct derived_probe *dp, char **point, char **chain)
{
	(void)point;
	if (dp->variant == PERF_V_PROFILE && dp->fp.data)
		*chain = pp_text(dp->loc);
}

static void perf_emit(FILE *out, const struct derived_probe *dp, size_t index)
{
	const struct perf_data *pd = dp->fp.data;

	(void)index;
	if (!pd) {
		fprintf(out, ".kind = TAP_PROBE_PERF, .flags = %d, ", dp->fp.flags);
		return;
	}
	/* config is a u64 of the ABI: written as the unsigned value */
	fprintf(out, ".kind = TAP_PROBE_PERF, .u.perf = { .type = %" PRId64 "U, "
		".config = %" PRIu64 "ULL, .period = %" PRId64 "ULL }, .flags = %d, ",
		pd->type, (uint64_t)pd->config, pd->period, dp->fp.flags);
	if (pd->counter_id)
		fprintf(out, ".arg = { %dLL, 0LL }, ", pd->counter_id);
	if (pd->process) {
		char *s = tr_cstr(pd->process, strlen(pd->process));

		fprintf(out, ".target = %s, ", s);
		free(s);
	}
}

bool perf_is_counter(const struct derived_probe *dp)
{
	const struct perf_data *pd = dp->family == &probe_family_perf ? dp->fp.data : NULL;

	return pd && pd->counter;
}

int perf_counter_find(const struct vec *probes, const char *name, const char *program)
{
	for (size_t i = 0; i < probes->n; i++) {
		const struct derived_probe *dp = probes->v[i];
		const struct perf_data *pd;

		if (!perf_is_counter(dp))
			continue;
		pd = dp->fp.data;
		/* a counter of no program is read in any probe */
		if (!strcmp(pd->counter, name) &&
		    (!pd->process || (program && !strcmp(pd->process, program))))
			return pd->counter_id;
	}
	return 0;
}

const struct probe_family probe_family_perf = {
	.name = "perf",
	.rows = perf_rows,
	.n_rows = sizeof(perf_rows) / sizeof(perf_rows[0]),
	.expand = perf_expand,
	.derived_point = perf_derived_point,
	.chain_is_matched = true,
	.print_point = perf_print_point,
	.free_data = perf_free_data,
	.armable = true,
	.emit_entry = perf_emit,
};
