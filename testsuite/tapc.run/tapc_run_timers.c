/*
 * Hand-written as pass 3 will write it (jiffies and ktime_get() stand for
 * the tapset functions jiffies() and gettimeofday_ns()):
 *   global n, m, j0, last, lo, hi
 *   probe begin { j0 = jiffies() }
 *   probe timer.jiffies(5) {
 *     if (++n == 10) printf("jiffies: 10 ticks, >= 50 jiffies: %d\n",
 *                           jiffies() - j0 >= 50)
 *   }
 *   probe timer.ms(20).randomize(15) {
 *     now = gettimeofday_ns()
 *     if (m++) { p = now - last; if (!lo || p < lo) lo = p; if (p > hi) hi = p }
 *     last = now
 *     if (m == 41) { printf("randomize: below 12 ms: %d, above 28 ms: %d\n",
 *                           lo < 12000000, hi > 28000000); exit() }
 *   }
 *   probe end { printf("end: n >= 10: %d\n", n >= 10) }
 */
#include "tapc_runtime.h"

extern volatile unsigned long jiffies;
extern long long ktime_get(void);

static long long g_n, g_m, g_j0, g_last, g_lo, g_hi;

static void probe_0(struct tap_context *c)
{
	g_j0 = jiffies;
}

static void probe_1(struct tap_context *c)
{
	struct tap_parg a[1];

	if (++g_n != 10)
		return;
	a[0] = TAP_PNUM(jiffies - g_j0 >= 50);
	tap_printf(c, "jiffies: 10 ticks, >= 50 jiffies: %d\n", 1, a);
}

static void probe_2(struct tap_context *c)
{
	long long now = ktime_get(), p;
	struct tap_parg a[2];

	if (g_m++) {
		p = now - g_last;
		if (!g_lo || p < g_lo)
			g_lo = p;
		if (p > g_hi)
			g_hi = p;
	}
	g_last = now;
	if (g_m != 41)
		return;
	a[0] = TAP_PNUM(g_lo < 12000000);
	a[1] = TAP_PNUM(g_hi > 28000000);
	tap_printf(c, "randomize: below 12 ms: %d, above 28 ms: %d\n", 2, a);
	tap_exit(c);
}

static void probe_3(struct tap_context *c)
{
	struct tap_parg a[1] = { TAP_PNUM(g_n >= 10) };

	tap_printf(c, "end: n >= 10: %d\n", 1, a);
}

const struct tap_probe tap_probes[] = {
	{ .kind = TAP_PROBE_BEGIN, .handler = probe_0, .pp = "begin",
	  .loc = "timers.stp:2:1" },
	{ .kind = TAP_PROBE_TIMER, .unit = TAP_TIMER_JIFFIES,
	  .interval_ns = 5, .handler = probe_1, .pp = "timer.jiffies(5)",
	  .loc = "timers.stp:3:1" },
	{ .kind = TAP_PROBE_TIMER, .interval_ns = 20000000ULL,
	  .randomize = 15000000ULL, .handler = probe_2,
	  .pp = "timer.ms(20).randomize(15)", .loc = "timers.stp:7:1" },
	{ .kind = TAP_PROBE_END, .handler = probe_3, .pp = "end",
	  .loc = "timers.stp:14:1" },
};
const unsigned int tap_nprobes = sizeof(tap_probes) / sizeof(tap_probes[0]);
const struct tap_global tap_globals[1];
const unsigned int tap_nglobals;
const unsigned long tap_locals_size;
const int tap_timing;
const char *const tap_modsyms[] = { NULL };
const unsigned int tap_nmodsyms = 0;
const struct tap_entryval tap_entryvals[] = { { NULL, 0, 0 } };
const unsigned int tap_nentryvals = 0;
const struct tap_klines tap_klines = { 0 };
const struct tap_kmod_lines tap_kmod_lines[] = { { .modsym = 0 } };
const unsigned int tap_kmod_lines_count = 0;
/* no user binary: the tables pass 3 prints for -d/--ldd, empty */
const struct tap_umod tap_umods[] = { { .path = 0 } };
const unsigned int tap_umod_count = 0;
TAP_DEFINE_LIMITS;
