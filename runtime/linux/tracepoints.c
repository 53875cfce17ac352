// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.trace("NAME") probes: each entry of kind TAP_PROBE_TRACEPOINT
 * names its tracepoint (.target) and brings its own callback (.callback),
 * generated with the tracepoint's signature; the callback gets the probe
 * as its data and runs it with the arguments as the event.
 *
 * A tracepoint the running kernel does not have (one of a module that is
 * not loaded, or a kernel other than the one compiled for) is reported as
 * a registration warning and its probe does not run, as SystemTap does
 * for probes that fail to register; the rest of the script runs.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include "tap_internal.h"

/* The tracepoint each probe is registered on, NULL when it is not. */
static struct tracepoint **tap_tp_registered;
static bool *tap_tp_disarmed;	/* [i]: unregistered by tap_tp_arm() */

static void tap_tp_unregister_all(void)
{
	unsigned int i;
	bool any = false;

	if (!tap_tp_registered)
		return;
	for (i = 0; i < tap_nprobes; i++) {
		if (!tap_tp_registered[i])
			continue;
		/* a disarmed one may still have a callback running */
		any = true;
		if (tap_tp_disarmed[i])
			continue;
		tracepoint_probe_unregister(tap_tp_registered[i],
					    tap_probes[i].callback,
					    (void *)&tap_probes[i]);
		tap_tp_registered[i] = NULL;
	}
	/* no callback of ours runs once this returns */
	if (any)
		tracepoint_synchronize_unregister();
	kfree(tap_tp_registered);
	kfree(tap_tp_disarmed);
	tap_tp_registered = NULL;
	tap_tp_disarmed = NULL;
}

static int tap_tp_init(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < tap_nprobes; i++)
		if (tap_probes[i].kind == TAP_PROBE_TRACEPOINT)
			n++;
	if (n == 0)
		return 0;
	tap_tp_registered = kcalloc(tap_nprobes, sizeof(*tap_tp_registered),
				    GFP_KERNEL);
	tap_tp_disarmed = kcalloc(tap_nprobes, sizeof(*tap_tp_disarmed),
				  GFP_KERNEL);
	if (!tap_tp_registered || !tap_tp_disarmed) {
		kfree(tap_tp_registered);
		kfree(tap_tp_disarmed);
		tap_tp_registered = NULL;
		tap_tp_disarmed = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < tap_nprobes; i++) {
		const struct tap_probe *p = &tap_probes[i];
		struct tracepoint *tp;
		int rc;

		if (p->kind != TAP_PROBE_TRACEPOINT)
			continue;
		tp = tap_tracepoint_find(p->target);
		rc = tp ? tracepoint_probe_register(tp, p->callback, (void *)p)
			: -ENOENT;
		if (rc) {
			tap_errmsg("WARNING: probe %s registration error (rc %d)\n",
				   p->pp, rc);
			continue;
		}
		tap_tp_registered[i] = tp;
	}
	return 0;
}

static void tap_tp_stop(void)
{
	tap_tp_unregister_all();
}

static void tap_tp_arm(const struct tap_probe *p, bool on)
{
	unsigned int i = p - tap_probes;
	struct tracepoint *tp = tap_tp_registered ? tap_tp_registered[i] : NULL;

	if (!tp || tap_tp_disarmed[i] == !on)
		return;
	if (on)
		tap_tp_disarmed[i] = tracepoint_probe_register(tp, p->callback,
							       (void *)p) != 0;
	else
		tap_tp_disarmed[i] = tracepoint_probe_unregister(tp, p->callback,
								 (void *)p) == 0;
}

const struct tap_family tap_family_trace = {
	.name = "tracepoint",
	.init = tap_tp_init,
	.stop = tap_tp_stop,
	.kind = TAP_PROBE_TRACEPOINT,
	.arm = tap_tp_arm,
};
