/* begin, end and error probes: run by the runtime at the session's start
 * and stop, ordered by sequence number (begin(N), end(N), error(N));
 * never probes are checked by pass 2 but never run, so they produce
 * nothing.  All are open to every privilege level, as in SystemTap. */
#include <inttypes.h>

#include "probes/family.h"
#include "util.h"

enum { BE_BEGIN, BE_END, BE_ERROR };

static const struct point_pattern begin_end_patterns[] = {
	{ BE_BEGIN, 1, { { "begin", PA_OPTNUM } } },
	{ BE_END, 1, { { "end", PA_OPTNUM } } },
	{ BE_ERROR, 1, { { "error", PA_OPTNUM } } },
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
	.patterns = begin_end_patterns,
	.n_patterns = sizeof(begin_end_patterns) / sizeof(begin_end_patterns[0]),
	.expand = begin_end_expand,
	.unprivileged = family_all_unprivileged,
	.emit_entry = begin_end_emit,
};

static const struct point_pattern never_patterns[] = {
	{ 0, 1, { { "never", PA_NONE } } },
};

const struct probe_family probe_family_never = {
	.name = "never",
	.patterns = never_patterns,
	.n_patterns = 1,
	.never_runs = true,
	.expand = begin_end_expand,
	.unprivileged = family_all_unprivileged,
};
