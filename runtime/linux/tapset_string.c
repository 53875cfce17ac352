// SPDX-License-Identifier: GPL-2.0
/*
 * The string tapset (string.stp, tokenize.stp): thin wrappers that give
 * the portable functions of runtime/core/strfn.c the MAXSTRINGLEN-sized
 * results and the kernel-free prototypes of tapc_tapset.h.
 */
#include <linux/preempt.h>
#include <linux/kernel.h>
#include <linux/spinlock.h>
#include "tap_internal.h"
#include "strfn.h"

void tapset_substr(char *out, const char *str, long long start,
		   long long length)
{
	tap_substr(out, MAXSTRINGLEN, str, start, length);
}

long long tapset_stringat(struct tap_context *c, const char *str,
			  long long pos)
{
	const char *err = NULL;
	s64 ch = tap_stringat(str, pos, &err);

	if (err)
		tap_error(c, err);
	return ch;
}

long long tapset_isinstr(const char *s1, const char *s2)
{
	return tap_isinstr(s1, s2);
}

long long tapset_strpos(const char *s1, const char *s2)
{
	return tap_strpos(s1, s2);
}

void tapset_str_replace(char *out, const char *prnt, const char *srch,
			const char *rplc)
{
	tap_str_replace(out, MAXSTRINGLEN, prnt, srch, rplc);
}

long long tapset_strtol(const char *str, long long base)
{
	return tap_strtol(str, base);
}

long long tapset_isdigit(const char *str)
{
	return tap_isdigit(str);
}

void tapset_text_str(char *out, const char *in)
{
	tap_text_str(out, MAXSTRINGLEN, in);
}

void tapset_text_strn(char *out, const char *in, long long len,
		      long long quoted)
{
	tap_text_strn(out, MAXSTRINGLEN, in, len, quoted);
}

void tapset_string_quoted(char *out, const char *in)
{
	tap_string_quoted(out, MAXSTRINGLEN, in);
}

/*
 * SystemTap keeps one tokenize() string per module, shared by every CPU;
 * so do we, under a lock so that concurrent hits cannot tear it.
 */
static DEFINE_RAW_SPINLOCK(tapset_tokenize_lock);
static char tapset_tokenize_buf[MAXSTRINGLEN];
static struct tap_tokenize_state tapset_tokenize_state = {
	.buf = tapset_tokenize_buf,
	.size = sizeof(tapset_tokenize_buf),
	.next = -1,
};

void tapset_tokenize(char *out, const char *input, const char *delim)
{
	unsigned long flags;

	if (in_nmi()) {
		/* see tap_ring_write(): no waiting in NMI context */
		if (!raw_spin_trylock_irqsave(&tapset_tokenize_lock, flags)) {
			out[0] = '\0';
			return;
		}
	} else {
		raw_spin_lock_irqsave(&tapset_tokenize_lock, flags);
	}
	tap_tokenize(&tapset_tokenize_state, input, delim, out, MAXSTRINGLEN);
	raw_spin_unlock_irqrestore(&tapset_tokenize_lock, flags);
}
