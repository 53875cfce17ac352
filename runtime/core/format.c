// SPDX-License-Identifier: GPL-2.0
/*
 * SystemTap's printf engine; see format.h for the rules it follows.
 *
 * One engine serves both SystemTap passes over a format: counting (how
 * many bytes printf needs, widths clamped to a fixed limit) and writing
 * (the bytes, widths clamped to the space left).  The struct fmt_out below
 * tells them apart; every emitter counts the bytes it produces and stores
 * only those that fit, so the two passes agree whenever nothing is cut.
 */
#include "format.h"

#define TAP_FMT_INT_MAX	0x7fffffff
#define TAP_FMT_CHUNK	64	/* bytes %m and %M read at a time */

static const char tap_digits_lower[] = "0123456789abcdef";
static const char tap_digits_upper[] = "0123456789ABCDEF";

static bool tap_fmt_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

int tap_fmt_next(const char **pos, struct tap_fmt_dir *dir, const char **err)
{
	const char *p = *pos;
	const char *start = p;
	u32 n;

	memset(dir, 0, sizeof(*dir));
	if (!*p)
		return 0;

	/* Literal text runs up to a '%' that starts a directive. */
	while (*p && *p != '%')
		p++;
	if (*p == '%' && (p[1] == '%' || p[1] == '\0')) {
		/* "%%", or a lone '%' at the end: keep one '%' as text. */
		dir->lit = start;
		dir->lit_len = (int)(p + 1 - start);
		*pos = p[1] ? p + 2 : p + 1;
		return 1;
	}
	if (p > start) {
		dir->lit = start;
		dir->lit_len = (int)(p - start);
		*pos = p;
		return 1;
	}

	/* A directive.  SystemTap takes at most one flag. */
	p++;
	switch (*p) {
	case '0':
		dir->flags |= TAP_FMT_ZEROPAD;
		p++;
		break;
	case '+':
		dir->flags |= TAP_FMT_PLUS;
		p++;
		break;
	case '-':
		dir->flags |= TAP_FMT_LEFT;
		p++;
		break;
	case ' ':
		dir->flags |= TAP_FMT_SPACE;
		p++;
		break;
	case '#':
		dir->flags |= TAP_FMT_SPECIAL;
		p++;
		break;
	}
	if (!*p)
		goto incomplete;

	if (*p == '*') {
		dir->width_type = TAP_FMT_DYNAMIC;
		p++;
	} else if (tap_fmt_isdigit(*p)) {
		/* Unsigned 32-bit arithmetic, wrapping as SystemTap's does. */
		n = 0;
		do
			n = n * 10 + (u32)(*p++ - '0');
		while (tap_fmt_isdigit(*p));
		dir->width_type = TAP_FMT_STATIC;
		dir->width = (int)n;
	}
	if (!*p)
		goto incomplete;

	if (*p == '.') {
		p++;
		if (!*p)
			goto incomplete;
		if (*p == '*') {
			dir->prec_type = TAP_FMT_DYNAMIC;
			p++;
		} else if (tap_fmt_isdigit(*p)) {
			n = 0;
			do
				n = n * 10 + (u32)(*p++ - '0');
			while (tap_fmt_isdigit(*p));
			dir->prec_type = TAP_FMT_STATIC;
			dir->prec = (int)n;
		}
		/* Anything else leaves the precision unspecified. */
	}
	if (!*p)
		goto incomplete;

	if (*p == 'l')
		p++;
	if (!*p)
		goto incomplete;

	switch (*p) {
	case 'b':
	case 'c':
	case 's':
	case 'm':
	case 'M':
		break;
	case 'd':
	case 'i':
		dir->flags |= TAP_FMT_SIGN;
		dir->base = 10;
		break;
	case 'u':
		dir->base = 10;
		break;
	case 'o':
		dir->base = 8;
		break;
	case 'X':
		dir->flags |= TAP_FMT_LARGE;
		dir->base = 16;
		break;
	case 'x':
		dir->base = 16;
		break;
	case 'p':
		/* Since SystemTap 1.3, %p is %#x. */
		dir->flags |= TAP_FMT_SPECIAL;
		dir->base = 16;
		break;
	default:
		*err = TAP_FMT_ERR_CONVERSION;
		*pos = p;
		return -1;
	}
	dir->conv = *p++;
	*pos = p;
	return 1;

incomplete:
	/*
	 * The format ended inside a directive.  SystemTap silently drops one
	 * that has nothing yet ("%." or "%l") and rejects the rest.
	 */
	*pos = p;
	if (dir->flags || dir->width_type || dir->prec_type) {
		*err = TAP_FMT_ERR_TRAILING;
		return -1;
	}
	return 0;
}

int tap_format_check(const char *fmt, enum tap_arg_kind *kinds,
		     int max_kinds, const char **err, int *err_off)
{
	const char *p = fmt;
	const char *msg = NULL;
	struct tap_fmt_dir dir;
	int count = 0;
	int rc;

	while ((rc = tap_fmt_next(&p, &dir, &msg)) > 0) {
		if (!dir.conv)
			continue;
		if (dir.width_type == TAP_FMT_DYNAMIC) {
			if (kinds && count < max_kinds)
				kinds[count] = TAP_ARG_LONG;
			count++;
		}
		if (dir.prec_type == TAP_FMT_DYNAMIC) {
			if (kinds && count < max_kinds)
				kinds[count] = TAP_ARG_LONG;
			count++;
		}
		if (kinds && count < max_kinds)
			kinds[count] = dir.conv == 's' ? TAP_ARG_STRING
						       : TAP_ARG_LONG;
		count++;
	}
	if (rc < 0) {
		if (err)
			*err = msg;
		if (err_off)
			*err_off = (int)(p - fmt);
		return -1;
	}
	return count;
}

/*
 * Where output goes.  @pos counts every byte produced, stored or not;
 * bytes are stored only at indexes up to @end.  Counting has no buffer
 * and an end beyond reach.
 */
struct fmt_out {
	char *buf;
	s64 pos;
	s64 end;
	int limit;		/* counting: the clamp for widths */
	const struct tap_mem_ops *mem;
};

static bool fmt_counting(const struct fmt_out *o)
{
	return !o->buf;
}

static void fmt_put(struct fmt_out *o, char c)
{
	if (o->buf && o->pos <= o->end)
		o->buf[o->pos] = c;
	o->pos++;
}

static void fmt_pad(struct fmt_out *o, char c, s64 n)
{
	s64 i;

	if (n <= 0)
		return;
	if (o->buf)
		for (i = 0; i < n && o->pos + i <= o->end; i++)
			o->buf[o->pos + i] = c;
	o->pos += n;
}

static void fmt_bytes(struct fmt_out *o, const char *s, s64 n)
{
	s64 i;

	if (o->buf)
		for (i = 0; i < n && o->pos + i <= o->end; i++)
			o->buf[o->pos + i] = s[i];
	o->pos += n;
}

/*
 * A width or precision as SystemTap clamps it: to [0, limit] when
 * counting, to [0, the space left including the last byte] when writing.
 * As in SystemTap, a negative upper bound wins.
 */
static int fmt_clamp_field(const struct fmt_out *o, int v)
{
	s64 hi = fmt_counting(o) ? o->limit : o->end - o->pos + 1;

	if (v < 0)
		v = 0;
	if (v > hi)
		return (int)(hi < -TAP_FMT_INT_MAX ? -TAP_FMT_INT_MAX : hi);
	return v;
}

/* An integer, following SystemTap's number() exactly. */
static void fmt_number(struct fmt_out *o, u64 num, int base, int size, int prec,
		       int type)
{
	const char *digits = (type & TAP_FMT_LARGE) ? tap_digits_upper
						    : tap_digits_lower;
	char tmp[24];		/* 22 octal digits hold 64 bits */
	char sign = 0;
	int i = 0;

	if (type & TAP_FMT_LEFT)
		type &= ~TAP_FMT_ZEROPAD;
	if (type & TAP_FMT_SIGN) {
		if ((s64)num < 0) {
			sign = '-';
			num = 0 - num;
			size--;
		} else if (type & TAP_FMT_PLUS) {
			sign = '+';
			size--;
		} else if (type & TAP_FMT_SPACE) {
			sign = ' ';
			size--;
		}
	}
	if (type & TAP_FMT_SPECIAL) {
		if (base == 16)
			size -= 2;
		else if (base == 8)
			size--;
	}
	if (num == 0) {
		tmp[i++] = '0';
	} else {
		while (num != 0) {
			tmp[i++] = digits[num % (unsigned int)base];
			num /= (unsigned int)base;
		}
	}
	if (i > prec)
		prec = i;
	size -= prec;
	if (!(type & (TAP_FMT_ZEROPAD | TAP_FMT_LEFT))) {
		fmt_pad(o, ' ', size);
		size = 0;
	}
	if (sign)
		fmt_put(o, sign);
	if (type & TAP_FMT_SPECIAL) {
		if (base == 8) {
			fmt_put(o, '0');
		} else if (base == 16) {
			fmt_put(o, '0');
			fmt_put(o, (type & TAP_FMT_LARGE) ? 'X' : 'x');
		}
	}
	if (!(type & TAP_FMT_LEFT)) {
		fmt_pad(o, (type & TAP_FMT_ZEROPAD) ? '0' : ' ', size);
		size = 0;
	}
	fmt_pad(o, '0', prec - i);
	while (i-- > 0)
		fmt_put(o, tmp[i]);
	fmt_pad(o, ' ', size);
}

/* The short escape for @c, or 0 if it takes three octal digits. */
static char fmt_char_escape(u8 c)
{
	switch (c) {
	case '\a':
		return 'a';
	case '\b':
		return 'b';
	case '\f':
		return 'f';
	case '\n':
		return 'n';
	case '\r':
		return 'r';
	case '\t':
		return 't';
	case '\v':
		return 'v';
	case '\'':
		return '\'';
	case '\\':
		return '\\';
	}
	return 0;
}

/* %c: one byte; with '#', escaped as in a C character literal. */
static void fmt_char(struct fmt_out *o, u8 c, int width, int flags)
{
	int size = 1;
	char esc = 0;

	if ((flags & TAP_FMT_SPECIAL) &&
	    (c < 0x20 || c > 0x7e || c == '\'' || c == '\\')) {
		esc = fmt_char_escape(c);
		size = esc ? 2 : 4;
	}
	if (!(flags & TAP_FMT_LEFT))
		fmt_pad(o, ' ', width - size);
	if (size == 1) {
		fmt_put(o, (char)c);
	} else {
		fmt_put(o, '\\');
		if (esc) {
			fmt_put(o, esc);
		} else {
			fmt_put(o, (char)('0' + ((c >> 6) & 3)));
			fmt_put(o, (char)('0' + ((c >> 3) & 7)));
			fmt_put(o, (char)('0' + (c & 7)));
		}
	}
	if (flags & TAP_FMT_LEFT)
		fmt_pad(o, ' ', width - size);
}

/*
 * The bytes of %m (raw) or %M (hex pairs) at @addr.  Only the bytes whose
 * output SystemTap would store are read, so a field cut off by the end of
 * the buffer does not touch memory past what is shown.
 */
static int fmt_memory(struct fmt_out *o, u64 addr, s64 len, char conv,
		      int flags)
{
	const char *hex = tap_digits_lower;
	u8 chunk[TAP_FMT_CHUNK];
	s64 room, want, done, i;
	size_t n;
	int rc;

	if (fmt_counting(o)) {
		o->pos += conv == 'M' ? 2 * len : len;
		return 0;
	}
	room = o->end - o->pos + 1;
	if (room < 0)
		room = 0;
	/* %M stores a pair only while a byte remains after its first digit. */
	want = conv == 'M' ? room / 2 : room;
	if (want > len)
		want = len;
	for (done = 0; done < want; done += (s64)n) {
		n = (size_t)(want - done < TAP_FMT_CHUNK ? want - done
							 : TAP_FMT_CHUNK);
		if (!o->mem || !o->mem->read)
			return -EFAULT;
		rc = o->mem->read(o->mem->priv, chunk, addr + (u64)done, n,
				  flags & TAP_FMT_SPECIAL);
		if (rc)
			return rc < 0 ? rc : -EFAULT;
		for (i = 0; i < (s64)n; i++) {
			if (conv == 'M') {
				o->buf[o->pos++] = hex[chunk[i] >> 4];
				o->buf[o->pos++] = hex[chunk[i] & 15];
			} else {
				o->buf[o->pos++] = (char)chunk[i];
			}
		}
	}
	/* The rest is counted but not stored, as it would not fit. */
	o->pos += (conv == 'M' ? 2 : 1) * (len - want);
	return 0;
}

/* %s, %m and %M, following SystemTap's _stp_vsprint_memory(). */
static int fmt_string(struct fmt_out *o, const struct tap_arg *arg, int width,
		      int prec, char conv, int flags)
{
	const char *s = NULL;
	s64 len, actlen, cap;
	int rc = 0;

	if (conv == 's') {
		s = arg->str ? arg->str : "<NULL>";
		/*
		 * An unspecified precision measures up to the limit; past the
		 * space left, a longer measure changes nothing shown.
		 */
		cap = fmt_counting(o) ? o->limit : o->end + 2;
		if (prec >= 0 && prec < cap)
			cap = prec;
		len = (s64)strnlen(s, (size_t)cap);
	} else {
		len = prec > 0 ? prec : 1;
	}
	actlen = conv == 'M' ? 2 * len : len;

	if (!(flags & TAP_FMT_LEFT))
		fmt_pad(o, ' ', width - actlen);
	if (conv == 's')
		fmt_bytes(o, s, len);
	else
		rc = fmt_memory(o, (u64)arg->num, len, conv, flags);
	if (rc)
		return rc;
	if (flags & TAP_FMT_LEFT)
		fmt_pad(o, ' ', width - actlen);
	if (flags & TAP_FMT_ZEROPAD)
		fmt_put(o, '\0');
	return 0;
}

/*
 * %b: the value's low 1, 2, 4 or 8 bytes in native order.  The precision
 * picks how many and the width sizes the field; each defaults to the
 * other, and both to 8.  A value that does not fit whole is left out.
 */
static void fmt_binary(struct fmt_out *o, s64 num, int width, int prec,
		       int flags)
{
	union {
		s8 b1;
		s16 b2;
		s32 b4;
		s64 b8;
		char bytes[8];
	} v;

	if (prec != 1 && prec != 2 && prec != 4 && prec != 8)
		prec = -1;
	if (width == -1) {
		if (prec == -1)
			prec = 8;
		width = prec;
	} else if (prec == -1) {
		prec = width;
		if (prec != 1 && prec != 2 && prec != 4)
			prec = 8;
	}

	if (!(flags & TAP_FMT_LEFT))
		fmt_pad(o, '\0', width - prec);
	if (o->pos + prec - 1 <= o->end) {
		switch (prec) {
		case 1:
			v.b1 = (s8)num;
			break;
		case 2:
			v.b2 = (s16)num;
			break;
		case 4:
			v.b4 = (s32)num;
			break;
		default:
			v.b8 = num;
			break;
		}
		fmt_bytes(o, v.bytes, prec);
	}
	if (flags & TAP_FMT_LEFT)
		fmt_pad(o, '\0', width - prec);
}

/* Take the next argument, which must be of @kind. */
static const struct tap_arg *fmt_next_arg(const struct tap_arg *args, int nargs,
				      int *ix, enum tap_arg_kind kind)
{
	const struct tap_arg *a;

	if (*ix >= nargs)
		return NULL;
	a = &args[(*ix)++];
	return a->kind == kind ? a : NULL;
}

/* A width or precision: -1 if unspecified, else clamped. */
static int fmt_field_value(const struct fmt_out *o, u8 type, int value,
		       const struct tap_arg *args, int nargs, int *ix,
		       bool *bad)
{
	const struct tap_arg *a;

	if (type == TAP_FMT_NONE)
		return -1;
	if (type == TAP_FMT_DYNAMIC) {
		a = fmt_next_arg(args, nargs, ix, TAP_ARG_LONG);
		if (!a) {
			*bad = true;
			return -1;
		}
		/* SystemTap converts the 64-bit value to int first. */
		value = (int)(u32)(u64)a->num;
	}
	return fmt_clamp_field(o, value);
}

static int fmt_run(struct fmt_out *o, const char *fmt,
		   const struct tap_arg *args, int nargs)
{
	const char *p = fmt;
	const char *err;
	struct tap_fmt_dir dir;
	const struct tap_arg *a;
	int ix = 0;
	int width, prec;
	bool bad = false;
	int rc;

	while ((rc = tap_fmt_next(&p, &dir, &err)) > 0) {
		if (!dir.conv) {
			fmt_bytes(o, dir.lit, dir.lit_len);
			continue;
		}
		width = fmt_field_value(o, dir.width_type, dir.width, args,
					nargs, &ix, &bad);
		prec = fmt_field_value(o, dir.prec_type, dir.prec, args,
				       nargs, &ix, &bad);
		a = fmt_next_arg(args, nargs, &ix,
			     dir.conv == 's' ? TAP_ARG_STRING : TAP_ARG_LONG);
		if (bad || !a)
			return -EINVAL;

		switch (dir.conv) {
		case 's':
		case 'm':
		case 'M':
			rc = fmt_string(o, a, width, prec, dir.conv, dir.flags);
			if (rc)
				return rc;
			break;
		case 'c':
			fmt_char(o, (u8)a->num, width, dir.flags);
			break;
		case 'b':
			fmt_binary(o, a->num, width, prec, dir.flags);
			break;
		default:
			fmt_number(o, (u64)a->num, dir.base, width, prec,
				   dir.flags);
			break;
		}
	}
	if (rc < 0 || ix != nargs)
		return -EINVAL;
	return 0;
}

int tap_format_len(const char *fmt, const struct tap_arg *args, int nargs,
		   int limit)
{
	struct fmt_out o = {
		.buf = NULL,
		.pos = 0,
		.end = (s64)1 << 62,
		.limit = limit < 0 ? 0 : limit,
		.mem = NULL,
	};
	int rc;

	rc = fmt_run(&o, fmt, args, nargs);
	if (rc)
		return rc;
	return o.pos > TAP_FMT_INT_MAX ? TAP_FMT_INT_MAX : (int)o.pos;
}

int tap_format(char *buf, size_t size, const char *fmt,
	       const struct tap_arg *args, int nargs,
	       const struct tap_mem_ops *mem)
{
	s64 cap = size > TAP_FMT_INT_MAX ? TAP_FMT_INT_MAX : (s64)size;
	char dummy;
	struct fmt_out o = {
		.buf = buf,
		.pos = 0,
		.end = cap - 1,
		.limit = 0,
		.mem = mem,
	};
	s64 stored;
	int rc;

	/* A zero-sized buffer stores nothing but still checks the format. */
	if (!size)
		o.buf = &dummy;
	rc = fmt_run(&o, fmt, args, nargs);
	stored = o.pos < o.end ? o.pos : o.end;
	if (stored < 0)
		stored = 0;
	if (size)
		buf[stored] = '\0';
	return rc ? rc : (int)stored;
}
