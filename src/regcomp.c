/* Regular expression compiler: SystemTap's dialect (see regcomp.h) into a
 * Pike VM program for runtime/core/regexec.c.
 *
 * Three stages: the parser builds a tree, reproducing what SystemTap's
 * parser accepts and the messages and positions of its errors; the tree
 * is sized (a bounded repetition expands into copies, so the size is
 * checked before anything is built) and then compiled into instructions.
 *
 * Positions in messages follow SystemTap's cursor, which reads one
 * character ahead: "position" is usually the index of the character
 * just looked at, or of the one after it, exactly as stap prints it.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "regcomp.h"
#include "regexec.h"

/* SystemTap's largest repetition count is one less than this. */
#define RX_MAX_REPEAT 12345
/* Parentheses and repetitions nested deeper are refused. */
#define RX_MAX_DEPTH 500
/* Instructions counted beyond this are "too large" whatever the scratch. */
#define RX_MAX_INSN (1u << 20)

enum rx_kind {
	RX_EMPTY,
	RX_SET,			/* one byte of a set */
	RX_CAT,			/* children in order */
	RX_ALT,			/* children in priority order */
	RX_STAR,		/* child*, greedy */
	RX_PLUS,		/* child+, greedy */
	RX_QUEST,		/* child?, greedy */
	RX_REP,			/* child{min,max}, max -1: unbounded */
	RX_GROUP,		/* capturing group */
	RX_BOL,
	RX_EOL,
};

struct rx_node {
	enum rx_kind kind;
	int child;		/* first child or the operand; -1 */
	int last;		/* CAT, ALT: last child */
	int next;		/* next sibling; -1 */
	int min, max;		/* RX_REP */
	int group;		/* RX_GROUP */
	int set;		/* RX_SET: index into sets */
	bool from_quest;	/* RX_QUEST of a '.' or [...]: "set|" */
};

typedef unsigned char rx_set[32];

struct rx_parser {
	/* SystemTap's cursor: one character of look-ahead */
	const char *in;
	unsigned len;
	unsigned pos;		/* index after the last character read */
	unsigned last_pos;	/* index of the last character read */
	bool finished;		/* every character has been read */
	int next_c;		/* read but not consumed; 0: none */

	struct rx_node *nodes;
	int nnodes, nodes_cap;
	rx_set *sets;
	int nsets, sets_cap;
	int nsub;		/* groups so far, group 0 included */
	int depth;

	jmp_buf fail;
	char *err;
	size_t errsize;
};

struct regex_prog {
	struct tap_regex re;	/* points into the arrays below */
	struct tap_regex_insn *prog;
	rx_set *classes;
	char *pattern;
};

/* ---- errors --------------------------------------------------------- */

static void rx_fail(struct rx_parser *ps, int pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

/* Report SystemTap's message; pos < 0: a message without a position. */
static void rx_fail(struct rx_parser *ps, int pos, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ps->errsize) {
		if (pos >= 0)
			snprintf(ps->err, ps->errsize,
				 "regex compilation error (at position %d): %s",
				 pos, msg);
		else
			snprintf(ps->err, ps->errsize,
				 "regex compilation error: %s", msg);
	}
	longjmp(ps->fail, 1);
}

static void *rx_grow(struct rx_parser *ps, void *p, int *cap, size_t elem)
{
	int ncap = *cap ? *cap * 2 : 16;
	void *q = realloc(p, (size_t)ncap * elem);

	if (!q)
		rx_fail(ps, -1, "out of memory");
	*cap = ncap;
	return q;
}

/* ---- the cursor ------------------------------------------------------ */

static void cur_read(struct rx_parser *ps)
{
	ps->last_pos = ps->pos;
	ps->next_c = (unsigned char)ps->in[ps->pos++];
	ps->finished = ps->pos >= ps->len;
}

static int cur_peek(struct rx_parser *ps)
{
	if (!ps->next_c && !ps->finished)
		cur_read(ps);
	return ps->next_c;
}

static int cur_next(struct rx_parser *ps)
{
	int c;

	if (!ps->next_c && ps->finished)
		rx_fail(ps, (int)ps->pos, "unexpected end of regex");
	if (!ps->next_c)
		cur_read(ps);
	c = ps->next_c;
	ps->next_c = 0;
	return c;
}

/* n characters left after pos (SystemTap's test, unsigned wrap and all) */
static bool cur_has(struct rx_parser *ps, unsigned n)
{
	return ps->len < n || ps->pos <= ps->len - n;
}

static void expect(struct rx_parser *ps, int want)
{
	int c;

	if (!ps->next_c && ps->finished)
		rx_fail(ps, (int)ps->last_pos, "expected %c, found end of regex",
			want);
	c = cur_next(ps);
	if (c != want)
		rx_fail(ps, (int)ps->last_pos, "expected %c, found %c", want, c);
}

static bool is_special(int c)
{
	return c && strchr(".[{()\\*+?|^$", c);
}

static bool is_closure(int c)
{
	return c == '*' || c == '+' || c == '?' || c == '{';
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* ---- the tree --------------------------------------------------------- */

static int node_new(struct rx_parser *ps, enum rx_kind kind, int child)
{
	struct rx_node *n;

	if (ps->nnodes == ps->nodes_cap)
		ps->nodes = rx_grow(ps, ps->nodes, &ps->nodes_cap,
				    sizeof(*ps->nodes));
	n = &ps->nodes[ps->nnodes];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->child = child;
	n->last = child;
	n->next = -1;
	n->set = -1;
	return ps->nnodes++;
}

static int set_new(struct rx_parser *ps)
{
	if (ps->nsets == ps->sets_cap)
		ps->sets = rx_grow(ps, ps->sets, &ps->sets_cap, sizeof(rx_set));
	memset(ps->sets[ps->nsets], 0, sizeof(rx_set));
	return ps->nsets++;
}

static void set_add(rx_set s, int lo, int hi)
{
	for (int c = lo; c <= hi; c++)
		s[c >> 3] |= (unsigned char)(1u << (c & 7));
}

static int node_set(struct rx_parser *ps, int set)
{
	int n = node_new(ps, RX_SET, -1);

	ps->nodes[n].set = set;
	return n;
}

static int node_char(struct rx_parser *ps, int c)
{
	int s = set_new(ps);

	set_add(ps->sets[s], c, c);
	return node_set(ps, s);
}

/* Append b to a list node a (CAT or ALT), or make one from a and b. */
static int node_join(struct rx_parser *ps, enum rx_kind kind, int a, int b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	if (ps->nodes[a].kind != kind)
		a = node_new(ps, kind, a);
	ps->nodes[ps->nodes[a].last].next = b;
	ps->nodes[a].last = b;
	return a;
}

static int node_wrap(struct rx_parser *ps, enum rx_kind kind, int child)
{
	return node_new(ps, kind, child);
}

/* ---- the parser --------------------------------------------------------- */

static int parse_expr(struct rx_parser *ps);

static void depth_enter(struct rx_parser *ps)
{
	if (++ps->depth > RX_MAX_DEPTH)
		rx_fail(ps, (int)ps->last_pos,
			"regex nested too deeply (more than %d levels)",
			RX_MAX_DEPTH);
}

static const struct {
	const char *name;
	const char *members;	/* ranges a-b and single bytes */
} named_classes[] = {
	{ "alpha", "A-Za-z" },
	{ "alnum", "A-Za-z0-9" },
	{ "blank", " \t" },
	{ "cntrl", "\x01-\x1f\x7f" },
	{ "d", "0-9" },
	{ "digit", "0-9" },
	{ "xdigit", "0-9a-fA-F" },
	{ "graph", "\x21-\x7e" },
	{ "l", "a-z" },
	{ "lower", "a-z" },
	{ "print", "\x20-\x7e" },
	{ "punct", "!\"#$%&'()*+,./:;<=>?@[\\]^_`{|}~-" },
	{ "s", " \t\r\n\v\f" },
	{ "space", " \t\r\n\v\f" },
	{ "u", "A-Z" },
	{ "upper", "A-Z" },
};

static void add_named_class(struct rx_parser *ps, rx_set s, const char *name)
{
	for (size_t i = 0; i < sizeof(named_classes) / sizeof(named_classes[0]); i++) {
		const unsigned char *m;

		if (strcmp(named_classes[i].name, name))
			continue;
		m = (const unsigned char *)named_classes[i].members;
		for (; *m; m++) {
			if (m[1] == '-' && m[2]) {
				set_add(s, m[0], m[2]);
				m += 2;
			} else {
				set_add(s, m[0], m[0]);
			}
		}
		return;
	}
	rx_fail(ps, -1, "unknown character class '%s'", name);
}

/* [:name:] after "[:" has been read. */
static void parse_named_class(struct rx_parser *ps, rx_set s)
{
	char name[128];
	size_t n = 0;
	int c = cur_peek(ps);

	for (;;) {
		if (ps->finished) {
			name[n] = '\0';
			rx_fail(ps, (int)ps->pos, "unclosed character class '[:%s'",
				name);
		}
		if (cur_has(ps, 2) && c == ':' && ps->in[ps->pos] == ']') {
			cur_next(ps);
			cur_next(ps);
			name[n] = '\0';
			add_named_class(ps, s, name);
			return;
		}
		if (n + 1 < sizeof(name))
			name[n++] = (char)c;
		cur_next(ps);
		c = cur_peek(ps);
	}
}

/* One member of a bracket expression: a byte, a range or [:name:]. */
static void parse_class_item(struct rx_parser *ps, rx_set s)
{
	int c = cur_peek(ps), lb, ub;

	if (c == '\\') {		/* any byte, taken literally */
		cur_next(ps);
		c = cur_peek(ps);
		cur_next(ps);
	} else if (c == '[') {
		cur_next(ps);
		c = cur_peek(ps);
		if (c == ':') {
			cur_next(ps);
			parse_named_class(ps, s);
			return;
		}
		c = '[';	/* a plain '['; the next byte stays read */
	} else {
		cur_next(ps);
	}
	lb = c;
	if (!cur_has(ps, 2) || cur_peek(ps) != '-' || ps->in[ps->pos] == ']') {
		ub = lb;
	} else {
		cur_next(ps);		/* the '-' */
		ub = cur_peek(ps);
		if (ub < lb)
			rx_fail(ps, (int)ps->pos, "Inverted character range %c-%c",
				lb, ub);
		cur_next(ps);
	}
	set_add(s, lb, ub);
}

/* A bracket expression after its '[' ; the caller expects the ']'. */
static int parse_class(struct rx_parser *ps)
{
	int set = set_new(ps);
	bool invert = false;

	if (cur_peek(ps) == '^') {
		invert = true;
		cur_next(ps);
	}
	for (;;) {
		if (ps->finished)
			rx_fail(ps, (int)ps->last_pos, "unclosed character class");
		parse_class_item(ps, ps->sets[set]);
		if (cur_peek(ps) == ']')
			break;
	}
	if (invert) {
		rx_set *s = &ps->sets[set];

		for (size_t i = 0; i < sizeof(rx_set); i++)
			(*s)[i] = (unsigned char)~(*s)[i];
		(*s)[0] &= (unsigned char)~1u;	/* never the NUL byte */
	}
	return node_set(ps, set);
}

static int parse_number(struct rx_parser *ps)
{
	char digits[64];
	size_t n = 0;
	bool overflow = false;
	long long v = 0;
	int c = cur_peek(ps);

	while (is_digit(c)) {
		cur_next(ps);
		if (n + 1 < sizeof(digits))
			digits[n++] = (char)c;
		if (v > (LLONG_MAX - 9) / 10)
			overflow = true;
		else
			v = v * 10 + (c - '0');
		c = cur_peek(ps);
	}
	digits[n] = '\0';
	if (n == 0)
		rx_fail(ps, (int)ps->pos, "expected number");
	if (overflow)
		rx_fail(ps, (int)ps->pos, "could not parse number %s", digits);
	if (v >= RX_MAX_REPEAT)
		rx_fail(ps, (int)ps->pos, "%s is too large", digits);
	return (int)v;
}

/* {m}, {m,}, {m,n} after the '{'. */
static int parse_braces(struct rx_parser *ps, int operand)
{
	int min = parse_number(ps), max, c, n;

	c = cur_next(ps);
	if (c == ',') {
		c = cur_peek(ps);
		if (c == '}') {
			cur_next(ps);
			max = -1;
		} else if (is_digit(c)) {
			max = parse_number(ps);
			expect(ps, '}');
		} else {
			rx_fail(ps, (int)ps->pos, "expected '}' or number");
		}
	} else if (c == '}') {
		max = min;
	} else {
		rx_fail(ps, (int)ps->last_pos, "expected ',' or '}'");
	}
	if (max >= 0 && max < min)
		rx_fail(ps, (int)ps->pos,
			"invalid repetition {%d,%d}: the maximum is below the minimum",
			min, max);
	if (min == 0 && max < 0)
		return node_wrap(ps, RX_STAR, operand);
	if (min == 1 && max < 0)
		return node_wrap(ps, RX_PLUS, operand);
	n = node_wrap(ps, RX_REP, operand);
	ps->nodes[n].min = min;
	ps->nodes[n].max = max;
	return n;
}

/* Postfix * + ? {..} applied to operand. */
static int parse_closures(struct rx_parser *ps, int operand)
{
	int c = cur_peek(ps);

	while (is_closure(c)) {
		cur_next(ps);
		if (ps->nodes[operand].kind == RX_BOL ||
		    ps->nodes[operand].kind == RX_EOL)
			rx_fail(ps, (int)ps->last_pos,
				"postfix closure '%c' applied to anchoring operator",
				c);
		depth_enter(ps);
		if (c == '*') {
			operand = node_wrap(ps, RX_STAR, operand);
		} else if (c == '+') {
			operand = node_wrap(ps, RX_PLUS, operand);
		} else if (c == '?') {
			bool on_set = ps->nodes[operand].kind == RX_SET;

			operand = node_wrap(ps, RX_QUEST, operand);
			ps->nodes[operand].from_quest = on_set;
		} else {
			operand = parse_braces(ps, operand);
		}
		c = cur_peek(ps);
	}
	return operand;
}

/*
 * A run of ordinary (or backslash-escaped) bytes.  A closure after the
 * run applies to its last byte only, which is returned in *last.
 */
static int parse_literals(struct rx_parser *ps, int *last)
{
	int c = cur_peek(ps), d = 0, run = -1;

	*last = -1;
	while (c && (!is_special(c) || c == '\\')) {
		if (c == '\\') {
			cur_next(ps);
			c = cur_peek(ps);
		}
		cur_next(ps);
		d = cur_peek(ps);
		if (is_closure(d)) {
			*last = node_char(ps, c);
			break;
		}
		run = node_join(ps, RX_CAT, run, node_char(ps, c));
		c = d;
	}
	return run;
}

/* ( ... ) and (?: ... ) after the '('. */
static int parse_group(struct rx_parser *ps)
{
	bool capture = true;
	int group = 0, body;

	if (cur_peek(ps) == '?') {
		int c;

		cur_next(ps);
		c = cur_peek(ps);
		if (c != ':')
			rx_fail(ps, (int)ps->last_pos, "unexpected '(?%c'", c);
		/* As in SystemTap the ':' is not consumed: it is the first
		 * byte the group has to match. */
		capture = false;
	}
	if (capture) {
		if (ps->nsub >= TAP_REGEX_MAXSUB)
			rx_fail(ps, (int)ps->last_pos,
				"too many subexpressions (at most %d)",
				TAP_REGEX_MAXSUB - 1);
		group = ps->nsub++;
	}
	depth_enter(ps);
	body = parse_expr(ps);
	ps->depth--;
	expect(ps, ')');
	if (body < 0)
		body = node_new(ps, RX_EMPTY, -1);
	if (!capture)	/* a sequence, so that it is no bare set or anchor */
		return node_join(ps, RX_CAT, node_new(ps, RX_EMPTY, -1), body);
	body = node_wrap(ps, RX_GROUP, body);
	ps->nodes[body].group = group;
	return body;
}

/* One factor with its closures; -1 for the empty factor. */
static int parse_factor(struct rx_parser *ps)
{
	int c = cur_peek(ps), f, prefix = -1, depth = ps->depth;

	if (!c || c == '|' || c == ')')
		return -1;
	if (is_closure(c))
		rx_fail(ps, (int)ps->last_pos, "unexpected '%c'", c);
	if (is_special(c) && c != '\\')
		cur_next(ps);
	if (c == '.') {
		int s = set_new(ps);

		set_add(ps->sets[s], 1, 255);
		f = node_set(ps, s);
	} else if (c == '[') {
		f = parse_class(ps);
		expect(ps, ']');
	} else if (c == '(') {
		f = parse_group(ps);
	} else if (c == '^' || c == '$') {
		f = node_new(ps, c == '^' ? RX_BOL : RX_EOL, -1);
	} else {
		prefix = parse_literals(ps, &f);
		if (f < 0)
			return prefix;
		/* a closure follows f: SystemTap joins it to the run before
		 * it even when that is empty, so it is never a bare set */
		if (prefix < 0)
			prefix = node_new(ps, RX_EMPTY, -1);
	}
	f = parse_closures(ps, f);
	ps->depth = depth;
	return node_join(ps, RX_CAT, prefix, f);
}

static int parse_term(struct rx_parser *ps)
{
	int t = parse_factor(ps), c = cur_peek(ps);

	while (c && c != '|' && c != ')') {
		t = node_join(ps, RX_CAT, t, parse_factor(ps));
		c = cur_peek(ps);
	}
	return t;
}

/* The set a term contributes to the front of an alternation, or -1. */
static int term_front_set(struct rx_parser *ps, int t, int *rest)
{
	struct rx_node *n = &ps->nodes[t];

	*rest = -1;
	if (n->kind == RX_SET)
		return n->set;
	if (n->kind == RX_QUEST && n->from_quest) {
		*rest = node_new(ps, RX_EMPTY, -1);
		return ps->nodes[ps->nodes[t].child].set;
	}
	return -1;
}

/*
 * Alternatives.  SystemTap merges alternatives that are one bracket
 * expression, '.' or byte (or one of those with '?') into a single set
 * tried first; the order of the others is kept.  Only which groups are
 * set can tell the difference, and they follow SystemTap.
 */
static int parse_expr(struct rx_parser *ps)
{
	int t = parse_term(ps), front = -1, rest = -1, r, s;

	if (cur_peek(ps) != '|')
		return t;
	while (1) {
		if (t < 0)
			t = node_new(ps, RX_EMPTY, -1);
		s = term_front_set(ps, t, &r);
		if (s < 0) {
			rest = node_join(ps, RX_ALT, rest, t);
		} else {
			if (front < 0)
				front = set_new(ps);
			for (size_t i = 0; i < sizeof(rx_set); i++)
				ps->sets[front][i] |= ps->sets[s][i];
			if (r >= 0)
				rest = node_join(ps, RX_ALT, rest, r);
		}
		if (cur_peek(ps) != '|')
			break;
		cur_next(ps);
		t = parse_term(ps);
	}
	if (front < 0)
		return rest;
	front = node_set(ps, front);
	if (rest < 0)
		return front;
	if (ps->nodes[rest].kind == RX_ALT) {
		ps->nodes[front].next = ps->nodes[rest].child;
		ps->nodes[rest].child = front;
		return rest;
	}
	return node_join(ps, RX_ALT, front, rest);
}

/* The whole pattern as group 0. */
static int parse_pattern(struct rx_parser *ps)
{
	int body, root;

	ps->nsub = 1;
	body = parse_expr(ps);
	if (!ps->finished) {
		if (cur_peek(ps) == ')')
			rx_fail(ps, (int)ps->pos, "unbalanced ')'");
		rx_fail(ps, (int)ps->pos, "cannot parse the rest of the regex");
	}
	root = node_wrap(ps, RX_GROUP,
			 body < 0 ? node_new(ps, RX_EMPTY, -1) : body);
	ps->nodes[root].group = 0;
	return root;
}

/* ---- sizing ------------------------------------------------------------- */

struct rx_size {
	unsigned long insn;	/* instructions */
	unsigned long consume;	/* CHAR and CLASS among them */
};

static unsigned long sat_add(unsigned long a, unsigned long b)
{
	return a + b > RX_MAX_INSN ? RX_MAX_INSN + 1 : a + b;
}

static unsigned long sat_mul(unsigned long a, unsigned long b)
{
	if (a && b > (RX_MAX_INSN + 1) / a)
		return RX_MAX_INSN + 1;
	return a * b > RX_MAX_INSN ? RX_MAX_INSN + 1 : a * b;
}

static struct rx_size size_of(const struct rx_parser *ps, int n)
{
	const struct rx_node *nd = &ps->nodes[n];
	struct rx_size s = { 0, 0 }, c;
	int k;

	switch (nd->kind) {
	case RX_EMPTY:
		break;
	case RX_SET:
		s.insn = s.consume = 1;
		break;
	case RX_BOL:
	case RX_EOL:
		s.insn = 1;
		break;
	case RX_CAT:
	case RX_ALT:
		for (k = nd->child; k >= 0; k = ps->nodes[k].next) {
			c = size_of(ps, k);
			s.insn = sat_add(s.insn, c.insn);
			s.consume = sat_add(s.consume, c.consume);
			if (nd->kind == RX_ALT && ps->nodes[k].next >= 0)
				s.insn = sat_add(s.insn, 2);	/* SPLIT, JMP */
		}
		break;
	case RX_STAR:
	case RX_PLUS:
	case RX_QUEST:
	case RX_GROUP:
		s = size_of(ps, nd->child);
		s.insn = sat_add(s.insn, nd->kind == RX_STAR ||
				 nd->kind == RX_GROUP ? 2 : 1);
		break;
	case RX_REP:
		c = size_of(ps, nd->child);
		s.insn = sat_mul(c.insn, (unsigned long)nd->min);
		s.consume = sat_mul(c.consume, (unsigned long)nd->min);
		if (nd->max < 0) {
			s.insn = sat_add(s.insn, 1);	/* the loop */
		} else {
			unsigned long opt = (unsigned long)(nd->max - nd->min);

			s.insn = sat_add(s.insn, sat_mul(sat_add(c.insn, 1), opt));
			s.consume = sat_add(s.consume, sat_mul(c.consume, opt));
		}
		break;
	}
	return s;
}

/* ---- code generation ------------------------------------------------------ */

struct rx_gen {
	const struct rx_parser *ps;
	struct tap_regex_insn *prog;
	unsigned n;
	int *class_of_set;	/* set index -> class index, -1 */
	int nclasses;
	rx_set *classes;
};

static unsigned emit(struct rx_gen *g, int op, unsigned arg)
{
	struct tap_regex_insn *in = &g->prog[g->n];

	in->op = (unsigned short)op;
	in->arg = (unsigned short)arg;
	in->x = g->n + 1;
	in->y = 0;
	return g->n++;
}

/* A byte set: CHAR for one byte, else CLASS (identical sets shared). */
static void gen_set(struct rx_gen *g, int set)
{
	const unsigned char *s = g->ps->sets[set];
	int count = 0, byte = 0, k;

	for (int c = 0; c < 256; c++)
		if ((s[c >> 3] >> (c & 7)) & 1) {
			count++;
			byte = c;
		}
	if (count == 1) {
		emit(g, TAP_RE_CHAR, (unsigned)byte);
		return;
	}
	if (g->class_of_set[set] < 0) {
		for (k = 0; k < g->nclasses; k++)
			if (!memcmp(g->classes[k], s, sizeof(rx_set)))
				break;
		if (k == g->nclasses)
			memcpy(g->classes[g->nclasses++], s, sizeof(rx_set));
		g->class_of_set[set] = k;
	}
	emit(g, TAP_RE_CLASS, (unsigned)g->class_of_set[set]);
}

static void gen(struct rx_gen *g, int n);

static void gen_alt(struct rx_gen *g, int first)
{
	unsigned chain = 0, split, j;	/* pending JMPs, chained through x */
	int k;

	for (k = first; k >= 0; k = g->ps->nodes[k].next) {
		if (g->ps->nodes[k].next < 0) {
			gen(g, k);
			break;
		}
		split = emit(g, TAP_RE_SPLIT, 0);
		gen(g, k);
		j = emit(g, TAP_RE_JMP, 0);
		g->prog[j].x = chain;	/* link the pending jumps */
		chain = j + 1;		/* stored +1: 0 ends the chain */
		g->prog[split].y = g->n;
	}
	while (chain) {
		j = chain - 1;
		chain = g->prog[j].x;
		g->prog[j].x = g->n;
	}
}

/* child+ : the child, then back to it or on */
static void gen_plus(struct rx_gen *g, int child)
{
	unsigned start = g->n;

	gen(g, child);
	emit(g, TAP_RE_SPLIT, 0);
	g->prog[g->n - 1].x = start;
	g->prog[g->n - 1].y = g->n;
}

/*
 * child* is (child+)? and child{m,n} is n - m optional copies, each able
 * to skip to the m required ones, as SystemTap builds them; child{m,}
 * loops after its first copy.  The shapes matter for groups inside an
 * iteration that matches nothing: a loop back to an instruction already
 * visited at the same position is dropped, the way out is not.
 */
static void gen_repeat(struct rx_gen *g, const struct rx_node *nd)
{
	unsigned splits = 0, k, s;

	if (nd->max < 0) {	/* min >= 2: {0,} and {1,} are * and + */
		gen_plus(g, nd->child);
		for (int i = 1; i < nd->min; i++)
			gen(g, nd->child);
		return;
	}
	for (int i = nd->min; i < nd->max; i++) {
		s = emit(g, TAP_RE_SPLIT, 0);
		g->prog[s].y = splits;	/* chained +1 as in gen_alt */
		splits = s + 1;
		gen(g, nd->child);
	}
	while (splits) {
		k = splits - 1;
		splits = g->prog[k].y;
		g->prog[k].y = g->n;
	}
	for (int i = 0; i < nd->min; i++)
		gen(g, nd->child);
}

static void gen(struct rx_gen *g, int n)
{
	const struct rx_node *nd = &g->ps->nodes[n];
	unsigned s;
	int k;

	switch (nd->kind) {
	case RX_EMPTY:
		break;
	case RX_SET:
		gen_set(g, nd->set);
		break;
	case RX_BOL:
		emit(g, TAP_RE_BOL, 0);
		break;
	case RX_EOL:
		emit(g, TAP_RE_EOL, 0);
		break;
	case RX_CAT:
		for (k = nd->child; k >= 0; k = g->ps->nodes[k].next)
			gen(g, k);
		break;
	case RX_ALT:
		gen_alt(g, nd->child);
		break;
	case RX_STAR:
		s = emit(g, TAP_RE_SPLIT, 0);
		gen_plus(g, nd->child);
		g->prog[s].y = g->n;
		break;
	case RX_PLUS:
		gen_plus(g, nd->child);
		break;
	case RX_QUEST:
		s = emit(g, TAP_RE_SPLIT, 0);
		gen(g, nd->child);
		g->prog[s].y = g->n;
		break;
	case RX_REP:
		gen_repeat(g, nd);
		break;
	case RX_GROUP:
		emit(g, TAP_RE_SAVE, 2u * (unsigned)nd->group);
		gen(g, nd->child);
		emit(g, TAP_RE_SAVE, 2u * (unsigned)nd->group + 1);
		break;
	}
}

/* ---- the interface ---------------------------------------------------------- */

static void parser_free(struct rx_parser *ps)
{
	free(ps->nodes);
	free(ps->sets);
	free(ps);
}

void regex_free(struct regex_prog *p)
{
	if (!p)
		return;
	free(p->prog);
	free(p->classes);
	free(p->pattern);
	free(p);
}

/* Build the program of a parsed pattern; NULL after an error message. */
static struct regex_prog *build(struct rx_parser *ps, int root,
				const char *pattern)
{
	struct rx_size sz = size_of(ps, root);
	unsigned long ninsn = sz.insn + 1;	/* + MATCH */
	unsigned long need;
	struct regex_prog *p;
	struct rx_gen g = { .ps = ps };

	need = ninsn > RX_MAX_INSN ? ULONG_MAX :
		tap_regex_scratch_ints(ninsn, sz.consume, (unsigned long)ps->nsub) *
		sizeof(int);
	if (ninsn > RX_MAX_INSN)
		rx_fail(ps, -1, "regex too large (more than %u instructions)",
			RX_MAX_INSN);
	if (need > TAP_REGEX_SCRATCH)
		rx_fail(ps, -1, "regex too complex: matching it needs %lu bytes "
			"of state, more than TAP_REGEX_SCRATCH (%d)", need,
			TAP_REGEX_SCRATCH);
	p = calloc(1, sizeof(*p));
	if (!p)
		rx_fail(ps, -1, "out of memory");
	p->prog = calloc(ninsn, sizeof(*p->prog));
	p->classes = calloc((size_t)ps->nsets + 1, sizeof(rx_set));
	p->pattern = strdup(pattern);
	g.class_of_set = malloc(((size_t)ps->nsets + 1) * sizeof(int));
	if (!p->prog || !p->classes || !p->pattern || !g.class_of_set) {
		free(g.class_of_set);
		regex_free(p);
		rx_fail(ps, -1, "out of memory");
	}
	for (int i = 0; i < ps->nsets; i++)
		g.class_of_set[i] = -1;
	g.prog = p->prog;
	g.classes = p->classes;
	gen(&g, root);
	emit(&g, TAP_RE_MATCH, 0);
	g.prog[g.n - 1].x = 0;
	free(g.class_of_set);

	p->re.pattern = p->pattern;
	p->re.prog = p->prog;
	p->re.ninsn = g.n;
	p->re.classes = (const unsigned char (*)[32])p->classes;
	p->re.nclasses = (unsigned)g.nclasses;
	p->re.nsub = (unsigned)ps->nsub;
	p->re.nconsume = (unsigned)sz.consume;
	p->re.scratch = (unsigned)need;
	return p;
}

struct regex_prog *regex_compile(const char *pattern, char *err,
				 size_t errsize)
{
	/* on the heap: what the parser changes must survive its longjmp */
	struct rx_parser *ps = calloc(1, sizeof(*ps));
	struct regex_prog *p;

	if (errsize)
		err[0] = '\0';
	if (!ps) {
		if (errsize)
			snprintf(err, errsize, "regex compilation error: out of memory");
		return NULL;
	}
	ps->in = pattern;
	ps->len = (unsigned)strlen(pattern);
	ps->finished = ps->len == 0;
	ps->err = err;
	ps->errsize = errsize;
	if (setjmp(ps->fail)) {
		parser_free(ps);
		return NULL;
	}
	p = build(ps, parse_pattern(ps), pattern);
	parser_free(ps);
	return p;
}

bool regex_check(const char *pattern, char *err, size_t errsize)
{
	struct regex_prog *p = regex_compile(pattern, err, errsize);

	regex_free(p);
	return p != NULL;
}

unsigned regex_ngroups(const struct regex_prog *p)
{
	return p->re.nsub;
}

const struct tap_regex *regex_program(const struct regex_prog *p)
{
	return &p->re;
}

static void emit_c_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\' || c == '?')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\%03o", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static const char *op_name(unsigned op)
{
	static const char *const names[] = {
		[TAP_RE_CHAR] = "TAP_RE_CHAR", [TAP_RE_CLASS] = "TAP_RE_CLASS",
		[TAP_RE_SPLIT] = "TAP_RE_SPLIT", [TAP_RE_JMP] = "TAP_RE_JMP",
		[TAP_RE_SAVE] = "TAP_RE_SAVE", [TAP_RE_BOL] = "TAP_RE_BOL",
		[TAP_RE_EOL] = "TAP_RE_EOL", [TAP_RE_MATCH] = "TAP_RE_MATCH",
	};

	return op < sizeof(names) / sizeof(names[0]) && names[op] ? names[op] : "0";
}

void regex_emit_c(FILE *out, const char *cname, const struct regex_prog *p)
{
	const struct tap_regex *re = &p->re;

	fprintf(out, "static const struct tap_regex_insn %s_prog[%u] = {\n",
		cname, re->ninsn);
	for (unsigned i = 0; i < re->ninsn; i++) {
		const struct tap_regex_insn *in = &re->prog[i];

		fprintf(out, "\t{ %s, %u, %u, %u },\n", op_name(in->op),
			in->arg, in->x, in->y);
	}
	fprintf(out, "};\n");
	if (re->nclasses) {
		fprintf(out, "static const unsigned char %s_classes[%u][32] = {\n",
			cname, re->nclasses);
		for (unsigned k = 0; k < re->nclasses; k++) {
			fprintf(out, "\t{");
			for (int b = 0; b < 32; b++)
				fprintf(out, "%s0x%02x", b ? "," : " ",
					re->classes[k][b]);
			fprintf(out, " },\n");
		}
		fprintf(out, "};\n");
	}
	fprintf(out, "static const struct tap_regex %s = {\n\t.pattern = ", cname);
	emit_c_string(out, re->pattern);
	fprintf(out, ",\n\t.prog = %s_prog,\n\t.ninsn = %u,\n", cname, re->ninsn);
	if (re->nclasses)
		fprintf(out, "\t.classes = %s_classes,\n", cname);
	else
		fprintf(out, "\t.classes = 0,\n");
	fprintf(out, "\t.nclasses = %u,\n\t.nsub = %u,\n\t.nconsume = %u,\n"
		"\t.scratch = %u,\n};\n", re->nclasses, re->nsub, re->nconsume,
		re->scratch);
}
