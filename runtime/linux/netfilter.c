// SPDX-License-Identifier: GPL-2.0
/*
 * TAP_PROBE_NETFILTER: netfilter.hook("HOOK").pf("PF")[.priority("P")]
 * probes, each one struct nf_hook_ops registered on init_net while the
 * module is loaded.
 *
 * Generic fields (src/probes/netfilter.c): .arg[0] the protocol family
 * (NFPROTO_*), .arg[1] the hook number, .u.netfilter.priority.
 *
 * A hook runs the probe's handler with the slots of enum tap_nf_slot as
 * its event; the handler may (guru mode) store a verdict through the
 * address in the last slot, which the hook returns: NF_ACCEPT unless it
 * changed.  Hooks run with bottom halves off (softirq for received
 * packets, process context for sent ones): tap_run_event() copes with
 * either.  nf_unregister_net_hook() waits (synchronize_net) for the hooks
 * still running, so nothing here runs once stop() returns.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include "tap_internal.h"

static struct nf_hook_ops *tap_nf_ops;
static unsigned int tap_nf_nops;
static unsigned int tap_nf_registered;	/* the first ones of tap_nf_ops */

const char *tap_netfilter_devname(struct tap_context *c, int slot)
{
	const unsigned long *slots = c->event;
	const struct net_device *dev;

	if (!c->probe || c->probe->kind != TAP_PROBE_NETFILTER || !slots ||
	    slot < 0 || slot >= TAP_NF_NSLOTS)
		return "";
	/* the device is held for the packet's way through the hook */
	dev = (const struct net_device *)slots[slot];
	return dev ? dev->name : "";
}

static unsigned int tap_nf_hook(void *priv, struct sk_buff *skb,
				const struct nf_hook_state *state)
{
	const struct tap_probe *p = priv;
	unsigned int verdict = NF_ACCEPT;
	unsigned long slots[TAP_NF_NSLOTS];

	slots[TAP_NF_SLOT_HOOKNUM] = state->hook;
	slots[TAP_NF_SLOT_SKB] = (unsigned long)skb;
	slots[TAP_NF_SLOT_IN] = (unsigned long)state->in;
	slots[TAP_NF_SLOT_OUT] = (unsigned long)state->out;
	slots[TAP_NF_SLOT_OKFN] = (unsigned long)state->okfn;
	slots[TAP_NF_SLOT_VERDICT] = (unsigned long)&verdict;
	tap_run_event(p, NULL, 0, slots);
	return verdict;
}

static void tap_nf_unregister(void)
{
	while (tap_nf_registered > 0)
		nf_unregister_net_hook(&init_net, &tap_nf_ops[--tap_nf_registered]);
	kfree(tap_nf_ops);
	tap_nf_ops = NULL;
	tap_nf_nops = 0;
}

static int tap_nf_init(void)
{
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < tap_nprobes; i++)
		if (tap_probes[i].kind == TAP_PROBE_NETFILTER)
			n++;
	if (n == 0)
		return 0;
	tap_nf_ops = kcalloc(n, sizeof(*tap_nf_ops), GFP_KERNEL);
	if (!tap_nf_ops)
		return -ENOMEM;
	for (i = 0; i < tap_nprobes; i++) {
		const struct tap_probe *p = &tap_probes[i];

		if (p->kind != TAP_PROBE_NETFILTER)
			continue;
		tap_nf_ops[tap_nf_nops].hook = tap_nf_hook;
		tap_nf_ops[tap_nf_nops].priv = (void *)p;
		tap_nf_ops[tap_nf_nops].pf = (u_int8_t)p->arg[0];
		tap_nf_ops[tap_nf_nops].hooknum = (unsigned int)p->arg[1];
		tap_nf_ops[tap_nf_nops].priority = p->u.netfilter.priority;
		tap_nf_nops++;
	}
	for (i = 0; i < tap_nf_nops; i++) {
		ret = nf_register_net_hook(&init_net, &tap_nf_ops[i]);
		if (ret) {
			pr_err("%s: cannot register netfilter probe %s: %d\n",
			       THIS_MODULE->name,
			       ((const struct tap_probe *)tap_nf_ops[i].priv)->pp, ret);
			tap_nf_unregister();
			return ret;
		}
		tap_nf_registered++;
	}
	return 0;
}

static void tap_nf_stop(void)
{
	tap_nf_unregister();
}

const struct tap_family tap_family_netfilter = {
	.name = "netfilter",
	.init = tap_nf_init,
	.stop = tap_nf_stop,
};
