/* Sampling probes on perf events:
 *
 *   timer.profile, timer.profile.tick
 *	every CPU, on each scheduler tick (HZ times a second per CPU): a
 *	software cpu-clock event of period NSEC_PER_SEC / HZ per CPU, which
 *	is what SystemTap falls back to on kernels without a timer hook;
 *   perf.type(T).config(C)[.sample(N) | .hz(F)]
 *	the perf event (T, C) on every CPU, firing every N events
 *	(SystemTap's default N is 1000000) or F times a second.
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

#include "../runtime/tapc_families.h"
#include "probes/family.h"
#include "util.h"

/* SystemTap's sample period when none is given. */
#define PERF_DEFAULT_SAMPLE 1000000

enum { PERF_V_PROFILE = 1, PERF_V_EVENT, PERF_V_SAMPLE, PERF_V_HZ };

/* The payload of a perf.type().config() probe. */
struct perf_data {
	int64_t type, config;
	int64_t period;		/* .sample(N), its default, or .hz(F) */
};

static const struct pattern_row perf_rows[] = {
	{ PERF_V_PROFILE, { PAT_C("timer", PA_NONE), PAT_C("profile", PA_NONE),
			    PAT_OPT("tick", PA_NONE, 0) } },
	{ PERF_V_EVENT, { PAT_C("perf", PA_NONE), PAT_C("type", PA_NUM),
			  PAT_C("config", PA_NUM),
			  PAT_OPT("sample", PA_NUM, PERF_V_SAMPLE - PERF_V_EVENT),
			  PAT_OR("hz", PA_NUM, PERF_V_HZ - PERF_V_EVENT) } },
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

static int perf_expand(const struct point_pattern *pat, const struct probe_point *pp,
		       struct vec *out, struct family_error *err)
{
	struct family_point *fp = xcalloc(1, sizeof(*fp));
	struct perf_data *pd;

	fp->target_comp = -1;
	if (pat->variant == PERF_V_PROFILE) {
		fp->flags = TAP_PERF_PROFILE;
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

/*
 * SystemTap names a perf probe by its event and its sample:
 * "perf.type(T).config(C).sample(N)", N being the period given, its
 * default, or the frequency of .hz(F) (which it also prints as
 * ".sample(F)").
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
	return named;
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
}

const struct probe_family probe_family_perf = {
	.name = "perf",
	.rows = perf_rows,
	.n_rows = sizeof(perf_rows) / sizeof(perf_rows[0]),
	.expand = perf_expand,
	.derived_point = perf_derived_point,
	.armable = true,
	.emit_entry = perf_emit,
};
