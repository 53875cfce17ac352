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
 * "MOD:NAME" when the script starts; a module loaded later is not
 * watched for.  Hits the kernel missed (a kretprobe out of instances, a
 * kprobe hit inside another) are counted as skipped probes when the
 * probes are unregistered, and with -t reported one line each.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include "tap_internal.h"

struct tap_kp {
	const struct tap_probe *probe;
	char *symbol;		/* "NAME" or "MOD:NAME", or NULL */
	bool ret;		/* a kretprobe */
	bool registered;
	union {
		struct kprobe kp;
		struct kretprobe krp;
	} u;
};

static struct tap_kp *tap_kps;
static unsigned int tap_nkps;

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

static unsigned long tap_ri_retaddr(struct kretprobe_instance *ri)
{
#ifdef TAPCONF_GET_KRETPROBE_RETADDR	/* tapconf/get_kretprobe_retaddr.c */
	return get_kretprobe_retaddr(ri);
#else
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
	instruction_pointer_set(regs, tap_ri_retaddr(ri));
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

/* Fill in @k for @p; 0 or -ENOMEM. */
static int tap_kp_prepare(struct tap_kp *k, const struct tap_probe *p)
{
	struct kprobe *kp = &k->u.kp;

	k->probe = p;
	k->ret = p->flags & TAP_PF_RETURN;
	if (p->target) {
		k->symbol = p->module ? kasprintf(GFP_KERNEL, "%s:%s", p->module,
						  p->target)
				      : kstrdup(p->target, GFP_KERNEL);
		if (!k->symbol)
			return -ENOMEM;
	}
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

static void tap_kp_register(struct tap_kp *k)
{
	int rc = k->ret ? register_kretprobe(&k->u.krp) : register_kprobe(&k->u.kp);

	k->registered = rc == 0;
	if (rc)
		tap_kp_warn(k, rc);
}

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
		tap_kp_register(&tap_kps[i]);
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

/* Unregister all at once (one RCU grace period); returns when no
 * handler runs any more. */
static void tap_kprobes_stop(void)
{
	unsigned int i, n;
	void **v;

	if (!tap_nkps)
		return;
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

	for (i = 0; i < tap_nkps; i++) {
		struct tap_kp *k = &tap_kps[i];
		struct kprobe *kp = k->ret ? &k->u.krp.kp : &k->u.kp;

		if (k->probe != p || !k->registered)
			continue;
		if (on)
			enable_kprobe(kp);
		else
			disable_kprobe(kp);
	}
}

const struct tap_family tap_family_kprobe = {
	.name = "kprobe",
	.init = tap_kprobes_init,
	.stop = tap_kprobes_stop,
	.kind = TAP_PROBE_KPROBE,
	.arm = tap_kprobes_arm,
};
