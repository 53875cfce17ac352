/*
 * Hand-written as pass 3 will write it for tapc -t:
 *   global n
 *   probe begin { println("begin") }
 *   probe timer.ms(5) { if (++n == 5) exit() }
 *   probe end { println("end") }
 *   probe error { println("error") }
 * The report lists the three probes that ran, not the error probe.
 */
#include "tapc_runtime.h"

static long long g_n;

static void probe_0(struct tap_context *c)
{
	tap_print(c, "begin\n");
}

static void probe_1(struct tap_context *c)
{
	if (++g_n == 5)
		tap_exit(c);
}

static void probe_2(struct tap_context *c)
{
	tap_print(c, "end\n");
}

static const struct tap_lock_req locks_n[] = { { 0, 1 } };

const struct tap_probe tap_probes[] = {
	{ .kind = TAP_PROBE_BEGIN, .handler = probe_0, .pp = "begin",
	  .loc = "timing.stp:2:1", .derivation = "begin" },
	{ .kind = TAP_PROBE_TIMER, .interval_ns = 5000000ULL,
	  .handler = probe_1, .pp = "timer.ms(5)", .loc = "timing.stp:3:1",
	  .derivation = "timer.ms(5)", .locks = locks_n, .nlocks = 1 },
	{ .kind = TAP_PROBE_END, .handler = probe_2, .pp = "end",
	  .loc = "timing.stp:4:1", .derivation = "end" },
	{ .kind = TAP_PROBE_ERROR, .handler = probe_2, .pp = "error",
	  .loc = "timing.stp:5:1", .derivation = "error" },
};
const unsigned int tap_nprobes = sizeof(tap_probes) / sizeof(tap_probes[0]);
const struct tap_global tap_globals[] = {
	{ .name = "n", .kind = TAP_GLOBAL_LONG, .addr = &g_n },
};
const unsigned int tap_nglobals = 1;
const unsigned long tap_locals_size;
const int tap_timing = 1;
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
