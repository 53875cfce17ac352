/*
 * Hand-written as pass 3 will write it:
 *   probe begin { println("before") error("boom") println("after") }
 *   probe end   { println("end probe") }
 *   probe error { println("error probe") }
 * The error aborts the hit: "after" is not printed.  With MAXERRORS 0 the
 * script stops: the end probe is skipped, the error probe runs.
 */
#include "tapc_runtime.h"

static void probe_0(struct tap_context *c)
{
	if (TAP_ACTIONS(c, 3))
		return;
	TAP_STMT(c, "identifier 'println' at error.stp:1:15");
	tap_print(c, "before\n");
	TAP_STMT(c, "identifier 'error' at error.stp:1:33");
	tap_error(c, "boom");
	if (c->last_error)
		return;
	TAP_STMT(c, "identifier 'println' at error.stp:1:47");
	tap_print(c, "after\n");
}

static void probe_1(struct tap_context *c)
{
	tap_print(c, "end probe\n");
}

static void probe_2(struct tap_context *c)
{
	tap_print(c, "error probe\n");
}

const struct tap_probe tap_probes[] = {
	{ .kind = TAP_PROBE_BEGIN, .handler = probe_0,
	  .pp = "begin", .loc = "error.stp:1:1" },
	{ .kind = TAP_PROBE_END, .handler = probe_1,
	  .pp = "end", .loc = "error.stp:2:1" },
	{ .kind = TAP_PROBE_ERROR, .handler = probe_2,
	  .pp = "error", .loc = "error.stp:3:1" },
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
