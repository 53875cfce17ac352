// SPDX-License-Identifier: GPL-2.0
/*
 * kprobe.function("NAME")[.return[.maxactive(N)]], the kprobe.module()
 * forms and kprobe.statement(ADDR).absolute: one kprobe or kretprobe per
 * TAP_PROBE_KPROBE entry of tap_probes[].
 *
 * Entry fields (src/probes/kprobe.c writes them): target = the symbol
 * (NULL: u.kprobe.addr is an absolute address), module = its module or
 * NULL, flags & TAP_PF_RETURN = a kretprobe, u.kprobe.maxactive (< 0:
 * the default), u.kprobe.optional for an optional point.
 *
 * As SystemTap does, a probe that does not register is a warning
 * ("registration error", with the kernel's rc), not optional ones, and
 * the script runs with the others.  Module functions are registered by
 * "MOD:NAME" when the script starts if their module is loaded, and as
 * SystemTap does, through a module notifier, whenever it is loaded
 * later (before its init function runs), unregistered when it goes.
 * Hits the kernel missed (a kretprobe out of instances, a
 * kprobe hit inside another) are counted as skipped probes when the
 * probes are unregistered, and with -t reported one line each.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include "tap_internal.h"

struct tap_kp {
	const struct tap_probe *probe;
	char *symbol;		/* "NAME" or "MOD:NAME", or NULL */
	bool ret;		/* a kretprobe */
	bool registered;
	bool disarmed;		/* its arming condition is false */
	union {
		struct kprobe kp;
		struct kretprobe krp;
	} u;
};

static struct tap_kp *tap_kps;
static unsigned int tap_nkps;
/* Registration and arming against the module notifier. */
static DEFINE_MUTEX(tap_kp_mutex);
static bool tap_kp_notifying;

/* SystemTap's default number of kretprobe instances. */
static int tap_kretactive(void)
{
	return max_t(int, 15, 6 * (int)num_possible_cpus());
}

/*
 * The breakpoint leaves the IP just past the probed instruction's first
 * byte; as SystemTap does, the handler sees it at the probed address
 * (addr(), backtraces), and the kprobe core gets it back as it was.
 */
static int tap_kprobe_hit(struct kprobe *kp, struct pt_regs *regs)
{
	struct tap_kp *k = container_of(kp, struct tap_kp, u.kp);
	unsigned long ip = instruction_pointer(regs);

	instruction_pointer_set(regs, (unsigned long)kp->addr);
	tap_run_event(k->probe, regs, 0, NULL);
	instruction_pointer_set(regs, ip);
	return 0;
}

static struct kretprobe *tap_ri_kretprobe(struct kretprobe_instance *ri)
{
#ifdef TAPCONF_GET_KRETPROBE	/* tapconf/get_kretprobe.c */
	return get_kretprobe(ri);
#else
	return ri->rp;
#endif
}

/*
 * The address the function returns to.  With rethook the IP holds it
 * already (rethook put it there): an instance's own may be the
 * trampoline's when another kretprobe on the function took its return
 * first (two .return probes on one function, .callee("F").return
 * probes of two call sites).
 */
static unsigned long tap_ri_retaddr(struct kretprobe_instance *ri, struct pt_regs *regs)
{
#ifdef CONFIG_KRETPROBE_ON_RETHOOK
	(void)ri;
	return instruction_pointer(regs);
#elif defined(TAPCONF_GET_KRETPROBE_RETADDR)	/* tapconf/get_kretprobe_retaddr.c */
	(void)regs;
	return get_kretprobe_retaddr(ri);
#else
	(void)regs;
	return (unsigned long)ri->ret_addr;
#endif
}

/*
 * As in SystemTap, the handler sees the instruction pointer at the
 * return address (addr(), probefunc() then name the caller), restored
 * for the kernel afterwards.
 */
static int tap_kretprobe_hit(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = tap_ri_kretprobe(ri);
	struct tap_kp *k;
	unsigned long ip;

	if (!rp)
		return 0;
	k = container_of(rp, struct tap_kp, u.krp);
	ip = instruction_pointer(regs);
	instruction_pointer_set(regs, tap_ri_retaddr(ri, regs));
	if (k->probe->entry)
		tap_run_return(k->probe, regs, 0, NULL, ri->data);
	else
		tap_run_event(k->probe, regs, 0, NULL);
	instruction_pointer_set(regs, ip);
	return 0;
}

/*
 * A .return probe's entry half (@entry values) runs when the function is
 * entered, into the instance's data; if it does not run or fails, the
 * kprobe core drops the instance, so the return half never reads values
 * that were not saved.
 */
static int tap_kretprobe_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = tap_ri_kretprobe(ri);
	struct tap_kp *k;

	if (!rp)
		return 1;
	k = container_of(rp, struct tap_kp, u.krp);
	return tap_run_entry(k->probe, regs, 0, NULL, ri->data) ? 1 : 0;
}

/* The kprobe or kretprobe of @k as it is before it is registered (again,
 * after its module was unloaded: registering fills in its address). */
static void tap_kp_fill(struct tap_kp *k)
{
	const struct tap_probe *p = k->probe;
	struct kprobe *kp = &k->u.kp;

	memset(&k->u, 0, sizeof(k->u));
	if (k->ret) {
		k->u.krp.handler = tap_kretprobe_hit;
		if (p->entry) {
			k->u.krp.entry_handler = tap_kretprobe_entry;
			k->u.krp.data_size = p->entry_size;
		}
		k->u.krp.maxactive = p->u.kprobe.maxactive < 0 ? tap_kretactive()
							       : p->u.kprobe.maxactive;
		kp = &k->u.krp.kp;
	} else {
		kp->pre_handler = tap_kprobe_hit;
	}
	if (k->symbol) {
		kp->symbol_name = k->symbol;
		kp->offset = p->u.kprobe.offset;
	} else {
		kp->addr = (kprobe_opcode_t *)p->u.kprobe.addr;
	}
}

/* Fill in @k for @p; 0 or -ENOMEM. */
static int tap_kp_prepare(struct tap_kp *k, const struct tap_probe *p)
{
	k->probe = p;
	k->ret = p->flags & TAP_PF_RETURN;
	if (p->target) {
		k->symbol = p->module ? kasprintf(GFP_KERNEL, "%s:%s", p->module,
						  p->target)
				      : kstrdup(p->target, GFP_KERNEL);
		if (!k->symbol)
			return -ENOMEM;
	}
	tap_kp_fill(k);
	return 0;
}

static void tap_kp_warn(const struct tap_kp *k, int rc)
{
	if (k->probe->u.kprobe.optional)
		return;
	if (k->symbol)
		tap_errmsg("WARNING: probe %s (%s+%u) registration error [man warning::pass5] (rc %d)\n",
			   k->probe->pp, k->symbol, (unsigned int)k->probe->u.kprobe.offset, rc);
	else
		tap_errmsg("WARNING: probe %s (address 0x%lx) registration error [man warning::pass5] (rc %d)\n",
			   k->probe->pp, k->probe->u.kprobe.addr, rc);
}

/* Whether @k probes a function of module @name ('-' and '_' alike). */
static bool tap_kp_in_module(const struct tap_kp *k, const char *name)
{
	const char *m = k->probe->module;

	if (!m || !k->symbol)
		return false;
	for (; *m && *name; m++, name++)
		if (*m != *name && !((*m == '-' || *m == '_') && (*name == '-' || *name == '_')))
			return false;
	return *m == *name;
}

/*
 * Under tap_kp_mutex.  A module function whose module is not loaded does
 * not resolve (-ENOENT): it waits for the module, quietly, as in
 * SystemTap; one missing from a module that is loaded is an error, but
 * for one in the module's init text, freed once the module is live:
 * SystemTap registers such a probe only when the module is loaded while
 * it runs, and says nothing otherwise.  A probe the arming condition
 * keeps off is registered disabled.
 */
static void tap_kp_register(struct tap_kp *k, bool at_start)
{
	struct kprobe *kp = k->ret ? &k->u.krp.kp : &k->u.kp;
	int rc;

	if (k->disarmed)
		kp->flags |= KPROBE_FLAG_DISABLED;
	rc = k->ret ? register_kretprobe(&k->u.krp) : register_kprobe(&k->u.kp);
	k->registered = rc == 0;
	if (rc && !(at_start && rc == -ENOENT && k->probe->module &&
		    (k->probe->u.kprobe.init_text || !tap_module_live(k->probe->module))))
		tap_kp_warn(k, rc);
}

static void tap_kp_unregister(struct tap_kp *k);

/*
 * A module coming: its functions' probes are registered before its init
 * function runs (kprobes take them in init text too); going: they are
 * unregistered while its code is still there.
 */
static int tap_kp_module_event(struct notifier_block *nb, unsigned long state, void *data)
{
	struct module *mod = data;
	unsigned int i;

	if (state != MODULE_STATE_COMING && state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&tap_kp_mutex);
	for (i = 0; i < tap_nkps; i++) {
		struct tap_kp *k = &tap_kps[i];

		if (!tap_kp_in_module(k, mod->name))
			continue;
		if (state == MODULE_STATE_COMING && !k->registered)
			tap_kp_register(k, false);
		else if (state == MODULE_STATE_GOING && k->registered)
			tap_kp_unregister(k);
	}
	mutex_unlock(&tap_kp_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block tap_kp_module_nb = {
	.notifier_call = tap_kp_module_event,
};

static void tap_kprobes_free(void)
{
	unsigned int i;

	for (i = 0; i < tap_nkps; i++)
		kfree(tap_kps[i].symbol);
	kfree(tap_kps);
	tap_kps = NULL;
	tap_nkps = 0;
}

static int tap_kprobes_init(void)
{
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < tap_nprobes; i++)
		if (tap_probes[i].kind == TAP_PROBE_KPROBE)
			n++;
	if (!n)
		return 0;
	tap_kps = kcalloc(n, sizeof(*tap_kps), GFP_KERNEL);
	if (!tap_kps)
		return -ENOMEM;
	for (i = 0; i < tap_nprobes; i++) {
		if (tap_probes[i].kind != TAP_PROBE_KPROBE)
			continue;
		ret = tap_kp_prepare(&tap_kps[tap_nkps++], &tap_probes[i]);
		if (ret) {
			tap_kprobes_free();
			return ret;
		}
	}
	for (i = 0; i < tap_nkps; i++)
		if (tap_kps[i].probe->module)
			break;
	/* before the first registration, so no module slips between */
	if (i < tap_nkps && register_module_notifier(&tap_kp_module_nb) == 0)
		tap_kp_notifying = true;
	mutex_lock(&tap_kp_mutex);
	for (i = 0; i < tap_nkps; i++)
		if (!tap_kps[i].registered)
			tap_kp_register(&tap_kps[i], true);
	mutex_unlock(&tap_kp_mutex);
	return 0;
}

/* The registered probes of one type into @v; how many. */
static unsigned int tap_kp_collect(void **v, bool ret)
{
	unsigned int i, n = 0;

	for (i = 0; i < tap_nkps; i++) {
		struct tap_kp *k = &tap_kps[i];

		if (!k->registered || k->ret != ret)
			continue;
		v[n++] = ret ? (void *)&k->u.krp : (void *)&k->u.kp;
	}
	return n;
}

/* Hits the kernel did not deliver are skipped probes, as in SystemTap. */
static void tap_kp_add_missed(const struct tap_kp *k)
{
	unsigned long kp_missed = k->ret ? k->u.krp.kp.nmissed : k->u.kp.nmissed;
	int rp_missed = k->ret ? k->u.krp.nmissed : 0;

	atomic_add((int)kp_missed + rp_missed, &tap_skipped_count);
	if (!tap_timing)
		return;
	if (rp_missed)
		tap_errmsg("WARNING: Skipped due to missed kretprobe/1 on '%s': %d\n",
			   k->probe->pp, rp_missed);
	if (kp_missed)
		tap_errmsg("WARNING: Skipped due to missed %s on '%s': %lu\n",
			   k->ret ? "kretprobe/2" : "kprobe", k->probe->pp, kp_missed);
}

/* Under tap_kp_mutex: @k's module goes; it may come back. */
static void tap_kp_unregister(struct tap_kp *k)
{
	if (k->ret)
		unregister_kretprobe(&k->u.krp);
	else
		unregister_kprobe(&k->u.kp);
	tap_kp_add_missed(k);
	k->registered = false;
	tap_kp_fill(k);
}

/* Unregister all at once (one RCU grace period); returns when no
 * handler runs any more. */
static void tap_kprobes_stop(void)
{
	unsigned int i, n;
	void **v;

	if (!tap_nkps)
		return;
	/* waits for a notifier call that runs: none registers after this */
	if (tap_kp_notifying)
		unregister_module_notifier(&tap_kp_module_nb);
	tap_kp_notifying = false;
	v = kcalloc(tap_nkps, sizeof(*v), GFP_KERNEL);
	if (v) {
		n = tap_kp_collect(v, false);
		if (n)
			unregister_kprobes((struct kprobe **)v, n);
		n = tap_kp_collect(v, true);
		if (n)
			unregister_kretprobes((struct kretprobe **)v, n);
		kfree(v);
	} else {
		for (i = 0; i < tap_nkps; i++) {
			if (!tap_kps[i].registered)
				continue;
			if (tap_kps[i].ret)
				unregister_kretprobe(&tap_kps[i].u.krp);
			else
				unregister_kprobe(&tap_kps[i].u.kp);
		}
	}
	for (i = 0; i < tap_nkps; i++)
		if (tap_kps[i].registered)
			tap_kp_add_missed(&tap_kps[i]);
	tap_kprobes_free();
}

/* A disabled kprobe stays registered but costs its function nothing. */
static void tap_kprobes_arm(const struct tap_probe *p, bool on)
{
	unsigned int i;

	mutex_lock(&tap_kp_mutex);
	for (i = 0; i < tap_nkps; i++) {
		struct tap_kp *k = &tap_kps[i];
		struct kprobe *kp = k->ret ? &k->u.krp.kp : &k->u.kp;

		if (k->probe != p)
			continue;
		k->disarmed = !on;	/* for a module loaded later */
		if (!k->registered)
			continue;
		if (on)
			enable_kprobe(kp);
		else
			disable_kprobe(kp);
	}
	mutex_unlock(&tap_kp_mutex);
}

const struct tap_family tap_family_kprobe = {
	.name = "kprobe",
	.init = tap_kprobes_init,
	.stop = tap_kprobes_stop,
	.kind = TAP_PROBE_KPROBE,
	.arm = tap_kprobes_arm,
};
