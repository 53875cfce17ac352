// SPDX-License-Identifier: GPL-2.0
/*
 * The rest of the conversions tapsets' kernel side (conversions.stp,
 * uconversions.stp, uconversions-guru.stp, registers.stp's setters,
 * atomic.stp, guru-delay.stp, guru-signal.stp, panic.stp): UTF-16 and
 * UTF-32 strings decoded to UTF-8, quoted buffers, guru-mode writes of
 * user memory and of a system call's arguments.  Every read and write of
 * an address a script computed goes through the no-fault primitives: a
 * bad address raises SystemTap's error in the hit, never an oops.
 */
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/panic.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "strfn.h"
#include "tap_internal.h"

/* ---- UTF-16 and UTF-32 strings ------------------------------------------ */

/* One code unit of @size (2 or 4) bytes at @addr, kernel or user memory. */
static int tap_read_unit(unsigned long addr, int size, bool user, u32 *unit)
{
	u16 half;
	long rc;

	if (size == 2) {
		rc = user ? copy_from_user_nofault(&half, (const void __user *)addr, 2)
			  : tap_read_kernel(&half, addr, 2);
		*unit = half;
	} else {
		rc = user ? copy_from_user_nofault(unit, (const void __user *)addr, 4)
			  : tap_read_kernel(unit, addr, 4);
	}
	return rc ? -EFAULT : 0;
}

/*
 * Code point @cp as UTF-8 at @out, which has @room bytes: the bytes
 * written (a NUL follows them), 0 when the whole sequence and its NUL do
 * not fit, -EINVAL for a surrogate or a value past U+10FFFF (RFC 3629).
 */
static int tap_put_utf8(char *out, int room, u32 cp)
{
	int n, i;

	if (cp <= 0x7f)
		n = 1;
	else if (cp <= 0x7ff)
		n = 2;
	else if (cp >= 0xd800 && cp <= 0xdfff)
		return -EINVAL;
	else if (cp <= 0xffff)
		n = 3;
	else if (cp <= 0x10ffff)
		n = 4;
	else
		return -EINVAL;
	if (room < n + 1)
		return 0;
	out[n] = '\0';
	if (n == 1) {
		out[0] = (char)cp;
		return 1;
	}
	/* continuation bytes from the last, then the lead byte's marker */
	for (i = n - 1; i > 0; i--, cp >>= 6)
		out[i] = (char)(0x80 | (cp & 0x3f));
	out[0] = (char)((0xff00 >> n) | cp);
	return n;
}

/*
 * The UTF-16 (@unit 2, surrogate pairs joined) or UTF-32 (@unit 4) string
 * at @addr as UTF-8 into @out (MAXSTRINGLEN bytes), up to its zero unit
 * or as many whole characters as fit.  A fault raises "kernel (or user)
 * string copy fault at ADDR" with the address of the unit that could not
 * be read; a character that has no UTF-8 form raises "invalid UTF-16
 * character U+X at ADDR" (what was decoded before stays in @out).
 */
void tapset_string_utf(struct tap_context *c, char *out, long long addr,
		       long long unit, long long user)
{
	unsigned long src = (unsigned long)addr;
	int size = unit == 2 ? 2 : 4;
	int room = MAXSTRINGLEN, rc;
	u32 cp, low;

	out[0] = '\0';
	while (room > 1) {
		if (tap_read_unit(src, size, user, &cp))
			goto fault;
		if (!cp)
			return;
		/* a high surrogate and a low one after it make one character */
		if (size == 2 && cp >= 0xd800 && cp <= 0xdbff) {
			src += 2;
			if (tap_read_unit(src, 2, user, &low))
				goto fault;
			if (low >= 0xdc00 && low <= 0xdfff)
				cp = 0x10000 + ((cp & 0x3ff) << 10) + (low & 0x3ff);
			else
				src -= 2;
		}
		rc = tap_put_utf8(out, room, cp);
		if (rc < 0) {
			tap_errorf(c, "invalid UTF-%d character U+%X at 0x%lx",
				   size * 8, cp, src);
			return;
		}
		if (rc == 0)
			return;
		src += size;
		out += rc;
		room -= rc;
	}
	return;
fault:
	tap_errorf(c, "%s string copy fault at 0x%lx [man error::fault]",
		   user ? "user" : "kernel", src);
}

/* ---- kernel_buffer_quoted() and the _error forms ----------------------- */

/*
 * @inlen bytes at @addr (0, negative or past MAXSTRINGLEN - 1 meaning
 * MAXSTRINGLEN - 1, as SystemTap reads them), quoted and escaped with
 * NULs kept as "\0", at most @outlen characters.  Return: 0, or -EFAULT
 * when @outlen is 0 (@out is then "") or the bytes cannot all be read.
 */
long long tapset_buffer_quoted(char *out, long long addr, long long inlen,
			       long long outlen, long long user)
{
	char *raw = tap_cpu_scratch();
	long long room = clamp_t(long long, outlen, 0, MAXSTRINGLEN);
	size_t n = inlen <= 0 || inlen > MAXSTRINGLEN - 1 ? MAXSTRINGLEN - 1 : (size_t)inlen;
	long rc;

	out[0] = '\0';
	if (room == 0)
		return -EFAULT;
	rc = user ? copy_from_user_nofault(raw, (const void __user *)(unsigned long)addr, n)
		  : tap_read_kernel(raw, (unsigned long)addr, n);
	if (rc)
		return -EFAULT;
	tap_text_str_raw(out, MAXSTRINGLEN, raw, (int)n, (int)room, true, true);
	return 0;
}

void tapset_kernel_buffer_quoted(char *out, long long addr, long long inlen,
				 long long outlen)
{
	if (tapset_buffer_quoted(out, addr, inlen, outlen, 0) && outlen > 0)
		snprintf(out, min_t(long long, outlen, MAXSTRINGLEN), "0x%lx",
			 (unsigned long)addr);
}

/* ---- guru-mode writes of user memory ----------------------------------- */

long long tapset_user_write(long long addr, long long size, long long val)
{
	u64 v = (u64)val;	/* little-endian: the low bytes first */

	if (size != 1 && size != 2 && size != 4 && size != 8)
		return -EINVAL;
	return copy_to_user_nofault((void __user *)(unsigned long)addr, &v, size) ? -EFAULT : 0;
}

long long tapset_user_write_string(long long addr, const char *val, long long n)
{
	size_t len = strnlen(val, clamp_t(long long, n, 0, MAXSTRINGLEN - 1));
	void __user *dst = (void __user *)(unsigned long)addr;
	char nul = '\0';

	if (copy_to_user_nofault(dst, val, len) ||
	    copy_to_user_nofault(dst + len, &nul, 1))
		return -EFAULT;
	return 0;
}

/* ---- set_int_arg() and the other setters ------------------------------- */

/*
 * SystemTap writes a system call's arguments in the user registers the
 * call will read them from (its "sregs"): di si dx r10 r8 r9.  Elsewhere
 * there are none to write.  @size is how many low bytes of the register
 * change (set_int_arg() keeps the upper half, as SystemTap's 4-byte store
 * does).
 */
void tapset_set_arg(struct tap_context *c, long long n, long long size,
		    long long val)
{
	struct pt_regs *regs = c->regs;
	unsigned long *slot;

	if (!regs || !c->user_regs || !c->probe || c->probe->kind != TAP_PROBE_SYSCALL) {
		tap_error(c, "cannot access function args in this context");
		return;
	}
	switch (n) {
	case 1: slot = &regs->di; break;
	case 2: slot = &regs->si; break;
	case 3: slot = &regs->dx; break;
	case 4: slot = &regs->r10; break;
	case 5: slot = &regs->r8; break;
	case 6: slot = &regs->r9; break;
	default:
		tap_errorf(c, "cannot access arg(%lld)", n);
		return;
	}
	if (size == 4)
		*slot = (*slot & ~0xffffffffUL) | (u32)val;
	else
		*slot = (unsigned long)val;
}

/* ---- guru-delay.stp, guru-signal.stp, panic.stp -------------------------- */

void tapset_mdelay(long long ms)
{
	mdelay((unsigned long)ms);
}

void tapset_udelay(long long us)
{
	udelay((unsigned long)us);
}

void tapset_raise(struct tap_context *c, long long signo)
{
	int rc = send_sig((int)signo, current, 1);

	if (rc)
		tap_errorf(c, "raise/send_sig error %d", rc);
}

void tapset_panic(const char *msg)
{
	panic("%s", msg);
}
