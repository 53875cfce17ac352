/* SDT argument descriptors (see sdt_arg.h): a small recursive-descent
 * reader of the assembler operands gcc writes for <sys/sdt.h>. */
#include "sdt_arg.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The general registers by DWARF number: 64, 32, 16 and 8-bit names. */
static const char *const reg_names[17][4] = {
	{ "rax", "eax", "ax", "al" },	{ "rdx", "edx", "dx", "dl" },
	{ "rcx", "ecx", "cx", "cl" },	{ "rbx", "ebx", "bx", "bl" },
	{ "rsi", "esi", "si", "sil" },	{ "rdi", "edi", "di", "dil" },
	{ "rbp", "ebp", "bp", "bpl" },	{ "rsp", "esp", "sp", "spl" },
	{ "r8", "r8d", "r8w", "r8b" },	{ "r9", "r9d", "r9w", "r9b" },
	{ "r10", "r10d", "r10w", "r10b" }, { "r11", "r11d", "r11w", "r11b" },
	{ "r12", "r12d", "r12w", "r12b" }, { "r13", "r13d", "r13w", "r13b" },
	{ "r14", "r14d", "r14w", "r14b" }, { "r15", "r15d", "r15w", "r15b" },
	{ "rip", "eip", "ip", "" },
};

bool sdt_register(const char *name, size_t len, unsigned *regno, int *bytes)
{
	static const int widths[4] = { 8, 4, 2, 1 };

	for (unsigned r = 0; r < 17; r++)
		for (int w = 0; w < 4; w++) {
			const char *rn = reg_names[r][w];

			if (*rn && strlen(rn) == len && !memcmp(rn, name, len)) {
				*regno = r;
				*bytes = widths[w];
				return true;
			}
		}
	return false;
}

/* A cursor over one descriptor, and where it failed. */
struct cursor {
	const char *p, *end;
	const char *text;	/* the whole descriptor, for messages */
	size_t len;
	char *err;
};

static bool at_end(const struct cursor *c)
{
	return c->p >= c->end;
}

static bool peek(const struct cursor *c, char ch)
{
	return !at_end(c) && *c->p == ch;
}

static bool fail(struct cursor *c, const char *why)
{
	if (!c->err)
		c->err = xasprintf("cannot parse SDT argument '%.*s': %s", (int)c->len, c->text,
				   why);
	return false;
}

/* A decimal or 0x hexadecimal number with an optional sign. */
static bool number(struct cursor *c, int64_t *v)
{
	char buf[32];
	size_t n = 0;
	char *endp;
	long long ll;

	while (!at_end(c) && n < sizeof(buf) - 1 &&
	       (isalnum((unsigned char)*c->p) || ((*c->p == '-' || *c->p == '+') && n == 0)))
		buf[n++] = *c->p++;
	buf[n] = '\0';
	if (n == 0 || (n == 1 && (buf[0] == '-' || buf[0] == '+')))
		return fail(c, "a number was expected");
	errno = 0;
	ll = strtoll(buf, &endp, 0);
	if (*endp || errno == ERANGE) {
		/* 64-bit unsigned constants are written as such */
		unsigned long long ull;

		errno = 0;
		ull = strtoull(buf, &endp, 0);
		if (*endp || errno == ERANGE || buf[0] == '-')
			return fail(c, "bad number");
		ll = (long long)ull;
	}
	*v = ll;
	return true;
}

/* "%NAME": a general register. */
static bool reg(struct cursor *c, unsigned *regno, int *bytes)
{
	const char *start;

	if (!peek(c, '%'))
		return fail(c, "a register was expected");
	start = ++c->p;
	while (!at_end(c) && isalnum((unsigned char)*c->p))
		c->p++;
	if (!sdt_register(start, (size_t)(c->p - start), regno, bytes)) {
		char *why = xasprintf("unknown register '%%%.*s'", (int)(c->p - start), start);

		fail(c, why);
		free(why);
		return false;
	}
	return true;
}

/* "(%base)", "(%base,%index)" or "(%base,%index,scale)" after a
 * displacement. */
static bool mem_operand(struct cursor *c, struct sdt_arg *a)
{
	int bytes;

	c->p++;	/* '(' */
	a->kind = SDT_ARG_MEM;
	if (!reg(c, &a->reg, &bytes))
		return false;
	if (bytes != 8)
		return fail(c, "an address register must be a 64-bit one");
	if (peek(c, ',')) {
		int64_t scale = 1;

		c->p++;
		if (!reg(c, &a->index_reg, &bytes))
			return false;
		if (bytes != 8 || a->index_reg == SDT_REG_RIP)
			return fail(c, "an index register must be a 64-bit general one");
		if (peek(c, ',')) {
			c->p++;
			if (!number(c, &scale))
				return false;
			if (scale != 1 && scale != 2 && scale != 4 && scale != 8)
				return fail(c, "the scale must be 1, 2, 4 or 8");
		}
		a->has_index = true;
		a->scale = (unsigned)scale;
	}
	if (!peek(c, ')'))
		return fail(c, "')' was expected");
	c->p++;
	return true;
}

/* "NAME", "NAME+N", "NAME-N", each optionally "(%rip)": a global. */
static bool symbol_operand(struct cursor *c, struct sdt_arg *a)
{
	const char *start = c->p;

	while (!at_end(c) && (isalnum((unsigned char)*c->p) || *c->p == '_' || *c->p == '.'))
		c->p++;
	a->kind = SDT_ARG_SYMBOL;
	a->symbol = xstrndup(start, (size_t)(c->p - start));
	if (peek(c, '+') || peek(c, '-')) {
		if (!number(c, &a->value))
			return false;
	}
	if (peek(c, '(')) {
		unsigned r;
		int bytes;

		c->p++;
		if (!reg(c, &r, &bytes))
			return false;
		if (r != SDT_REG_RIP || bytes != 8 || !peek(c, ')'))
			return fail(c, "a global may only be addressed relative to %rip");
		c->p++;
	}
	return true;
}

static bool operand(struct cursor *c, struct sdt_arg *a)
{
	if (peek(c, '$')) {
		c->p++;
		a->kind = SDT_ARG_CONST;
		return number(c, &a->value);
	}
	if (peek(c, '%')) {
		a->kind = SDT_ARG_REG;
		return reg(c, &a->reg, &a->reg_size);
	}
	if (peek(c, '('))
		return mem_operand(c, a);
	if (!at_end(c) && (isalpha((unsigned char)*c->p) || *c->p == '_'))
		return symbol_operand(c, a);
	if (!number(c, &a->value))
		return false;
	if (!peek(c, '('))
		return fail(c, "'(' was expected after a displacement");
	return mem_operand(c, a);
}

/* "N@": the size and sign (negative: signed); "Nf@" a floating-point
 * value of N bytes, whose bits SystemTap gives unsigned ($argN of a
 * double is its IEEE bits as a long). */
static bool size_prefix(struct cursor *c, struct sdt_arg *a)
{
	const char *at = memchr(c->p, '@', (size_t)(c->end - c->p));
	int64_t v;
	struct cursor num = *c;

	if (!at) {
		/* assembler-written markers may leave it out: SystemTap then
		 * reads 8 unsigned bytes */
		a->size = 8;
		return true;
	}
	num.end = at;
	if (at > c->p + 1 && at[-1] == 'f') {
		num.end = at - 1;
		a->is_float = true;
	}
	if (!number(&num, &v) || num.p != num.end) {
		c->err = num.err;
		return fail(c, "bad size prefix");
	}
	if (v < 0) {
		a->is_signed = !a->is_float;
		v = -v;
	}
	if (v != 1 && v != 2 && v != 4 && v != 8)
		return fail(c, "the size must be 1, 2, 4 or 8 bytes");
	a->size = (int)v;
	c->p = at + 1;
	return true;
}

int sdt_arg_parse(const char *text, size_t len, struct sdt_arg *out, char **err)
{
	struct cursor c = { .p = text, .end = text + len, .text = text, .len = len };

	memset(out, 0, sizeof(*out));
	if (size_prefix(&c, out) && operand(&c, out) && (at_end(&c) || fail(&c, "trailing text")))
		return 0;
	*err = c.err;
	free(out->symbol);
	out->symbol = NULL;
	return -1;
}

int sdt_args_parse(const char *text, struct sdt_arg **out, size_t *n, char **err)
{
	const char *p = text;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	for (;;) {
		const char *start;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			return 0;
		start = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*n == cap) {
			cap = cap ? 2 * cap : 4;
			*out = xrealloc(*out, cap * sizeof(**out));
		}
		if (sdt_arg_parse(start, (size_t)(p - start), &(*out)[*n], err) != 0) {
			sdt_args_free(*out, *n);
			*out = NULL;
			*n = 0;
			return -1;
		}
		(*n)++;
	}
}

void sdt_args_free(struct sdt_arg *args, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(args[i].symbol);
	free(args);
}
