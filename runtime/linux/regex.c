// SPDX-License-Identifier: GPL-2.0
/*
 * =~, !~ and the regex tapset (matched(), ngroups()) on the probe
 * context: the matcher's state and the last match live in the context's
 * struct tap_regmatch, one per CPU, so a match allocates nothing.  No
 * kernel header is needed: this file also builds in user space for the
 * unit tests.
 */
#include "tapc_runtime.h"
#include "regexec.h"

/* Copy at most MAXSTRINGLEN - 1 bytes of @src into @dst, forwards, so
 * that @src may point into @dst itself.  Returns the length copied. */
static int tap_regex_copy(char *dst, const char *src)
{
	int n;

	for (n = 0; n < MAXSTRINGLEN - 1 && src[n]; n++)
		dst[n] = src[n];
	dst[n] = '\0';
	return n;
}

int tap_regex_match(struct tap_context *c, const struct tap_regex *re,
		    const char *subject)
{
	struct tap_regmatch *m = &c->regmatch;
	int len, r;

	len = tap_regex_copy(m->subject, subject ? subject : "");
	m->valid = 0;
	if (re->nsub > TAP_REGEX_MAXSUB) {
		tap_errorf(c, "regex \"%s\" has more than %d groups",
			   re->pattern, TAP_REGEX_MAXSUB - 1);
		return 0;
	}
	r = tap_regex_exec(re, m->subject, len, m->scratch,
			   sizeof(m->scratch), m->caps);
	if (r < 0) {
		tap_errorf(c, "regex \"%s\" needs %u bytes of match state, more than TAP_REGEX_SCRATCH",
			   re->pattern, re->scratch);
		return 0;
	}
	if (r == 0)
		return 0;
	m->valid = 1;
	m->nsub = (int)re->nsub;
	return 1;
}

int tap_regex_matched(struct tap_context *c, long long n, char *out)
{
	struct tap_regmatch *m = &c->regmatch;
	int start, end, i;

	out[0] = '\0';
	if (n < 0 || n >= m->nsub) {
		tap_errorf(c, "Attempted to get nonexistent subexpression %lld", n);
		return -1;
	}
	if (!m->valid) {
		tap_errorf(c, "Attempted to get subexpression %lld from failed match",
			   n);
		return -1;
	}
	start = m->caps[2 * n];
	end = m->caps[2 * n + 1];
	if (start < 0 || end < start)	/* the group took no part */
		return 0;
	for (i = 0; i < end - start && i < MAXSTRINGLEN - 1; i++)
		out[i] = m->subject[start + i];
	out[i] = '\0';
	return 0;
}

long long tap_regex_ngroups(struct tap_context *c)
{
	struct tap_regmatch *m = &c->regmatch;

	if (!m->valid)
		tap_errorf(c, "Attempted to get subexpression count from failed match");
	return m->nsub;
}
