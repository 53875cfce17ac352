/*
 * Hand-written as pass 3 will write it:
 *   probe begin { println("hello world") exit() }
 */
#include "tapc_runtime.h"

static void probe_0(struct tap_context *c)
{
	TAP_STMT(c, "identifier 'println' at hello.stp:1:15");
	if (TAP_ACTIONS(c, 2))
		return;
	tap_print(c, "hello world");
	tap_print(c, "\n");
	TAP_STMT(c, "identifier 'exit' at hello.stp:1:38");
	tap_exit(c);
}

const struct tap_probe tap_probes[] = {
	{ .kind = TAP_PROBE_BEGIN, .seq = 0, .handler = probe_0,
	  .pp = "begin", .loc = "hello.stp:1:1" },
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
