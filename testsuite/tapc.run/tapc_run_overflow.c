/*
 * Hand-written as pass 3 will write it, built with -DMAXMAPENTRIES=5:
 *   global c
 *   probe begin { for (i = 0; i < 10; i++) c[i] = i }
 *   probe error { n = 0; foreach (k in c) n++; printf("entries: %d\n", n) }
 * The sixth element overflows the default size.
 */
#include "tapc_runtime.h"

static struct tap_map *g_c;

static void probe_0(struct tap_context *c)
{
	union tap_idx k[1];
	long long i;

	for (i = 0; i < 10; i++) {
		TAP_STMT(c, "identifier 'c' at overflow.stp:2:42");
		k[0].l = i;
		if (tap_map_set_long(c, g_c, k, i))
			return;
	}
}

static void probe_1(struct tap_context *c)
{
	struct tap_parg a[1];

	a[0] = TAP_PNUM(tap_foreach_start(c, g_c, 0, 0, 0, -1));
	tap_printf(c, "entries: %d\n", 1, a);
}

static const struct tap_lock_req locks_0[] = { { 0, 1 } };

const struct tap_probe tap_probes[] = {
	{ .kind = TAP_PROBE_BEGIN, .handler = probe_0, .pp = "begin",
	  .loc = "overflow.stp:2:1", .locks = locks_0, .nlocks = 1 },
	{ .kind = TAP_PROBE_ERROR, .handler = probe_1, .pp = "error",
	  .loc = "overflow.stp:3:1", .locks = locks_0, .nlocks = 1 },
};
const unsigned int tap_nprobes = sizeof(tap_probes) / sizeof(tap_probes[0]);
const struct tap_global tap_globals[] = {
	{ .name = "c", .kind = TAP_GLOBAL_MAP, .addr = &g_c, .nkeys = 1,
	  .key_types = { TAP_T_LONG }, .val_type = TAP_T_LONG },
};
const unsigned int tap_nglobals = 1;
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
