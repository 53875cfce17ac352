// SPDX-License-Identifier: GPL-2.0
/*
 * The local time zone of the tzinfo tapset: the kernel has none, so, as
 * staprun does, tapc-run passes what localtime(3) said when it started
 * (seconds west of UTC, and the zone's abbreviation) as parameters.
 * Without them (another loader), UTC.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include "tap_internal.h"

static long tap_tz_gmtoff;
module_param_named(_tap_tz_gmtoff, tap_tz_gmtoff, long, 0444);
MODULE_PARM_DESC(_tap_tz_gmtoff, "tz_gmtoff(): seconds west of UTC");

static char tap_tz_name[16];
module_param_string(_tap_tz_name, tap_tz_name, sizeof(tap_tz_name), 0444);
MODULE_PARM_DESC(_tap_tz_name, "tz_name(): the local time zone's name");

long long tapset_tz_gmtoff(void)
{
	return tap_tz_gmtoff;
}

void tapset_tz_name(char *out)
{
	strscpy(out, tap_tz_name, MAXSTRINGLEN);
}
