/*
 * Tables pass 3 could get wrong; the module must refuse to load:
 *   BAD=1  a lock set out of order
 *   BAD=2  an array global without keys
 *   BAD=3  a timer whose randomize exceeds its interval
 */
#include "tapc_runtime.h"

static struct tap_map *g_a, *g_b;

static void probe_0(struct tap_context *c)
{
	tap_print(c, "not reached\n");
}

#if BAD == 1
static const struct tap_lock_req locks_0[] = { { 1, 1 }, { 0, 1 } };
#else
static const struct tap_lock_req locks_0[] = { { 0, 1 }, { 1, 1 } };
#endif

const struct tap_probe tap_probes[] = {
	{ .kind = TAP_PROBE_BEGIN, .handler = probe_0, .pp = "begin",
	  .loc = "bad.stp:1:1", .locks = locks_0, .nlocks = 2 },
	{ .kind = TAP_PROBE_TIMER, .interval_ns = 1000000,
	  .randomize = BAD == 3 ? 2000000 : 0, .handler = probe_0,
	  .pp = "timer.ms(1)", .loc = "bad.stp:2:1" },
};
const unsigned int tap_nprobes = sizeof(tap_probes) / sizeof(tap_probes[0]);
const struct tap_global tap_globals[] = {
	{ .name = "a", .kind = TAP_GLOBAL_MAP, .addr = &g_a,
	  .nkeys = BAD == 2 ? 0 : 1, .key_types = { TAP_T_LONG },
	  .val_type = TAP_T_LONG },
	{ .name = "b", .kind = TAP_GLOBAL_MAP, .addr = &g_b, .nkeys = 1,
	  .key_types = { TAP_T_LONG }, .val_type = TAP_T_LONG },
};
const unsigned int tap_nglobals = 2;
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
