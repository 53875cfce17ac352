/*
 * Hand-written as pass 3 will write it, built with -DMAXERRORS=5:
 *   global s, h, t, e
 *   probe begin(1) {
 *     s <<< 1; s <<< 2; s <<< 2; s <<< 4; s <<< 4; s <<< 4; s <<< 4
 *     printf("count=%d sum=%d min=%d max=%d avg=%d variance=%d\n",
 *            @count(s), @sum(s), @min(s), @max(s), @avg(s), @variance(s))
 *     printf("bucket66=%d buckets=%d,%d\n", @hist_log(s)[66],
 *            (buckets of foreach over @hist_log(s) and @hist_linear(h)))
 *     print(@hist_log(s))
 *     t["a"] <<< 5; t["b"] <<< 1; t["b"] <<< 2; t["c"] <<< 10; t["a"] <<< 7
 *     foreach ([k] in t @sum-) printf("%s:%d:%d ", k, @count(t[k]), @sum(t[k]))
 *     println("")
 *     printf("z=%d in=%d avg_b=%d\n", @count(t["z"]), ["a"] in t, @avg(t["b"]))
 *     delete t["a"]; n = 0; foreach (k in t) n++; printf("left: %d\n", n)
 *     h <<< 0; h <<< 3; h <<< 7; h <<< 12
 *     print(@hist_linear(h, 0, 10, 5))
 *   }
 *   probe begin(2) { printf("%d\n", @min(e)) }
 *   probe begin(3) { x = @hist_log(s)[128] }
 *   probe begin(4) { x = @hist_log(t["zz"])[1] }
 *   probe begin(5) { exit() }
 *   probe end { printf("end: %d\n", @count(e)) }
 */
#include "tapc_runtime.h"

static struct tap_map *g_s, *g_h, *g_t, *g_e;

static void probe_0(struct tap_context *c)
{
	static const long long vals[] = { 1, 2, 2, 4, 4, 4, 4 };
	static const struct { const char *k; long long v; } tv[] = {
		{ "a", 5 }, { "b", 1 }, { "b", 2 }, { "c", 10 }, { "a", 7 },
	};
	struct tap_parg a[6];
	union tap_idx k[1];
	struct tap_map_entry *e;
	long long n, i, v;
	int op;

	TAP_STMT(c, "operator '<<<' at stats.stp:3:5");
	for (i = 0; i < 7; i++)
		if (tap_map_add_stat(c, g_s, NULL, vals[i]))
			return;
	for (op = TAP_STAT_OP_COUNT; op <= TAP_STAT_OP_VARIANCE; op++) {
		if (tap_stat_get(c, g_s, NULL, op, 0, &v))
			return;
		a[op - 1] = TAP_PNUM(v);
	}
	tap_printf(c, "count=%d sum=%d min=%d max=%d avg=%d variance=%d\n",
		   6, a);
	if (tap_hist_get(c, g_s, NULL, 66, &v))
		return;
	a[0] = TAP_PNUM(v);
	a[1] = TAP_PNUM(tap_hist_buckets(c, g_s, NULL));
	a[2] = TAP_PNUM(tap_hist_buckets(c, g_h, NULL));
	tap_printf(c, "bucket66=%d buckets=%d,%d\n", 3, a);
	if (tap_hist_print(c, g_s, NULL))
		return;

	TAP_STMT(c, "identifier 't' at stats.stp:8:3");
	for (i = 0; i < 5; i++) {
		k[0].s = tv[i].k;
		if (tap_map_add_stat(c, g_t, k, tv[i].v))
			return;
	}
	n = tap_foreach_start(c, g_t, 0, -1, TAP_STAT_OP_SUM, -1);
	for (i = 0; i < n; i++) {
		e = tap_foreach_get(g_t, i);
		if (!e)
			continue;
		a[0] = TAP_PSTR(tap_entry_key_str(g_t, e, 0));
		if (tap_entry_stat(c, g_t, e, TAP_STAT_OP_COUNT, 0, &v))
			return;
		a[1] = TAP_PNUM(v);
		if (tap_entry_stat(c, g_t, e, TAP_STAT_OP_SUM, 0, &v))
			return;
		a[2] = TAP_PNUM(v);
		tap_printf(c, "%s:%d:%d ", 3, a);
	}
	tap_print(c, "\n");
	k[0].s = "z";
	if (tap_stat_get(c, g_t, k, TAP_STAT_OP_COUNT, 0, &v))
		return;
	a[0] = TAP_PNUM(v);
	k[0].s = "a";
	a[1] = TAP_PNUM(tap_map_exists(g_t, k, 0));
	k[0].s = "b";
	if (tap_stat_get(c, g_t, k, TAP_STAT_OP_AVG, 0, &v))
		return;
	a[2] = TAP_PNUM(v);
	tap_printf(c, "z=%d in=%d avg_b=%d\n", 3, a);
	k[0].s = "a";
	tap_map_delete(g_t, k, 0);
	a[0] = TAP_PNUM(tap_foreach_start(c, g_t, 0, 0, 0, -1));
	tap_printf(c, "left: %d\n", 1, a);

	TAP_STMT(c, "identifier 'h' at stats.stp:12:3");
	for (i = 0; i < 4; i++)
		if (tap_map_add_stat(c, g_h, NULL, (long long[]){ 0, 3, 7, 12 }[i]))
			return;
	tap_hist_print(c, g_h, NULL);
}

static void probe_1(struct tap_context *c)
{
	long long v;

	TAP_STMT(c, "identifier 'e' at stats.stp:15:30");
	if (tap_stat_get(c, g_e, NULL, TAP_STAT_OP_MIN, 0, &v))
		return;
	tap_print(c, "not reached\n");
}

static void probe_2(struct tap_context *c)
{
	long long v;

	TAP_STMT(c, "operator '@hist_log' at stats.stp:16:22");
	if (tap_hist_index(c, g_s, NULL, 128, &v))
		return;
	tap_print(c, "not reached\n");
}

static void probe_3(struct tap_context *c)
{
	union tap_idx k[1] = { { .s = "zz" } };
	long long v;

	TAP_STMT(c, "operator '@hist_log' at stats.stp:17:22");
	if (tap_hist_index(c, g_t, k, 1, &v))
		return;
	tap_print(c, "not reached\n");
}

static void probe_4(struct tap_context *c)
{
	tap_exit(c);
}

static void probe_5(struct tap_context *c)
{
	struct tap_parg a[1];
	long long v;

	if (tap_stat_get(c, g_e, NULL, TAP_STAT_OP_COUNT, 0, &v))
		return;
	a[0] = TAP_PNUM(v);
	tap_printf(c, "end: %d\n", 1, a);
}

static const struct tap_lock_req locks_all[] = {
	{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 },
};

#define BEGIN(n, h, line)						\
	{ .kind = TAP_PROBE_BEGIN, .seq = n, .handler = h,		\
	  .pp = "begin(" #n ")", .loc = "stats.stp:" #line ":1",	\
	  .locks = locks_all, .nlocks = 4 }

const struct tap_probe tap_probes[] = {
	BEGIN(1, probe_0, 2),
	BEGIN(2, probe_1, 15),
	BEGIN(3, probe_2, 16),
	BEGIN(4, probe_3, 17),
	BEGIN(5, probe_4, 18),
	{ .kind = TAP_PROBE_END, .handler = probe_5, .pp = "end",
	  .loc = "stats.stp:19:1", .locks = locks_all, .nlocks = 4 },
};
const unsigned int tap_nprobes = sizeof(tap_probes) / sizeof(tap_probes[0]);

const struct tap_global tap_globals[] = {
	{ .name = "s", .kind = TAP_GLOBAL_STAT, .addr = &g_s,
	  .val_type = TAP_T_STAT, .hist = { .type = TAP_H_LOG } },
	{ .name = "h", .kind = TAP_GLOBAL_STAT, .addr = &g_h,
	  .val_type = TAP_T_STAT,
	  .hist = { .type = TAP_H_LINEAR, .start = 0, .stop = 10,
		    .interval = 5 } },
	{ .name = "t", .kind = TAP_GLOBAL_MAP, .addr = &g_t, .nkeys = 1,
	  .key_types = { TAP_T_STR }, .val_type = TAP_T_STAT,
	  .hist = { .type = TAP_H_LOG } },
	{ .name = "e", .kind = TAP_GLOBAL_STAT, .addr = &g_e,
	  .val_type = TAP_T_STAT },
};
const unsigned int tap_nglobals = sizeof(tap_globals) / sizeof(tap_globals[0]);
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
