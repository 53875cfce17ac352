/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics aggregates (the values behind `s <<< v`) and their
 * histograms, computed in integer arithmetic exactly as SystemTap does,
 * so that @count, @sum, @min, @max, @avg, @variance and printed
 * histograms match stap's output digit for digit.
 *
 * A stat is described by two things:
 *  - struct tap_hist: the shape shared by all copies of one aggregate
 *    (histogram kind and bounds, variance bit shift). Immutable after
 *    tap_hist_init_*().
 *  - struct tap_stat: one set of accumulated data, variable length
 *    (tap_stat_size() bytes) because the bucket counts follow it. There
 *    is typically one per CPU plus one aggregate.
 *
 * Extraction (@avg, @variance, histograms) must be done on an aggregate
 * produced by tap_stat_aggregate() (scalar globals, SystemTap's
 * _stp_stat_get path) or tap_stat_merge() (array elements, SystemTap's
 * per-CPU map aggregation path): the two combine partial variances
 * slightly differently and SystemTap's results depend on which one ran.
 *
 * Errors are negative TAP_STAT_E* codes; the caller maps them to
 * SystemTap's messages, given next to each code.
 */
#ifndef TAPC_RUNTIME_STAT_H
#define TAPC_RUNTIME_STAT_H

#include "port.h"

/* "empty aggregate": @min/@max/@avg/@variance of no data. */
#define TAP_STAT_EEMPTY		(-1)
/* "histogram index out of range": @hist_*(s)[i] with a bad i. */
#define TAP_STAT_ERANGE		(-2)
/* @hist_linear interval is zero or negative. */
#define TAP_STAT_EINTERVAL	(-3)
/*
 * @hist_linear gives fewer than 1 or more than TAP_HIST_MAX_BUCKETS - 2
 * buckets ("Number of buckets must be between 1 and N").
 */
#define TAP_STAT_EBUCKETS	(-4)
/* Histogram operation on a stat that was declared without one. */
#define TAP_STAT_ENOHIST	(-5)
/* Variance bit shift outside 0..TAP_STAT_MAX_SHIFT. */
#define TAP_STAT_ESHIFT		(-6)

/* Buckets of a linear histogram, under- and overflow included. */
#ifndef TAP_HIST_MAX_BUCKETS
#define TAP_HIST_MAX_BUCKETS	128
#endif

/* Log histograms: bucket 64 holds 0, 65 + k holds [2^k, 2^(k+1)). */
#define TAP_HIST_LOG_BUCKETS	128
#define TAP_HIST_LOG_BUCKET0	64

/*
 * SystemTap's own names for the two settings below, as scripts written
 * for stap pass them (-DHIST_ELISION=0); tapc's names win when both are.
 */
#if !defined(TAP_HIST_WIDTH) && defined(HIST_WIDTH)
#define TAP_HIST_WIDTH		(HIST_WIDTH)
#endif
#if !defined(TAP_HIST_ELISION) && defined(HIST_ELISION)
#define TAP_HIST_ELISION	(HIST_ELISION)
#endif

/* Width of the '@' bar area in printed histograms (stap's HIST_WIDTH). */
#ifndef TAP_HIST_WIDTH
#define TAP_HIST_WIDTH		50
#endif

/*
 * Zero buckets kept on each side of a non-zero one before a run of zero
 * buckets is elided with '~' (stap's HIST_ELISION); negative: never
 * elide.
 */
#ifndef TAP_HIST_ELISION
#define TAP_HIST_ELISION	2
#endif

#define TAP_STAT_MAX_SHIFT	62

enum tap_hist_shape {
	TAP_HIST_NONE,
	TAP_HIST_LOG,
	TAP_HIST_LINEAR,
};

struct tap_hist {
	enum tap_hist_shape type;
	int buckets;		/* 0 for TAP_HIST_NONE */
	int shift;		/* variance scaling, 0..TAP_STAT_MAX_SHIFT */
	s64 start;		/* linear only */
	s64 stop;
	s64 interval;
};

struct tap_stat {
	s64 count;
	s64 sum;
	s64 min;
	s64 max;
	s64 avg_s;		/* mean << shift */
	s64 m2;			/* Welford's sum of squared deviations */
	s64 variance_s;		/* variance << (2 * shift) */
	s64 histogram[];	/* hist->buckets counters */
};

/* Extractor selectors, used by map sorting on statistics values too. */
enum tap_stat_field {
	TAP_STAT_COUNT,
	TAP_STAT_SUM,
	TAP_STAT_MIN,
	TAP_STAT_MAX,
	TAP_STAT_AVG,
};

int tap_hist_init_none(struct tap_hist *h, int shift);
int tap_hist_init_log(struct tap_hist *h, int shift);
int tap_hist_init_linear(struct tap_hist *h, s64 start, s64 stop,
			 s64 interval, int shift);

/* Bytes needed for one struct tap_stat of this shape. */
size_t tap_stat_size(const struct tap_hist *h);

void tap_stat_clear(const struct tap_hist *h, struct tap_stat *sd);
void tap_stat_add(const struct tap_hist *h, struct tap_stat *sd, s64 val);

/*
 * Combine per-CPU partials into @agg (overwritten), as SystemTap does
 * for scalar statistics globals. Also use it with n == 1 when a stat is
 * not kept per CPU, so that @variance still matches SystemTap. @agg must
 * not be one of @parts.
 */
void tap_stat_aggregate(const struct tap_hist *h, struct tap_stat *agg,
			const struct tap_stat *const *parts, int n);

/*
 * Fold @src into @dst, as SystemTap does element by element when it
 * aggregates per-CPU statistics arrays: the first non-empty source is
 * copied, later ones are combined pairwise. Empty sources are skipped.
 */
void tap_stat_merge(const struct tap_hist *h, struct tap_stat *dst,
		    const struct tap_stat *src);

/* @count and @sum are defined (0) on empty aggregates. */
static inline s64 tap_stat_count(const struct tap_stat *sd)
{
	return sd->count;
}

static inline s64 tap_stat_sum(const struct tap_stat *sd)
{
	return sd->sum;
}

/* @min/@max/@avg/@variance: 0 or TAP_STAT_EEMPTY. */
int tap_stat_extract(const struct tap_hist *h, const struct tap_stat *sd,
		 enum tap_stat_field field, s64 *out);
int tap_stat_variance(const struct tap_hist *h, const struct tap_stat *sd,
		      s64 *out);

/*
 * Value used when sorting arrays by a statistics field. Unlike
 * tap_stat_extract() it never fails: SystemTap sorts empty elements as 0.
 */
s64 tap_stat_sort_key(const struct tap_stat *sd, enum tap_stat_field field);

/* Bucket a value falls in; exposed for tests and @hist_log indexing. */
int tap_hist_log_bucket(s64 val);
int tap_hist_bucket_of(const struct tap_hist *h, s64 val);

/* @hist_*(s)[i]: 0, TAP_STAT_ERANGE or TAP_STAT_ENOHIST. */
int tap_hist_bucket(const struct tap_hist *h, const struct tap_stat *sd,
		    s64 index, s64 *out);

/*
 * print(@hist_*(s)): write SystemTap's ASCII histogram into buf
 * (NUL-terminated, truncated to size). Returns the length of the full
 * text, like snprintf, so a result >= size means truncation; or
 * TAP_STAT_ENOHIST, or TAP_STAT_EEMPTY when no value was ever added (stap
 * has no defined output for that case; the caller chooses).
 */
int tap_hist_format(const struct tap_hist *h, const struct tap_stat *sd,
		   char *buf, size_t size);
/* The same with HIST_WIDTH and HIST_ELISION given at run time. */
int tap_hist_format_opts(const struct tap_hist *h, const struct tap_stat *sd,
			char *buf, size_t size, int width, int elision);

/*
 * SystemTap's 64-bit division: truncates toward zero, x / 0 is 0 and
 * x / -1 is -x (wrapping), so no input traps.
 */
s64 tap_div64(s64 x, s64 y);

#endif /* TAPC_RUNTIME_STAT_H */
