/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tapc_tapset.h - runtime calls behind the tapset library (tapsets/):
 * context, time, logging, strings, random numbers.  Included by
 * tapc_runtime.h; no kernel headers, so the %{ %} bodies of tapset
 * functions (compiled with the generated code, at any -O level) can call
 * them.  Implemented in runtime/linux/tapset_*.c (kernel facing) and
 * runtime/core/tapset_*.c (portable).
 *
 * String results are written to @out, which has MAXSTRINGLEN bytes (a
 * function's STAP_RETVALUE), and are always NUL-terminated.
 */
#ifndef TAPC_TAPSET_H
#define TAPC_TAPSET_H

struct tap_context;

/* ---- logging.stp ----------------------------------------------------- */

/* warn(): "WARNING: MSG" on the error channel, a newline added if absent. */
void tapset_warn(const char *msg);

/* printk(): MSG and a newline to the kernel log at LEVEL (0..7, else the
 * kernel's default level). */
void tapset_printk(long long level, const char *msg);

/* ---- string.stp, tokenize.stp ---------------------------------------- */

void tapset_substr(char *out, const char *str, long long start,
		   long long length);
/* stringat(): raises "Position out of bounds" in @c (the result is 0). */
long long tapset_stringat(struct tap_context *c, const char *str,
			  long long pos);
long long tapset_isinstr(const char *s1, const char *s2);
long long tapset_strpos(const char *s1, const char *s2);
void tapset_str_replace(char *out, const char *prnt, const char *srch,
			const char *rplc);
long long tapset_strtol(const char *str, long long base);
long long tapset_isdigit(const char *str);
void tapset_text_str(char *out, const char *in);
void tapset_text_strn(char *out, const char *in, long long len,
		      long long quoted);
void tapset_string_quoted(char *out, const char *in);
/* tokenize(): one saved string for the whole module, as SystemTap has. */
void tapset_tokenize(char *out, const char *input, const char *delim);

/* ---- context.stp ----------------------------------------------------- */

/* The task the probe runs in (for begin/end probes, a kernel worker). */
long long tapset_pid(void);
long long tapset_tid(void);
long long tapset_ppid(void);
long long tapset_pgrp(void);
long long tapset_sid(void);
long long tapset_uid(void);
long long tapset_euid(void);
long long tapset_gid(void);
long long tapset_egid(void);
void tapset_execname(char *out);
void tapset_pexecname(char *out);
long long tapset_cpu(void);
void tapset_module_name(char *out);

/* ---- timestamp.stp, ctime.stp ---------------------------------------- */

long long tapset_gettimeofday_ns(void);
long long tapset_local_clock_ns(void);
/* cpu_clock_ns(cpu): raises "invalid cpu number CPU" for a CPU that
 * does not exist (the result is 0). */
long long tapset_cpu_clock_ns(struct tap_context *c, long long cpu);
long long tapset_get_cycles(void);
long long tapset_jiffies(void);
long long tapset_hz(void);

/*
 * ctime(): "Wed Jun 30 21:49:08 1993" (GMT) for seconds since the epoch,
 * for -2^31 <= @secs < 2^31.  Return: NULL, or the error SystemTap raises
 * for a time outside that range (@out is then "").
 */
const char *tapset_ctime(char *out, long long secs);

/* ---- random.stp ------------------------------------------------------ */

/* A random number in [0, @n) for @n as an unsigned long; 0 for @n == 0. */
long long tapset_random(long long n);

#endif /* TAPC_TAPSET_H */
