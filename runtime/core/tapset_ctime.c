// SPDX-License-Identifier: GPL-2.0
/*
 * ctime() for the tapset: a civil date from a day count, without the C
 * library or the kernel's time64_to_tm() (which user-space tests lack).
 */
#include "tapset_ctime.h"

#define SECS_PER_DAY	86400
#define CTIME_LEN	24	/* "Thu Jan  1 00:00:00 1970" */

static const char ctime_days[7][4] = {
	"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat",
};

static const char ctime_months[12][4] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
};

static bool ctime_leap(s64 year)
{
	return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

static int ctime_month_days(s64 year, int month)
{
	static const unsigned char len[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
	};

	return len[month] + (month == 1 && ctime_leap(year));
}

/* Write @v as @width digits, zero-padded (or space-padded if @space). */
static char *ctime_num(char *p, s64 v, int width, bool space)
{
	int i;

	for (i = width - 1; i >= 0; i--) {
		p[i] = (char)('0' + v % 10);
		v /= 10;
		if (!v && space && i > 0) {
			while (--i >= 0)
				p[i] = ' ';
			break;
		}
	}
	return p + width;
}

static char *ctime_word(char *p, const char *w)
{
	p[0] = w[0];
	p[1] = w[1];
	p[2] = w[2];
	return p + 3;
}

const char *tap_ctime(char *out, size_t size, s64 secs)
{
	s64 days, rem, year = 1970;
	int month = 0, wday, ylen;
	char date[CTIME_LEN + 1];
	char *p = date;
	size_t n;

	if (!size)
		return NULL;
	out[0] = '\0';
	if (secs > 0x7fffffffLL)
		return TAP_CTIME_ERR_FUTURE;
	if (secs < -0x80000000LL)
		return TAP_CTIME_ERR_PAST;

	days = secs / SECS_PER_DAY;
	rem = secs % SECS_PER_DAY;
	if (rem < 0) {
		rem += SECS_PER_DAY;
		days--;
	}
	wday = (int)((4 + days) % 7);	/* 1 Jan 1970 was a Thursday */
	if (wday < 0)
		wday += 7;
	/* At most 69 years either way of 1970: a short loop. */
	for (;;) {
		ylen = ctime_leap(year) ? 366 : 365;
		if (days < 0) {
			year--;
			days += ctime_leap(year) ? 366 : 365;
		} else if (days >= ylen) {
			days -= ylen;
			year++;
		} else {
			break;
		}
	}
	while (days >= ctime_month_days(year, month))
		days -= ctime_month_days(year, month++);

	p = ctime_word(p, ctime_days[wday]);
	*p++ = ' ';
	p = ctime_word(p, ctime_months[month]);
	*p++ = ' ';
	p = ctime_num(p, days + 1, 2, true);
	*p++ = ' ';
	p = ctime_num(p, rem / 3600, 2, false);
	*p++ = ':';
	p = ctime_num(p, rem / 60 % 60, 2, false);
	*p++ = ':';
	p = ctime_num(p, rem % 60, 2, false);
	*p++ = ' ';
	p = ctime_num(p, year, 4, false);
	*p = '\0';

	/* A small MAXSTRINGLEN cuts the date, as SystemTap's snprintf does. */
	n = size - 1 < CTIME_LEN ? size - 1 : CTIME_LEN;
	memcpy(out, date, n);
	out[n] = '\0';
	return NULL;
}
