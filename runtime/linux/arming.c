// SPDX-License-Identifier: GPL-2.0
/*
 * On-the-fly arming, as SystemTap calls it: a kernel event probe whose
 * condition is false is unregistered, so that an idle probe costs the
 * kernel nothing, and registered again once the condition holds.
 *
 * Handlers that may change what a condition reads call tap_arm_kick(),
 * which only sets a flag: they run in any context (with scheduler locks
 * held, in NMI), where queueing work is not safe.  A timer polls the flag
 * and queues the work that evaluates every armcond() and asks the
 * families to arm or disarm.  Handlers still check their condition at
 * every hit, so arming only ever lags: hits in the window before a
 * probe is armed again are lost, as in SystemTap.
 */
#include <linux/hrtimer.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "tap_internal.h"

/* How often the flag is polled while the session runs. */
#define TAP_ARM_POLL_NS (10 * NSEC_PER_MSEC)

static bool *tap_armed;		/* [i]: tap_probes[i] is registered */
static atomic_t tap_arm_pending;
static struct hrtimer tap_arm_timer;
static DEFINE_MUTEX(tap_arm_mutex);
static bool tap_arm_live;	/* under tap_arm_mutex */
static bool tap_arm_any;	/* some probe can be armed */

void tap_arm_kick(void)
{
	atomic_set(&tap_arm_pending, 1);
}

static const struct tap_family *tap_arm_family(const struct tap_probe *p)
{
	unsigned int i;

	if (!p->armcond)
		return NULL;
	for (i = 0; tap_families[i]; i++)
		if (tap_families[i]->arm && tap_families[i]->kind == p->kind)
			return tap_families[i];
	return NULL;
}

/* Every armable probe to the state its condition asks for. */
static void tap_arm_refresh(void)
{
	const struct tap_family *f;
	unsigned int i;
	bool want;

	for (i = 0; i < tap_nprobes; i++) {
		f = tap_arm_family(&tap_probes[i]);
		if (!f)
			continue;
		want = tap_probes[i].armcond() != 0;
		if (want != tap_armed[i]) {
			f->arm(&tap_probes[i], want);
			tap_armed[i] = want;
		}
	}
}

static void tap_arm_fn(struct work_struct *w)
{
	mutex_lock(&tap_arm_mutex);
	if (tap_arm_live)
		tap_arm_refresh();
	mutex_unlock(&tap_arm_mutex);
}

static DECLARE_WORK(tap_arm_work, tap_arm_fn);

static enum hrtimer_restart tap_arm_poll(struct hrtimer *t)
{
	if (atomic_xchg(&tap_arm_pending, 0))
		schedule_work(&tap_arm_work);
	hrtimer_forward_now(t, ns_to_ktime(TAP_ARM_POLL_NS));
	return HRTIMER_RESTART;
}

int tap_arming_init(void)
{
	unsigned int i;

	hrtimer_init(&tap_arm_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	tap_arm_timer.function = tap_arm_poll;
	for (i = 0; i < tap_nprobes; i++)
		tap_arm_any |= tap_arm_family(&tap_probes[i]) != NULL;
	if (!tap_arm_any)
		return 0;
	tap_armed = kcalloc(tap_nprobes, sizeof(*tap_armed), GFP_KERNEL);
	if (!tap_armed)
		return -ENOMEM;
	/* init() registers every probe */
	for (i = 0; i < tap_nprobes; i++)
		tap_armed[i] = true;
	return 0;
}

void tap_arming_start(void)
{
	if (!tap_arm_any)
		return;
	mutex_lock(&tap_arm_mutex);
	tap_arm_live = true;
	atomic_set(&tap_arm_pending, 0);
	tap_arm_refresh();
	mutex_unlock(&tap_arm_mutex);
	hrtimer_start(&tap_arm_timer, ns_to_ktime(TAP_ARM_POLL_NS), HRTIMER_MODE_REL);
}

void tap_arming_stop(void)
{
	if (!tap_arm_any)
		return;
	hrtimer_cancel(&tap_arm_timer);
	mutex_lock(&tap_arm_mutex);
	tap_arm_live = false;
	mutex_unlock(&tap_arm_mutex);
	/* the poll may have queued it just before it was cancelled */
	cancel_work_sync(&tap_arm_work);
}

void tap_arming_exit(void)
{
	kfree(tap_armed);
	tap_armed = NULL;
}
