// SPDX-License-Identifier: GPL-2.0
/*
 * The conversions tapset's kernel side: reads (and, in guru mode, writes)
 * of kernel memory at addresses a script computes.  Such an address can
 * be anything, so every access goes through the kernel's no-fault
 * primitives: a bad address gives -EFAULT, which the tapset turns into
 * SystemTap's "kernel ... copy fault" error, never an oops.
 */
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "strfn.h"
#include "tap_internal.h"

/*
 * copy_from_kernel_nofault() for an address a script computed, failing
 * for one outside the canonical halves of the paging mode in use, too.
 * The kernel's own check measures canonical addresses by the CPU's
 * virtual address width, which can be wider than the paging mode's
 * (QEMU's TCG CPU reports 57 bits under 4-level paging, as does a 5-level
 * CPU booted with no5lvl): a read in between raises a general protection
 * fault, which the kernel fixes up but reports with a WARNING.
 */
long tap_read_kernel(void *dst, unsigned long addr, size_t len)
{
#ifdef CONFIG_X86_64
	unsigned int shift = 63 - __VIRTUAL_MASK_SHIFT;
	unsigned long last = addr + len - 1;

	if (len == 0)
		return 0;
	if (last < addr ||
	    (unsigned long)((long)(addr << shift) >> shift) != addr ||
	    (unsigned long)((long)(last << shift) >> shift) != last)
		return -EFAULT;
#endif
	return copy_from_kernel_nofault(dst, (const void *)addr, len);
}

long long tapset_kernel_read(long long addr, long long size,
			     long long *val)
{
	union { s8 b; s16 h; s32 w; s64 q; } v;

	*val = 0;
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return -EINVAL;
	if (tap_read_kernel(&v, (unsigned long)addr, size))
		return -EFAULT;
	switch (size) {
	case 1:
		*val = v.b;
		break;
	case 2:
		*val = v.h;
		break;
	case 4:
		*val = v.w;
		break;
	default:
		*val = v.q;
		break;
	}
	return 0;
}

/*
 * strncpy_from_kernel_nofault() is not exported: copy a page at a time
 * with tap_read_kernel(), so that a string which ends before an
 * unmapped page is read whole and one that runs into it faults, as a
 * byte-by-byte copy would.
 */
long long tapset_kernel_string_copy(char *out, long long addr, long long n)
{
	unsigned long src = (unsigned long)addr;
	size_t max = clamp_t(long long, n, 0, MAXSTRINGLEN - 1);
	size_t done = 0;

	while (done < max) {
		size_t chunk = min_t(size_t, max - done,
				     PAGE_SIZE - offset_in_page(src + done));
		const char *nul;

		if (tap_read_kernel(out + done, src + done, chunk)) {
			out[0] = '\0';
			return -EFAULT;
		}
		nul = memchr(out + done, '\0', chunk);
		if (nul)
			return 0;
		done += chunk;
	}
	out[done] = '\0';
	return 0;
}

/*
 * kernel_string_quoted(): the string escaped and quoted as string_quoted()
 * does, with "..." when it does not fit; the address in hex when it is 0
 * or unreadable.  The raw copy needs its own buffer: noinline keeps it
 * off the stack of the generated code's frames.
 */
noinline void tapset_kernel_string_quoted(char *out, long long addr)
{
	char *raw = tap_cpu_scratch();

	if (addr == 0 ||
	    tapset_kernel_string_copy(raw, addr, MAXSTRINGLEN - 1)) {
		snprintf(out, MAXSTRINGLEN, "0x%lx", (unsigned long)addr);
		return;
	}
	tap_text_str_raw(out, MAXSTRINGLEN, raw, MAXSTRINGLEN - 1,
			 MAXSTRINGLEN - 1, true, false);
}

/*
 * Guru-mode writes.  copy_to_kernel_nofault() is not exported; the same
 * no-fault store is __put_kernel_nofault() with page faults disabled.  A
 * first no-fault read of the target rejects what reads reject (user
 * space, non-canonical addresses) and anything unmapped.
 */
static int kernel_writable(unsigned long dst, size_t size)
{
	char probe;

	if (size == 0)
		return 0;
	if (tap_read_kernel(&probe, dst, 1) || tap_read_kernel(&probe, dst + size - 1, 1))
		return -EFAULT;
	return 0;
}

#define TAP_PUT_NOFAULT(dst, val, type)					\
	({								\
		type v_ = (type)(val);					\
		int r_ = 0;						\
		__put_kernel_nofault((void *)(dst), &v_, type, fault);	\
		if (0) {						\
fault:									\
			r_ = -EFAULT;					\
		}							\
		r_;							\
	})

static noinline int put_u8(unsigned long dst, u8 val)
{
	return TAP_PUT_NOFAULT(dst, val, u8);
}

static noinline int put_u16(unsigned long dst, u16 val)
{
	return TAP_PUT_NOFAULT(dst, val, u16);
}

static noinline int put_u32(unsigned long dst, u32 val)
{
	return TAP_PUT_NOFAULT(dst, val, u32);
}

static noinline int put_u64(unsigned long dst, u64 val)
{
	return TAP_PUT_NOFAULT(dst, val, u64);
}

static int put_sized(unsigned long dst, long long size, long long val)
{
	int rc;

	pagefault_disable();
	switch (size) {
	case 1:
		rc = put_u8(dst, val);
		break;
	case 2:
		rc = put_u16(dst, val);
		break;
	case 4:
		rc = put_u32(dst, val);
		break;
	default:
		rc = put_u64(dst, val);
		break;
	}
	pagefault_enable();
	return rc;
}

long long tapset_kernel_write(long long addr, long long size, long long val)
{
	unsigned long dst = (unsigned long)addr;

	if (size != 1 && size != 2 && size != 4 && size != 8)
		return -EINVAL;
	if (kernel_writable(dst, size))
		return -EFAULT;
	return put_sized(dst, size, val);
}

long long tapset_kernel_write_string(long long addr, const char *val,
				     long long n)
{
	unsigned long dst = (unsigned long)addr;
	size_t len = strnlen(val, clamp_t(long long, n, 0, MAXSTRINGLEN - 1));
	size_t i;

	if (kernel_writable(dst, len + 1))
		return -EFAULT;
	for (i = 0; i < len; i++)
		if (put_sized(dst + i, 1, val[i]))
			return -EFAULT;
	return put_sized(dst + len, 1, 0);
}
