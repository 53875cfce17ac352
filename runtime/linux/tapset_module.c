// SPDX-License-Identifier: GPL-2.0
/*
 * The module itself, as SystemTap's context tapset reports it:
 * module_size() (its sections and the memory its runtime allocated) and
 * remote_id()/remote_uri() (which remote of a tapc --remote run this is,
 * passed by tapc-run -r N:URI).
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include "tap_internal.h"

static int tap_remote_id = -1;
module_param_named(_tap_remote_id, tap_remote_id, int, 0444);
MODULE_PARM_DESC(_tap_remote_id, "remote_id() (tapc-run -r N:URI)");
static char tap_remote_uri[128];
module_param_string(_tap_remote_uri, tap_remote_uri, sizeof(tap_remote_uri), 0444);
MODULE_PARM_DESC(_tap_remote_uri, "remote_uri() (tapc-run -r N:URI)");

long long tapset_remote_id(void)
{
	return tap_remote_id;
}

void tapset_remote_uri(char *out)
{
	strscpy(out, tap_remote_uri, MAXSTRINGLEN);
}

/* Bytes the runtime allocated at load, by what for (enum tap_mem_kind). */
static atomic_long_t tap_mem_bytes[TAP_MEM_KINDS];

void tap_mem_count(enum tap_mem_kind kind, size_t bytes)
{
	atomic_long_add(bytes, &tap_mem_bytes[kind]);
}

/* The module's loaded text and the rest (read-only and writable data). */
static void tap_module_sections(unsigned long *text, unsigned long *data)
{
#ifdef TAPCONF_MODULE_LAYOUT
	*text = THIS_MODULE->core_layout.text_size;
	*data = THIS_MODULE->core_layout.size - *text;
#else
	*text = THIS_MODULE->mem[MOD_TEXT].size;
	*data = THIS_MODULE->mem[MOD_DATA].size +
		THIS_MODULE->mem[MOD_RODATA].size +
		THIS_MODULE->mem[MOD_RO_AFTER_INIT].size;
#endif
}

void tapset_module_size(char *out)
{
	unsigned long text, data;

	tap_module_sections(&text, &data);
	snprintf(out, MAXSTRINGLEN, "%ludata/%lutext/%luctx/%lunet/%lualloc kb",
		 data / 1024, text / 1024,
		 atomic_long_read(&tap_mem_bytes[TAP_MEM_CTX]) / 1024,
		 atomic_long_read(&tap_mem_bytes[TAP_MEM_NET]) / 1024,
		 atomic_long_read(&tap_mem_bytes[TAP_MEM_ALLOC]) / 1024);
}
