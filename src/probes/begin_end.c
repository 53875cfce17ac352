/* begin, end, error and never probes: run by the runtime at the session's
 * start and stop, ordered by sequence number; never probes are checked
 * by pass 2 but never run, so they produce nothing. */
#include <inttypes.h>

#include "probes/provider.h"

static bool begin_end_handles(const struct derived_probe *dp)
{
	return dp->kind == DP_BEGIN || dp->kind == DP_END ||
	       dp->kind == DP_ERROR || dp->kind == DP_NEVER;
}

static bool begin_end_emit(FILE *out, const struct derived_probe *dp, size_t index)
{
	const char *kind;

	(void)index;

	switch (dp->kind) {
	case DP_BEGIN:
		kind = "TAP_PROBE_BEGIN";
		break;
	case DP_END:
		kind = "TAP_PROBE_END";
		break;
	case DP_ERROR:
		kind = "TAP_PROBE_ERROR";
		break;
	default:
		return false;
	}
	/* -2^63 has no literal of its own in C */
	if (dp->seq == INT64_MIN)
		fprintf(out, ".kind = %s, .seq = -9223372036854775807LL - 1, ", kind);
	else
		fprintf(out, ".kind = %s, .seq = %" PRId64 "LL, ", kind, dp->seq);
	return true;
}

const struct probe_provider probe_provider_begin_end = {
	.family = "begin/end/error/never",
	.handles = begin_end_handles,
	.emit_entry = begin_end_emit,
};
