/* gen-script: print one random, valid SystemTap script for tapc.
 *
 * The script exercises the core language (globals of every kind, typed,
 * untyped, overloaded and recursive functions, begin/end/timer/never
 * probes with conditions, every statement and operator, printf formats,
 * statistics and histograms) and is built to be correct by construction:
 *
 *  - every variable gets one type, and each use matches it;
 *  - every global is written by an early begin probe, so pass 2 can
 *    infer its type from that write alone;
 *  - loops are bounded by counters the body never touches, recursion by
 *    an argument masked to 0..3, and the call depth stays below
 *    MAXNESTING;
 *  - divisors are never zero, shift counts stay in 0..63, @min/@max/@avg
 *    only read non-empty aggregates;
 *  - a foreach never modifies (directly or through a called function) the
 *    array it iterates, as SystemTap requires;
 *  - the script ends: a begin probe calls exit() first thing, or an
 *    unconditional timer probe does after a few hits.
 *
 * So any script that tapc -p2 rejects is a bug, in this generator or in
 * pass 2; any C that does not compile is a bug in pass 3 (see README.md).
 *
 * With --hostile (gen-hostile.c) the first and the last two guarantees
 * give way: the script aims at the runtime's limits instead.  Everything
 * else is shared, and without --hostile not one more random number is
 * drawn, so a seed prints the same script as before the mode existed.
 *
 * Usage: gen-script [options] [SEED]   (run with --help for the knobs)
 */
#define _GNU_SOURCE	/* vasprintf */
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

struct knobs K = {
	.seed = 1, .globals = 8, .functions = 5, .probes = 4, .stmts = 6,
	.depth = 3, .expr_depth = 3, .tapset = true, .regex = true,
};

/* ---- random numbers (splitmix64: the same script for a seed everywhere) ---- */

static uint64_t rng_state;

uint64_t rnd64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* 0 .. n-1 */
int rn(int n)
{
	return n <= 1 ? 0 : (int)(rnd64() % (uint64_t)n);
}

bool pct(int p)
{
	return rn(100) < p;
}

/* ---- strings: every piece of the script is built as a heap string; the
 * program prints one script and exits, so they are never freed ---- */

char *str(const char *f, ...)
{
	va_list ap;
	char *s;

	va_start(ap, f);
	if (vasprintf(&s, f, ap) < 0) {
		fputs("gen-script: out of memory\n", stderr);
		exit(2);
	}
	va_end(ap);
	return s;
}

/* Lines are held back by one: SystemTap statements need no terminator,
 * so "x = a" followed by a line "(y)" or "++y" would parse as one
 * expression; such a line gets a ';' first. */
int indent_level;
static char *pending;

void flush_out(void)
{
	if (pending)
		puts(pending);
	pending = NULL;
}

void out(const char *f, ...)
{
	va_list ap;
	char *body, *line;
	size_t n;

	va_start(ap, f);
	if (vasprintf(&body, f, ap) < 0) {
		fputs("gen-script: out of memory\n", stderr);
		exit(2);
	}
	va_end(ap);
	if (pending && body[0] && strchr("(+-", body[0])) {
		n = strlen(pending);
		if (n && pending[n - 1] != '{' && pending[n - 1] != '}' && pending[n - 1] != ';')
			pending = str("%s;", pending);
	}
	flush_out();
	line = str("%s", "");
	for (int i = 0; i < indent_level; i++)
		line = str("%s\t", line);
	pending = str("%s%s", line, body);
	free(body);
}

/* ---- the script's declarations ---- */

const char *vt_name[] = { "long", "string" };

struct global G[MAX_GLOBALS];
int n_globals;
struct func F[MAX_FUNCS];
int n_funcs;
int ticks_global = -1;	/* the timer's hit counter, when it ends the script */

static int name_counter;

char *fresh(const char *prefix)
{
	return str("%s%d", prefix, name_counter++);
}

struct local *add_local(struct ctx *c, const char *name, enum vt vt,
			bool assignable)
{
	struct local *l;

	if (c->n_loc >= MAX_LOCALS)
		return NULL;
	l = &c->loc[c->n_loc++];
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->vt = vt;
	l->assignable = assignable;
	return l;
}

bool may_write(const struct ctx *c, int g)
{
	return !(c->iterating & (UINT64_C(1) << g)) && g != ticks_global;
}

void note_write(struct ctx *c, int g)
{
	c->writes |= UINT64_C(1) << g;
}

/* ---- literals ---- */

char *long_literal(void)
{
	switch (rn(7)) {
	case 0: return str("%d", rn(10));
	case 1: return str("%d", rn(1000));
	case 2: return str("-%d", 1 + rn(100));
	case 3: return str("0x%x", (unsigned)rn(0x10000));
	case 4: return str("0%o", (unsigned)rn(64));
	case 5: return str("%" PRId64, (int64_t)(rnd64() >> 20));
	default: return str("%d", 1 + rn(5));
	}
}

static const char *const words[] = {
	"", "a", "abc", "hello world", "x\\ty", "line\\n", "q\\\"q", "back\\\\slash",
	"%d", "%s%%", "0123", "tapc", "AbC", "  pad  ", "z", "foo.bar",
};

char *str_literal(void)
{
	return str("\"%s\"", words[rn(sizeof(words) / sizeof(words[0]))]);
}

char *literal(enum vt t)
{
	return t == VT_LONG ? long_literal() : str_literal();
}

static const char *const regexes[] = {
	"a", "^a", "c$", "b+", "[a-z]+", "^(ab|cd)", "x*y?", "o{1,2}", "[0-9]",
	".", "^$", "\\\\.", "[^ ]+ ", "(a|b)*c", "^[[:alpha:]]+$", "h.*o",
};

/* ---- expressions ---- */

/* A readable variable of type t (local, parameter or scalar global). */
static char *pick_var(struct ctx *c, enum vt t)
{
	int nl = c->cond ? 0 : c->n_loc;
	int i, g;

	if (nl && pct(70)) {
		i = PICK(nl, c->loc[_i].vt == t);
		if (i >= 0)
			return str("%s", c->loc[i].name);
	}
	g = PICK(n_globals, G[_i].kind == GK_SCALAR && G[_i].vt == t);
	if (g >= 0)
		return str("%s", G[g].name);
	return NULL;
}

char *gen_keys(struct ctx *c, const struct global *g, int depth)
{
	char *s = gen_expr(c, g->key[0], depth);

	for (int i = 1; i < g->nkeys; i++)
		s = str("%s, %s", s, gen_expr(c, g->key[i], depth));
	return s;
}

static char *array_read(struct ctx *c, enum vt t, int depth)
{
	int g = PICK(n_globals, G[_i].kind == GK_ARRAY && G[_i].vt == t);

	if (g < 0)
		return NULL;
	return str("%s[%s]", G[g].name, gen_keys(c, &G[g], depth - 1));
}

/* A stats value: a scalar aggregate or an element of a stats array. */
char *stat_ref(struct ctx *c, int depth)
{
	int g = PICK(n_globals, G[_i].kind == GK_STAT || G[_i].kind == GK_STAT_ARRAY);

	if (g < 0)
		return NULL;
	if (G[g].kind == GK_STAT)
		return str("%s", G[g].name);
	return str("%s[%s]", G[g].name, gen_keys(c, &G[g], depth - 1));
}

/* The histogram of ref, an element (or all) of stats global g. */
char *hist_of(const struct global *g, const char *ref)
{
	if (g->hist_linear)
		return str("@hist_linear(%s, %d, %d, %d)", ref, g->hist_lo, g->hist_hi,
			   g->hist_step);
	return str("@hist_log(%s)", ref);
}

static char *stat_extract(struct ctx *c, int depth)
{
	static const char *const guarded[] = { "@min", "@max", "@avg", "@variance" };
	char *s = stat_ref(c, depth);

	if (!s)
		return NULL;
	if (K.hostile && pct(30))
		return hostile_extract(c, s);
	switch (rn(3)) {
	case 0: return str("@count(%s)", s);
	case 1: return str("@sum(%s)", s);
	default:
		/* Empty aggregates make these fail at run time. */
		return str("(@count(%s) ? %s(%s) : 0)", s, guarded[rn(4)], s);
	}
}

/* A writable lvalue of type t; marks the write. */
static char *pick_lvalue(struct ctx *c, enum vt t, int depth)
{
	int i, g;

	if (c->n_loc && pct(60)) {
		i = PICK(c->n_loc, c->loc[_i].vt == t && c->loc[_i].assignable);
		if (i >= 0)
			return str("%s", c->loc[i].name);
	}
	g = PICK(n_globals, (G[_i].kind == GK_SCALAR || G[_i].kind == GK_ARRAY) &&
		 G[_i].vt == t && may_write(c, _i));
	if (g < 0)
		return NULL;
	note_write(c, g);
	if (G[g].kind == GK_SCALAR)
		return str("%s", G[g].name);
	return str("%s[%s]", G[g].name, gen_keys(c, &G[g], depth - 1));
}

/* A call of a defined function with a value of type t (returns NULL if
 * none fits the remaining call depth or would write an iterated array). */
static char *gen_call(struct ctx *c, bool want_value, enum vt t, int depth)
{
	int f = PICK(n_funcs, F[_i].defined && F[_i].has_ret == want_value &&
		     (!want_value || F[_i].ret == t) &&
		     F[_i].depth <= c->call_budget && !(F[_i].writes & c->iterating));
	char *args = str("%s", "");

	if (f < 0)
		return NULL;
	for (int i = 0; i < F[f].nparams; i++) {
		char *a = gen_expr(c, F[f].param[i], depth - 1);

		if (i == 0 && F[f].recursive)
			a = str("(%s) & 3", a);
		args = str("%s%s%s", args, i ? ", " : "", a);
	}
	c->writes |= F[f].writes;
	if (F[f].depth > c->calls_depth)
		c->calls_depth = F[f].depth;
	return str("%s(%s)", F[f].name, args);
}

static char *gen_assign_expr(struct ctx *c, enum vt t, int depth)
{
	static const char *const long_ops[] = {
		"=", "+=", "-=", "*=", "&=", "|=", "^=", "<<=", ">>=", "/=", "%=",
	};
	char *lv = pick_lvalue(c, t, depth);
	const char *op;
	char *rhs;

	if (!lv)
		return NULL;
	if (t == VT_STR)
		return str("(%s %s %s)", lv, pct(50) ? "=" : ".=", gen_str(c, depth - 1));
	if (pct(30))
		return str(pct(50) ? "(%s%s)" : "(%2$s%1$s)", lv, pct(50) ? "++" : "--");
	op = long_ops[rn(11)];
	rhs = gen_long(c, depth - 1);
	if ((!strcmp(op, "<<=") || !strcmp(op, ">>=")) && K.hostile && pct(40))
		rhs = hostile_shift_count(c, depth - 1);
	else if (!strcmp(op, "<<=") || !strcmp(op, ">>="))
		rhs = str("%d", rn(64));
	else if ((!strcmp(op, "/=") || !strcmp(op, "%=")) && K.hostile && pct(40))
		rhs = hostile_divisor(c, depth - 1);
	else if (!strcmp(op, "/=") || !strcmp(op, "%="))
		rhs = str("((%s) & 15) + 1", rhs);
	return str("(%s %s %s)", lv, op, rhs);
}

/* A variable or literal; with depth left, also an array element or a
 * statistic whose keys are plain leaves. */
static char *long_leaf(struct ctx *c, int depth)
{
	char *s = NULL;

	switch (rn(c->cond || depth <= 0 ? 2 : 5)) {
	case 0: s = pick_var(c, VT_LONG); break;
	case 1: s = long_literal(); break;
	case 2: s = array_read(c, VT_LONG, 1); break;
	case 3: s = stat_extract(c, 1); break;
	default: s = pick_var(c, VT_LONG); break;
	}
	return s ? s : long_literal();
}

static char *str_leaf(struct ctx *c, int depth)
{
	char *s = NULL;

	switch (rn(c->cond || depth <= 0 ? 2 : 3)) {
	case 0: s = pick_var(c, VT_STR); break;
	case 1: s = str_literal(); break;
	default: s = array_read(c, VT_STR, 1); break;
	}
	return s ? s : str_literal();
}

static char *in_expr(struct ctx *c, int depth)
{
	int g = PICK(n_globals, G[_i].kind == GK_ARRAY || G[_i].kind == GK_STAT_ARRAY);
	char *keys;

	if (g < 0)
		return NULL;
	if (G[g].nkeys == 1 && pct(40))
		return str("(%s in %s)", gen_expr(c, G[g].key[0], depth - 1), G[g].name);
	if (pct(20)) {
		/* A slice: some keys are "*". */
		keys = NULL;
		for (int i = 0; i < G[g].nkeys; i++) {
			char *k = pct(50) ? str("*") : gen_expr(c, G[g].key[i], depth - 1);

			keys = keys ? str("%s, %s", keys, k) : k;
		}
	} else {
		keys = gen_keys(c, &G[g], depth - 1);
	}
	return str("([%s] in %s)", keys, G[g].name);
}

char *gen_long(struct ctx *c, int depth)
{
	static const char *const arith[] = { "+", "-", "*", "&", "|", "^" };
	static const char *const cmp[] = { "<", ">", "<=", ">=", "==", "!=" };
	static const char *const unary[] = { "-", "~", "!", "+" };
	char *s = NULL;

	if (depth <= 0 || pct(25))
		return long_leaf(c, depth);
	switch (rn(c->cond ? 8 : 16)) {
	case 0:
		return str("(%s %s %s)", gen_long(c, depth - 1), arith[rn(6)],
			   gen_long(c, depth - 1));
	case 1:
		if (K.hostile && pct(40))
			return hostile_division(c, depth);
		return str("(%s %s ((%s & 15) + 1))", gen_long(c, depth - 1),
			   pct(50) ? "/" : "%", gen_long(c, depth - 1));
	case 2:
		if (K.hostile && pct(40))
			return hostile_shift(c, depth);
		return str("(%s %s %d)", gen_long(c, depth - 1),
			   (const char *[]){ "<<", ">>", ">>>" }[rn(3)], rn(64));
	case 3:
		return str("(%s %s %s)", gen_long(c, depth - 1), cmp[rn(6)],
			   gen_long(c, depth - 1));
	case 4:
		return str("(%s %s %s)", gen_str(c, depth - 1), cmp[rn(6)],
			   gen_str(c, depth - 1));
	case 5:
		return str("(%s %s %s)", gen_long(c, depth - 1), pct(50) ? "&&" : "||",
			   gen_long(c, depth - 1));
	case 6:
		return str("%s(%s)", unary[rn(4)], gen_long(c, depth - 1));
	case 7:
		return str("(%s ? %s : %s)", gen_long(c, depth - 1),
			   gen_long(c, depth - 1), gen_long(c, depth - 1));
	case 8:
		s = in_expr(c, depth);
		break;
	case 9:
		s = gen_call(c, true, VT_LONG, depth);
		break;
	case 10:
		if (K.tapset)
			s = pct(50) ? str("strlen(%s)", gen_str(c, depth - 1))
				    : str("isinstr(%s, %s)", gen_str(c, depth - 1),
					  gen_str(c, depth - 1));
		break;
	case 11:
		if (K.regex)
			s = str("(%s %s \"%s\")", gen_str(c, depth - 1),
				pct(70) ? "=~" : "!~",
				regexes[rn(sizeof(regexes) / sizeof(regexes[0]))]);
		break;
	case 12:
		s = gen_assign_expr(c, VT_LONG, depth);
		break;
	case 13:
		s = stat_extract(c, depth - 1);
		break;
	case 14:
		s = array_read(c, VT_LONG, depth - 1);
		break;
	default:
		s = pick_var(c, VT_LONG);
		break;
	}
	return s ? s : long_leaf(c, depth);
}

static char *format_and_args(struct ctx *c, int depth, char **args);

static char *print_args(struct ctx *c, int n, int depth)
{
	char *s = NULL;

	for (int i = 0; i < n; i++) {
		char *a = gen_expr(c, pct(50) ? VT_LONG : VT_STR, depth);

		s = s ? str("%s, %s", s, a) : a;
	}
	return s;
}

static char *delimiter(void)
{
	static const char *const d[] = { "\",\"", "\" \"", "\"\"", "\" | \"", "\"\\t\"" };

	return str("%s", d[rn(5)]);
}

char *gen_str(struct ctx *c, int depth)
{
	char *s = NULL, *args;

	if (depth <= 0 || pct(25))
		return str_leaf(c, depth);
	switch (rn(c->cond ? 2 : 10)) {
	case 0:
		return str("(%s . %s)", gen_str(c, depth - 1), gen_str(c, depth - 1));
	case 1:
		return str("(%s ? %s : %s)", gen_long(c, depth - 1),
			   gen_str(c, depth - 1), gen_str(c, depth - 1));
	case 2: {
		char *f = format_and_args(c, depth - 1, &args);

		return args ? str("sprintf(%s, %s)", f, args) : str("sprintf(%s)", f);
	}
	case 3:
		switch (rn(4)) {
		case 0: return str("sprint(%s)", print_args(c, 1 + rn(2), depth - 1));
		case 1: return str("sprintln(%s)", print_args(c, 1 + rn(2), depth - 1));
		case 2: return str("sprintd(%s, %s)", delimiter(),
				   print_args(c, 2 + rn(2), depth - 1));
		default: return str("sprintdln(%s, %s)", delimiter(),
				    print_args(c, 2 + rn(2), depth - 1));
		}
	case 4:
		if (K.tapset)
			s = str("substr(%s, %s, %s)", gen_str(c, depth - 1),
				str("(%s) & 15", gen_long(c, depth - 1)),
				str("(%s) & 15", gen_long(c, depth - 1)));
		break;
	case 5:
		s = gen_call(c, true, VT_STR, depth);
		break;
	case 6:
		s = gen_assign_expr(c, VT_STR, depth);
		break;
	case 7:
		s = array_read(c, VT_STR, depth - 1);
		break;
	default:
		s = pick_var(c, VT_STR);
		break;
	}
	return s ? s : str_leaf(c, depth);
}

char *gen_expr(struct ctx *c, enum vt t, int depth)
{
	return t == VT_LONG ? gen_long(c, depth) : gen_str(c, depth);
}

/* ---- printf formats whose directives match their arguments ---- */

static char *long_directive(struct ctx *c, int depth, char **args)
{
	static const char convs[] = "diuoxXcp";
	char conv = convs[rn(8)];
	const char *flag = "";
	char *width = str("%s", ""), *prec = str("%s", "");
	char *pre = NULL;

	switch (rn(8)) {
	case 0: flag = "-"; break;
	case 1: flag = "0"; break;
	case 2: flag = (conv == 'd' || conv == 'i') ? "+" : "#"; break;
	case 3: flag = (conv == 'd' || conv == 'i') ? " " : "-"; break;
	default: break;
	}
	if (pct(30)) {
		width = str("%d", 1 + rn(12));
	} else if (pct(10)) {
		width = str("*");
		pre = str("(%s) & 31", gen_long(c, depth));
	}
	if (conv != 'c' && conv != 'p' && pct(20))
		prec = str(".%d", rn(6));
	*args = pre ? str("%s, %s", pre, gen_long(c, depth)) : gen_long(c, depth);
	return str("%%%s%s%s%s%c", flag, width, prec,
		   (conv != 'c' && conv != 'p' && pct(10)) ? "l" : "", conv);
}

static char *str_directive(struct ctx *c, int depth, char **args)
{
	char *width = str("%s", ""), *prec = str("%s", "");

	if (pct(30))
		width = str("%d", 1 + rn(12));
	if (pct(20))
		prec = str(".%d", rn(6));
	*args = gen_str(c, depth);
	return str("%%%s%s%ss", pct(30) ? "-" : "", width, prec);
}

static const char *const fmt_text[] = {
	"", " ", "x=", ", ", "\\n", "\\t", "%%", "[", "]", ": ", "\\\\", "\\\"",
};

/* A quoted format and its arguments (*args NULL when there are none). */
static char *format_and_args(struct ctx *c, int depth, char **args)
{
	int n = rn(4);
	char *f = str("%s", fmt_text[rn(12)]);

	*args = NULL;
	for (int i = 0; i < n; i++) {
		char *a, *d;

		if (K.hostile && pct(30))
			d = hostile_directive(c, depth, &a);
		else
			d = pct(55) ? long_directive(c, depth, &a) : str_directive(c, depth, &a);

		f = str("%s%s%s", f, d, fmt_text[rn(12)]);
		*args = *args ? str("%s, %s", *args, a) : a;
	}
	if (pct(60))
		f = str("%s\\n", f);
	return str("\"%s\"", f);
}

/* ---- statements ---- */

char *gen_cond(struct ctx *c)
{
	return gen_long(c, 2);
}

static void gen_print_stmt(struct ctx *c)
{
	char *f, *args;
	int e = K.expr_depth - 1;

	switch (rn(6)) {
	case 0:
	case 1:
		f = format_and_args(c, e, &args);
		out(args ? "printf(%s, %s)" : "printf(%s)", f, args);
		break;
	case 2:
		out("print(%s)", print_args(c, 1 + rn(3), e));
		break;
	case 3:
		out("println(%s)", print_args(c, 1 + rn(3), e));
		break;
	case 4:
		out("%s(%s, %s)", pct(50) ? "printd" : "printdln", delimiter(),
		    print_args(c, 2 + rn(2), e));
		break;
	default: {
		int g = PICK(n_globals, G[_i].kind == GK_STAT || G[_i].kind == GK_STAT_ARRAY);
		char *ref;

		if (g >= 0) {
			ref = G[g].kind == GK_STAT ? str("%s", G[g].name)
				: str("%s[%s]", G[g].name, gen_keys(c, &G[g], 0));
			out("if (@count(%s)) %s(%s)", ref, pct(50) ? "print" : "println",
			    hist_of(&G[g], ref));
		} else
			out("println(%s)", print_args(c, 1, e));
		break;
	}
	}
}

static void gen_assign_stmt(struct ctx *c)
{
	enum vt t = pct(60) ? VT_LONG : VT_STR;
	char *e;

	if (pct(20)) {
		/* Feed a statistic. */
		int g = PICK(n_globals, (G[_i].kind == GK_STAT ||
					 G[_i].kind == GK_STAT_ARRAY) && may_write(c, _i));

		if (g >= 0) {
			note_write(c, g);
			if (G[g].kind == GK_STAT)
				out("%s <<< %s", G[g].name, gen_long(c, K.expr_depth));
			else
				out("%s[%s] <<< %s", G[g].name, gen_keys(c, &G[g], 1),
				    gen_long(c, K.expr_depth));
			return;
		}
	}
	e = gen_assign_expr(c, t, K.expr_depth);
	if (e) {
		/* Drop the outer parentheses: a statement, not a subexpression. */
		size_t n = strlen(e);

		if (e[0] == '(' && e[n - 1] == ')' && pct(80)) {
			e[n - 1] = '\0';
			e++;
		}
		out("%s", e);
	} else {
		gen_print_stmt(c);
	}
}

static void gen_delete_stmt(struct ctx *c)
{
	int g = PICK(n_globals, may_write(c, _i));
	char *keys = NULL;

	if (g < 0)
		return;
	note_write(c, g);
	if ((G[g].kind != GK_ARRAY && G[g].kind != GK_STAT_ARRAY) || pct(30)) {
		out("delete %s", G[g].name);
		return;
	}
	for (int i = 0; i < G[g].nkeys; i++) {
		char *k = pct(15) ? str("*") : gen_expr(c, G[g].key[i], 1);

		keys = keys ? str("%s, %s", keys, k) : k;
	}
	out("delete %s[%s]", G[g].name, keys);
}

void open_block(const char *head)
{
	out("%s {", head);
	indent_level++;
}

void close_block(void)
{
	indent_level--;
	out("}");
}

void gen_loop_body(struct ctx *c, int depth)
{
	c->loops++;
	if (pct(25))
		out("if (%s) %s", gen_cond(c), pct(50) ? "break" : "continue");
	gen_block_body(c, 1 + rn(K.stmts / 2 + 1), depth - 1);
	c->loops--;
}

static void gen_for(struct ctx *c, int depth)
{
	char *i = fresh("i");
	int trips = c->loops ? 1 + rn(4) : 1 + rn(10);

	int saved_loc = c->n_loc;

	open_block(str("for (%s = %d; %s < %d; %s++)", i, 0, i, trips, i));
	add_local(c, i, VT_LONG, false);
	gen_loop_body(c, depth);
	close_block();
	c->n_loc = saved_loc;
}

static void gen_while(struct ctx *c, int depth)
{
	char *w = fresh("w");
	int trips = c->loops ? 1 + rn(4) : 1 + rn(10);

	/* The counter is bumped first, so continue cannot skip it. */
	int saved_loc = c->n_loc;

	out("%s = 0", w);
	add_local(c, w, VT_LONG, false);
	open_block(str("while (%s < %d)", w, trips));
	out("%s++", w);
	gen_loop_body(c, depth);
	close_block();
	c->n_loc = saved_loc;
}

/* "a, b, c" from names */
char *join(char **v, int n)
{
	char *s = str("%s", n > 0 && v[0] ? v[0] : "");

	for (int i = 1; i < n; i++)
		s = str("%s, %s", s, v[i]);
	return s;
}

static void gen_foreach(struct ctx *c, int depth)
{
	int g = PICK(n_globals, G[_i].kind == GK_ARRAY || G[_i].kind == GK_STAT_ARRAY);
	const struct global *a;
	char *names[3] = { NULL }, *spec[3] = { NULL }, *keys, *value = NULL, *slice = NULL, *limit = NULL;
	char *tail = str("%s", "");
	bool stats, sorted = false;
	uint64_t saved_iter = c->iterating;
	int saved_loc = c->n_loc;

	if (g < 0) {
		gen_for(c, depth);
		return;
	}
	a = &G[g];
	stats = a->kind == GK_STAT_ARRAY;
	/* The slice and limit come first: they may not use the loop's keys. */
	if (pct(15)) {
		for (int i = 0; i < a->nkeys; i++)
			spec[i] = pct(50) ? str("*") : gen_expr(c, a->key[i], 1);
		slice = str("[%s]", join(spec, a->nkeys));
	}
	if (pct(35))
		limit = pct(60) ? str(" limit %d", rn(6)) : str(" limit (%s) & 7", gen_long(c, 1));
	for (int i = 0; i < a->nkeys; i++) {
		const char *sort = "";

		names[i] = fresh("k");
		if (!sorted && pct(15)) {
			sort = pct(50) ? "+" : "-";
			sorted = true;
		}
		spec[i] = str("%s%s", names[i], sort);
	}
	keys = join(spec, a->nkeys);
	if (a->nkeys > 1 || pct(50))
		keys = str("[%s]", keys);
	if (!stats && pct(40)) {
		char *v = fresh("v");
		const char *sort = "";

		if (!sorted && pct(30)) {
			sort = pct(50) ? "+" : "-";
			sorted = true;
		}
		value = str("%s%s = ", v, sort);
		add_local(c, v, a->vt, false);
	}
	for (int i = 0; i < a->nkeys; i++)
		add_local(c, names[i], a->key[i], false);
	if (!sorted && pct(30)) {
		static const char *const aggr[] = { "@count", "@sum", "@min", "@max", "@avg" };

		if (stats)
			tail = str("%s%s", aggr[rn(5)], pct(50) ? "+" : "-");
		else
			tail = str("%s", pct(50) ? "+" : "-");
	}
	open_block(str("foreach (%s%s in %s%s%s%s)", value ? value : "", keys, a->name,
		       slice ? slice : "", tail, limit ? limit : ""));
	c->iterating |= UINT64_C(1) << g;
	if (stats)
		out("printf(\"%%d\\n\", @count(%s[%s]))", a->name, join(names, a->nkeys));
	gen_loop_body(c, depth);
	close_block();
	c->iterating = saved_iter;
	c->n_loc = saved_loc;	/* the keys are not used after the loop */
}

static void gen_try(struct ctx *c, int depth)
{
	open_block("try");
	if (K.tapset && pct(30))
		out("if (%s) error(%s)", gen_cond(c), str_literal());
	gen_block_body(c, 1 + rn(3), depth - 1);
	indent_level--;
	if (pct(70)) {
		char *e = fresh("e");

		int saved_loc = c->n_loc;

		out("} catch (%s) {", e);
		indent_level++;
		add_local(c, e, VT_STR, true);
		out("println(\"caught: \", %s)", e);
		gen_block_body(c, rn(2), depth - 1);
		c->n_loc = saved_loc;	/* the message is not used after the catch */
	} else {
		out("} catch {");
		indent_level++;
		gen_block_body(c, rn(2), depth - 1);
	}
	close_block();
}

static void gen_if(struct ctx *c, int depth)
{
	open_block(str("if (%s)", gen_cond(c)));
	gen_block_body(c, 1 + rn(3), depth - 1);
	if (pct(40)) {
		indent_level--;
		out("} else {");
		indent_level++;
		gen_block_body(c, 1 + rn(3), depth - 1);
	}
	close_block();
}

static void gen_jump(struct ctx *c)
{
	if (c->loops && pct(50)) {
		out("if (%s) %s", gen_cond(c), pct(50) ? "break" : "continue");
	} else if (c->fn && c->fn->has_ret) {
		out("if (%s) return %s", gen_cond(c), gen_expr(c, c->fn->ret, 2));
	} else if (c->fn) {
		out("if (%s) return;", gen_cond(c));	/* else it takes the next line */
	} else {
		out("if (%s) next", gen_cond(c));
	}
}

void gen_stmt(struct ctx *c, int depth)
{
	int r;
	char *call;

	if (K.hostile && pct(30)) {
		hostile_stmt(c, depth);
		return;
	}
	r = rn(100);

	if (depth > 0 && r < 30) {
		switch (rn(6)) {
		case 0: gen_if(c, depth); return;
		case 1: if (c->loops < 2) { gen_for(c, depth); return; } break;
		case 2: if (c->loops < 2) { gen_while(c, depth); return; } break;
		case 3: if (c->loops < 2) { gen_foreach(c, depth); return; } break;
		case 4: gen_try(c, depth); return;
		default:
			open_block("");
			gen_block_body(c, 1 + rn(3), depth - 1);
			close_block();
			return;
		}
	}
	if (r < 55) {
		gen_assign_stmt(c);
	} else if (r < 75) {
		gen_print_stmt(c);
	} else if (r < 82) {
		gen_delete_stmt(c);
	} else if (r < 90) {
		call = gen_call(c, pct(50), pct(50) ? VT_LONG : VT_STR, K.expr_depth);
		if (call)
			out("%s", call);
		else
			gen_assign_stmt(c);
	} else if (r < 96) {
		gen_jump(c);
	} else if (r < 98) {
		out(";");
	} else {
		gen_print_stmt(c);
	}
}

void gen_block_body(struct ctx *c, int n, int depth)
{
	for (int i = 0; i < n; i++)
		gen_stmt(c, depth);
}

/* Locals assigned first thing, so that each has its type before any use. */
void gen_prologue(struct ctx *c)
{
	int n = rn(4);

	for (int i = 0; i < n; i++) {
		enum vt t = pct(60) ? VT_LONG : VT_STR;
		char *l = fresh("l");
		char *e = gen_expr(c, t, K.expr_depth - 1);

		out("%s = %s", l, e);
		add_local(c, l, t, true);
	}
}

/* ---- globals ---- */

static void make_globals(void)
{
	for (int i = 0; i < K.globals && n_globals < MAX_GLOBALS - 1; i++) {
		struct global *g = &G[n_globals];
		int r = rn(100);

		g->vt = pct(60) ? VT_LONG : VT_STR;
		if (r < 35)
			g->kind = GK_SCALAR;
		else if (r < 75)
			g->kind = GK_ARRAY;
		else if (r < 88)
			g->kind = GK_STAT;
		else
			g->kind = GK_STAT_ARRAY;
		g->hist_linear = pct(50);
		g->hist_lo = -rn(3) * 10;
		g->hist_hi = 50 + rn(5) * 10;
		g->hist_step = 5 + rn(2) * 5;
		if (g->kind == GK_ARRAY || g->kind == GK_STAT_ARRAY) {
			g->nkeys = 1 + rn(3);
			for (int k = 0; k < g->nkeys; k++)
				g->key[k] = pct(55) ? VT_LONG : VT_STR;
		}
		snprintf(g->name, sizeof(g->name), "%s%d",
			 (const char *[]){ "g", "a", "st", "h" }[g->kind], n_globals);
		n_globals++;
	}
}

static void print_globals(void)
{
	for (int i = 0; i < n_globals; i++) {
		const struct global *g = &G[i];

		if (K.hostile)
			hostile_print_global(g);
		else if (g->kind == GK_SCALAR && pct(40))
			out("global %s = %s", g->name, literal(g->vt));
		else if ((g->kind == GK_ARRAY || g->kind == GK_STAT_ARRAY) && pct(30))
			out("global %s%s[%d]", g->name, pct(30) ? "%" : "",
			       1000 + rn(4) * 1000);
		else if (pct(10))
			out("private global %s", g->name);
		else
			out("global %s", g->name);
	}
}

/* The first begin probe writes every global once: that settles types. */
static void print_init_probe(void)
{
	out("%s", "");
	out("probe begin(-100)");
	out("{");
	indent_level = 1;
	for (int i = 0; i < n_globals; i++) {
		const struct global *g = &G[i];
		char *keys = NULL;

		for (int k = 0; k < g->nkeys; k++) {
			char *e = literal(g->key[k]);

			keys = keys ? str("%s, %s", keys, e) : e;
		}
		switch (g->kind) {
		case GK_SCALAR:
			out("%s = %s", g->name, i == ticks_global ? "0" : literal(g->vt));
			break;
		case GK_ARRAY: out("%s[%s] = %s", g->name, keys, literal(g->vt)); break;
		case GK_STAT: out("%s <<< %s", g->name, long_literal()); break;
		case GK_STAT_ARRAY: out("%s[%s] <<< %s", g->name, keys, long_literal()); break;
		}
		if (K.hostile && i != ticks_global)
			hostile_init_global(g, keys);
	}
	indent_level = 0;
	out("}");
}

/* ---- functions ---- */

void print_signature(const struct func *f, bool typed, const char *prio)
{
	char *params = str("%s", "");

	for (int i = 0; i < f->nparams; i++)
		params = str("%s%sp%d%s%s", params, i ? ", " : "", i,
			     typed ? ":" : "", typed ? vt_name[f->param[i]] : "");
	out("%s", "");
	out("function %s%s%s (%s)%s", f->name,
	       f->has_ret && typed ? ":" : "", f->has_ret && typed ? vt_name[f->ret] : "",
	       params, prio);
	out("{");
}

void start_function_ctx(struct ctx *c, struct func *f, int budget)
{
	memset(c, 0, sizeof(*c));
	c->fn = f;
	c->call_budget = budget;
	/* A recursive function's depth parameter must only count down. */
	for (int i = 0; i < f->nparams; i++)
		add_local(c, str("p%d", i), f->param[i], !(i == 0 && f->recursive));
}

void finish_function(struct func *f, const struct ctx *c, int self_depth)
{
	f->writes |= c->writes;
	if (self_depth + c->calls_depth > f->depth)
		f->depth = self_depth + c->calls_depth;
}

/* One body of f; next_ok: an `if (...) next` hands over to a later overload. */
static void print_function_body(struct func *f, bool typed, const char *prio, bool next_ok)
{
	struct ctx c;

	start_function_ctx(&c, f, MAX_CALL_DEPTH - 1);
	print_signature(f, typed, prio);
	indent_level = 1;
	if (next_ok)
		out("if (%s) next", gen_cond(&c));
	gen_prologue(&c);
	gen_block_body(&c, 1 + rn(K.stmts), K.depth);
	if (f->has_ret)
		out("return %s", gen_expr(&c, f->ret, K.expr_depth));
	indent_level = 0;
	out("}");
	finish_function(f, &c, 1);
}

/* rN(n, ...): the first parameter counts down to 0. */
static void print_recursive(struct func *f)
{
	struct ctx c;
	char *rest = str("%s", "");

	start_function_ctx(&c, f, 0);	/* calls nothing but itself */
	print_signature(f, true, "");
	indent_level = 1;
	out("if (p0 <= 0) return %s", gen_expr(&c, f->ret, 2));
	gen_block_body(&c, rn(3), 1);
	for (int i = 1; i < f->nparams; i++)
		rest = str("%s, %s", rest, gen_expr(&c, f->param[i], 1));
	if (f->ret == VT_LONG)
		out("return %s + %s(p0 - 1%s)", gen_expr(&c, VT_LONG, 1), f->name, rest);
	else
		out("return %s . %s(p0 - 1%s)", gen_expr(&c, VT_STR, 1), f->name, rest);
	indent_level = 0;
	out("}");
	finish_function(f, &c, RECURSION_DEPTH);
}

struct func *new_func(const char *prefix)
{
	struct func *f = &F[n_funcs];

	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s%d", prefix, n_funcs);
	n_funcs++;
	f->has_ret = pct(75);
	f->ret = pct(55) ? VT_LONG : VT_STR;
	f->nparams = rn(MAX_PARAMS + 1);
	for (int i = 0; i < f->nparams; i++)
		f->param[i] = pct(55) ? VT_LONG : VT_STR;
	return f;
}

static void make_functions(void)
{
	for (int i = 0; i < K.functions && n_funcs < MAX_FUNCS; i++) {
		int r = rn(100);
		struct func *f;

		if (r < 15) {
			f = new_func("r");
			f->recursive = true;
			f->has_ret = true;
			if (f->nparams == 0)
				f->nparams = 1;
			f->param[0] = VT_LONG;
			print_recursive(f);
		} else if (r < 30) {
			/* Overloads: same name and signature, tried in priority order. */
			int n = 2 + rn(2);
			bool prio = pct(50);

			f = new_func("o");
			/* Priorities, when given, keep declaration order, so
			 * that the last body tried is the one without next. */
			for (int k = 0; k < n; k++)
				print_function_body(f, true, prio ? str(":%d", k + 1) : "",
						    k < n - 1);
		} else {
			f = new_func("f");
			/* Untyped signatures: pass 2 infers them from the calls and returns. */
			print_function_body(f, pct(70), "", false);
		}
		f->defined = true;
	}
}

/* ---- probes ---- */

static char *timer_point(bool fast)
{
	if (fast)
		return pct(50) ? str("timer.ms(%d)", 5 + rn(20)) : str("timer.jiffies(%d)", 1 + rn(3));
	switch (rn(6)) {
	case 0: return str("timer.ms(%d)", 1 + rn(200));
	case 1: return str("timer.us(%d)", 1000 + rn(100000));
	case 2: return str("timer.s(%d)", 1 + rn(2));
	case 3: return str("timer.hz(%d)", 1 + rn(100));
	case 4: return str("timer.jiffies(%d)", 1 + rn(20));
	default: return str("timer.ms(%d).randomize(%d)", 50 + rn(50), rn(20));
	}
}

/* Globals and literals only; no side effects. */
char *probe_condition(void)
{
	struct ctx c = { .cond = true };

	return str(" if (%s)", gen_long(&c, 2));
}

/* A probe; alias_local, when not NULL, is a local that the alias the
 * probe uses assigns (of type alias_vt). */
void print_probe(const char *points, bool exit_first, const char *ticks,
		 const char *alias_local, enum vt alias_vt)
{
	struct ctx c = { .call_budget = MAX_CALL_DEPTH };

	out("%s", "");
	out("probe %s", points);
	out("{");
	indent_level = 1;
	if (alias_local)
		add_local(&c, alias_local, alias_vt, true);
	if (exit_first)
		out("exit()");
	if (ticks)
		out("if (++%s >= %d) exit()", ticks, 2 + rn(4));
	gen_prologue(&c);
	gen_block_body(&c, 1 + rn(K.stmts), K.depth);
	indent_level = 0;
	out("}");
}

static char *random_point(void)
{
	char *p;

	switch (rn(5)) {
	case 0: p = pct(50) ? str("begin") : str("begin(%d)", rn(20) - 10); break;
	case 1: p = pct(50) ? str("end") : str("end(%d)", rn(20) - 10); break;
	case 2: p = str("never"); break;
	default: p = timer_point(false); break;
	}
	if (pct(25))
		p = str("%s%s", p, probe_condition());
	return p;
}

/* probe NAME = POINTS { local = value } (or +=, whose body runs after
 * the user's), then a probe on NAME that may read the local. */
static void print_alias_and_user(void)
{
	char *name = fresh("alias");
	char *local = fresh("x");
	enum vt t = pct(50) ? VT_LONG : VT_STR;
	char *points = random_point();

	if (pct(30))
		points = str("%s, %s", points, random_point());
	out("%s", "");
	out("probe %s %s %s", name, pct(40) ? "+=" : "=", points);
	out("{");
	indent_level = 1;
	out("%s = %s", local, literal(t));
	indent_level = 0;
	out("}");
	print_probe(name, false, NULL, local, t);
}

static void make_probes(void)
{
	bool by_timer;

	if (K.hostile) {
		hostile_probes();
		return;
	}
	by_timer = K.tapset && pct(40);

	if (K.tapset && !by_timer)
		print_probe(pct(50) ? "begin" : "begin(1)", true, NULL, NULL, VT_LONG);
	if (by_timer)
		print_probe(timer_point(true), false, G[ticks_global].name, NULL, VT_LONG);
	for (int i = 0; i < K.probes; i++) {
		char *points;

		if (pct(15)) {
			print_alias_and_user();
			continue;
		}
		points = random_point();
		if (pct(20))
			points = str("%s, %s", points, random_point());
		print_probe(points, false, NULL, NULL, VT_LONG);
	}
}

/* The end probe prints every global. */
static void print_report(void)
{
	struct ctx c = { .call_budget = 0 };

	out("%s", "");
	out("probe end(100)");
	out("{");
	indent_level = 1;
	for (int i = 0; i < n_globals; i++) {
		const struct global *g = &G[i];
		char *keys = NULL;

		for (int k = 0; k < g->nkeys; k++) {
			char *kn = fresh("k");

			add_local(&c, kn, g->key[k], false);
			keys = keys ? str("%s, %s", keys, kn) : kn;
		}
		switch (g->kind) {
		case GK_SCALAR:
			out("printf(\"%s=%s\\n\", %s)", g->name, g->vt == VT_LONG ? "%d" : "%s",
			    g->name);
			break;
		case GK_ARRAY:
			out("foreach ([%s] in %s limit 5)", keys, g->name);
			out("\tprintln(\"%s: \", %s[%s])", g->name, g->name, keys);
			break;
		case GK_STAT:
			out("if (@count(%s)) printf(\"%s %%d %%d %%d %%d %%d\\n\", @count(%s), "
			    "@sum(%s), @min(%s), @max(%s), @avg(%s))", g->name, g->name,
			    g->name, g->name, g->name, g->name, g->name);
			break;
		case GK_STAT_ARRAY:
			out("foreach ([%s] in %s @count- limit 3)", keys, g->name);
			out("\tprint(%s)", hist_of(g, str("%s[%s]", g->name, keys)));
			break;
		}
	}
	indent_level = 0;
	out("}");
}

/* ---- main ---- */

static void usage(FILE *f)
{
	fputs("Usage: gen-script [OPTION]... [SEED]\n"
	      "Print one random valid SystemTap script (the same one for a seed).\n"
	      "  -s, --seed=N        the seed (also the first operand); default 1\n"
	      "  -g, --globals=N     number of globals (default 8, at most 39)\n"
	      "  -f, --functions=N   number of functions (default 5)\n"
	      "  -p, --probes=N      number of random probes (default 4)\n"
	      "  -n, --stmts=N       statements per body, at most (default 6)\n"
	      "  -d, --depth=N       statement nesting (default 3)\n"
	      "  -e, --expr-depth=N  expression nesting (default 3)\n"
	      "      --no-tapset     no tapset calls (strlen, substr, exit...);\n"
	      "                      the script then ends only when stopped\n"
	      "      --no-regex      no =~ or !~\n"
	      "      --hostile       a script valid for pass 2 that aims at the runtime's\n"
	      "                      limits and kernel event probes (see README.md); its\n"
	      "                      line '# tapc-options: ...' names the options to build it\n"
	      "  -h, --help          this text\n", f);
}

static int parse_int(const char *s, const char *what, int lo, int hi)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < lo || v > hi) {
		fprintf(stderr, "gen-script: bad %s '%s' (%d..%d)\n", what, s, lo, hi);
		exit(2);
	}
	return (int)v;
}

static uint64_t parse_seed(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (!*s || *end) {
		fprintf(stderr, "gen-script: bad seed '%s'\n", s);
		exit(2);
	}
	return v;
}

static void parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "globals", required_argument, NULL, 'g' },
		{ "functions", required_argument, NULL, 'f' },
		{ "probes", required_argument, NULL, 'p' },
		{ "stmts", required_argument, NULL, 'n' },
		{ "depth", required_argument, NULL, 'd' },
		{ "expr-depth", required_argument, NULL, 'e' },
		{ "no-tapset", no_argument, NULL, 'T' },
		{ "no-regex", no_argument, NULL, 'R' },
		{ "hostile", no_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	while ((o = getopt_long(argc, argv, "s:g:f:p:n:d:e:h", opts, NULL)) != -1) {
		switch (o) {
		case 's': K.seed = parse_seed(optarg); break;
		case 'g': K.globals = parse_int(optarg, "globals", 0, MAX_GLOBALS - 1); break;
		case 'f': K.functions = parse_int(optarg, "functions", 0, MAX_FUNCS); break;
		case 'p': K.probes = parse_int(optarg, "probes", 0, 100); break;
		case 'n': K.stmts = parse_int(optarg, "stmts", 1, 50); break;
		case 'd': K.depth = parse_int(optarg, "depth", 0, 8); break;
		case 'e': K.expr_depth = parse_int(optarg, "expr-depth", 1, 8); break;
		case 'T': K.tapset = false; break;
		case 'R': K.regex = false; break;
		case 'H': K.hostile = true; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(2);
		}
	}
	if (optind < argc)
		K.seed = parse_seed(argv[optind++]);
	if (optind < argc) {
		usage(stderr);
		exit(2);
	}
	if (K.hostile && !K.tapset) {
		fputs("gen-script: --hostile needs the tapset functions (no --no-tapset)\n", stderr);
		exit(2);
	}
}

int main(int argc, char **argv)
{
	parse_args(argc, argv);
	rng_state = K.seed;
	out("# generated by gen-script --seed=%" PRIu64 " -g %d -f %d -p %d -n %d -d %d -e %d%s%s%s\n",
	       K.seed, K.globals, K.functions, K.probes, K.stmts, K.depth, K.expr_depth,
	    K.tapset ? "" : " --no-tapset", K.regex ? "" : " --no-regex",
	    K.hostile ? " --hostile" : "");
	if (K.hostile)
		out("%s", hostile_setup());
	make_globals();
	if (K.hostile)
		hostile_globals();
	if (K.tapset) {
		struct global *t = &G[n_globals];

		ticks_global = n_globals++;
		snprintf(t->name, sizeof(t->name), "ticks");
		t->kind = GK_SCALAR;
		t->vt = VT_LONG;
	}
	print_globals();
	print_init_probe();
	make_functions();
	if (K.hostile)
		hostile_functions();
	make_probes();
	print_report();
	flush_out();
	return ferror(stdout) ? 1 : 0;
}
