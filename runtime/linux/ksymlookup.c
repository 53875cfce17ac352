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
#include <linux/slab.h>
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

/*
 * The module symbols statics of modules are read from, looked up once when
 * the script starts (kallsyms_lookup_name() takes "MOD:NAME"), as module
 * probes are placed then: a module loaded later is not seen.  The kernel
 * frees a module's symbols with it, so an address kept past an unload is
 * stale; reads stay fault-safe.
 */
static unsigned long *tap_modsym_addrs;

int tap_modsyms_init(void)
{
	unsigned int k;

	if (!tap_nmodsyms)
		return 0;
	tap_modsym_addrs = kcalloc(tap_nmodsyms, sizeof(*tap_modsym_addrs), GFP_KERNEL);
	if (!tap_modsym_addrs)
		return -ENOMEM;
	for (k = 0; k < tap_nmodsyms; k++)
		tap_modsym_addrs[k] = tap_kernel_symbol(tap_modsyms[k]);
	return 0;
}

void tap_modsyms_exit(void)
{
	kfree(tap_modsym_addrs);
	tap_modsym_addrs = NULL;
}

unsigned long tap_module_symbol(struct tap_context *c, unsigned int k)
{
	const char *colon;

	if (k < tap_nmodsyms && tap_modsym_addrs && tap_modsym_addrs[k])
		return tap_modsym_addrs[k];
	colon = k < tap_nmodsyms ? strchr(tap_modsyms[k], ':') : NULL;
	if (colon)
		tap_errorf(c, "cannot read a static of module '%.*s': symbol '%s' not found "
			   "(the module was not loaded when the script started)",
			   (int)(colon - tap_modsyms[k]), tap_modsyms[k], colon + 1);
	else
		tap_error(c, "cannot read a static of a module");
	return 0;
}
