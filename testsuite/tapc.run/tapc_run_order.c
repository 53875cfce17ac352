/*
 * Hand-written as pass 3 will write it:
 *   probe end(2)     { println("end 2") }
 *   probe begin(10)  { println("begin 10") exit() }
 *   probe begin      { println("begin 0 first") }
 *   probe end(-1)    { println("end -1") }
 *   probe error      { println("error probe") }
 *   probe begin(-5)  { println("begin -5") }
 *   probe begin      { println("begin 0 second") }
 * Begin probes run by sequence number, ties in script order; exit() in a
 * begin probe lets the later ones run; end probes run in their order and
 * the error probe does not run (no error).
 */
#include "tapc_runtime.h"

static void say(struct tap_context *c, const char *s)
{
	if (TAP_ACTIONS(c, 1))
		return;
	tap_print(c, s);
	tap_print(c, "\n");
}

static void probe_0(struct tap_context *c) { say(c, "end 2"); }
static void probe_1(struct tap_context *c)
{
	say(c, "begin 10");
	if (c->last_error)
		return;
	tap_exit(c);
}
static void probe_2(struct tap_context *c) { say(c, "begin 0 first"); }
static void probe_3(struct tap_context *c) { say(c, "end -1"); }
static void probe_4(struct tap_context *c) { say(c, "error probe"); }
static void probe_5(struct tap_context *c) { say(c, "begin -5"); }
static void probe_6(struct tap_context *c) { say(c, "begin 0 second"); }

const struct tap_probe tap_probes[] = {
	{ .kind = TAP_PROBE_END, .seq = 2, .handler = probe_0,
	  .pp = "end(2)", .loc = "order.stp:1:1" },
	{ .kind = TAP_PROBE_BEGIN, .seq = 10, .handler = probe_1,
	  .pp = "begin(10)", .loc = "order.stp:2:1" },
	{ .kind = TAP_PROBE_BEGIN, .seq = 0, .handler = probe_2,
	  .pp = "begin", .loc = "order.stp:3:1" },
	{ .kind = TAP_PROBE_END, .seq = -1, .handler = probe_3,
	  .pp = "end(-1)", .loc = "order.stp:4:1" },
	{ .kind = TAP_PROBE_ERROR, .seq = 0, .handler = probe_4,
	  .pp = "error", .loc = "order.stp:5:1" },
	{ .kind = TAP_PROBE_BEGIN, .seq = -5, .handler = probe_5,
	  .pp = "begin(-5)", .loc = "order.stp:6:1" },
	{ .kind = TAP_PROBE_BEGIN, .seq = 0, .handler = probe_6,
	  .pp = "begin", .loc = "order.stp:7:1" },
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
