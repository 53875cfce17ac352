// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics aggregates and histograms; see stat.h for the model.
 *
 * All arithmetic that SystemTap lets wrap (sums, scaled squares) is done
 * on u64 and converted back, so the results equal the kernel's wrapping
 * behaviour without relying on signed overflow, which user-space
 * sanitizers reject.
 */
#include "stat.h"

#define TAP_S64_MIN	((s64)(-0x7fffffffffffffffLL - 1))

s64 tap_div64(s64 x, s64 y)
{
	if (y == 0)
		return 0;
	/* S64_MIN / -1 traps on x86; SystemTap negates (and wraps). */
	if (y == -1)
		return (s64)(0 - (u64)x);
	return x / y;
}

static inline s64 wadd(s64 a, s64 b)
{
	return (s64)((u64)a + (u64)b);
}

static inline s64 wsub(s64 a, s64 b)
{
	return (s64)((u64)a - (u64)b);
}

static inline s64 wmul(s64 a, s64 b)
{
	return (s64)((u64)a * (u64)b);
}

static inline s64 wshl(s64 a, int n)
{
	return (s64)((u64)a << n);
}

int tap_hist_init_none(struct tap_hist *h, int shift)
{
	if (shift < 0 || shift > TAP_STAT_MAX_SHIFT)
		return TAP_STAT_ESHIFT;
	memset(h, 0, sizeof(*h));
	h->type = TAP_HIST_NONE;
	h->shift = shift;
	return 0;
}

int tap_hist_init_log(struct tap_hist *h, int shift)
{
	int err = tap_hist_init_none(h, shift);

	if (err)
		return err;
	h->type = TAP_HIST_LOG;
	h->buckets = TAP_HIST_LOG_BUCKETS;
	return 0;
}

int tap_hist_init_linear(struct tap_hist *h, s64 start, s64 stop,
			 s64 interval, int shift)
{
	int err = tap_hist_init_none(h, shift);
	u64 n;

	if (err)
		return err;
	if (interval <= 0)
		return TAP_STAT_EINTERVAL;
	/*
	 * One bucket per whole interval from start to stop inclusive, plus
	 * underflow and overflow: (stop - start) / interval + 3, as stap.
	 * The bound check runs on a u64 difference so that absurd ranges
	 * cannot overflow into an acceptable count.
	 */
	if (stop < start)
		return TAP_STAT_EBUCKETS;
	n = ((u64)stop - (u64)start) / (u64)interval;
	if (n > TAP_HIST_MAX_BUCKETS - 3)
		return TAP_STAT_EBUCKETS;
	h->type = TAP_HIST_LINEAR;
	h->buckets = (int)n + 3;
	h->start = start;
	h->stop = stop;
	h->interval = interval;
	return 0;
}

size_t tap_stat_size(const struct tap_hist *h)
{
	return sizeof(struct tap_stat) + (size_t)h->buckets * sizeof(s64);
}

void tap_stat_clear(const struct tap_hist *h, struct tap_stat *sd)
{
	memset(sd, 0, tap_stat_size(h));
}

/* Number of significant bits of a non-zero magnitude, 1..64. */
static int bit_width(u64 v)
{
	int n = 0;

	if (v >> 32) {
		v >>= 32;
		n += 32;
	}
	if (v >> 16) {
		v >>= 16;
		n += 16;
	}
	if (v >> 8) {
		v >>= 8;
		n += 8;
	}
	if (v >> 4) {
		v >>= 4;
		n += 4;
	}
	if (v >> 2) {
		v >>= 2;
		n += 2;
	}
	if (v >> 1) {
		v >>= 1;
		n += 1;
	}
	return n + (int)v;
}

/*
 * 0 -> 64; v > 0 -> 64 + bit width, so 1 -> 65, 2..3 -> 66, ...,
 * 2^62..2^63-1 -> 127; negatives mirror that: -1 -> 63, -2..-3 -> 62,
 * S64_MIN -> 0.
 */
int tap_hist_log_bucket(s64 val)
{
	if (val == 0)
		return TAP_HIST_LOG_BUCKET0;
	if (val > 0)
		return TAP_HIST_LOG_BUCKET0 + bit_width((u64)val);
	return TAP_HIST_LOG_BUCKET0 - bit_width(0 - (u64)val);
}

/* Lower bound printed for a log bucket (the inverse of the above). */
static s64 log_bucket_value(int num)
{
	if (num == TAP_HIST_LOG_BUCKET0)
		return 0;
	if (num < TAP_HIST_LOG_BUCKET0)
		return TAP_S64_MIN >> num;
	return (s64)((u64)1 << (num - TAP_HIST_LOG_BUCKET0 - 1));
}

int tap_hist_bucket_of(const struct tap_hist *h, s64 val)
{
	s64 off;
	int n;

	switch (h->type) {
	case TAP_HIST_LOG:
		n = tap_hist_log_bucket(val);
		return n < h->buckets ? n : h->buckets - 1;
	case TAP_HIST_LINEAR:
		off = wsub(val, h->start);
		if (off < 0)
			return 0;
		off = (s64)((u64)off / (u64)h->interval) + 1;
		if (off >= h->buckets - 1)
			return h->buckets - 1;
		return (int)off;
	default:
		return -1;
	}
}

void tap_stat_add(const struct tap_hist *h, struct tap_stat *sd, s64 val)
{
	s64 val_s = wshl(val, h->shift);
	int delta;
	int b;

	if (sd->count == 0) {
		sd->count = 1;
		sd->sum = val;
		sd->min = val;
		sd->max = val;
		sd->avg_s = val_s;
		sd->m2 = 0;
	} else {
		sd->count++;
		sd->sum = wadd(sd->sum, val);
		if (val > sd->max)
			sd->max = val;
		if (val < sd->min)
			sd->min = val;
		/*
		 * Welford's online update on values scaled by 2^shift.
		 * SystemTap keeps the deviation in a C int, so it is
		 * truncated to 32 bits; we do the same so that @variance
		 * agrees with stap even when deviations are huge.
		 */
		delta = (int)(s32)(u32)(u64)wsub(val_s, sd->avg_s);
		sd->avg_s = wadd(sd->avg_s, tap_div64(delta, sd->count));
		sd->m2 = wadd(sd->m2, wmul(delta, wsub(val_s, sd->avg_s)));
		sd->variance_s = tap_div64(sd->m2, sd->count - 1);
	}

	b = tap_hist_bucket_of(h, val);
	if (b >= 0)
		sd->histogram[b]++;
}

void tap_stat_aggregate(const struct tap_hist *h, struct tap_stat *agg,
			const struct tap_stat *const *parts, int n)
{
	s64 s1 = 0, s2 = 0, d;
	int i, j;

	tap_stat_clear(h, agg);
	for (i = 0; i < n; i++) {
		const struct tap_stat *sd = parts[i];

		if (!sd->count)
			continue;
		if (agg->count == 0) {
			agg->min = sd->min;
			agg->max = sd->max;
		}
		agg->count = wadd(agg->count, sd->count);
		agg->sum = wadd(agg->sum, sd->sum);
		if (sd->max > agg->max)
			agg->max = sd->max;
		if (sd->min < agg->min)
			agg->min = sd->min;
		for (j = 0; j < h->buckets; j++)
			agg->histogram[j] = wadd(agg->histogram[j],
						 sd->histogram[j]);
	}

	agg->avg_s = tap_div64(wshl(agg->sum, h->shift), agg->count);

	/*
	 * Total variance: the spread of the partial means around the
	 * overall mean plus the partial variances, each weighted by its
	 * degrees of freedom (SystemTap's per-CPU combination).
	 */
	for (i = 0; i < n; i++) {
		const struct tap_stat *sd = parts[i];

		if (!sd->count)
			continue;
		d = wsub(sd->avg_s, agg->avg_s);
		s1 = wadd(s1, wmul(wmul(sd->count, d), d));
		s2 = wadd(s2, wmul(sd->count - 1, sd->variance_s));
	}
	agg->variance_s = tap_div64(wadd(s1, s2), agg->count - 1);
}

void tap_stat_merge(const struct tap_hist *h, struct tap_stat *dst,
		    const struct tap_stat *src)
{
	s64 old_count, old_avg_s, d1, d2, s;
	int j;

	if (!src->count)
		return;
	if (!dst->count) {
		memcpy(dst, src, tap_stat_size(h));
		return;
	}

	old_count = dst->count;
	old_avg_s = dst->avg_s;
	dst->count = wadd(dst->count, src->count);
	dst->sum = wadd(dst->sum, src->sum);
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	/* The mean is recomputed exactly rather than shifted down. */
	dst->avg_s = tap_div64(wshl(dst->sum, h->shift), dst->count);

	d1 = wsub(old_avg_s, dst->avg_s);
	d2 = wsub(src->avg_s, dst->avg_s);
	s = wmul(wmul(old_count, d1), d1);
	s = wadd(s, wmul(old_count - 1, dst->variance_s));
	s = wadd(s, wmul(wmul(src->count, d2), d2));
	s = wadd(s, wmul(src->count - 1, src->variance_s));
	dst->variance_s = tap_div64(s, dst->count - 1);

	for (j = 0; j < h->buckets; j++)
		dst->histogram[j] = wadd(dst->histogram[j], src->histogram[j]);
}

int tap_stat_extract(const struct tap_hist *h, const struct tap_stat *sd,
		 enum tap_stat_field field, s64 *out)
{
	(void)h;
	switch (field) {
	case TAP_STAT_COUNT:
		*out = sd->count;
		return 0;
	case TAP_STAT_SUM:
		*out = sd->sum;
		return 0;
	default:
		break;
	}
	if (!sd->count)
		return TAP_STAT_EEMPTY;
	*out = tap_stat_sort_key(sd, field);
	return 0;
}

int tap_stat_variance(const struct tap_hist *h, const struct tap_stat *sd,
		      s64 *out)
{
	if (!sd->count)
		return TAP_STAT_EEMPTY;
	/* Arithmetic shift, as the kernel compiler does for stap. */
	*out = sd->variance_s >> (2 * h->shift);
	return 0;
}

s64 tap_stat_sort_key(const struct tap_stat *sd, enum tap_stat_field field)
{
	switch (field) {
	case TAP_STAT_COUNT:
		return sd->count;
	case TAP_STAT_SUM:
		return sd->sum;
	case TAP_STAT_MIN:
		return sd->min;
	case TAP_STAT_MAX:
		return sd->max;
	case TAP_STAT_AVG:
		return tap_div64(sd->sum, sd->count);
	}
	return 0;
}

int tap_hist_bucket(const struct tap_hist *h, const struct tap_stat *sd,
		    s64 index, s64 *out)
{
	if (h->type == TAP_HIST_NONE)
		return TAP_STAT_ENOHIST;
	if (index < 0 || index >= h->buckets)
		return TAP_STAT_ERANGE;
	*out = sd->histogram[index];
	return 0;
}

/*
 * Bounded text output. Everything is counted even when it no longer
 * fits, so the caller learns the size a complete histogram needs.
 */
struct outbuf {
	char *buf;
	size_t size;
	size_t len;
};

static void out_char(struct outbuf *o, char c)
{
	if (o->size && o->len < o->size - 1)
		o->buf[o->len] = c;
	o->len++;
}

static void out_repeat(struct outbuf *o, char c, int n)
{
	while (n-- > 0)
		out_char(o, c);
}

static void out_str(struct outbuf *o, const char *s)
{
	while (*s)
		out_char(o, *s++);
}

/* Characters "%lld" needs for v. */
static int dec_width(s64 v)
{
	u64 m = v < 0 ? 0 - (u64)v : (u64)v;
	int n = v < 0 ? 2 : 1;

	while (m >= 10) {
		m /= 10;
		n++;
	}
	return n;
}

static void out_s64(struct outbuf *o, s64 v)
{
	char digits[20];
	u64 m = v < 0 ? 0 - (u64)v : (u64)v;
	int n = 0;

	do {
		digits[n++] = (char)('0' + m % 10);
		m /= 10;
	} while (m);
	if (v < 0)
		out_char(o, '-');
	while (n)
		out_char(o, digits[--n]);
}

/* "%*lld" */
static void out_s64_right(struct outbuf *o, s64 v, int width)
{
	out_repeat(o, ' ', width - dec_width(v));
	out_s64(o, v);
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

/* Is row i hidden inside a run of zero buckets? */
static bool row_elided(const struct tap_hist *h, const struct tap_stat *sd,
		       int i, int low, int high, int elision)
{
	int reach = elision < h->buckets ? elision : h->buckets;
	int from = low, to = high, k;

	if (elision < 0)
		return false;
	if (i - reach > from)
		from = i - reach;
	if (i + reach < to)
		to = i + reach;
	for (k = from; k <= to; k++)
		if (sd->histogram[k])
			return false;
	return true;
}

int tap_hist_format(const struct tap_hist *h, const struct tap_stat *sd,
		   char *buf, size_t size)
{
	return tap_hist_format_opts(h, sd, buf, size, TAP_HIST_WIDTH,
				   TAP_HIST_ELISION);
}

int tap_hist_format_opts(const struct tap_hist *h, const struct tap_stat *sd,
			char *buf, size_t size, int width, int elision)
{
	struct outbuf o = { buf, size, 0 };
	int low = -1, high = 0, under = 0, over = 0;
	int i, val_space, cnt_space, eliding = 0;
	s64 valmax = 0, scale, val;

	if (h->type == TAP_HIST_NONE)
		return TAP_STAT_ENOHIST;
	if (width < 1)
		width = 1;

	for (i = 0; i < h->buckets; i++) {
		if (sd->histogram[i] > 0) {
			if (low == -1)
				low = i;
			high = i;
		}
		if (sd->histogram[i] > valmax)
			valmax = sd->histogram[i];
	}
	if (low == -1)
		return TAP_STAT_EEMPTY;

	/*
	 * Show up to two empty buckets around the data. A log histogram
	 * only reaches into the negative buckets when it holds negative
	 * values, i.e. it never widens downward from the zero bucket.
	 */
	for (i = 0; i < 2; i++) {
		if (low > 0 && !(h->type == TAP_HIST_LOG &&
				 low == TAP_HIST_LOG_BUCKET0))
			low--;
		if (high < h->buckets - 1)
			high++;
	}
	if (h->type == TAP_HIST_LINEAR) {
		/* Under/overflow rows appear only when they hold data. */
		if (low == 0 && sd->histogram[0] == 0)
			low++;
		if (high == h->buckets - 1 && sd->histogram[high] == 0)
			high--;
		under = low == 0;
		over = high == h->buckets - 1;
	}

	scale = valmax <= width ? 1 :
		(valmax + width - 1) / width;
	cnt_space = dec_width(valmax);

	/*
	 * Label column width. For linear histograms stap sizes it from
	 * start + interval * high (one interval wider than the last
	 * label); we keep that so column alignment matches.
	 */
	if (h->type == TAP_HIST_LINEAR)
		val_space = imax(dec_width(h->start) + under,
				 dec_width(wadd(h->start,
						wmul(h->interval, high))) +
				 over);
	else
		val_space = imax(dec_width(log_bucket_value(high)),
				 dec_width(log_bucket_value(low)));
	val_space = imax(val_space, 5);

	out_repeat(&o, ' ', val_space - 5);
	out_str(&o, "value |");
	out_repeat(&o, '-', width);
	out_str(&o, " count\n");

	for (i = low; i <= high; i++) {
		const char *prefix = "";
		s64 bar;

		if (row_elided(h, sd, i, low, high, elision)) {
			eliding = 1;
			continue;
		}
		if (eliding) {
			out_repeat(&o, ' ', val_space);
			out_str(&o, " ~\n");
			eliding = 0;
		}

		if (h->type == TAP_HIST_LINEAR) {
			if (i == 0) {
				val = h->start;
				prefix = "<";
			} else if (i == h->buckets - 1) {
				val = wadd(h->start, wmul(i - 2, h->interval));
				prefix = ">";
			} else {
				val = wadd(h->start, wmul(i - 1, h->interval));
			}
		} else {
			val = log_bucket_value(i);
		}

		out_repeat(&o, ' ', val_space - dec_width(val) -
			   (int)strlen(prefix));
		out_str(&o, prefix);
		out_s64(&o, val);
		out_str(&o, " |");

		bar = sd->histogram[i] / scale;
		out_repeat(&o, '@', (int)bar);
		out_s64_right(&o, sd->histogram[i],
			      (int)(width - bar + 1 + cnt_space));
		out_char(&o, '\n');
	}
	out_char(&o, '\n');

	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len > 0x7fffffff ? 0x7fffffff : (int)o.len;
}
