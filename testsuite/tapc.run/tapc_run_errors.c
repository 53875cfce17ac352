/*
 * Hand-written as pass 3 will write it, built with -DMAXERRORS=10
 * -DMAXNESTING=3:
 *   function f(x) { return f(x + 1) }
 *   probe begin(1) { x = 1 / zero }
 *   probe begin(2) { x = 1 % zero }
 *   probe begin(3) { printf("min/-1=%d min%%-1=%d\n", min / -1, min % -1) }
 *   probe begin(4) { f(0) }
 *   probe begin(5) { error(sprintf("custom %d", 42)) }
 *   probe begin(6) { try { x = 1 / zero } catch { println("caught") } }
 *   probe begin(7) { embedded C: STAP_PRINTF, string helpers, locals }
 *   probe begin(8) { exit() }
 *   probe end { println("end") }
 */
#include "tapc_runtime.h"

static long long g_zero;
static long long g_min = -0x7fffffffffffffffLL - 1;

static void probe_0(struct tap_context *c)
{
	TAP_STMT(c, "operator '/' at errors.stp:2:22");
	tap_div(c, 1, g_zero);
	if (c->last_error)
		return;
	tap_print(c, "not reached\n");
}

static void probe_1(struct tap_context *c)
{
	TAP_STMT(c, "operator '%' at errors.stp:3:22");
	tap_mod(c, 1, g_zero);
	if (c->last_error)
		return;
	tap_print(c, "not reached\n");
}

static void probe_2(struct tap_context *c)
{
	struct tap_parg a[2];

	a[0] = TAP_PNUM(tap_div(c, g_min, -1));
	a[1] = TAP_PNUM(tap_mod(c, g_min, -1));
	tap_printf(c, "min/-1=%d min%%-1=%d\n", 2, a);
}

static void function_f(struct tap_context *c, long long x)
{
	if (TAP_NEST_ENTER(c))
		return;
	TAP_STMT(c, "identifier 'f' at errors.stp:1:26");
	function_f(c, x + 1);
	TAP_NEST_LEAVE(c);
}

static void probe_3(struct tap_context *c)
{
	function_f(c, 0);
}

static void probe_4(struct tap_context *c)
{
	TAP_STMT(c, "identifier 'error' at errors.stp:6:18");
	tap_errorf(c, "custom %d", 42);
}

static void probe_5(struct tap_context *c)
{
	TAP_STMT(c, "operator '/' at errors.stp:7:26");
	tap_div(c, 1, g_zero);
	if (c->last_error) {
		/* catch: the error is the script's, never reported */
		c->last_error = 0;
		tap_print(c, "caught\n");
	}
}

static void probe_6(struct tap_context *c)
{
	char *buf = c->locals;
	unsigned long i, zero = 1, n1, n2;
	struct tap_parg a[5];

	for (i = 0; i < tap_locals_size; i++)
		zero &= buf[i] == 0;
	tap_cprintf(c, "cprintf %s %d locals zeroed %lu\n", "x", 7, zero);
	n1 = tap_strlcpy(buf, "abcdef", 4);
	n2 = tap_strlcat(buf, "XYZ", 6);
	a[0] = TAP_PSTR(buf);
	a[1] = TAP_PNUM(n1);
	a[2] = TAP_PNUM(n2);
	a[3] = TAP_PNUM(tap_strcmp("abc", "abd") < 0);
	a[4] = TAP_PNUM(tap_strlen(buf));
	tap_printf(c, "strings: %s %d %d %d %d\n", 5, a);
}

static void probe_7(struct tap_context *c)
{
	tap_exit(c);
}

static void probe_8(struct tap_context *c)
{
	tap_print(c, "end\n");
}

#define BEGIN(n, h)							\
	{ .kind = TAP_PROBE_BEGIN, .seq = n, .handler = h,		\
	  .pp = "begin(" #n ")", .loc = "errors.stp:2:1" }

const struct tap_probe tap_probes[] = {
	BEGIN(1, probe_0), BEGIN(2, probe_1), BEGIN(3, probe_2),
	BEGIN(4, probe_3), BEGIN(5, probe_4), BEGIN(6, probe_5),
	BEGIN(7, probe_6), BEGIN(8, probe_7),
	{ .kind = TAP_PROBE_END, .handler = probe_8, .pp = "end",
	  .loc = "errors.stp:10:1" },
};
const unsigned int tap_nprobes = sizeof(tap_probes) / sizeof(tap_probes[0]);
const struct tap_global tap_globals[1];
const unsigned int tap_nglobals;
const unsigned long tap_locals_size = 100;
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
