// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.trace("NAME") probes: each entry of kind TAP_PROBE_TRACEPOINT
 * names its tracepoint (.target) and brings its own callback (.callback),
 * generated with the tracepoint's signature; the callback gets the probe
 * as its data and runs it with the arguments as the event.
 *
 * A tracepoint of the kernel's own that the running kernel does not have
 * (a kernel other than the one compiled for) is reported as a
 * registration warning and its probe does not run, as SystemTap does for
 * probes that fail to register; the rest of the script runs.
 *
 * A module's tracepoint (.module set) is registered while its module is
 * loaded: the tracepoint module notifier tells of the modules loaded when
 * the script starts and of those loaded and removed while it runs, as
 * SystemTap's module tracepoints do.  tap_tp_lock keeps the notifier,
 * tap_tp_arm() and the end apart.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include "tap_internal.h"

/* The tracepoint each probe is registered on, NULL when it is not. */
static struct tracepoint **tap_tp_registered;
static bool *tap_tp_disarmed;	/* [i]: unregistered by tap_tp_arm() */
static DEFINE_MUTEX(tap_tp_lock);
static bool tap_tp_notifier_on;

static void tap_tp_unregister_all(void)
{
	unsigned int i;
	bool any = false;

	if (!tap_tp_registered)
		return;
	mutex_lock(&tap_tp_lock);
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
	mutex_unlock(&tap_tp_lock);
	/* no callback of ours runs once this returns */
	if (any)
		tracepoint_synchronize_unregister();
	kfree(tap_tp_registered);
	kfree(tap_tp_disarmed);
	tap_tp_registered = NULL;
	tap_tp_disarmed = NULL;
}

/* The tracepoint called name among those of module mod, or NULL. */
static struct tracepoint *tap_tp_in_module(struct module *mod, const char *name)
{
	unsigned int i;

	for (i = 0; i < mod->num_tracepoints; i++) {
		struct tracepoint *tp = tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]);

		if (strcmp(tp->name, name) == 0)
			return tp;
	}
	return NULL;
}

/* Module mod has come: register the probes on its tracepoints. */
static void tap_tp_module_coming(struct module *mod)
{
	unsigned int i;

	for (i = 0; i < tap_nprobes; i++) {
		const struct tap_probe *p = &tap_probes[i];
		struct tracepoint *tp;
		int rc;

		if (p->kind != TAP_PROBE_TRACEPOINT || !p->module ||
		    tap_tp_registered[i] || strcmp(p->module, mod->name) != 0)
			continue;
		tp = tap_tp_in_module(mod, p->target);
		rc = tp ? tracepoint_probe_register(tp, p->callback, (void *)p) : -ENOENT;
		if (rc) {
			tap_errmsg("WARNING: probe %s registration error (rc %d)\n",
				   p->pp, rc);
			continue;
		}
		tap_tp_registered[i] = tp;
		tap_tp_disarmed[i] = false;
	}
}

/* Module mod goes: its tracepoints go with it. */
static void tap_tp_module_going(struct module *mod)
{
	unsigned int i;

	for (i = 0; i < tap_nprobes; i++) {
		const struct tap_probe *p = &tap_probes[i];

		if (!tap_tp_registered[i] || !p->module || strcmp(p->module, mod->name) != 0)
			continue;
		if (!tap_tp_disarmed[i])
			tracepoint_probe_unregister(tap_tp_registered[i], p->callback,
						    (void *)p);
		tap_tp_registered[i] = NULL;
	}
}

static int tap_tp_module_event(struct notifier_block *nb, unsigned long val, void *data)
{
	struct tp_module *tp_mod = data;

	mutex_lock(&tap_tp_lock);
	if (tap_tp_registered && val == MODULE_STATE_COMING)
		tap_tp_module_coming(tp_mod->mod);
	else if (tap_tp_registered && val == MODULE_STATE_GOING)
		tap_tp_module_going(tp_mod->mod);
	mutex_unlock(&tap_tp_lock);
	return NOTIFY_OK;
}

static struct notifier_block tap_tp_module_nb = {
	.notifier_call = tap_tp_module_event,
};

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
		if (p->module) {
			/* registered by the notifier, now or when it comes */
			tap_tp_notifier_on = true;
			continue;
		}
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
	/* told of the modules already loaded before this returns */
	if (tap_tp_notifier_on && register_tracepoint_module_notifier(&tap_tp_module_nb)) {
		tap_errmsg("WARNING: cannot follow modules' tracepoints\n");
		tap_tp_notifier_on = false;
	}
	return 0;
}

static void tap_tp_stop(void)
{
	/* no notifier call runs once this returns */
	if (tap_tp_notifier_on)
		unregister_tracepoint_module_notifier(&tap_tp_module_nb);
	tap_tp_notifier_on = false;
	tap_tp_unregister_all();
}

static void tap_tp_arm(const struct tap_probe *p, bool on)
{
	unsigned int i = p - tap_probes;
	struct tracepoint *tp;

	mutex_lock(&tap_tp_lock);
	tp = tap_tp_registered ? tap_tp_registered[i] : NULL;
	if (tp && tap_tp_disarmed[i] == on) {
		if (on)
			tap_tp_disarmed[i] = tracepoint_probe_register(tp, p->callback,
								       (void *)p) != 0;
		else
			tap_tp_disarmed[i] = tracepoint_probe_unregister(tp, p->callback,
									 (void *)p) == 0;
	}
	mutex_unlock(&tap_tp_lock);
}

const struct tap_family tap_family_trace = {
	.name = "tracepoint",
	.init = tap_tp_init,
	.stop = tap_tp_stop,
	.kind = TAP_PROBE_TRACEPOINT,
	.arm = tap_tp_arm,
};
