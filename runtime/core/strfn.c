// SPDX-License-Identifier: GPL-2.0
/*
 * SystemTap's string tapset functions; see strings.h for what each one
 * returns.  Nothing here allocates or recurses, and every loop is bounded
 * by an input's NUL or a caller-given size.
 */
#include "strfn.h"

#define TAP_STR_INT_MAX	0x7fffffff

/* strlcpy() semantics: copy what fits, always terminate. */
static size_t str_copy(char *out, size_t size, const char *s, size_t n)
{
	if (!size)
		return 0;
	if (n > size - 1)
		n = size - 1;
	memcpy(out, s, n);
	out[n] = '\0';
	return n;
}

s64 tap_str_length(const char *s, size_t size)
{
	return (s64)strnlen(s, size);
}

size_t tap_substr(char *out, size_t size, const char *str, s64 start,
		  s64 length)
{
	/* SystemTap: strlcpy(out, str + start, clamp(length + 1, 0, size)). */
	s64 n = (s64)((u64)length + 1);
	s64 len = tap_str_length(str, size);

	if (size)
		out[0] = '\0';
	if (start < 0 || start >= len || n <= 0)
		return 0;
	if ((u64)n > size)
		n = (s64)size;
	return str_copy(out, (size_t)n, str + start,
			    strnlen(str + start, (size_t)n));
}

s64 tap_stringat(const char *str, s64 pos, const char **err)
{
	if (pos < 0 || pos >= (s64)strlen(str)) {
		*err = TAP_STR_ERR_POSITION;
		return 0;
	}
	return (s8)str[pos];
}

int tap_isinstr(const char *s1, const char *s2)
{
	return strstr(s1, s2) != NULL;
}

s64 tap_strpos(const char *s1, const char *s2)
{
	const char *p = strstr(s1, s2);

	return p ? (s64)(p - s1) : -1;
}

/* Append @n bytes of @s to the string of @*len bytes in @out. */
static void str_append(char *out, size_t size, size_t *len, const char *s,
		   size_t n)
{
	if (*len + 1 >= size)
		return;
	if (n > size - 1 - *len)
		n = size - 1 - *len;
	memcpy(out + *len, s, n);
	*len += n;
	out[*len] = '\0';
}

size_t tap_str_replace(char *out, size_t size, const char *prnt,
		       const char *srch, const char *rplc)
{
	size_t srch_len = strlen(srch);
	size_t rplc_len = strlen(rplc);
	size_t len = 0;
	const char *p = prnt;
	const char *hit;

	if (!size)
		return 0;
	out[0] = '\0';
	if (!srch_len)
		return str_copy(out, size, prnt, strlen(prnt));
	while ((hit = strstr(p, srch)) != NULL) {
		str_append(out, size, &len, p, (size_t)(hit - p));
		str_append(out, size, &len, rplc, rplc_len);
		p = hit + srch_len;
	}
	str_append(out, size, &len, p, strlen(p));
	return len;
}

s64 tap_strtol(const char *str, s64 base)
{
	unsigned int b = (unsigned int)base;
	const char *s = str;
	u64 res = 0;
	unsigned int c, lc, val;
	bool neg = false;

	if (*s == '-') {
		neg = true;
		s++;
	}
	/* The kernel's _parse_integer_fixup_radix(). */
	if (b == 0) {
		if (s[0] == '0') {
			lc = (unsigned char)s[2] | 0x20;
			if (((unsigned char)s[1] | 0x20) == 'x' &&
			    ((s[2] >= '0' && s[2] <= '9') ||
			     (lc >= 'a' && lc <= 'f')))
				b = 16;
			else
				b = 8;
		} else {
			b = 10;
		}
	}
	if (b == 16 && s[0] == '0' && ((unsigned char)s[1] | 0x20) == 'x')
		s += 2;
	/* The kernel's _parse_integer(): hex digits at most, wrapping. */
	for (;; s++) {
		c = (unsigned char)*s;
		lc = c | 0x20;
		if (c >= '0' && c <= '9')
			val = c - '0';
		else if (lc >= 'a' && lc <= 'f')
			val = lc - 'a' + 10;
		else
			break;
		if (val >= b)
			break;
		res = res * b + val;
	}
	return neg ? (s64)(0 - res) : (s64)res;
}

int tap_isdigit(const char *str)
{
	return str[0] >= '0' && str[0] <= '9';
}

/*
 * Decode one UTF-8 character of the @size bytes at @in into @c.  Returns
 * the bytes it takes; anything but a valid, shortest 2- to 4-byte
 * sequence of a code point up to 0x10FFFF outside the surrogates is one
 * byte, given verbatim.  Reads stop at the first byte that is not a
 * continuation, so a NUL-terminated string is never read past its NUL.
 */
static int str_decode_utf8(const char *in, int size, int *c)
{
	u8 b = (u8)in[0];
	u8 b2;
	int n, i, v;

	size--;
	if ((b & 0xe0) == 0xc0 && size >= 1) {
		n = 2;
		v = b & 0x1f;
	} else if ((b & 0xf0) == 0xe0 && size >= 2) {
		n = 3;
		v = b & 0x0f;
	} else if ((b & 0xf8) == 0xf0 && size >= 3) {
		n = 4;
		v = b & 0x07;
	} else {
		goto verbatim;
	}
	for (i = 1; i < n; i++) {
		b2 = (u8)in[i];
		if ((b2 & 0xc0) != 0x80)
			goto verbatim;
		v = (v << 6) | (b2 & 0x3f);
	}
	if ((v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff)
		goto verbatim;
	if (v < 0x80 || (n == 3 && v < 0x800) || (n == 4 && v < 0x10000))
		goto verbatim;
	*c = v;
	return n;

verbatim:
	*c = b;
	return 1;
}

/* The letter of a two-character escape in text_str, or 0. */
static char str_escape(int c)
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
	case '"':
		return '"';
	case '\\':
		return '\\';
	}
	return 0;
}

int tap_text_str_raw(char *out, size_t size, const char *in, int inlen,
		     int outlen, bool quoted, bool buffer)
{
	int maxlen = size - 1 > TAP_STR_INT_MAX ? TAP_STR_INT_MAX
						: (int)(size - 1);
	char *o = out;
	char *esc = NULL;	/* first escape a cut could split */
	char *cut;
	int esc_len = 0;
	int c = 0;
	int n, num, i;
	char letter;

	if (!size)
		return -EINVAL;
	if (quoted && maxlen < 5) {
		out[0] = '\0';
		return -EINVAL;
	}
	if (inlen <= 0 || inlen > maxlen)
		inlen = maxlen;
	if (outlen <= 0 || outlen > maxlen)
		outlen = maxlen;
	if (quoted) {
		outlen = (outlen > 5 ? outlen : 5) - 2;
		*o++ = '"';
	}

	while (inlen > 0) {
		n = str_decode_utf8(in, inlen, &c);
		if ((c == 0 && !buffer) || outlen <= 0)
			break;
		in += n;
		inlen -= n;

		if (n > 1) {
			num = c <= 0xffff ? 6 : 10;
			if (!esc && outlen - 3 < num) {
				esc = o;
				esc_len = num;
			}
			if (outlen < num)
				break;
			*o++ = '\\';
			*o++ = c <= 0xffff ? 'u' : 'U';
			for (i = num - 3; i >= 0; i--)
				*o++ = "0123456789ABCDEF"[(c >> (i * 4)) & 15];
		} else if (c >= 0x20 && c <= 0x7e && c != '"' && c != '\\') {
			num = 1;
			*o++ = (char)c;
		} else {
			letter = str_escape(c);
			num = letter ? 2 : 4;
			if (!esc && outlen - 3 < num) {
				esc = o;
				esc_len = num;
			}
			if (outlen < num)
				break;
			*o++ = '\\';
			if (c == 0) {
				/*
				 * SystemTap budgets a NUL byte as an octal
				 * escape but writes it as "\0".
				 */
				*o++ = '0';
			} else if (letter) {
				*o++ = letter;
			} else {
				*o++ = (char)('0' + ((c >> 6) & 3));
				*o++ = (char)('0' + ((c >> 3) & 7));
				*o++ = (char)('0' + (c & 7));
			}
		}
		outlen -= num;
	}

	if (quoted) {
		if (c && inlen > 0) {
			/* Cut so that `"...` ends where the budget ends. */
			cut = o - 3 + outlen;
			if (esc && esc < cut && cut < esc + esc_len)
				o = esc;
			else
				o = cut;
			if (o < out + 1)
				o = out + 1;
			*o++ = '"';
			*o++ = '.';
			*o++ = '.';
			*o++ = '.';
		} else {
			*o++ = '"';
		}
	}
	*o = '\0';
	return 0;
}

void tap_text_str(char *out, size_t size, const char *in)
{
	tap_text_str_raw(out, size, in, 0, 0, false, false);
}

void tap_text_strn(char *out, size_t size, const char *in, s64 len,
		   s64 quoted)
{
	s64 max = size > TAP_STR_INT_MAX ? TAP_STR_INT_MAX : (s64)size;

	if (len < 0)
		len = 0;
	if (len > max)
		len = max;
	tap_text_str_raw(out, size, in, 0, (int)len, (int)(u32)(u64)quoted,
			 false);
}

void tap_string_quoted(char *out, size_t size, const char *in)
{
	int max = size > TAP_STR_INT_MAX ? TAP_STR_INT_MAX : (int)size;

	tap_text_str_raw(out, size, in, max, max, true, false);
}

void tap_tokenize_init(struct tap_tokenize_state *st, char *buf,
		       size_t size)
{
	st->buf = buf;
	st->size = size;
	st->next = -1;
	if (size)
		buf[0] = '\0';
}

size_t tap_tokenize(struct tap_tokenize_state *st, const char *input,
		    const char *delim, char *out, size_t outsize)
{
	char *tok = NULL;
	char *p;
	size_t len = 0;

	if (input[0] && st->size) {
		str_copy(st->buf, st->size, input, strlen(input));
		st->next = 0;
	}
	/* strsep() until a non-empty token or none. */
	while (st->next >= 0) {
		tok = st->buf + st->next;
		p = tok;
		while (*p && !strchr(delim, *p))
			p++;
		if (*p) {
			*p = '\0';
			st->next = p + 1 - st->buf;
		} else {
			st->next = -1;
		}
		len = (size_t)(p - tok);
		if (len)
			break;
		tok = NULL;
	}
	if (!tok) {
		if (outsize)
			out[0] = '\0';
		return 0;
	}
	return str_copy(out, outsize, tok, len);
}
