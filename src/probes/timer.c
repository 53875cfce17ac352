/* timer.{s,sec,ms,msec,us,usec,ns,nsec}(N)[.randomize(M)], timer.hz(N)
 * and timer.jiffies(N)[.randomize(M)]: one periodic hrtimer each.  Pass 2
 * checked SystemTap's bounds: periods of 100 us to a day, 1 to 1000000
 * jiffies, 0 <= M <= N. */
#include <inttypes.h>

#include "probes/provider.h"

static bool timer_handles(const struct derived_probe *dp)
{
	return dp->kind == DP_TIMER || dp->kind == DP_JIFFIES ||
	       dp->kind == DP_HZ;
}

static bool timer_emit(FILE *out, const struct derived_probe *dp, size_t index)
{
	uint64_t interval, spread;
	const char *unit = "TAP_TIMER_NS";

	(void)index;

	switch (dp->kind) {
	case DP_JIFFIES:
		interval = (uint64_t)dp->interval;
		spread = (uint64_t)dp->randomize;
		unit = "TAP_TIMER_JIFFIES";
		break;
	case DP_HZ:
		/* N per second, the period rounded up as SystemTap does */
		interval = (1000000000ULL + (uint64_t)dp->interval - 1) /
			   (uint64_t)dp->interval;
		spread = 0;
		break;
	default:
		interval = (uint64_t)dp->interval * (uint64_t)dp->ns_per_unit;
		spread = (uint64_t)dp->randomize * (uint64_t)dp->ns_per_unit;
		break;
	}
	fprintf(out, ".kind = TAP_PROBE_TIMER, .interval_ns = %" PRIu64 "ULL, "
		".randomize = %" PRIu64 "ULL, .unit = %s, ", interval, spread, unit);
	return true;
}

const struct probe_provider probe_provider_timer = {
	.family = "timer",
	.handles = timer_handles,
	.emit_entry = timer_emit,
};
