// SPDX-License-Identifier: GPL-2.0
/*
 * Locks of script globals: one rwlock per tap_globals[] entry.  A probe
 * takes the locks of its set (struct tap_probe.locks, sorted by global,
 * so that no two probes can deadlock) before its handler and releases
 * them after.  As SystemTap does, it only ever trylocks: a lock that is
 * busy is retried TRYLOCKDELAY microseconds later, at most MAXTRYLOCK
 * times for the whole set; a hit that still cannot get its locks is
 * skipped and counted as a skipped probe.  Probes may run in interrupt
 * context, so blocking is not an option.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/delay.h>
#include "tap_internal.h"

struct tap_glock {
	rwlock_t lock;
	atomic_t contended;	/* -t: lock acquisitions that had to wait */
	atomic_t skipped;	/* -t: hits skipped waiting for this lock */
};

static struct tap_glock *tap_glocks;

int tap_locks_init(void)
{
	unsigned int i;

	tap_glocks = kcalloc(tap_nglobals ? tap_nglobals : 1,
			     sizeof(*tap_glocks), GFP_KERNEL);
	if (!tap_glocks)
		return -ENOMEM;
	for (i = 0; i < tap_nglobals; i++)
		rwlock_init(&tap_glocks[i].lock);
	return 0;
}

void tap_locks_exit(void)
{
	kfree(tap_glocks);
	tap_glocks = NULL;
}

/* A lock set must name existing globals in strictly increasing order. */
int tap_check_locks(const struct tap_probe *p)
{
	unsigned int i;

	if (p->nlocks && !p->locks)
		return -EINVAL;
	for (i = 0; i < p->nlocks; i++) {
		if (p->locks[i].global >= tap_nglobals)
			return -EINVAL;
		if (i && p->locks[i].global <= p->locks[i - 1].global)
			return -EINVAL;
	}
	return 0;
}

static bool tap_trylock(const struct tap_lock_req *r)
{
	rwlock_t *l = &tap_glocks[r->global].lock;

	return r->write ? write_trylock(l) : read_trylock(l);
}

static void tap_unlock(const struct tap_lock_req *r)
{
	rwlock_t *l = &tap_glocks[r->global].lock;

	if (r->write)
		write_unlock(l);
	else
		read_unlock(l);
}

static void tap_unlock_first(const struct tap_probe *p, unsigned int n)
{
	while (n-- > 0)
		tap_unlock(&p->locks[n]);
}

/*
 * Take @p's locks; false (nothing held, the hit is to be skipped) when
 * the retries ran out.
 */
bool tap_lock_probe(const struct tap_probe *p)
{
	unsigned int i, retries = 0;
	bool waited;

	for (i = 0; i < p->nlocks; i++) {
		waited = false;
		while (!tap_trylock(&p->locks[i])) {
			if (++retries > tap_limits.maxtrylock) {
				atomic_inc(&tap_glocks[p->locks[i].global].skipped);
				tap_unlock_first(p, i);
				return false;
			}
			waited = true;
			udelay(tap_limits.trylockdelay);
		}
		if (waited)
			atomic_inc(&tap_glocks[p->locks[i].global].contended);
	}
	return true;
}

void tap_unlock_probe(const struct tap_probe *p)
{
	tap_unlock_first(p, p->nlocks);
}

/*
 * -t: after the probe hit report, the globals whose locks were contended
 * (on the output, as SystemTap prints them) and those that made hits be
 * skipped (warnings).
 */
void tap_locks_report(void)
{
	unsigned int i;
	int n;

	for (i = 0; i < tap_nglobals; i++) {
		n = atomic_read(&tap_glocks[i].contended);
		if (n)
			tap_outmsg("'__global_%s' lock contention occurred %d times\n",
				   tap_globals[i].name, n);
	}
	for (i = 0; i < tap_nglobals; i++) {
		n = atomic_read(&tap_glocks[i].skipped);
		if (n)
			tap_errmsg("WARNING: Skipped due to global '__global_%s' lock timeout: %d\n",
				   tap_globals[i].name, n);
	}
}
