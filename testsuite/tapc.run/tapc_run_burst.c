/*
 * Hand-written as pass 3 will write it, built with a small output buffer
 * (-DTAP_BUFFER_SIZE=16384) and room for the loop (-DMAXACTION=100000):
 *   probe begin { for (i = 0; i < 20000; i++) printf("line %05d of the burst\n", i) exit() }
 * 20000 lines of 24 bytes: far more than the buffer, written in one hit
 * that never waits for the reader.  What does not fit is dropped whole
 * (in pieces of the per-CPU print buffer), counted, and reported.
 */
#include "tapc_runtime.h"

static void probe_0(struct tap_context *c)
{
	struct tap_parg a[1];
	long long i;

	for (i = 0; i < 20000; i++) {
		if (TAP_ACTIONS(c, 2))
			return;
		TAP_STMT(c, "identifier 'printf' at burst.stp:1:45");
		a[0] = TAP_PNUM(i);
		tap_printf(c, "line %05d of the burst\n", 1, a);
		if (c->last_error)
			return;
	}
	tap_exit(c);
}

const struct tap_probe tap_probes[] = {
	{ .kind = TAP_PROBE_BEGIN, .handler = probe_0,
	  .pp = "begin", .loc = "burst.stp:1:1" },
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
