// SPDX-License-Identifier: GPL-2.0
/*
 * Memory reads behind target variables ($prev->comm, $p->field[i] ...):
 * every read goes through the kernel's no-fault copies, so a bad pointer
 * raises SystemTap's read fault error in the hit instead of oopsing.  A
 * user-space probe's variables (process(...).function) are read from the
 * current task's memory the same way, through the user reader: each walk
 * below takes its reader as a parameter.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/fsgsbase.h>
#include "tap_internal.h"
#include "strfn.h"

/* Copy @len bytes at @addr into @dst without faulting; 0 or -EFAULT. */
typedef long (*tap_reader_t)(void *dst, unsigned long addr, size_t len);

/* The current task's memory; never sleeps (page faults are disabled). */
static long tap_read_user(void *dst, unsigned long addr, size_t len)
{
	return copy_from_user_nofault(dst, (const void __user *)addr, len) ? -EFAULT : 0;
}

static void tap_deref_fault(struct tap_context *c, unsigned long addr)
{
	tap_errorf(c, "read fault [man error::fault] at 0x%016lx (addr)", addr);
}

void tap_dwarf_piece(struct tap_context *c, char *buf, unsigned int off, unsigned int size,
		     int in_mem, unsigned long v)
{
	if (c->last_error)	/* the register @v came from was not there */
		return;
	if (off > MAXSTRINGLEN || size > MAXSTRINGLEN - off || (!in_mem && size > sizeof(v))) {
		tap_errorf(c, "a variable's pieces do not fit in MAXSTRINGLEN (%u)",
			   (unsigned int)MAXSTRINGLEN);
		return;
	}
	if (!in_mem)
		memcpy(buf + off, &v, size);	/* little-endian: the low bytes */
	else if (tap_read_kernel(buf + off, v, size))
		tap_deref_fault(c, v);
}

static long long tap_deref_with(tap_reader_t read, struct tap_context *c,
				unsigned long addr, int size, int is_signed)
{
	union {
		u8 b;
		u16 h;
		u32 w;
		u64 q;
	} v;

	if ((size != 1 && size != 2 && size != 4 && size != 8) ||
	    read(&v, addr, size)) {
		tap_deref_fault(c, addr);
		return 0;
	}
	switch (size) {
	case 1:
		return is_signed ? (long long)(s8)v.b : (long long)v.b;
	case 2:
		return is_signed ? (long long)(s16)v.h : (long long)v.h;
	case 4:
		return is_signed ? (long long)(s32)v.w : (long long)v.w;
	default:
		return (long long)v.q;
	}
}

static long long tap_deref_bits_with(tap_reader_t read, struct tap_context *c,
				     unsigned long addr, unsigned int bitpos,
				     unsigned int bits, int is_signed)
{
	u8 bytes[9];
	unsigned int n = (bitpos + bits + 7) / 8, i;
	u64 v = 0;

	if (bits == 0 || bits > 64 || n > sizeof(bytes) ||
	    read(bytes, addr, n)) {
		tap_deref_fault(c, addr);
		return 0;
	}
	/* the bytes past the eighth only hold the field's top bits */
	for (i = 0; i < n && i < 8; i++)
		v |= (u64)bytes[i] << (8 * i);
	v >>= bitpos;
	if (n == 9)
		v |= (u64)bytes[8] << (64 - bitpos);
	if (bits < 64) {
		v &= (1ULL << bits) - 1;
		if (is_signed && (v >> (bits - 1)) & 1)
			v |= ~0ULL << bits;
	}
	return (long long)v;
}

/* The NUL-terminated string at @addr into @out (MAXSTRINGLEN bytes, cut
 * to fit); 0, or -EFAULT when a byte before its end cannot be read. */
static int tap_read_cstring(tap_reader_t read, char *out, unsigned long addr)
{
	unsigned long len = 0;

	/* page by page, so that a string ending before an unmapped page
	 * still reads */
	while (len < MAXSTRINGLEN - 1) {
		unsigned long at = addr + len;
		unsigned long chunk = PAGE_SIZE - (at & ~PAGE_MASK);

		if (chunk > MAXSTRINGLEN - 1 - len)
			chunk = MAXSTRINGLEN - 1 - len;
		if (read(out + len, at, chunk))
			return -EFAULT;
		if (memchr(out + len, '\0', chunk))
			return 0;
		len += chunk;
	}
	out[len] = '\0';
	return 0;
}

long long tap_deref(struct tap_context *c, unsigned long addr, int size,
		    int is_signed)
{
	return tap_deref_with(tap_read_kernel, c, addr, size, is_signed);
}

long long tap_deref_bits(struct tap_context *c, unsigned long addr,
			 unsigned int bitpos, unsigned int bits, int is_signed)
{
	return tap_deref_bits_with(tap_read_kernel, c, addr, bitpos, bits, is_signed);
}

/*
 * As SystemTap 4.8's kernel_or_user_string_quoted(), which its pretty
 * printer calls for a kernel probe's char pointers and arrays: DWARF does
 * not mark __user pointers, so the kernel's memory is tried first, then
 * the current task's.  The raw copy goes to the CPU's scratch buffer
 * (noinline: off the generated code's frames).
 */
noinline void tap_deref_cstring(struct tap_context *c, char *out, unsigned long addr)
{
	char *raw = tap_cpu_scratch();

	if (tap_read_cstring(tap_read_kernel, raw, addr) &&
	    tap_read_cstring(tap_read_user, raw, addr)) {
		tap_deref_fault(c, addr);
		return;
	}
	tap_string_quoted(out, MAXSTRINGLEN, raw);
}

long long tap_uderef(struct tap_context *c, unsigned long addr, int size,
		     int is_signed)
{
	return tap_deref_with(tap_read_user, c, addr, size, is_signed);
}

/*
 * The current thread's thread-local block of the shared library the
 * dynamic linker numbered @modid: glibc's x86-64 layout, where the word
 * after the thread pointer's is the DTV, an array of 16-byte entries
 * whose first word is the module's block, the entry before the first
 * holding their number.  A block the thread has not allocated yet (a
 * dlopen()ed library's before the thread touched it) is an error, as a
 * fault is.
 */
unsigned long tap_user_tls_block(struct tap_context *c, unsigned long modid)
{
	unsigned long tp = x86_fsbase_read_cpu();
	unsigned long dtv, entries, block;

	if (c->last_error)	/* @modid was not read */
		return 0;
	if (tap_read_user(&dtv, tp + sizeof(long), sizeof(dtv))) {
		tap_deref_fault(c, tp + sizeof(long));
		return 0;
	}
	if (tap_read_user(&entries, dtv - 2 * sizeof(long), sizeof(entries))) {
		tap_deref_fault(c, dtv - 2 * sizeof(long));
		return 0;
	}
	if (!modid || modid > entries) {
		tap_errorf(c, "no thread-local storage for module id %lu in this thread", modid);
		return 0;
	}
	if (tap_read_user(&block, dtv + modid * 2 * sizeof(long), sizeof(block))) {
		tap_deref_fault(c, dtv + modid * 2 * sizeof(long));
		return 0;
	}
	if (!block || block == -1UL) {	/* glibc's TLS_DTV_UNALLOCATED */
		tap_errorf(c, "thread-local storage of module id %lu not allocated in "
			   "this thread", modid);
		return 0;
	}
	return block;
}

long long tap_uderef_bits(struct tap_context *c, unsigned long addr,
			  unsigned int bitpos, unsigned int bits, int is_signed)
{
	return tap_deref_bits_with(tap_read_user, c, addr, bitpos, bits, is_signed);
}

/* As SystemTap's user_string_quoted(), for a user probe's: the address
 * in hex when the string cannot be read. */
noinline void tap_uderef_cstring(struct tap_context *c, char *out, unsigned long addr)
{
	char *raw = tap_cpu_scratch();

	(void)c;
	if (tap_read_cstring(tap_read_user, raw, addr)) {
		snprintf(out, MAXSTRINGLEN, "0x%lx", addr);
		return;
	}
	tap_string_quoted(out, MAXSTRINGLEN, raw);
}

static void tap_write_fault(struct tap_context *c, unsigned long addr)
{
	tap_errorf(c, "write fault [man error::fault] at 0x%016lx (addr)", addr);
}

void tap_store(struct tap_context *c, unsigned long addr, int size, long long val)
{
	if (tapset_kernel_write((long long)addr, size, val))
		tap_write_fault(c, addr);
}

/* Bits @bitpos..@bitpos+@bits of the little-endian bytes at @bytes set
 * to the low @bits bits of @val. */
static void tap_merge_bits(u8 *bytes, unsigned int bitpos, unsigned int bits, u64 val)
{
	unsigned int i;

	for (i = 0; i < bits; i++) {
		unsigned int at = bitpos + i;
		u8 mask = 1u << (at % 8);

		if ((val >> i) & 1)
			bytes[at / 8] |= mask;
		else
			bytes[at / 8] &= ~mask;
	}
}

/*
 * A bit field is written as the compiler writes one: the bytes that hold
 * it are read, its bits replaced, and the bytes written back, so the
 * fields that share them keep their values (not atomic against a
 * concurrent writer of a neighbour, as the kernel's own C is not).
 */
void tap_store_bits(struct tap_context *c, unsigned long addr, unsigned int bitpos,
		    unsigned int bits, long long val)
{
	u8 bytes[9];
	unsigned int n = (bitpos + bits + 7) / 8, i;

	if (bits == 0 || bits > 64 || n > sizeof(bytes) ||
	    tap_read_kernel(bytes, addr, n)) {
		tap_write_fault(c, addr);
		return;
	}
	tap_merge_bits(bytes, bitpos, bits, (u64)val);
	for (i = 0; i < n; i++)
		if (tapset_kernel_write((long long)(addr + i), 1, bytes[i])) {
			tap_write_fault(c, addr + i);
			return;
		}
}

void tap_ustore_bits(struct tap_context *c, unsigned long addr, unsigned int bitpos,
		     unsigned int bits, long long val)
{
	u8 bytes[9];
	unsigned int n = (bitpos + bits + 7) / 8;

	if (bits == 0 || bits > 64 || n > sizeof(bytes) ||
	    tap_read_user(bytes, addr, n)) {
		tap_write_fault(c, addr);
		return;
	}
	tap_merge_bits(bytes, bitpos, bits, (u64)val);
	if (copy_to_user_nofault((void __user *)addr, bytes, n))
		tap_write_fault(c, addr);
}

void tap_ustore(struct tap_context *c, unsigned long addr, int size, long long val)
{
	u64 v = (u64)val;	/* little-endian: the low bytes first */

	if ((size != 1 && size != 2 && size != 4 && size != 8) ||
	    copy_to_user_nofault((void __user *)addr, &v, size))
		tap_write_fault(c, addr);
}
