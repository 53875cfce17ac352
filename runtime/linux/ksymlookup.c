// SPDX-License-Identifier: GPL-2.0
/*
 * Addresses of kernel symbols the kernel does not export.  Since Linux 5.7
 * modules cannot call kallsyms_lookup_name(); a kprobe still resolves a
 * function's name, and kallsyms_lookup_name() found that way resolves
 * any other symbol, data included (SystemTap's runtime does the same).
 * Process context: registering a kprobe may sleep.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/string.h>
#include "tap_internal.h"

void *tap_kernel_function(const char *name, int *err)
{
	/* registered disabled: resolved, but the kernel text is not patched */
	struct kprobe kp = { .symbol_name = name, .flags = KPROBE_FLAG_DISABLED };
	char sym[KSYM_SYMBOL_LEN];
	unsigned long addr, off = 0;
	char *plus;

	*err = register_kprobe(&kp);
	if (*err)
		return NULL;
	*err = -EINVAL;
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	/* the probe may sit past the entry (an endbr): "name+0x4/0x40" */
	sprint_symbol(sym, addr);
	plus = strchr(sym, '+');
	if (!plus || strncmp(sym, name, plus - sym) || name[plus - sym])
		return NULL;
	*strchrnul(plus, '/') = '\0';
	if (kstrtoul(plus + 1, 0, &off))
		return NULL;
	*err = 0;
	return (void *)(addr - off);
}

unsigned long tap_kernel_symbol(const char *name)
{
	static unsigned long (*lookup)(const char *name);
	int err;

	if (!lookup)
		lookup = tap_kernel_function("kallsyms_lookup_name", &err);
	return lookup ? lookup(name) : 0;
}
