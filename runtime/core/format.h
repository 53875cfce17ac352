/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SystemTap's printf engine: the format syntax the translator accepts and
 * the exact bytes the runtime produces for printf() and sprintf().
 *
 * The behaviour copied here is SystemTap's, not C's, where they differ:
 *
 *  - A directive is '%' [flag] [width] ['.' precision] ['l'] conversion,
 *    with at most ONE flag out of "0+- #" ("%-05d" is '-' and width 5;
 *    "%+-5d" is an invalid conversion).  Width and precision are digits or
 *    '*' (taken from the argument list, before the value).  One 'l' is
 *    skipped; "%lld" and "%hd" are errors.
 *  - Conversions: d i u o x X (64-bit integers), p (same as "%#x"), c (the
 *    low byte of a long; with '#' escaped like a C char literal), s, m
 *    (precision bytes of memory, default 1; '#' reads user memory), M (the
 *    same bytes as hex pairs), b (the value's native-order bytes; 1, 2, 4
 *    or 8 of them chosen by precision or width, default 8, padded with
 *    NUL bytes to the width).  "%%" is a literal '%'.
 *  - '#' with o prefixes "0" even to zero ("00"), with x/X prefixes
 *    "0x"/"0X" even to zero ("0x0").  '0' pads with zeros after any sign
 *    or prefix even when a precision is given ("%05.3d" of 7 is "00007").
 *    A precision of 0 on an integer still prints "0".
 *  - '0' on s/m/M appends one NUL byte after the padded field.
 *  - Widths and precisions are clamped to [0, space left]; a negative '*'
 *    width is 0, not left alignment.
 *  - A lone '%' at the very end is a literal '%'; "%." or "%l" at the very
 *    end print nothing; any other unfinished directive is an error.
 *
 * Pass 2 uses tap_format_check() to type-check printf calls; the runtime
 * uses tap_format_len() (how many bytes printf() needs) and tap_format()
 * (the bytes).  All three parse with tap_fmt_next(), so the translator and
 * the runtime can never disagree about a format.
 */
#ifndef TAPC_RUNTIME_FORMAT_H
#define TAPC_RUNTIME_FORMAT_H

#include "port.h"

/* The kinds of value a script passes to printf. */
enum tap_arg_kind {
	TAP_ARG_LONG = 1,
	TAP_ARG_STRING = 2,
};

/*
 * One printf argument: a 64-bit long or a NUL-terminated string.  A NULL
 * string prints as "<NULL>".  For m and M the long is the address to read.
 */
struct tap_arg {
	enum tap_arg_kind kind;
	union {
		s64 num;
		const char *str;
	};
};

#define TAP_LONG(v) \
	((struct tap_arg){ .kind = TAP_ARG_LONG, .num = (v) })
#define TAP_STR(v) \
	((struct tap_arg){ .kind = TAP_ARG_STRING, .str = (v) })

/* Directive flags; the values are SystemTap's own, for easy comparison. */
#define TAP_FMT_ZEROPAD	0x01	/* '0' */
#define TAP_FMT_SIGN	0x02	/* d, i: the value is signed */
#define TAP_FMT_PLUS	0x04	/* '+' */
#define TAP_FMT_SPACE	0x08	/* ' ' */
#define TAP_FMT_LEFT	0x10	/* '-' */
#define TAP_FMT_SPECIAL	0x20	/* '#', and implied by p */
#define TAP_FMT_LARGE	0x40	/* X */

/* How a width or precision is given. */
#define TAP_FMT_NONE	0
#define TAP_FMT_STATIC	1	/* digits in the format */
#define TAP_FMT_DYNAMIC	2	/* '*': the next argument */

/*
 * One piece of a format: literal text (conv == 0), or a directive.
 * Literal text points into the format string and is not NUL-terminated;
 * "%%" becomes the literal "%".
 */
struct tap_fmt_dir {
	const char *lit;
	int lit_len;
	char conv;		/* d i u o x X p c s m M b, or 0 */
	u8 flags;		/* TAP_FMT_ZEROPAD ... TAP_FMT_LARGE */
	u8 base;		/* 8, 10 or 16 for integer conversions */
	u8 width_type;		/* TAP_FMT_NONE, _STATIC or _DYNAMIC */
	u8 prec_type;
	int width;		/* static values, as SystemTap wraps them */
	int prec;
};

/* Messages, word for word SystemTap's. */
#define TAP_FMT_ERR_CONVERSION \
	"invalid or missing conversion specifier"
#define TAP_FMT_ERR_TRAILING \
	"trailing incomplete print format conversion"
#define TAP_FMT_ERR_NARGS \
	"Wrong number of args to formatted print operator"

/**
 * tap_fmt_next() - parse the next piece of a format string.
 * @pos: in: where to start; out: just past the piece, or at the error.
 * @dir: the piece.
 * @err: on error, one of the TAP_FMT_ERR_* messages.
 *
 * Return: 1 for a piece, 0 at the end of the format, -1 on error.
 */
int tap_fmt_next(const char **pos, struct tap_fmt_dir *dir, const char **err);

/**
 * tap_format_check() - check a format and list the arguments it takes.
 * @fmt: the format string.
 * @kinds: filled with the kind of each argument, widths and precisions
 *	from '*' included, in order; may be NULL.
 * @max_kinds: room in @kinds; the count returned may be larger.
 * @err: on error, a TAP_FMT_ERR_* message (SystemTap reports it as a
 *	parse error on the format string).
 * @err_off: on error, the byte offset in @fmt where the problem was seen.
 *
 * Pass 2 compares the count with the call's arguments and reports
 * TAP_FMT_ERR_NARGS on a mismatch, then unifies each argument's type with
 * its kind.
 *
 * Return: the number of arguments, or -1 on error.
 */
int tap_format_check(const char *fmt, enum tap_arg_kind *kinds,
		     int max_kinds, const char **err, int *err_off);

/*
 * How %m and %M read memory.  @read copies @len bytes at @addr (user
 * memory if @user, i.e. the directive had '#') into @dst and returns 0, or
 * a negative errno on a fault.  The runtime's reader is fault-safe and may
 * record the address for its error message.
 */
struct tap_mem_ops {
	int (*read)(void *priv, void *dst, u64 addr, size_t len, bool user);
	void *priv;
};

/**
 * tap_format_len() - the number of bytes printf() produces.
 * @fmt: the format string.
 * @args: the arguments.
 * @nargs: how many.
 * @limit: SystemTap's STP_BUFFER_SIZE: every width and precision is
 *	clamped to [0, @limit], and strings are measured up to @limit bytes.
 *
 * This is SystemTap's sizing pass for printf to the output stream; it
 * reads no memory.  The caller clamps the result to its buffer, reserves
 * that many bytes plus one and calls tap_format() with that size.
 *
 * Return: the byte count, or -EINVAL if the format is bad or the
 * arguments do not match it.
 */
int tap_format_len(const char *fmt, const struct tap_arg *args, int nargs,
		   int limit);

/**
 * tap_format() - format into a buffer exactly as SystemTap does.
 * @buf: the buffer (may contain NUL bytes from %b and '0' afterwards).
 * @size: its size (MAXSTRINGLEN for sprintf); at most @size - 1 bytes are
 *	stored and a NUL follows them when @size > 0.
 * @fmt: the format string.
 * @args: the arguments.
 * @nargs: how many.
 * @mem: the memory reader for %m and %M, or NULL if there is none.
 *
 * Widths and precisions are clamped to the space left at their point in
 * the buffer, as SystemTap's sprintf clamps them, so a too-wide field
 * still ends with its value.  A %b value that does not fit whole is left
 * out, as SystemTap leaves it out.
 *
 * Return: the number of bytes stored (without the final NUL), -EINVAL if
 * the format is bad or the arguments do not match it, or the reader's
 * error (-EFAULT when @mem is NULL) if %m or %M could not read memory;
 * on error the buffer holds what was stored so far, NUL-terminated.
 */
int tap_format(char *buf, size_t size, const char *fmt,
	       const struct tap_arg *args, int nargs,
	       const struct tap_mem_ops *mem);

#endif /* TAPC_RUNTIME_FORMAT_H */
