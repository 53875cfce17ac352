/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tapc_embedded.h - the names that embedded C written for SystemTap
 * (%{ %} functions, expressions and blocks in guru-mode scripts) expects
 * from SystemTap's runtime beyond its STAP_ARG_/STAP_RETVALUE/CONTEXT
 * macros: fault-safe kernel and user memory reads and writes by pointer
 * (kread(&p->files), uread(), kderef(size, addr), kderef_buffer() ...),
 * CATCH_DEREF_FAULT(),
 * <linux/version.h> for the scripts' own kernel version tests, and with
 * -g SystemTap's usual kernel headers.
 *
 * Included by the generated C of scripts with embedded code, after
 * tapc_runtime.h.  A fault raises tapc's read/write fault error in the
 * hit (the same text as for target variables) and leaves the function or
 * probe body at its out: label, as SystemTap's DEREF_FAULT() leaves at
 * deref_fault:, so the code after a failed read never sees a bogus value.
 */
#ifndef TAPC_EMBEDDED_H
#define TAPC_EMBEDDED_H

#include <linux/version.h>

/*
 * Guru-mode scripts (-g) also use, without including them, what
 * SystemTap's runtime includes for every module: the kernel's basics,
 * tasks and their signal_struct, memory, RCU (min(), current->signal,
 * list_for_each_entry ...).  The translator defines TAPC_GURU_HEADERS
 * for -g only, so the tapset library's C compiles as quickly as ever.
 */
#if defined(__KERNEL__) && defined(TAPC_GURU_HEADERS)
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/time.h>
#endif

/* @size bytes at kernel (k) or current-task user (u) address @addr */
#define tap_embedded_deref_(reader, size, addr) ({			\
	long long tap_v_ = reader(CONTEXT, (unsigned long)(addr), (size), 0); \
	if (CONTEXT->last_error)					\
		goto out;						\
	tap_v_;								\
})
#define kderef(size, addr)	tap_embedded_deref_(tap_deref, size, addr)
#define uderef(size, addr)	tap_embedded_deref_(tap_uderef, size, addr)

/* *ptr, of ptr's own (integer or pointer) type */
#define kread(ptr)	((__typeof__(*(ptr)))kderef(sizeof(*(ptr)), (ptr)))
#define uread(ptr)	((__typeof__(*(ptr)))uderef(sizeof(*(ptr)), (ptr)))

/*
 * SystemTap's kderef_buffer(): @len bytes at kernel address @addr into
 * @dst, or with a NULL @dst only checked readable (pfiles.stp reads a
 * credential so); a fault leaves the body as kderef() does.  Its value is
 * @dst past the bytes copied.
 */
#define kderef_buffer(dst, addr, len) ({				\
	char *tap_kb_dst_ = (char *)(dst);				\
	unsigned long tap_kb_addr_ = (unsigned long)(addr);		\
	unsigned long tap_kb_i_;					\
	for (tap_kb_i_ = 0; tap_kb_i_ < (unsigned long)(len); tap_kb_i_++) { \
		char tap_kb_c_ = (char)kderef(1, tap_kb_addr_ + tap_kb_i_); \
		if (tap_kb_dst_)					\
			*tap_kb_dst_++ = tap_kb_c_;			\
	}								\
	tap_kb_dst_;							\
})

#define tap_embedded_store_(writer, size, addr, value) ({		\
	writer(CONTEXT, (unsigned long)(addr), (size), (long long)(value)); \
	if (CONTEXT->last_error)					\
		goto out;						\
})
#define store_kderef(size, addr, value)	tap_embedded_store_(tap_store, size, addr, value)
#define store_uderef(size, addr, value)	tap_embedded_store_(tap_ustore, size, addr, value)
#define kwrite(ptr, value)	store_kderef(sizeof(*(ptr)), (ptr), (value))
#define uwrite(ptr, value)	store_uderef(sizeof(*(ptr)), (ptr), (value))

/* SystemTap's version numbers, as embedded C compares them with
 * STAP_COMPAT_VERSION (which the translator defines from --compatible). */
#define STAP_VERSION(a, b)	(((a) << 8) + (b))

/* The faults above already left the body; nothing is left to catch. */
#define CATCH_DEREF_FAULT()	({ 0; })

/*
 * SystemTap's runtime calls for output and logging that guru-mode C
 * makes, where CONTEXT is in scope (a %{ %} function or expression):
 * _stp_printf() and _stp_print() append to the script's output, as
 * STAP_PRINTF; _stp_print_flush() sends this CPU's output so far on its
 * way; _stp_log() is a line of output; _stp_warn() writes a "WARNING: "
 * line and _stp_softerror() an "ERROR: " line to the error channel;
 * _stp_error() writes that line and ends the session, as exit() does
 * (tap_embedded_log() and tap_print_flush(), tapc_runtime.h).
 */
#define _stp_printf(...)	tap_cprintf(CONTEXT, __VA_ARGS__)
#define _stp_print(s)		tap_cprintf(CONTEXT, "%s", (s))
#define _stp_print_flush()	tap_print_flush(CONTEXT)
#define _stp_log(...)		tap_embedded_log(CONTEXT, TAP_ELOG_LINE, __VA_ARGS__)
#define _stp_warn(...)		tap_embedded_log(CONTEXT, TAP_ELOG_WARN, __VA_ARGS__)
#define _stp_softerror(...)	tap_embedded_log(CONTEXT, TAP_ELOG_SOFTERROR, __VA_ARGS__)
#define _stp_error(...)		tap_embedded_log(CONTEXT, TAP_ELOG_ERROR, __VA_ARGS__)

#endif /* TAPC_EMBEDDED_H */
