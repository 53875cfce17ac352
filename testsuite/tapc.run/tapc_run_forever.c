/*
 * Hand-written as pass 3 will write it:
 *   global n
 *   probe begin { printf("begin target=%d\n", target()) }
 *   probe timer.ms(50) { n++ }
 *   probe end { printf("end ran, ticks>0: %d\n", n > 0) }
 * Never exits by itself: stopped by -T, a signal or the end of -c CMD.
 */
#include "tapc_runtime.h"

static long long g_n;

static void probe_0(struct tap_context *c)
{
	struct tap_parg a[1] = { TAP_PNUM(tap_target()) };

	tap_printf(c, "begin target=%d\n", 1, a);
}

static void probe_1(struct tap_context *c)
{
	if (TAP_ACTIONS(c, 1))
		return;
	g_n++;
}

static void probe_2(struct tap_context *c)
{
	struct tap_parg a[1] = { TAP_PNUM(g_n > 0) };

	tap_printf(c, "end ran, ticks>0: %d\n", 1, a);
}

const struct tap_probe tap_probes[] = {
	{ .kind = TAP_PROBE_BEGIN, .handler = probe_0,
	  .pp = "begin", .loc = "forever.stp:2:1" },
	{ .kind = TAP_PROBE_TIMER, .interval_ns = 50000000ULL,
	  .handler = probe_1, .pp = "timer.ms(50)", .loc = "forever.stp:3:1" },
	{ .kind = TAP_PROBE_END, .handler = probe_2,
	  .pp = "end", .loc = "forever.stp:4:1" },
};
const unsigned int tap_nprobes = sizeof(tap_probes) / sizeof(tap_probes[0]);
/* No globals that need the runtime, no locals area, no -t. */
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
