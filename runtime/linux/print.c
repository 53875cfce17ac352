// SPDX-License-Identifier: GPL-2.0
/*
 * What generated code calls during a hit: output (print, printf, sprintf
 * through runtime/core/format.c) and tap_error().  A hit's output collects
 * in its CPU's buffer and goes to the out channel in one piece when the
 * hit ends (or when the buffer fills), so hits never interleave.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "tap_internal.h"
#include "format.h"

#define TAP_MAXPRINTARGS 32

void tap_flush(struct tap_cpu *pc)
{
	tap_out_write(pc->out, pc->len);
	pc->len = 0;
}

void tap_error(struct tap_context *c, const char *msg)
{
	if (c->last_error)
		return;
	strscpy(c->error_buf, msg, sizeof(c->error_buf));
	c->last_error = c->error_buf;
}

void tap_errorf(struct tap_context *c, const char *fmt, ...)
{
	va_list ap;

	if (c->last_error)
		return;
	va_start(ap, fmt);
	vscnprintf(c->error_buf, sizeof(c->error_buf), fmt, ap);
	va_end(ap);
	c->last_error = c->error_buf;
}

void tap_print_n(struct tap_context *c, const char *s, unsigned long len)
{
	struct tap_cpu *pc = c->priv;
	size_t n;

	while (len) {
		if (pc->len == sizeof(pc->out))
			tap_flush(pc);
		n = min_t(size_t, len, sizeof(pc->out) - pc->len);
		memcpy(pc->out + pc->len, s, n);
		pc->len += n;
		s += n;
		len -= n;
	}
}

void tap_print(struct tap_context *c, const char *s)
{
	tap_print_n(c, s, strlen(s));
}

struct tap_memread {
	u64 fault_addr;
};

/*
 * The address of the first byte of [addr, addr + len) that cannot be read:
 * SystemTap reads %m and %M byte by byte and names the byte that faulted.
 * Only called once a read of the whole range failed.
 */
static u64 tap_mem_first_fault(u64 addr, size_t len, bool user)
{
	size_t i;
	char b;

	for (i = 0; i < len; i++) {
		long ret = user ?
			copy_from_user_nofault(&b, (const void __user *)
					       (uintptr_t)(addr + i), 1) :
			tap_read_kernel(&b, (unsigned long)(addr + i), 1);

		if (ret)
			return addr + i;
	}
	return addr;
}

static int tap_mem_read(void *priv, void *dst, u64 addr, size_t len,
			bool user)
{
	struct tap_memread *m = priv;
	long ret;

	if (user)
		ret = copy_from_user_nofault(dst,
					     (const void __user *)(uintptr_t)addr,
					     len);
	else
		ret = tap_read_kernel(dst, (unsigned long)addr, len);
	if (ret) {
		m->fault_addr = tap_mem_first_fault(addr, len, user);
		return -EFAULT;
	}
	return 0;
}

/* Convert the interface's arguments to the core's. */
static int tap_conv_args(struct tap_context *c, struct tap_arg *out,
			 int nargs, const struct tap_parg *args)
{
	int i;

	if (nargs < 0 || nargs > TAP_MAXPRINTARGS) {
		tap_error(c, "too many arguments to printf");
		return -1;
	}
	for (i = 0; i < nargs; i++) {
		if (args[i].is_str) {
			out[i].kind = TAP_ARG_STRING;
			out[i].str = args[i].str;
		} else {
			out[i].kind = TAP_ARG_LONG;
			out[i].num = args[i].num;
		}
	}
	return 0;
}

static void tap_format_error(struct tap_context *c, int ret,
			     const struct tap_memread *m)
{
	char msg[64];

	/* SystemTap's one message for a memory read that faults, kernel or
	 * user (its STAP_MSG_LOC2C_01) */
	if (ret == -EFAULT) {
		snprintf(msg, sizeof(msg), "read fault [man error::fault] at 0x%llx",
			 m->fault_addr);
		tap_error(c, msg);
	} else {
		tap_error(c, "invalid printf format or arguments");
	}
}

int tap_sprintf(struct tap_context *c, char *buf, unsigned long size,
		const char *fmt, int nargs, const struct tap_parg *args)
{
	struct tap_arg a[TAP_MAXPRINTARGS];
	struct tap_memread m = { 0 };
	struct tap_mem_ops ops = { .read = tap_mem_read, .priv = &m };
	int ret;

	if (size)
		buf[0] = '\0';
	if (tap_conv_args(c, a, nargs, args))
		return -1;
	ret = tap_format(buf, size, fmt, a, nargs, &ops);
	if (ret < 0) {
		tap_format_error(c, ret, &m);
		return -1;
	}
	return ret;
}

int tap_printf(struct tap_context *c, const char *fmt, int nargs,
	       const struct tap_parg *args)
{
	struct tap_cpu *pc = c->priv;
	struct tap_arg a[TAP_MAXPRINTARGS];
	struct tap_memread m = { 0 };
	struct tap_mem_ops ops = { .read = tap_mem_read, .priv = &m };
	int len, ret;

	if (tap_conv_args(c, a, nargs, args))
		return -1;
	len = tap_format_len(fmt, a, nargs, TAP_PRINT_BUFSIZE - 1);
	if (len < 0) {
		tap_format_error(c, len, &m);
		return -1;
	}
	if (len > (int)sizeof(pc->out) - 1) {
		tap_count_cut(len - (sizeof(pc->out) - 1));
		len = sizeof(pc->out) - 1;
	}
	if (pc->len + len + 1 > sizeof(pc->out))
		tap_flush(pc);
	ret = tap_format(pc->out + pc->len, len + 1, fmt, a, nargs, &ops);
	if (ret < 0) {
		tap_format_error(c, ret, &m);
		return -1;
	}
	pc->len += ret;
	return ret;
}

/*
 * printf() of embedded C (STAP_PRINTF): the kernel's vsnprintf into the
 * hit's buffer; a text longer than the whole buffer is cut to its size,
 * and the bytes cut are counted.
 */
void tap_cprintf(struct tap_context *c, const char *fmt, ...)
{
	struct tap_cpu *pc = c->priv;
	size_t room = sizeof(pc->out) - pc->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(pc->out + pc->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < room) {
		pc->len += n;
		return;
	}
	/* it did not fit: send what was there, format again from the start */
	tap_flush(pc);
	va_start(ap, fmt);
	n = vsnprintf(pc->out, sizeof(pc->out), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(pc->out)) {
		tap_count_cut(n - (sizeof(pc->out) - 1));
		n = sizeof(pc->out) - 1;
	}
	pc->len = n;
}

/* _stp_print_flush() of embedded C (tapc_embedded.h): this CPU's output
 * so far goes out now, not at the end of the hit. */
void tap_print_flush(struct tap_context *c)
{
	tap_flush(c->priv);
}
