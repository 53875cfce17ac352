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
#include <linux/module.h>
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
 * find_module() is not exported since Linux 5.12; found as above, it is
 * called with preemption off, which keeps the module list stable.
 */
bool tap_module_live(const char *name)
{
	static struct module *(*find)(const char *name);
	char kname[MODULE_NAME_LEN];
	struct module *mod;
	bool live;
	int err, i;

	if (!find)
		find = tap_kernel_function("find_module", &err);
	if (!find || strscpy(kname, name, sizeof(kname)) < 0)
		return false;
	for (i = 0; kname[i]; i++)
		if (kname[i] == '-')
			kname[i] = '_';
	preempt_disable();
	mod = find(kname);
	live = mod && mod->state == MODULE_STATE_LIVE;
	preempt_enable();
	return live;
}

/*
 * The module symbols statics of modules are read from, looked up when the
 * script starts (kallsyms_lookup_name() takes "MOD:NAME") and again when
 * a module of theirs is loaded later, as module probes are placed then
 * too; forgotten when it goes, as the kernel frees its symbols with it.
 * A probe reads an address once per use (READ_ONCE), and reads stay
 * fault-safe.
 */
static unsigned long *tap_modsym_addrs;
static bool tap_modsym_notifying;

/* Whether "MOD:NAME" is a symbol of module @name. */
static bool tap_modsym_of(const char *modsym, const char *name)
{
	size_t len = strlen(name);

	return !strncmp(modsym, name, len) && modsym[len] == ':';
}

static int tap_modsyms_event(struct notifier_block *nb, unsigned long state, void *data)
{
	struct module *mod = data;
	unsigned int k;

	if (state != MODULE_STATE_COMING && state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	for (k = 0; k < tap_nmodsyms; k++)
		if (tap_modsym_of(tap_modsyms[k], mod->name))
			WRITE_ONCE(tap_modsym_addrs[k], state == MODULE_STATE_COMING
				   ? tap_kernel_symbol(tap_modsyms[k]) : 0);
	return NOTIFY_DONE;
}

/* Before the kprobes' notifier (priority 0): a probe on the module's
 * code finds its statics from its first hit. */
static struct notifier_block tap_modsyms_nb = {
	.notifier_call = tap_modsyms_event,
	.priority = 1,
};

int tap_modsyms_init(void)
{
	unsigned int k;
	int ret;

	if (!tap_nmodsyms)
		return 0;
	tap_modsym_addrs = kcalloc(tap_nmodsyms, sizeof(*tap_modsym_addrs), GFP_KERNEL);
	if (!tap_modsym_addrs)
		return -ENOMEM;
	ret = register_module_notifier(&tap_modsyms_nb);
	if (ret) {
		kfree(tap_modsym_addrs);
		tap_modsym_addrs = NULL;
		return ret;
	}
	tap_modsym_notifying = true;
	for (k = 0; k < tap_nmodsyms; k++)
		WRITE_ONCE(tap_modsym_addrs[k], tap_kernel_symbol(tap_modsyms[k]));
	return 0;
}

void tap_modsyms_exit(void)
{
	if (tap_modsym_notifying)
		unregister_module_notifier(&tap_modsyms_nb);
	tap_modsym_notifying = false;
	kfree(tap_modsym_addrs);
	tap_modsym_addrs = NULL;
}

unsigned long tap_modsym_addr(unsigned int k)
{
	return k < tap_nmodsyms && tap_modsym_addrs ? READ_ONCE(tap_modsym_addrs[k]) : 0;
}

unsigned long tap_module_symbol(struct tap_context *c, unsigned int k)
{
	unsigned long addr = tap_modsym_addr(k);
	const char *colon;

	if (addr)
		return addr;
	colon = k < tap_nmodsyms ? strchr(tap_modsyms[k], ':') : NULL;
	if (colon)
		tap_errorf(c, "cannot read a static of module '%.*s': symbol '%s' not found "
			   "(the module is not loaded)",
			   (int)(colon - tap_modsyms[k]), tap_modsyms[k], colon + 1);
	else
		tap_error(c, "cannot read a static of a module");
	return 0;
}
