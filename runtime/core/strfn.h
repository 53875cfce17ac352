/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The computational part of SystemTap's string tapset (string.stp and
 * tokenize.stp): everything that needs no kernel memory.  Each function
 * gives SystemTap's result, edge cases included; where SystemTap's answer
 * comes from the kernel it runs on (strtol, stringat) the one copied is
 * that of the x86_64 Linux 6.1 kernel we target.
 *
 * Script strings are NUL-terminated and shorter than MAXSTRINGLEN.  The
 * caller passes MAXSTRINGLEN as @size: every output holds at most
 * @size - 1 bytes and a NUL, so a buffer of @size bytes is always enough.
 */
#ifndef TAPC_RUNTIME_STRFN_H
#define TAPC_RUNTIME_STRFN_H

#include "port.h"

/* The error SystemTap's stringat() raises. */
#define TAP_STR_ERR_POSITION	"Position out of bounds"

/**
 * tap_str_length() - strlen(s): the length in bytes, at most @size.
 */
s64 tap_str_length(const char *s, size_t size);

/**
 * tap_substr() - substr(str, start, length).
 *
 * The bytes of @str from @start, at most @length of them and at most
 * @size - 1.  Empty if @start is negative or not before the end of @str,
 * or if @length is 0 or negative.  As SystemTap adds 1 to @length with
 * 64-bit wrapping, a @length of 0x7fffffffffffffff also gives "".
 *
 * Return: the length of the result.
 */
size_t tap_substr(char *out, size_t size, const char *str, s64 start,
		  s64 length);

/**
 * tap_stringat() - stringat(str, pos).
 *
 * The byte at @pos as the kernel's (signed, on x86) char, so a byte
 * >= 0x80 gives a negative number.  If @pos is negative or not before the
 * end of the string, *@err is set to TAP_STR_ERR_POSITION and 0 returned.
 */
s64 tap_stringat(const char *str, s64 pos, const char **err);

/**
 * tap_isinstr() - isinstr(s1, s2): 1 if @s2 occurs in @s1 (the empty
 * string occurs everywhere), else 0.
 */
int tap_isinstr(const char *s1, const char *s2);

/**
 * tap_strpos() - strpos(s1, s2): the offset of the first @s2 in @s1, 0
 * for an empty @s2, -1 if there is none.
 */
s64 tap_strpos(const char *s1, const char *s2);

/**
 * tap_str_replace() - str_replace(prnt_str, srch_str, rplc_str).
 *
 * Every occurrence of @srch in @prnt, found left to right without overlap,
 * replaced by @rplc; the result is cut at @size - 1 bytes.  An empty @srch
 * returns @prnt unchanged.
 *
 * Return: the length of the result.
 */
size_t tap_str_replace(char *out, size_t size, const char *prnt,
		       const char *srch, const char *rplc);

/**
 * tap_strtol() - strtol(str, base): the kernel's simple_strtol().
 *
 * An optional '-', then digits; no leading space or '+'.  @base is taken
 * as the kernel's unsigned int.  Base 0 reads "0x" followed by a hex digit
 * as hex, another leading "0" as octal, else decimal; base 16 skips a
 * "0x" or "0X".  Digits are 0-9 and a-f/A-F only, each below the base, so
 * bases above 16 accept nothing past 'f'.  Conversion stops at the first
 * other byte; an empty number is 0; overflow wraps modulo 2^64.
 */
s64 tap_strtol(const char *str, s64 base);

/**
 * tap_isdigit() - isdigit(str): 1 if the first byte is '0'..'9', else 0.
 */
int tap_isdigit(const char *str);

/**
 * tap_text_str_raw() - SystemTap's escaping of a string for printing.
 * @out: the result, @size bytes.
 * @in: the input, @inlen bytes or up to its NUL.
 * @inlen: bytes to read; 0, negative or over @size - 1 means @size - 1.
 * @outlen: the most bytes to produce; 0, negative or over @size - 1 means
 *	@size - 1.
 * @quoted: put the result in double quotes; when the input does not fit,
 *	end it with `"...` instead of the closing quote (an escape sequence
 *	is never cut in half).  The quotes and dots count towards @outlen,
 *	which is raised to 5.
 * @buffer: @in is a byte buffer: a NUL byte is printed as "\0" instead of
 *	ending the input.
 *
 * Printable ASCII is copied except '"' and '\', which get a backslash;
 * \a \b \f \n \r \t \v are written so; a valid UTF-8 sequence of 2 to 4
 * bytes becomes \uXXXX or \UXXXXXXXX (upper-case hex); every other byte is
 * \ and three octal digits.  Only escapes that fit whole are written.
 *
 * Return: 0, or -EINVAL if @size is 0, or below 6 with @quoted (the
 * result is then "").
 */
int tap_text_str_raw(char *out, size_t size, const char *in, int inlen,
		     int outlen, bool quoted, bool buffer);

/** tap_text_str() - text_str(input): escaped, unquoted, up to @size - 1. */
void tap_text_str(char *out, size_t size, const char *in);

/**
 * tap_text_strn() - text_strn(input, len, quoted): escaped into at most
 * @len bytes (0 means @size - 1), quoted if @quoted is non-zero in its
 * low 32 bits, as SystemTap passes it to an int.
 */
void tap_text_strn(char *out, size_t size, const char *in, s64 len,
		   s64 quoted);

/** tap_string_quoted() - string_quoted(str): escaped and quoted. */
void tap_string_quoted(char *out, size_t size, const char *in);

/*
 * tokenize()'s state, one per probe context: the copy of the string being
 * split lives in caller-owned storage of MAXSTRINGLEN bytes.
 */
struct tap_tokenize_state {
	char *buf;
	size_t size;
	s64 next;	/* offset of the unsplit rest, or -1 if none */
};

/** tap_tokenize_init() - start with no string, as a fresh context does. */
void tap_tokenize_init(struct tap_tokenize_state *st, char *buf,
		       size_t size);

/**
 * tap_tokenize() - tokenize(input, delim), and tokenize(delim) with "".
 *
 * A non-empty @input replaces the saved string (cut to @st->size - 1
 * bytes).  Then the next token is split off the saved string at the first
 * byte that is in @delim, skipping empty tokens; with no delimiter left
 * the whole rest is the token.  The token (cut to @outsize - 1) goes to
 * @out; when no token is left, @out is "".
 *
 * Return: the length of @out.
 */
size_t tap_tokenize(struct tap_tokenize_state *st, const char *input,
		    const char *delim, char *out, size_t outsize);

#endif /* TAPC_RUNTIME_STRFN_H */
