/*
 * Hand-written as pass 3 will write it:
 *   global n
 *   probe begin { while (1) n++ }
 *   probe end   { println("end probe") }
 *   probe error { println(sprintf("error probe: n=%d", n)) }
 * The loop runs out of its budget (MAXACTION_INTERRUPTIBLE, ten times
 * MAXACTION): the while spends one action, each iteration two (its own
 * and the increment's, spent after the body as SystemTap does), so with
 * -DMAXACTION=500 the hit is aborted with "MAXACTION exceeded" after
 * 2,500 increments (4999 - 2 * 2500 <= 0).
 */
#include "tapc_runtime.h"

static long long g_n;

static void probe_0(struct tap_context *c)
{
	TAP_SPEND_AT(c, 1, "keyword at action.stp:2:15", out);
	for (;;) {
		TAP_STMT(c, "identifier 'n' at action.stp:2:26");
		g_n++;
		TAP_SPEND_AT(c, 2, "identifier 'n' at action.stp:2:26", out);
	}
out:
	return;
}

static void probe_1(struct tap_context *c)
{
	tap_print(c, "end probe\n");
}

static void probe_2(struct tap_context *c)
{
	struct tap_parg a[1] = { TAP_PNUM(g_n) };
	char s[MAXSTRINGLEN];

	TAP_STMT(c, "identifier 'sprintf' at action.stp:4:23");
	if (tap_sprintf(c, s, sizeof(s), "error probe: n=%d", 1, a) < 0)
		return;
	tap_print(c, s);
	tap_print(c, "\n");
}

const struct tap_probe tap_probes[] = {
	{ .kind = TAP_PROBE_BEGIN, .handler = probe_0,
	  .pp = "begin", .loc = "action.stp:2:1" },
	{ .kind = TAP_PROBE_END, .handler = probe_1,
	  .pp = "end", .loc = "action.stp:3:1" },
	{ .kind = TAP_PROBE_ERROR, .handler = probe_2,
	  .pp = "error", .loc = "action.stp:4:1" },
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
