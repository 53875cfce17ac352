/*
 * Hand-written as pass 3 will write it:
 *   global a[3], b, w%[2], s
 *   probe begin(1) {
 *     b["x"] = 1; b["y"] = 2; b["x"] += 5; b["z"] = 3
 *     printf("b: x=%d y=%d q=%d\n", b["x"], b["y"], b["q"])
 *     printf("in: %d %d\n", ["x"] in b, ["q"] in b)
 *     foreach ([k] in b-) printf("%s=%d ", k, b[k]); println("")
 *     foreach (k+ in b limit 2) printf("%s ", k); println("")
 *     foreach (k in b) printf("%s ", k); println("")
 *     s[1,"k"] = "v1"; s[2,"k"] = "v2"; s[2,"j"] = "v3"
 *     delete s[*,"k"]
 *     printf("s: %d %d [%s] [%s]\n", [*,"j"] in s, [1,"k"] in s,
 *            s[1,"k"], s[2,"j"])
 *     s[3,"long"] = LONG (600 x "a"); printf("long: %d\n", strlen(s[3,"long"]))
 *     w[1] = 1; w[2] = 2; w[3] = 3
 *     printf("w: %d %d %d\n", [1] in w, w[2], w[3])
 *     delete b; foreach (k in b) n++; printf("after delete: %d\n", n)
 *   }
 *   probe begin(2) { a[1] = 1; a[2] = 2; a[3] = 3; a[3] = 33; a[4] = 4
 *                    println("not reached") }
 *   probe error { printf("error probe: a[3]=%d\n", a[3]) }
 */
#include "tapc_runtime.h"

static struct tap_map *g_a, *g_b, *g_w, *g_s;

static union tap_idx K1(long long l)
{
	return (union tap_idx){ .l = l };
}

static union tap_idx KS(const char *s)
{
	return (union tap_idx){ .s = s };
}

static void print_long(struct tap_context *c, const char *fmt, long long v)
{
	struct tap_parg a[1] = { TAP_PNUM(v) };

	tap_printf(c, fmt, 1, a);
}

static void walk_b(struct tap_context *c, int column, int dir, long long limit,
		   int values)
{
	long long i, n = tap_foreach_start(c, g_b, column, dir, 0, limit);
	struct tap_parg a[2];
	struct tap_map_entry *e;

	for (i = 0; i < n; i++) {
		e = tap_foreach_get(g_b, i);
		if (!e)
			continue;
		a[0] = TAP_PSTR(tap_entry_key_str(g_b, e, 0));
		a[1] = TAP_PNUM(tap_entry_long(g_b, e));
		tap_printf(c, values ? "%s=%d " : "%s ", values ? 2 : 1, a);
	}
	tap_print(c, "\n");
}

static void probe_0(struct tap_context *c)
{
	union tap_idx k[2];
	struct tap_parg a[4];
	char *big = c->locals, *v1 = big + 640, *v2 = v1 + MAXSTRINGLEN;
	long long n;

	TAP_STMT(c, "identifier 'b' at maps.stp:2:3");
	k[0] = KS("x");
	if (tap_map_set_long(c, g_b, k, 1))
		return;
	k[0] = KS("y");
	if (tap_map_set_long(c, g_b, k, 2))
		return;
	k[0] = KS("x");
	if (tap_map_set_long(c, g_b, k, tap_map_get_long(g_b, k) + 5))
		return;
	k[0] = KS("z");
	if (tap_map_set_long(c, g_b, k, 3))
		return;
	k[0] = KS("x");
	a[0] = TAP_PNUM(tap_map_get_long(g_b, k));
	k[0] = KS("y");
	a[1] = TAP_PNUM(tap_map_get_long(g_b, k));
	k[0] = KS("q");
	a[2] = TAP_PNUM(tap_map_get_long(g_b, k));
	tap_printf(c, "b: x=%d y=%d q=%d\n", 3, a);
	k[0] = KS("x");
	a[0] = TAP_PNUM(tap_map_exists(g_b, k, 0));
	k[0] = KS("q");
	a[1] = TAP_PNUM(tap_map_exists(g_b, k, 0));
	tap_printf(c, "in: %d %d\n", 2, a);
	walk_b(c, 0, -1, -1, 1);
	walk_b(c, 1, 1, 2, 0);
	walk_b(c, 0, 0, -1, 0);

	TAP_STMT(c, "identifier 's' at maps.stp:8:3");
	k[0] = K1(1), k[1] = KS("k");
	if (tap_map_set_str(c, g_s, k, "v1"))
		return;
	k[0] = K1(2);
	if (tap_map_set_str(c, g_s, k, "v2"))
		return;
	k[1] = KS("j");
	if (tap_map_set_str(c, g_s, k, "v3"))
		return;
	k[1] = KS("k");
	tap_map_delete(g_s, k, 1U << 0);
	k[1] = KS("j");
	a[0] = TAP_PNUM(tap_map_exists(g_s, k, 1U << 0));
	k[0] = K1(1), k[1] = KS("k");
	a[1] = TAP_PNUM(tap_map_exists(g_s, k, 0));
	tap_map_get_str(g_s, k, v1);
	a[2] = TAP_PSTR(v1);
	k[0] = K1(2), k[1] = KS("j");
	tap_map_get_str(g_s, k, v2);
	a[3] = TAP_PSTR(v2);
	tap_printf(c, "s: %d %d [%s] [%s]\n", 4, a);

	tap_memset(big, 'a', 600);
	big[600] = '\0';
	k[0] = K1(3), k[1] = KS("long");
	if (tap_map_set_str(c, g_s, k, big))
		return;
	tap_map_get_str(g_s, k, v1);
	print_long(c, "long: %d\n", tap_strlen(v1));

	TAP_STMT(c, "identifier 'w' at maps.stp:14:3");
	for (n = 1; n <= 3; n++) {
		k[0] = K1(n);
		if (tap_map_set_long(c, g_w, k, n))
			return;
	}
	k[0] = K1(1);
	a[0] = TAP_PNUM(tap_map_exists(g_w, k, 0));
	k[0] = K1(2);
	a[1] = TAP_PNUM(tap_map_get_long(g_w, k));
	k[0] = K1(3);
	a[2] = TAP_PNUM(tap_map_get_long(g_w, k));
	tap_printf(c, "w: %d %d %d\n", 3, a);

	tap_map_clear(g_b);
	print_long(c, "after delete: %d\n",
		   tap_foreach_start(c, g_b, 0, 0, 0, -1));
}

static void probe_1(struct tap_context *c)
{
	union tap_idx k[1];
	long long i;

	for (i = 1; i <= 4; i++) {
		TAP_STMT(c, "identifier 'a' at maps.stp:17:30");
		k[0] = K1(i);
		if (tap_map_set_long(c, g_a, k, i))
			return;
		if (i == 3 && tap_map_set_long(c, g_a, k, 33))
			return;
	}
	tap_print(c, "not reached\n");
}

static void probe_2(struct tap_context *c)
{
	union tap_idx k[1] = { K1(3) };

	print_long(c, "error probe: a[3]=%d\n", tap_map_get_long(g_a, k));
}

static const struct tap_lock_req locks_0[] = { { 1, 1 }, { 2, 1 }, { 3, 1 } };
static const struct tap_lock_req locks_1[] = { { 0, 1 } };
static const struct tap_lock_req locks_2[] = { { 0, 0 } };

const struct tap_probe tap_probes[] = {
	{ .kind = TAP_PROBE_BEGIN, .seq = 1, .handler = probe_0,
	  .pp = "begin(1)", .loc = "maps.stp:2:1", .locks = locks_0, .nlocks = 3 },
	{ .kind = TAP_PROBE_BEGIN, .seq = 2, .handler = probe_1,
	  .pp = "begin(2)", .loc = "maps.stp:17:1", .locks = locks_1, .nlocks = 1 },
	{ .kind = TAP_PROBE_ERROR, .handler = probe_2,
	  .pp = "error", .loc = "maps.stp:19:1", .locks = locks_2, .nlocks = 1 },
};
const unsigned int tap_nprobes = sizeof(tap_probes) / sizeof(tap_probes[0]);

const struct tap_global tap_globals[] = {
	{ .name = "a", .kind = TAP_GLOBAL_MAP, .addr = &g_a, .max_entries = 3,
	  .nkeys = 1, .key_types = { TAP_T_LONG }, .val_type = TAP_T_LONG },
	{ .name = "b", .kind = TAP_GLOBAL_MAP, .addr = &g_b,
	  .nkeys = 1, .key_types = { TAP_T_STR }, .val_type = TAP_T_LONG },
	{ .name = "w", .kind = TAP_GLOBAL_MAP, .addr = &g_w, .max_entries = 2,
	  .wrap = 1, .nkeys = 1, .key_types = { TAP_T_LONG },
	  .val_type = TAP_T_LONG },
	{ .name = "s", .kind = TAP_GLOBAL_MAP, .addr = &g_s, .nkeys = 2,
	  .key_types = { TAP_T_LONG, TAP_T_STR }, .val_type = TAP_T_STR },
};
const unsigned int tap_nglobals = sizeof(tap_globals) / sizeof(tap_globals[0]);
const unsigned long tap_locals_size = 640 + 2 * MAXSTRINGLEN;
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
