/*
 * Hand-written as pass 3 will write it, built with -DMAXERRORS=2:
 *   global n
 *   probe timer.ms(5) { n++; x = 10 / (n - n) }
 *   probe end   { println("end probe") }
 *   probe error { printf("error probe: n=%d\n", n) }
 * Every hit fails; the third error is one more than MAXERRORS allows and
 * stops the script: three ERROR lines, then the error probe.
 */
#include "tapc_runtime.h"

static long long g_n;

static void probe_0(struct tap_context *c)
{
	long long l, r, x;

	if (TAP_ACTIONS(c, 2))
		return;
	g_n++;
	l = 10;
	r = g_n - g_n;
	TAP_STMT(c, "operator '/' at div.stp:2:37");
	if (r == 0) {
		tap_error(c, "division by 0");
		return;
	}
	x = l / r;
	(void)x;
}

static void probe_1(struct tap_context *c)
{
	tap_print(c, "end probe\n");
}

static void probe_2(struct tap_context *c)
{
	struct tap_parg a[1] = { TAP_PNUM(g_n) };

	tap_printf(c, "error probe: n=%d\n", 1, a);
}

const struct tap_probe tap_probes[] = {
	{ .kind = TAP_PROBE_TIMER, .interval_ns = 5000000ULL,
	  .handler = probe_0, .pp = "timer.ms(5)", .loc = "div.stp:2:1" },
	{ .kind = TAP_PROBE_END, .handler = probe_1,
	  .pp = "end", .loc = "div.stp:3:1" },
	{ .kind = TAP_PROBE_ERROR, .handler = probe_2,
	  .pp = "error", .loc = "div.stp:4:1" },
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
