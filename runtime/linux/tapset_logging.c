// SPDX-License-Identifier: GPL-2.0
/*
 * The logging tapset's kernel side: warn() and printk().  exit(),
 * error() and log() need nothing beyond tapc_runtime.h.  Also the
 * logging calls of SystemTap's runtime that guru-mode embedded C makes
 * (tapc_embedded.h).
 */
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/stdarg.h>
#include <linux/string.h>
#include "tap_internal.h"

#define TAPSET_WARN_PREFIX "WARNING: "

/*
 * One write to the error channel, so that concurrent warnings never
 * interleave; a newline is added unless the message has one, as
 * SystemTap's warnings do.
 */
void tapset_warn(const char *msg)
{
	char *line = tap_cpu_scratch();	/* the prefix fits in its extra 64 */
	size_t len = sizeof(TAPSET_WARN_PREFIX) - 1;
	size_t n = strnlen(msg, MAXSTRINGLEN - 1);

	memcpy(line, TAPSET_WARN_PREFIX, len);
	memcpy(line + len, msg, n);
	len += n;
	if (line[len - 1] != '\n')
		line[len++] = '\n';
	tap_ring_write(&tap_err_ring, line, len);
}

void tapset_printk(long long level, const char *msg)
{
	switch (level) {
	case 0:
		pr_emerg("%s\n", msg);
		break;
	case 1:
		pr_alert("%s\n", msg);
		break;
	case 2:
		pr_crit("%s\n", msg);
		break;
	case 3:
		pr_err("%s\n", msg);
		break;
	case 4:
		pr_warn("%s\n", msg);
		break;
	case 5:
		pr_notice("%s\n", msg);
		break;
	case 6:
		pr_info("%s\n", msg);
		break;
	case 7:
		printk(KERN_DEBUG "%s\n", msg);
		break;
	default:
		printk(KERN_DEFAULT "%s\n", msg);
		break;
	}
}

/*
 * ftrace(): MSG and a newline as a print event of the ftrace ring buffer,
 * where trace_printk() puts its text (the "trace" file of tracefs shows
 * it), without trace_printk()'s per-CPU buffers, which only process
 * context can allocate.  Dropped when tracing is off, as SystemTap's.
 */
void tapset_ftrace(const char *msg)
{
	char *line = tap_cpu_scratch();
	size_t n = strnlen(msg, MAXSTRINGLEN - 1);

	memcpy(line, msg, n);
	line[n++] = '\n';
	line[n] = '\0';
	__trace_puts(_THIS_IP_, line, n);
}

/*
 * _stp_log(), _stp_warn(), _stp_softerror() and _stp_error() of embedded
 * C: the message formatted by the kernel's vsnprintf() (cut at
 * MAXSTRINGLEN), with a newline added unless it has one, as SystemTap's
 * runtime writes them.  A log line is the script's output; the others go
 * to the error channel after "WARNING: " or "ERROR: ", in one write as
 * warn()'s.  _stp_error() then ends the session, as SystemTap's does.
 */
void tap_embedded_log(struct tap_context *c, enum tap_elog kind, const char *fmt, ...)
{
	static const char *const prefixes[] = {
		[TAP_ELOG_LINE] = "", [TAP_ELOG_WARN] = TAPSET_WARN_PREFIX,
		[TAP_ELOG_SOFTERROR] = "ERROR: ", [TAP_ELOG_ERROR] = "ERROR: ",
	};
	char *line = tap_cpu_scratch();	/* the prefix fits in its extra 64 */
	size_t len = strlen(prefixes[kind]);
	va_list ap;
	int n;

	memcpy(line, prefixes[kind], len);
	va_start(ap, fmt);
	n = vsnprintf(line + len, MAXSTRINGLEN, fmt, ap);
	va_end(ap);
	if (n > 0)
		len += min_t(size_t, n, MAXSTRINGLEN - 1);
	if (len == 0 || line[len - 1] != '\n')
		line[len++] = '\n';
	if (kind == TAP_ELOG_LINE)
		tap_cprintf(c, "%.*s", (int)len, line);
	else
		tap_ring_write(&tap_err_ring, line, len);
	if (kind == TAP_ELOG_ERROR)
		tap_exit(c);
}
