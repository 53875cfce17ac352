/* gen-hostile.c: the --hostile mode of gen-script.
 *
 * A hostile script is still valid for pass 2: one type per variable, every
 * global written by the begin(-100) probe, no write to an array that a
 * foreach walks (not even through a called function).  But it no longer
 * keeps clear of the runtime's limits: it divides by zero, shifts by any
 * count, reads empty aggregates, recurses past MAXNESTING, loops until
 * MAXACTION, fills arrays past their size, prints with hostile widths,
 * precisions and conversions, builds strings past MAXSTRINGLEN, reads
 * garbage kernel and user addresses, raises and catches errors in loops
 * and exits from deep inside, from kernel event probes (kprobes,
 * tracepoints, system calls, perf events, timers, process events, procfs
 * files) that run the same bodies on every CPU at once.
 *
 * Each of these must end as a runtime error or an orderly result, never
 * as a kernel oops, warning, lockup or hang: run-campaign runs the scripts
 * in the test VM to check that.  The limits a script aims at are chosen
 * per seed (a line "# tapc-options: -D ..." says how to build it), so
 * that overflowing an array or a string takes a few statements, not
 * thousands.
 */
#include <stdio.h>
#include <string.h>

#include "gen.h"

/* ---- the runtime limits of this script ---- */

struct limits {
	const char *defines;	/* tapc -D options that set them */
	int maxstringlen, maxmapentries, maxaction, maxnesting;
};

/* The first keeps the defaults (the first error ends the script); the
 * others let errors go on (MAXERRORS) and shrink or grow one limit. */
static const struct limits presets[] = {
	{ "", 512, 2048, 1000, 10 },
	{ "-D MAXERRORS=1000 -D TAP_BUFFER_SIZE=8192", 512, 2048, 1000, 10 },
	{ "-D MAXERRORS=1000 -D MAXMAPENTRIES=40 -D MAXACTION=4000", 512, 40, 4000, 10 },
	{ "-D MAXERRORS=1000 -D MAXSTRINGLEN=40 -D MAXNESTING=3", 40, 2048, 1000, 3 },
	{ "-D MAXERRORS=1000 -D MAXSTRINGLEN=2048", 2048, 2048, 1000, 10 },
};

static const struct limits *L = &presets[0];

char *hostile_setup(void)
{
	static const char *const levels[] = { "", " -O0", " -O2", " -O3", " -Os" };
	char *opts;

	L = &presets[rn(sizeof(presets) / sizeof(presets[0]))];
	opts = str("%s%s%s", L->defines, levels[rn(5)], pct(20) ? " -t" : "");
	return str("# tapc-options:%s%s", *opts == ' ' ? "" : " ", opts);
}

/* ---- hostile values ---- */

static const char *pick(const char *const *v, int n)
{
	return v[rn(n)];
}

#define PICK_STR(v) pick((v), (int)(sizeof(v) / sizeof((v)[0])))

/* Addresses no script should be able to crash the kernel with: NULL and
 * its page, user space and its end, the non-canonical hole, the direct
 * map, vmalloc, vmemmap, kernel text, modules, the vsyscall page, the
 * last page. */
static const char *const addresses[] = {
	"0", "1", "4096", "-1", "-4096", "0x400000", "0x7fffffffefff", "0x7ffffffff000",
	"0x800000000000", "0xdead000000000000", "(1 << 63)", "0xffff800000000000",
	"0xffff888000000000", "0xffff888000100000", "0xffffc90000000000",
	"0xffffea0000000000", "0xffffffff81000000", "0xffffffffa0000000",
	"0xffffffffff600000", "0xfffffffffffff000",
};

static char *address(struct ctx *c)
{
	switch (rn(6)) {
	case 0: return str("(%s + ((%s) & 0xfffff))", PICK_STR(addresses), gen_long(c, 1));
	case 1: return str("%s", (const char *[]){ "uaddr()", "addr()", "pid()",
						  "register(\"rsp\")" }[rn(4)]);
	case 2: return gen_long(c, 1);
	default: return str("%s", PICK_STR(addresses));
	}
}

/* A count, width or precision: around the limits, negative, or huge. */
static char *count(struct ctx *c)
{
	int m = L->maxstringlen;

	switch (rn(9)) {
	case 0: return str("%d", m - 1);
	case 1: return str("%d", m);
	case 2: return str("%d", m + 1);
	case 3: return str("%s", (const char *[]){ "-1", "-100000", "0", "(1 << 31)",
						  "(1 << 40)", "(1 << 63)", "-(1 << 62)" }[rn(7)]);
	case 4: return str("%d", rn(4096));
	case 5: return gen_long(c, 1);
	default: return str("%d", rn(m + 2));
	}
}

/* A value for statistics and %c: extremes of a 64-bit long. */
static char *extreme(struct ctx *c)
{
	static const char *const v[] = {
		"0", "-1", "1", "255", "256", "0x10ffff", "(1 << 62)", "-(1 << 62)",
		"(1 << 63)", "0x7fffffffffffffff", "-0x7fffffffffffffff", "(1 << 32)",
	};

	return pct(75) ? str("%s", PICK_STR(v)) : gen_long(c, 1);
}

/* ---- expressions without the default mode's guards ---- */

char *hostile_divisor(struct ctx *c, int depth)
{
	switch (rn(5)) {
	case 0: return str("0");
	case 1: return str("-1");
	case 2: return str("((%s) & 1)", gen_long(c, depth));
	default: return gen_long(c, depth);
	}
}

char *hostile_division(struct ctx *c, int depth)
{
	/* LONG_MIN / -1 overflows: a trap on x86 if done naively. */
	char *num = pct(30) ? str("(1 << 63)") : gen_long(c, depth - 1);

	return str("(%s %s %s)", num, pct(50) ? "/" : "%", hostile_divisor(c, depth - 1));
}

char *hostile_shift_count(struct ctx *c, int depth)
{
	static const char *const v[] = { "64", "65", "127", "200", "-1", "-64", "(1 << 40)", "(1 << 63)" };

	return pct(60) ? str("%s", PICK_STR(v)) : gen_long(c, depth);
}

char *hostile_shift(struct ctx *c, int depth)
{
	return str("(%s %s %s)", gen_long(c, depth - 1),
		   (const char *[]){ "<<", ">>", ">>>" }[rn(3)], hostile_shift_count(c, depth - 1));
}

/* An extractor of stat that may be empty: a runtime error then. */
char *hostile_extract(struct ctx *c, const char *stat)
{
	(void)c;
	return str("%s(%s)", (const char *[]){ "@min", "@max", "@avg", "@variance" }[rn(4)], stat);
}

/* ---- printf directives ---- */

static const char *flag(void)
{
	return (const char *[]){ "", "", "-", "0", "+", " ", "#" }[rn(7)];
}

char *hostile_directive(struct ctx *c, int depth, char **args)
{
	switch (rn(9)) {
	case 0:	/* dynamic width and precision of numbers */
		switch (rn(3)) {
		case 0:
			*args = str("%s, %s", count(c), gen_long(c, depth));
			return str("%%%s*%c", flag(), "dixXoupc"[rn(8)]);
		case 1:
			*args = str("%s, %s", count(c), gen_long(c, depth));
			return str("%%%s.*%c", flag(), "dixXou"[rn(6)]);
		default:
			*args = str("%s, %s, %s", count(c), count(c), gen_long(c, depth));
			return str("%%%s*.*%c", flag(), "dixXou"[rn(6)]);
		}
	case 1:	/* dynamic width and precision of strings */
		switch (rn(3)) {
		case 0:
			*args = str("%s, %s", count(c), gen_str(c, depth));
			return str("%%%s*s", pct(50) ? "-" : "");
		case 1:
			*args = str("%s, %s", count(c), gen_str(c, depth));
			return str("%%%s.*s", pct(50) ? "-" : "");
		default:
			*args = str("%s, %s, %s", count(c), count(c), gen_str(c, depth));
			return str("%%*.*s");
		}
	case 2:	/* binary */
		*args = extreme(c);
		if (pct(20)) {
			*args = str("%s, %s", count(c), *args);
			return str("%%*b");
		}
		return str("%%%sb", (const char *[]){ "", "1", "2", "4", "8", "3", "16", "-4" }[rn(8)]);
	case 3:	/* memory, as text or hex */
		if (pct(30)) {
			*args = str("%s, %s", count(c), address(c));
			return str("%%%s*%c", flag(), pct(50) ? 'm' : 'M');
		}
		if (pct(40)) {
			*args = str("%s, %s", count(c), address(c));
			return str("%%.*%c", pct(50) ? 'm' : 'M');
		}
		*args = address(c);
		return str("%%%s%s%c", flag(), pct(50) ? str(".%d", rn(L->maxstringlen * 2)) : "",
			   pct(50) ? 'm' : 'M');
	case 4:	/* characters of odd values */
		*args = extreme(c);
		return str("%%%sc", pct(30) ? str("%d", rn(L->maxstringlen + 5)) : "");
	case 5:	/* static widths around MAXSTRINGLEN */
		if (pct(50)) {
			*args = gen_long(c, depth);
			return str("%%%s%dd", flag(), L->maxstringlen - 2 + rn(5));
		}
		*args = gen_str(c, depth);
		return str("%%%s%ds", pct(50) ? "-" : "", L->maxstringlen - 2 + rn(5));
	case 6:	/* pointers and long modifiers */
		*args = pct(50) ? address(c) : extreme(c);
		return str("%%%s%s%s", flag(), pct(30) ? "l" : "",
			   (const char *[]){ "p", "x", "X", "o", "u", "d", "i" }[rn(7)]);
	case 7:	/* a very long string */
		*args = str("sprintf(\"%%%ds\", \"\")", L->maxstringlen + rn(3) - 1);
		return str("%%s");
	default:
		*args = str("%s, %s", count(c), gen_str(c, depth));
		return str("%%-*s");
	}
}

/* ---- globals ---- */

void hostile_globals(void)
{
	for (int i = 0; i < n_globals; i++) {
		struct global *g = &G[i];

		if ((g->kind == GK_ARRAY || g->kind == GK_STAT_ARRAY) && pct(40)) {
			g->size = (const int[]){ 1, 2, 3, 5, 8, 20, 100 }[rn(7)];
			g->wrap = pct(40);
		}
	}
}

void hostile_print_global(const struct global *g)
{
	if (g->size)
		out("global %s%s[%d]", g->name, g->wrap ? "%" : "", g->size);
	else if (g->kind == GK_SCALAR && pct(30))
		out("global %s = %s", g->name, literal(g->vt));
	else
		out("global %s", g->name);
}

/* After the begin(-100) probe's first write: leave aggregates empty,
 * fill arrays to their size or further. */
void hostile_init_global(const struct global *g, const char *keys)
{
	(void)keys;
	if ((g->kind == GK_STAT || g->kind == GK_STAT_ARRAY) && pct(30))
		out("delete %s", g->name);
}

/* ---- hostile functions ---- */

enum hfn { HF_RECURSE, HF_STRING, HF_MUTUAL, HF_WRITER, HF_EXIT, HF_BODY, HF_KINDS };

#define MAX_HOSTILE_FNS 16
static int hfns[HF_KINDS][MAX_HOSTILE_FNS];
static int n_hfns[HF_KINDS];

/* A defined hostile function of kind k that writes no global iterated
 * here; -1 when there is none. */
static int hostile_fn(const struct ctx *c, enum hfn k)
{
	int i = PICK(n_hfns[k], !(F[hfns[k][_i]].writes & c->iterating) && F[hfns[k][_i]].defined);

	return i < 0 ? -1 : hfns[k][i];
}

/* A call of f: its writes become the caller's. */
static char *call_of(struct ctx *c, int f, const char *args)
{
	c->writes |= F[f].writes;
	return str("%s(%s)", F[f].name, args);
}

/* ---- statements ---- */

/* n statements of a loop body: break and continue are legal there. */
static void loop_block(struct ctx *c, int n, int depth)
{
	c->loops++;
	gen_block_body(c, n, depth);
	c->loops--;
}

/* try { ... } around what follows, closed by try_end(). */
static bool try_begin(int p)
{
	if (!pct(p))
		return false;
	open_block("try");
	return true;
}

static void try_end(bool open)
{
	char *e;

	if (!open)
		return;
	e = fresh("he");
	indent_level--;
	out("} catch (%s) {", e);
	indent_level++;
	out("println(\"caught \", %s)", e);
	close_block();
}

static char *loop_counter(struct ctx *c)
{
	char *i = fresh("hi");

	add_local(c, i, VT_LONG, false);
	return i;
}

/* Loops that only MAXACTION ends (which ends the hit: so only now and
 * then, to let the rest of the body run too). */
static void h_unbounded(struct ctx *c, int depth)
{
	bool t = try_begin(40), now_and_then = pct(50);
	int saved = c->n_loc;
	char *i;

	if (now_and_then)
		open_block(str("if (randint(%d) == 0)", 2 + rn(20)));

	switch (depth > 0 ? rn(4) : rn(2)) {
	case 0:
		out("for (;;) ;");
		break;
	case 1:
		out("while (1) { if (%s) continue }", gen_cond(c));
		break;
	case 2:
		open_block("while (1)");
		loop_block(c, 1 + rn(2), depth - 1);
		close_block();
		break;
	default:
		i = loop_counter(c);
		open_block(str("for (%s = 0; %s >= 0; %s++)", i, i, i));
		loop_block(c, 1 + rn(2), depth - 1);
		close_block();
		break;
	}
	c->n_loc = saved;
	if (now_and_then)
		close_block();
	try_end(t);
}

/* Loops of about MAXACTION trips, nested or not. */
static void h_big_loop(struct ctx *c, int depth)
{
	int saved = c->n_loc;
	char *i = loop_counter(c), *j;
	int trips = (const int[]){ L->maxaction / 10, L->maxaction / 4, L->maxaction / 4,
				   L->maxaction - 5, L->maxaction, 100000 }[rn(6)];

	if (depth <= 0) {
		out("for (%s = 0; %s < %d; %s++) ;", i, i, trips, i);
		c->n_loc = saved;
		return;
	}
	open_block(str("for (%s = 0; %s < %d; %s++)", i, i, trips, i));
	if (pct(40)) {
		j = loop_counter(c);
		open_block(str("for (%s = 0; %s < %d; %s++)", j, j, 1 + rn(100), j));
		loop_block(c, 1, depth - 2);
		close_block();
	} else {
		loop_block(c, 1 + rn(2), depth - 1);
	}
	close_block();
	c->n_loc = saved;
}

/* Keys of array g for loop counter i: distinct for each i. */
static char *keys_of_counter(const struct global *g, const char *i)
{
	char *s = NULL;

	for (int k = 0; k < g->nkeys; k++) {
		char *e;

		if (g->key[k] == VT_LONG)
			e = str((const char *[]){ "%s", "%s * 7 - 3", "-%s" }[rn(3)], i);
		else if (pct(20))
			e = str("sprintf(\"%%%dd\", %s)", L->maxstringlen + rn(3) - 2, i);
		else
			e = str(pct(50) ? "sprint(%s)" : "sprintf(\"k%%d\", %s)", i);
		s = s ? str("%s, %s", s, e) : e;
	}
	return s;
}

static int writable_array(const struct ctx *c)
{
	return PICK(n_globals, (G[_i].kind == GK_ARRAY || G[_i].kind == GK_STAT_ARRAY) &&
		    may_write(c, _i));
}

/* Fill an array past its size, or past MAXMAPENTRIES. */
static void h_fill(struct ctx *c, int depth)
{
	int g = writable_array(c), saved = c->n_loc, n;
	const struct global *a;
	bool t;
	char *i, *keys;

	if (g < 0)
		return;
	a = &G[g];
	note_write(c, g);
	n = a->size ? a->size + 1 + rn(a->size + 3) : L->maxmapentries - 3 + rn(10);
	t = try_begin(30);
	i = loop_counter(c);
	keys = keys_of_counter(a, i);
	if (a->kind == GK_STAT_ARRAY)
		out("for (%s = 0; %s < %d; %s++) %s[%s] <<< %s", i, i, n, i, a->name, keys,
		    pct(50) ? i : extreme(c));
	else
		out("for (%s = 0; %s < %d; %s++) %s[%s] = %s", i, i, n, i, a->name, keys,
		    a->vt == VT_LONG ? i : str("sprint(%s)", i));
	c->n_loc = saved;
	if (pct(40))
		gen_stmt(c, depth - 1);
	try_end(t);
}

/* A write of global g from inside a loop over another array: keys are
 * those of the loop when g's key types match. */
static void mutate(struct ctx *c, int g, const struct global *walked, char **names)
{
	const struct global *b = &G[g];
	bool same = names && b->nkeys == walked->nkeys && b->nkeys > 0 &&
		    !memcmp(b->key, walked->key, sizeof(b->key[0]) * (size_t)b->nkeys);
	char *keys = NULL;

	note_write(c, g);
	if (b->kind == GK_ARRAY || b->kind == GK_STAT_ARRAY)
		keys = same && pct(70) ? join(names, b->nkeys) : gen_keys(c, b, 1);
	switch (rn(4)) {
	case 0:
		out("delete %s", b->name);
		return;
	case 1:
		if (keys) {
			out("delete %s[%s]", b->name, keys);
			return;
		}
		break;
	default:
		break;
	}
	switch (b->kind) {
	case GK_SCALAR: out("%s = %s", b->name, gen_expr(c, b->vt, 2)); break;
	case GK_ARRAY: out("%s[%s] = %s", b->name, keys, gen_expr(c, b->vt, 2)); break;
	case GK_STAT: out("%s <<< %s", b->name, extreme(c)); break;
	case GK_STAT_ARRAY: out("%s[%s] <<< %s", b->name, keys, extreme(c)); break;
	}
}

/* foreach over one array whose body deletes and refills others (the
 * element of the same keys among them), directly and through functions;
 * or over the same array twice, nested. */
static void h_foreach(struct ctx *c, int depth)
{
	int g = PICK(n_globals, G[_i].kind == GK_ARRAY || G[_i].kind == GK_STAT_ARRAY);
	const struct global *a;
	char *names[3], *inner[3];
	uint64_t saved_iter = c->iterating;
	int saved_loc = c->n_loc, f;

	if (g < 0 || depth <= 0)
		return;
	a = &G[g];
	for (int k = 0; k < a->nkeys; k++)
		names[k] = fresh("k");
	open_block(str("foreach ([%s%s] in %s%s)", join(names, a->nkeys), pct(20) ? "-" : "",
		       a->name, pct(20) ? " limit 10" : ""));
	for (int k = 0; k < a->nkeys; k++)
		add_local(c, names[k], a->key[k], false);
	c->iterating |= UINT64_C(1) << g;
	c->loops++;
	if (pct(30)) {
		/* The same array again, inside. */
		for (int k = 0; k < a->nkeys; k++)
			inner[k] = fresh("k");
		open_block(str("foreach ([%s] in %s%s)", join(inner, a->nkeys), a->name,
			       a->kind == GK_ARRAY && pct(50) ? "+" : ""));
		for (int k = 0; k < a->nkeys; k++)
			add_local(c, inner[k], a->key[k], false);
		if (a->kind == GK_ARRAY)
			out("println(%s[%s], %s[%s])", a->name, join(inner, a->nkeys), a->name,
			    join(names, a->nkeys));
		else
			out("print(%s)", hist_of(a, str("%s[%s]", a->name, join(inner, a->nkeys))));
		gen_block_body(c, rn(2), depth - 2);
		close_block();
	}
	for (int n = 1 + rn(3); n > 0; n--) {
		int b = PICK(n_globals, may_write(c, _i));

		if (b >= 0 && pct(75))
			mutate(c, b, a, names);
		else if ((f = hostile_fn(c, HF_WRITER)) >= 0)
			out("%s", call_of(c, f, gen_expr(c, VT_LONG, 1)));
	}
	gen_block_body(c, rn(2), depth - 1);
	c->loops--;
	close_block();
	c->iterating = saved_iter;
	c->n_loc = saved_loc;
}

/* Unbounded recursion: to and past MAXNESTING. */
static void h_recurse(struct ctx *c, int depth)
{
	static const enum hfn kinds[] = { HF_RECURSE, HF_STRING, HF_MUTUAL, HF_EXIT };
	enum hfn k = kinds[rn(4)];
	int f = hostile_fn(c, k);
	char *n, *call;
	bool t;

	(void)depth;
	if (f < 0)
		return;
	n = pct(60) ? str("%d", L->maxnesting - 2 + rn(4)) : count(c);
	call = call_of(c, f, k == HF_STRING ? str("%s, %s", n, gen_str(c, 1)) : n);
	t = try_begin(30);
	out(k == HF_EXIT ? "%s" : "println(%s)", call);
	try_end(t);
}

/* Strings grown past MAXSTRINGLEN and cut up at its edges. */
static void h_long_string(struct ctx *c, int depth)
{
	char *s = fresh("hl"), *i = fresh("hi"), *n = count(c), *m = count(c);

	(void)depth;
	out("%s = %s", s, pct(50) ? str_literal() : str("\"%s\"", "abcdefghij"));
	out("for (%s = 0; %s < %d; %s++) %s %s %s", i, i, 4 + rn(10), i, s,
	    pct(50) ? ".=" : "= sprint(\"xy\") .", s);
	add_local(c, s, VT_STR, true);
	switch (rn(10)) {
	case 0: out("println(strlen(%s), \" \", substr(%s, %s, %s))", s, s, n, m); break;
	case 1: out("println(str_replace(%s, \"%s\", \"abc\"))", s, pct(30) ? "" : "a"); break;
	case 2: out("println(string_quoted(%s . \"\\n\\\"\"))", s); break;
	case 3: out("println(text_strn(%s, %s, %d))", s, n, rn(2)); break;
	case 4: out("println(tokenize(%s, \"%s\"), tokenize(\"\", \"c\"))", s, pct(30) ? "" : "b"); break;
	case 5: out("println(strpos(%s, \"zz\"), isinstr(%s, %s), stringat(%s, %s))", s, s, s, s, n); break;
	case 6: out("println(%s =~ \"(a|b)+c*$\", matched(%s))", s, n); break;
	case 7: out("%s = sprintf(\"%%s%%s%%*d\", %s, %s, %s, 1)", s, s, s, n); break;
	case 8: out("println(strtol(%s, %s))", s, (const char *[]){ "0", "1", "16", "36", "37", "-1" }[rn(6)]); break;
	default: out("print(sprint(%s, %s, %s) . %s)", s, s, s, s); break;
	}
}

/* printf and sprintf with hostile directives only. */
static void h_printf(struct ctx *c, int depth)
{
	int n = 1 + rn(4);
	char *f = str("%s", ""), *args = NULL;

	(void)depth;
	for (int k = 0; k < n; k++) {
		char *a, *d = hostile_directive(c, 1, &a);

		f = str("%s%s|", f, d);
		args = args ? str("%s, %s", args, a) : a;
	}
	if (pct(70))
		out("printf(\"%s\\n\", %s)", f, args);
	else
		out("println(strlen(sprintf(\"%s\", %s)))", f, args);
}

/* Reads of kernel and user memory at garbage addresses. */
static void h_read(struct ctx *c, int depth)
{
	static const char *const addr_only[] = {
		"kernel_string", "kernel_string_quoted", "kernel_long", "kernel_int",
		"kernel_short", "kernel_char", "kernel_pointer", "user_string",
		"user_string_quoted", "user_string_warn", "user_long", "user_int",
		"user_short", "user_char", "user_int8", "user_uint16", "user_int32",
		"user_uint64", "user_long_warn", "user_long_error", "symname", "symdata",
		"user_ulong", "user_int_warn",
	};
	static const char *const addr_count[] = {
		"kernel_string_n", "user_string_n", "user_string_n_quoted", "user_buffer_quoted",
	};
	bool t = try_begin(50);
	char *a = address(c);

	(void)depth;
	switch (rn(4)) {
	case 0:
		out("println(%s(%s, %s))", PICK_STR(addr_count), a, count(c));
		break;
	case 1:
		out("println(%s(%s, \"bad address\"))", pct(50) ? "kernel_string2" : "user_string2", a);
		break;
	default:
		out("println(%s(%s))", PICK_STR(addr_only), a);
		break;
	}
	try_end(t);
}

/* Statistics: extreme values, empty aggregates, histograms of both. */
static void h_stats(struct ctx *c, int depth)
{
	int g = PICK(n_globals, G[_i].kind == GK_STAT || G[_i].kind == GK_STAT_ARRAY);
	const struct global *s;
	char *ref, *i;
	int saved = c->n_loc;

	(void)depth;
	if (g < 0)
		return;
	s = &G[g];
	ref = s->kind == GK_STAT ? str("%s", s->name) : str("%s[%s]", s->name, gen_keys(c, s, 1));
	switch (rn(6)) {
	case 0:
	case 1:
		if (!may_write(c, g))
			break;
		note_write(c, g);
		if (pct(50)) {
			out("%s <<< %s", ref, extreme(c));
		} else {
			i = loop_counter(c);
			out("for (%s = 0; %s < %d; %s++) %s <<< %s * %s", i, i, 5 + rn(50), i, ref, i,
			    extreme(c));
		}
		break;
	case 2:
		out("println(@count(%s), @sum(%s), %s)", ref, ref, hostile_extract(c, ref));
		break;
	case 3:
		out("print(%s)", hist_of(s, ref));
		break;
	case 4:
		i = fresh("hb");
		out("foreach (%s in %s) printf(\"%%d:%%d \", %s, %s[%s])", i, hist_of(s, ref), i,
		    hist_of(s, ref), i);
		break;
	default:
		out("println(%s[%s])", hist_of(s, ref), count(c));
		break;
	}
	c->n_loc = saved;
}

/* Delete everything writable, over and over. */
static void h_delete_all(struct ctx *c, int depth)
{
	int saved = c->n_loc;
	char *i = loop_counter(c);

	(void)depth;
	open_block(str("for (%s = 0; %s < %d; %s++)", i, i, 2 + rn(20), i));
	for (int n = 2 + rn(4); n > 0; n--) {
		int g = PICK(n_globals, may_write(c, _i));

		if (g < 0)
			break;
		if (pct(70)) {
			note_write(c, g);
			out("delete %s", G[g].name);
		} else {
			mutate(c, g, &G[g], NULL);
		}
	}
	close_block();
	c->n_loc = saved;
}

/* exit() (or abort()) deep in loops and try blocks; more code after it. */
static void h_exit(struct ctx *c, int depth)
{
	int saved = c->n_loc, open = 0;
	bool is_try[3];
	char *cond = pct(50) ? str("randint(%d) == 0", 2 + rn(30)) : gen_cond(c);

	for (; open < depth && open < 3 && pct(70); open++) {
		is_try[open] = pct(50);
		if (is_try[open]) {
			open_block("try");
		} else {
			char *i = loop_counter(c);

			open_block(str("for (%s = 0; %s < %d; %s++)", i, i, 1 + rn(5), i));
			c->loops++;
		}
	}
	out("if (%s) %s()", cond, pct(10) ? "abort" : "exit");
	gen_block_body(c, 1, 0);
	while (open-- > 0) {
		if (is_try[open]) {
			try_end(true);
		} else {
			c->loops--;
			close_block();
		}
	}
	c->n_loc = saved;
}

/* error() in loops, caught, rethrown, nested. */
static void h_errors(struct ctx *c, int depth)
{
	int saved = c->n_loc;
	char *i = loop_counter(c), *e = fresh("he");

	open_block(str("for (%s = 0; %s < %d; %s++)", i, i, 1 + rn(50), i));
	open_block("try");
	switch (rn(4)) {
	case 0: out("error(sprintf(\"e%%d\", %s))", i); break;
	case 1: out("if (%s) error(sprintf(\"%%*d\", %d, %s))", gen_cond(c), L->maxstringlen, i); break;
	case 2: out("assert(%s, \"assertion\")", gen_cond(c)); break;
	default: out("if (%s & 1) error(\"\")", i); break;
	}
	loop_block(c, rn(2), depth - 2);
	indent_level--;
	out("} catch (%s) {", e);
	indent_level++;
	out("println(%s)", e);
	if (pct(40)) {
		open_block("try");
		out("error(%s . %s)", e, e);
		indent_level--;
		out("} catch {");
		indent_level++;
		out("warn(\"nested\")");
		close_block();
	}
	close_block();
	close_block();
	c->n_loc = saved;
}

/* Tapset functions called with odd arguments. */
static void h_tapset(struct ctx *c, int depth)
{
	char *n = count(c), *s = gen_str(c, 1);
	bool t = try_begin(40);

	(void)depth;
	switch (rn(12)) {
	case 0: out("println(randint(%s), ctime(%s), errno_str(%s))", n, count(c), count(c)); break;
	case 1: out("println(cpu_clock_ns(%s), cpu_clock_us(%s))", n, count(c)); break;
	case 2: out("println(substr(%s, %s, %s), stringat(%s, %s))", s, n, count(c), s, count(c)); break;
	case 3: out("println(pointer_arg(%s), int_arg(%s), ulong_arg(%s))", n, count(c), count(c)); break;
	case 4: out("println(register(\"%s\"), u_register(\"rip\"))", pct(50) ? "rax" : "nosuch"); break;
	case 5: out("println(returnval(), returnstr(%s), uaddr(), addr())", n); break;
	case 6: out("print_backtrace(); println(sprint_backtrace())"); break;
	case 7: out("print_stack(%s); println(sprint_stack(backtrace()))", pct(50) ? s : "backtrace()"); break;
	case 8: out("println(indent(%s), thread_indent(%s))", n, count(c)); break;
	case 9:
		out("start_stopwatch(%s); println(read_stopwatch_us(%s)); stop_stopwatch(%s); delete_stopwatch(%s)",
		    s, s, pct(50) ? s : "\"none\"", s);
		break;
	case 10: out("println(matched(%s), matched_str())", n); break;
	default: out("println(sprint_syms(%s), modname(%s))", s, address(c)); break;
	}
	try_end(t);
}

/* A writer function: globals changed through a call. */
static void h_writer(struct ctx *c, int depth)
{
	int f = hostile_fn(c, HF_WRITER);

	(void)depth;
	if (f >= 0)
		out("%s", call_of(c, f, gen_expr(c, VT_LONG, 1)));
}

void hostile_stmt(struct ctx *c, int depth)
{
	static void (*const stmts[])(struct ctx *, int) = {
		h_unbounded, h_big_loop, h_fill, h_fill, h_foreach, h_foreach, h_recurse,
		h_recurse, h_long_string, h_printf, h_printf, h_read, h_read, h_stats,
		h_stats, h_delete_all, h_exit, h_errors, h_tapset, h_tapset, h_writer,
	};

	stmts[rn(sizeof(stmts) / sizeof(stmts[0]))](c, depth);
}

/* ---- hostile functions ---- */

static struct func *hostile_new(enum hfn k, const char *prefix)
{
	struct func *f;

	if (n_funcs >= MAX_FUNCS || n_hfns[k] >= MAX_HOSTILE_FNS)
		return NULL;
	f = new_func(prefix);
	/* Never picked by gen_call: called by the hostile statements only. */
	f->depth = MAX_CALL_DEPTH + 100;
	hfns[k][n_hfns[k]++] = (int)(f - F);
	return f;
}

static void begin_function(struct ctx *c, struct func *f, const char *sig)
{
	memset(c, 0, sizeof(*c));
	c->fn = f;
	c->call_budget = 2;
	out("%s", "");
	out("function %s%s", f->name, sig);
	out("{");
	indent_level = 1;
}

static void end_function(struct func *f, struct ctx *c)
{
	indent_level = 0;
	out("}");
	f->writes |= c->writes;
	f->defined = true;
}

/* hrN(n): recursion that only n bounds, hsN(n, s): with strings doubling. */
static void print_recurse(struct func *f, bool strings)
{
	struct ctx c;

	f->has_ret = true;
	f->ret = strings ? VT_STR : VT_LONG;
	f->nparams = strings ? 2 : 1;
	f->param[0] = VT_LONG;
	f->param[1] = VT_STR;
	begin_function(&c, f, strings ? ":string (n:long, s:string)" : ":long (n:long)");
	add_local(&c, "n", VT_LONG, false);
	if (strings) {
		add_local(&c, "s", VT_STR, true);
		out("if (n <= 0) return s");
		gen_block_body(&c, rn(2), 1);
		out("return %s(n - 1, s . %s)", f->name, pct(50) ? "s" : gen_str(&c, 1));
	} else {
		out("if (n <= 0) return %s", gen_long(&c, 1));
		gen_block_body(&c, rn(3), 1);
		out("return %s + %s(n - 1)", gen_long(&c, 1), f->name);
	}
	end_function(f, &c);
}

/* hmA(n) and hmB(n) call each other; they write no global, since each is
 * called before the other's writes are known. */
static void print_mutual(struct func *a, struct func *b)
{
	struct func *both[2] = { a, b };

	for (int k = 0; k < 2; k++) {
		struct ctx c;

		both[k]->has_ret = true;
		both[k]->ret = VT_LONG;
		both[k]->nparams = 1;
		both[k]->param[0] = VT_LONG;
		begin_function(&c, both[k], ":long (n:long)");
		c.iterating = ~UINT64_C(0);	/* writes nothing */
		add_local(&c, "n", VT_LONG, false);
		out("if (n == 0) return %s", gen_long(&c, 1));
		gen_block_body(&c, rn(2), 1);
		out("return %s(n - 1) + 1", both[1 - k]->name);
		end_function(both[k], &c);
	}
}

/* hwN(v): changes globals (deletes, refills, feeds statistics). */
static void print_writer(struct func *f)
{
	struct ctx c;

	f->has_ret = false;
	f->nparams = 1;
	f->param[0] = VT_LONG;
	begin_function(&c, f, " (v:long)");
	add_local(&c, "v", VT_LONG, true);
	for (int n = 1 + rn(4); n > 0; n--) {
		int g = PICK(n_globals, may_write(&c, _i));

		if (g >= 0)
			mutate(&c, g, &G[g], NULL);
	}
	gen_block_body(&c, rn(3), 2);
	end_function(f, &c);
}

/* hxN(n): exit() at the bottom of a recursion, then more work. */
static void print_exit(struct func *f)
{
	struct ctx c;

	f->has_ret = false;
	f->nparams = 1;
	f->param[0] = VT_LONG;
	begin_function(&c, f, " (n:long)");
	add_local(&c, "n", VT_LONG, false);
	out("if (n <= 0) { %s(); %s }", pct(15) ? "abort" : "exit", pct(50) ? "return" : "");
	gen_block_body(&c, rn(2), 1);
	out("%s(n - 1)", f->name);
	end_function(f, &c);
}

/* hbN(): a hostile body that several probes share. */
static void print_body(struct func *f)
{
	struct ctx c;

	f->has_ret = false;
	f->nparams = 0;
	begin_function(&c, f, " ()");
	c.call_budget = MAX_CALL_DEPTH - 1;
	gen_prologue(&c);
	gen_block_body(&c, 2 + rn(K.stmts), K.depth);
	end_function(f, &c);
}

void hostile_functions(void)
{
	struct func *f, *g;

	for (int n = 1 + rn(2); n > 0; n--)
		if ((f = hostile_new(HF_RECURSE, "hr")))
			print_recurse(f, false);
	if ((f = hostile_new(HF_STRING, "hs")))
		print_recurse(f, true);
	if ((f = hostile_new(HF_MUTUAL, "hm")) && (g = hostile_new(HF_MUTUAL, "hm")))
		print_mutual(f, g);
	for (int n = 1 + rn(3); n > 0; n--)
		if ((f = hostile_new(HF_WRITER, "hw")))
			print_writer(f);
	if ((f = hostile_new(HF_EXIT, "hx")))
		print_exit(f);
	for (int n = 1 + rn(2); n > 0; n--)
		if ((f = hostile_new(HF_BODY, "hb")))
			print_body(f);
}

/* ---- probes ---- */

/* A probe point and statements that only make sense in it; a point that
 * expands to many probes gets a small body (tapc emits the body once for
 * each of them). */
struct hpoint {
	const char *point;
	const char *extra[3];
	bool many;
};

static const struct hpoint hpoints[] = {
	{ "timer.profile", { "println(uaddr(), \" \", user_mode())", "print_backtrace()",
			     "println(symname(addr()), user_string(uaddr()))" }, false },
	{ "perf.sw.cpu_clock", { "println(symdata(addr()))", "printf(\"%.8M\\n\", addr())" }, false },
	{ "perf.sw.cpu_clock.sample(200000)", { "println(uaddr())" }, false },
	{ "perf.sw.context_switches", { "println(execname())" }, false },
	{ "perf.sw.page_faults", { "println(user_mode())" }, false },
	{ "timer.ms(1)", { "println(cpu())" }, false },
	{ "timer.us(500)", { "println(cpu())" }, false },
	{ "timer.jiffies(1)", { "println(jiffies())" }, false },
	{ "timer.hz(1000)", { "println(cpu())" }, false },
	{ "kprobe.function(\"vfs_read\")",
	  { "println(user_string_n(pointer_arg(2), ulong_arg(3)))",
	    "println(kernel_string_n(pointer_arg(1), 64))",
	    "println(user_buffer_quoted(pointer_arg(2), ulong_arg(3)))" }, false },
	{ "kprobe.function(\"vfs_read\").return",
	  { "println(returnval(), \" \", returnstr(1))", "println(user_string(returnval()))" }, false },
	{ "kprobe.function(\"vfs_write\")",
	  { "println(user_string_n(pointer_arg(2), ulong_arg(3)))", "printf(\"%.*m\\n\", 16, pointer_arg(1))" }, false },
	{ "kprobe.function(\"__x64_sys_getpid\")", { "println(kernel_long(pointer_arg(1)))" }, false },
	{ "kprobe.function(\"schedule\").return", { "println(returnval())" }, false },
	{ "kernel.trace(\"sched_switch\")",
	  { "println($prev->comm$, \" \", $next->pid)", "println(kernel_string_n($next, 64))",
	    "printf(\"%s %d\\n\", $$parms, $prev->pid)" }, false },
	{ "kernel.trace(\"sys_enter\")",
	  { "println($id, \" \", $$parms)", "println(user_string($id))", "println(kernel_long($regs))" }, false },
	{ "kernel.trace(\"sys_exit\")", { "println(user_string($ret))", "println($ret)" }, false },
	{ "kernel.trace(\"sched_wakeup\")", { "println(pp())" }, false },
	{ "kernel.trace(\"sched_process_fork\")", { "println(pid())" }, false },
	{ "kernel.trace(\"irq:*\")", { "println(pp())" }, true },
	/* a module's: the campaign's guest loads and removes jbd2 */
	{ "kernel.trace(\"jbd2:jbd2_start_commit\")",
	  { "println($journal->j_flags)", "println($$parms)" }, false },
	{ "kernel.trace(\"jbd2:*\")", { "println($$name)" }, true },
	{ "syscall.read", { "println(user_string_n(buf_uaddr, count))", "println(fd, \" \", count)" }, false },
	{ "syscall.read.return", { "println(name, \" = \", retstr)" }, false },
	{ "syscall.write", { "println(name, \" \", argstr)" }, false },
	{ "syscall.open*", { "println(name, \"(\", argstr, \")\")" }, true },
	{ "syscall.*", { "println(name, \" \", argstr)" }, true },
	{ "syscall.*.return", { "println(name, \" = \", retstr)" }, true },
	{ "syscall_any", { "println(name, \" \", syscall_nr)" }, false },
	{ "syscall_any.return", { "println(name)" }, false },
	{ "process.begin", { "println(execname(), \" \", pid(), \" \", ppid())" }, false },
	{ "process.end", { "println(execname())" }, false },
	{ "kprocess.exec", { "println(filename, \" \", args)" }, false },
	{ "kprocess.exit", { "println(code)" }, false },
	{ "begin", { "println(\"begin\")" }, false },
	{ "end", { "println(\"end\")" }, false },
	{ "error", { "println(\"error probe\")" }, false },
	{ "never", { "println(\"never\")" }, false },
};

#define N_HPOINTS ((int)(sizeof(hpoints) / sizeof(hpoints[0])))

static int procfs_files;

/* The body of a probe on p (NULL: several points, no extras). */
static void hostile_probe_body(struct ctx *c, const struct hpoint *p, const char *procfs,
			       bool small)
{
	int f = hostile_fn(c, HF_BODY);

	if (procfs && strstr(procfs, ".read")) {
		out("$value = %s", pct(30) ? str("sprintf(\"%%*d\", %s, 1)", count(c)) : gen_str(c, 2));
		if (pct(40))
			out("$value .= %s", gen_str(c, 2));
	} else if (procfs) {
		out("hv = $value");
		add_local(c, "hv", VT_STR, true);
		out("println(hv)");
	}
	if (p)
		for (int k = 0; k < 3 && p->extra[k]; k++)
			if (pct(50))
				out("%s", p->extra[k]);
	if (f >= 0 && (small || pct(60))) {
		out("%s", call_of(c, f, ""));
		if (small || pct(50))
			return;
	}
	if (small) {
		gen_block_body(c, 1, 0);
		return;
	}
	gen_prologue(c);
	gen_block_body(c, 1 + rn(K.stmts), K.depth);
}

static void print_hostile_probe(void)
{
	struct ctx c = { .call_budget = MAX_CALL_DEPTH };
	const struct hpoint *p = &hpoints[rn(N_HPOINTS)], *q;
	char *points = str("%s", p->point), *procfs = NULL;
	bool small = p->many;

	if (pct(15)) {
		procfs = str("procfs(\"hp%d\")%s", procfs_files++,
			     (const char *[]){ ".read", ".read.maxsize(16)", ".write",
					       ".umask(0).write" }[rn(4)]);
		points = procfs;
		p = NULL;
	} else if (pct(20)) {
		q = &hpoints[rn(N_HPOINTS)];
		points = str("%s, %s", points, q->point);
		small |= q->many;
		p = NULL;
	}
	if (pct(15))
		points = str("%s%s", points, probe_condition());
	out("%s", "");
	out("probe %s", points);
	out("{");
	indent_level = 1;
	hostile_probe_body(&c, p, procfs, small);
	indent_level = 0;
	out("}");
}

void hostile_probes(void)
{
	struct ctx c = { .call_budget = MAX_CALL_DEPTH };

	/* The script ends itself after a second or so; the hostile bodies
	 * may end it sooner, with exit() or an error. */
	out("%s", "");
	out("probe timer.ms(%d)", 50 + rn(150));
	out("{");
	indent_level = 1;
	out("if (++%s >= %d) exit()", G[ticks_global].name, 2 + rn(8));
	if (pct(40))
		gen_block_body(&c, 1 + rn(3), 1);
	indent_level = 0;
	out("}");
	if (pct(60))
		print_probe(pct(50) ? "begin" : "begin(1)", false, NULL, NULL, VT_LONG);
	for (int i = 0; i < K.probes; i++)
		print_hostile_probe();
}
