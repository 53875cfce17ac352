/*
 * Hand-written as pass 3 will write it:
 *   global n
 *   probe timer.ms(10) { n++; printf("tick %d\n", n); if (n == 25) exit() }
 *   probe end { printf("end: n=%d target=%d\n", n, target()) }
 * The timer stops at exit(): exactly 25 ticks.  target() shows -x, -c and
 * module parameters.
 */
#include "tapc_runtime.h"

static long long g_n;

static void probe_0(struct tap_context *c)
{
	struct tap_parg a[1];

	TAP_STMT(c, "operator '++' at timer.stp:2:23");
	if (TAP_ACTIONS(c, 3))
		return;
	g_n++;
	TAP_STMT(c, "identifier 'printf' at timer.stp:2:28");
	a[0] = TAP_PNUM(g_n);
	tap_printf(c, "tick %d\n", 1, a);
	if (c->last_error)
		return;
	if (g_n == 25)
		tap_exit(c);
}

static void probe_1(struct tap_context *c)
{
	struct tap_parg a[2];

	TAP_STMT(c, "identifier 'printf' at timer.stp:3:13");
	if (TAP_ACTIONS(c, 1))
		return;
	a[0] = TAP_PNUM(g_n);
	a[1] = TAP_PNUM(tap_target());
	tap_printf(c, "end: n=%d target=%d\n", 2, a);
}

const struct tap_probe tap_probes[] = {
	{ .kind = TAP_PROBE_TIMER, .interval_ns = 10000000ULL,
	  .handler = probe_0, .pp = "timer.ms(10)", .loc = "timer.stp:2:1" },
	{ .kind = TAP_PROBE_END, .handler = probe_1,
	  .pp = "end", .loc = "timer.stp:3:1" },
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
