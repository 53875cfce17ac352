/* begin, end and error probes: run by the runtime at the session's start
 * and stop, ordered by sequence number (begin(N), end(N), error(N));
 * never probes are checked by pass 2 but never run, so they produce
 * nothing.  All are open to every privilege level, as in SystemTap. */
#include <inttypes.h>

#include "probes/family.h"
#include "util.h"

enum { BE_BEGIN, BE_END, BE_ERROR };

static const struct pattern_row begin_end_rows[] = {
	{ 0, { PAT_BIT("begin", PA_OPTNUM, BE_BEGIN),
	       PAT_OR("end", PA_OPTNUM, BE_END),
	       PAT_OR("error", PA_OPTNUM, BE_ERROR) } },
};

/* The point itself; num[0] is its sequence number (0 when not given). */
static int begin_end_expand(const struct point_pattern *pat, const struct probe_point *pp,
			    struct vec *out, struct family_error *err)
{
	const struct pp_comp *c0 = pp->comps.v[0];
	struct family_point *fp = xcalloc(1, sizeof(*fp));

	(void)pat;
	(void)err;
	fp->num[0] = c0->arg ? c0->arg->num : 0;
	fp->target_comp = -1;
	vec_push(out, fp);
	return 1;
}

static void begin_end_emit(FILE *out, const struct derived_probe *dp, size_t index)
{
	static const char *const kinds[] = {
		[BE_BEGIN] = "TAP_PROBE_BEGIN",
		[BE_END] = "TAP_PROBE_END",
		[BE_ERROR] = "TAP_PROBE_ERROR",
	};
	int64_t seq = dp->fp.num[0];

	(void)index;
	/* -2^63 has no literal of its own in C */
	if (seq == INT64_MIN)
		fprintf(out, ".kind = %s, .seq = -9223372036854775807LL - 1, ",
			kinds[dp->variant]);
	else
		fprintf(out, ".kind = %s, .seq = %" PRId64 "LL, ", kinds[dp->variant], seq);
}

const struct probe_family probe_family_begin_end = {
	.name = "begin/end/error",
	.rows = begin_end_rows,
	.n_rows = sizeof(begin_end_rows) / sizeof(begin_end_rows[0]),
	.expand = begin_end_expand,
	.unprivileged = family_all_unprivileged,
	.emit_entry = begin_end_emit,
};

static const struct pattern_row never_rows[] = {
	{ 0, { PAT_C("never", PA_NONE) } },
};

const struct probe_family probe_family_never = {
	.name = "never",
	.rows = never_rows,
	.n_rows = 1,
	.never_runs = true,
	.expand = begin_end_expand,
	.unprivileged = family_all_unprivileged,
};
