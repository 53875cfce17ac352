/* timer.{s,sec,ms,msec,us,usec,ns,nsec}(N)[.randomize(M)], timer.hz(N)
 * and timer.jiffies(N)[.randomize(M)]: one periodic hrtimer each, open to
 * every privilege level.
 *
 * SystemTap's bounds, checked where it checks them (its timer tapset):
 * timer.s/ms/us/ns periods run from 100 us to one day, in nanoseconds;
 * timer.hz(N) is a period of ceil(1e9 / N) ns under the same bounds;
 * timer.jiffies(N) takes 1 to 1000000 jiffies; a randomize is at most the
 * period.  The family point holds num[0] = N, num[1] = M (0 without
 * .randomize); the pattern's variant is the unit in nanoseconds, or one
 * of the negative ones below.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "probes/family.h"
#include "util.h"

enum { TIMER_JIFFIES = -1, TIMER_HZ = -2 };

#define TIMER_MIN_NS	INT64_C(100000)
#define TIMER_MAX_NS	(INT64_C(86400) * 1000000000)
#define JIFFIES_MAX	INT64_C(1000000)
#define NS_PER_SEC	INT64_C(1000000000)

/* timer.UNIT(N)[.randomize(M)], the unit's bit its variant */
#define UNIT(name, variant) PAT_OR(name, PA_NUM, variant)

static const struct pattern_row timer_rows[] = {
	{ 0, { PAT_C("timer", PA_NONE),
	       PAT_BIT("s", PA_NUM, 1000000000), UNIT("sec", 1000000000),
	       UNIT("ms", 1000000), UNIT("msec", 1000000), UNIT("us", 1000),
	       UNIT("usec", 1000), UNIT("ns", 1), UNIT("nsec", 1),
	       UNIT("jiffies", TIMER_JIFFIES),
	       PAT_OPT("randomize", PA_NUM, 0) } },
	{ TIMER_HZ, { PAT_C("timer", PA_NONE), PAT_C("hz", PA_NUM) } },
};

/* The failure of a timer argument, as SystemTap words it. */
static int timer_arg_error(struct family_error *err, const struct pp_comp *c, char *msg)
{
	err->pos = c->arg->pos;
	err->msg = xasprintf("%s: number '%" PRId64 "' at %s:%d:%d", msg, c->arg->num,
			     c->arg->pos.file->name, c->arg->pos.line, c->arg->pos.col);
	free(msg);
	return -1;
}

/* SystemTap's complaint about a period of N units of ns_per_unit ns
 * (its bounds in that unit), or NULL when N is within them. */
static char *timer_range_error(int64_t n, int64_t ns_per_unit)
{
	int64_t max = TIMER_MAX_NS / ns_per_unit;

	if (n >= 1 && n <= max && n * ns_per_unit >= TIMER_MIN_NS)
		return NULL;
	return xasprintf("interval value out of range (%" PRId64 ", %" PRId64 ")",
			 ns_per_unit < TIMER_MIN_NS ? TIMER_MIN_NS / ns_per_unit : 1, max);
}

/* SystemTap's complaint about an interval n of variant v, or NULL. */
static char *timer_interval_error(int v, int64_t n)
{
	switch (v) {
	case TIMER_JIFFIES:
		if (n < 1 || n > JIFFIES_MAX)
			return xstrdup("invalid interval for jiffies timer");
		return NULL;
	case TIMER_HZ:
		if (n < 1)
			return xstrdup("frequency must be greater than 0");
		/* the period in ns, rounded up */
		return timer_range_error(NS_PER_SEC / n + (NS_PER_SEC % n != 0), 1);
	default:
		return timer_range_error(n, v);
	}
}

static int timer_expand(const struct point_pattern *pat, const struct probe_point *pp,
			struct vec *out, struct family_error *err)
{
	const struct pp_comp *c1 = pp->comps.v[1];
	const struct pp_comp *c2 = pp->comps.n == 3 ? pp->comps.v[2] : NULL;
	int64_t interval = c1->arg->num, randomize = c2 ? c2->arg->num : 0;
	char *msg = timer_interval_error(pat->variant, interval);
	struct family_point *fp;

	if (msg)
		return timer_arg_error(err, c1, msg);
	if (c2 && (randomize < 0 || randomize > interval))
		return timer_arg_error(err, c2, xstrdup(pat->variant == TIMER_JIFFIES ?
							"invalid randomize for jiffies timer" :
							"randomization value out of range"));
	fp = xcalloc(1, sizeof(*fp));
	fp->num[0] = interval;
	fp->num[1] = randomize;
	fp->target_comp = -1;
	vec_push(out, fp);
	return 1;
}

static void timer_emit(FILE *out, const struct derived_probe *dp, size_t index)
{
	uint64_t n = (uint64_t)dp->fp.num[0], spread = (uint64_t)dp->fp.num[1];
	uint64_t interval;
	const char *unit = "TAP_TIMER_NS";

	(void)index;
	switch (dp->variant) {
	case TIMER_JIFFIES:
		interval = n;
		unit = "TAP_TIMER_JIFFIES";
		break;
	case TIMER_HZ:
		/* N per second, the period rounded up as SystemTap does */
		interval = (1000000000ULL + n - 1) / n;
		spread = 0;
		break;
	default:
		interval = n * (uint64_t)dp->variant;
		spread *= (uint64_t)dp->variant;
		break;
	}
	fprintf(out, ".kind = TAP_PROBE_TIMER, .interval_ns = %" PRIu64 "ULL, "
		".randomize = %" PRIu64 "ULL, .unit = %s, ", interval, spread, unit);
}

const struct probe_family probe_family_timer = {
	.name = "timer",
	.rows = timer_rows,
	.n_rows = sizeof(timer_rows) / sizeof(timer_rows[0]),
	.expand = timer_expand,
	.unprivileged = family_all_unprivileged,
	.emit_entry = timer_emit,
};
