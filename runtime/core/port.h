/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The portable core of the tapc runtime (maps, statistics, strings,
 * printf formatting) builds in two worlds: inside a kernel module against
 * the kernel's headers, and in user space for unit tests and benchmarks.
 * This header is the only place that knows the difference. Core code uses
 * only what is declared here.
 */
#ifndef TAPC_RUNTIME_PORT_H
#define TAPC_RUNTIME_PORT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/string.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/errno.h>

/* Preallocation happens at module load, in process context. */
static inline void *tap_zalloc(size_t size)
{
	return vzalloc(size);
}

static inline void tap_free(void *p)
{
	vfree(p);
}
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int64_t s64;
typedef uint64_t u64;
typedef int32_t s32;
typedef uint32_t u32;
typedef int16_t s16;
typedef uint16_t u16;
typedef int8_t s8;
typedef uint8_t u8;

static inline void *tap_zalloc(size_t size)
{
	return calloc(1, size ? size : 1);
}

static inline void tap_free(void *p)
{
	free(p);
}
#endif

#endif /* TAPC_RUNTIME_PORT_H */
