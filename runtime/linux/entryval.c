// SPDX-License-Identifier: GPL-2.0
/*
 * Entry values away from a function's entry (DW_OP_entry_value in a
 * kernel.statement probe, an inline instance, a probe past the prologue).
 * The DWARF describes such a variable by what a register held when the
 * function was entered; SystemTap reads it by saving that register, per
 * thread, in a companion probe on the function's entry.  So does this:
 * one kprobe per tap_entryvals[] row (the generated table) saves the
 * register for the task that enters, and tap_entry_value() gives the
 * current task's back.
 *
 * The values live in a fixed table, a cache: TAP_EV_SLOTS slots in sets
 * of TAP_EV_WAYS, a set chosen by (row, task).  A task's slot is keyed
 * by its pid and start time (a pid reused later is another task); a full
 * set gives its slot to the newest value.  A value that is not there
 * (the call began before the probes were registered, or its slot was
 * given away) is an error, never another call's value.  Each slot has a
 * sequence count: writers (any CPU may evict any slot) take it odd with
 * cmpxchg, readers retry while it moves.
 *
 * The kprobes are registered before the other families' and removed
 * after them (families.c), so no probe reads a freed table.  A module's
 * function is watched while its module is loaded, as kprobes.c places
 * module probes: through a module notifier, before its init runs.
 *
 * A row of a user binary (process(...).statement, an inline instance in
 * a program or library) is a uprobe instead, on the binary's inode at
 * the entry's file offset, as uprobes.c places its probes: it is there
 * for every process that maps the file, now or later.
 *
 * A row may save a value computed at the entry rather than a register
 * (entryexpr.c); what went wrong computing it is saved in its place, a
 * status the read turns into the error (a read fault, "unknown callsite").
 */
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timex.h>
#include <linux/uprobes.h>
#include "tap_internal.h"

#define TAP_EV_SETS_BITS 10
#define TAP_EV_WAYS 4
#define TAP_EV_SLOTS ((1U << TAP_EV_SETS_BITS) * TAP_EV_WAYS)

struct tap_ev_slot {
	atomic_t seq;		/* odd while a writer fills it */
	unsigned int row;	/* tap_entryvals[] index + 1; 0: empty */
	pid_t pid;
	u64 start_time;
	unsigned long val;	/* TAP_EVS_FAULT: the address */
	unsigned int status;	/* enum tap_ev_status */
};

struct tap_ev_probe {
	struct kprobe kp;
	/* a user binary's row: its uprobe, and the file held while set */
	struct uprobe_consumer uc;
	struct path path;
	struct inode *inode;
	unsigned int row;
	bool registered;
};

static struct tap_ev_slot *tap_ev_slots;
static struct tap_ev_probe *tap_ev_probes;
static DEFINE_MUTEX(tap_ev_mutex);
static bool tap_ev_notifying;

static struct tap_ev_slot *tap_ev_set(unsigned int row, pid_t pid)
{
	u32 h = hash_32((u32)pid * 0x9e3779b1U ^ row, TAP_EV_SETS_BITS);

	return &tap_ev_slots[h * TAP_EV_WAYS];
}

static bool tap_ev_is(const struct tap_ev_slot *s, unsigned int row, pid_t pid, u64 start)
{
	return s->row == row && s->pid == pid && s->start_time == start;
}

/* Fill @s under its sequence count; false if another writer holds it. */
static bool tap_ev_write(struct tap_ev_slot *s, unsigned int row, pid_t pid, u64 start,
			 unsigned long val, unsigned int status)
{
	int seq = atomic_read(&s->seq);

	if ((seq & 1) || atomic_cmpxchg(&s->seq, seq, seq + 1) != seq)
		return false;
	smp_wmb();
	s->row = row;
	s->pid = pid;
	s->start_time = start;
	s->val = val;
	s->status = status;
	smp_wmb();
	atomic_set(&s->seq, seq + 2);
	return true;
}

static void tap_ev_save(unsigned int row, unsigned long val, unsigned int status)
{
	struct task_struct *t = current;
	struct tap_ev_slot *set = tap_ev_set(row, t->pid);
	int i, free_way = -1;

	for (i = 0; i < TAP_EV_WAYS; i++) {
		if (tap_ev_is(&set[i], row, t->pid, t->start_time) &&
		    tap_ev_write(&set[i], row, t->pid, t->start_time, val, status))
			return;
		if (free_way < 0 && !READ_ONCE(set[i].row))
			free_way = i;
	}
	/* a new value: an empty slot, else one chosen by the clock */
	if (free_way < 0)
		free_way = (int)(get_cycles() % TAP_EV_WAYS);
	for (i = 0; i < TAP_EV_WAYS; i++)
		if (tap_ev_write(&set[(free_way + i) % TAP_EV_WAYS], row, t->pid,
				 t->start_time, val, status))
			return;
}

/* The current task's value of @row into *@val and its status; false
 * if none. */
static bool tap_ev_load(unsigned int row, unsigned long *val, unsigned int *status)
{
	struct task_struct *t = current;
	struct tap_ev_slot *set;
	int i, tries;

	if (!tap_ev_slots)
		return false;
	set = tap_ev_set(row, t->pid);
	for (i = 0; i < TAP_EV_WAYS; i++) {
		struct tap_ev_slot *s = &set[i];

		for (tries = 0; tries < 8; tries++) {
			int seq = atomic_read(&s->seq);
			bool hit;
			unsigned long v;
			unsigned int st;

			if (seq & 1)
				continue;
			smp_rmb();
			hit = tap_ev_is(s, row, t->pid, t->start_time);
			v = s->val;
			st = s->status;
			smp_rmb();
			if (atomic_read(&s->seq) != seq)
				continue;
			if (hit) {
				*val = v;
				*status = st;
				return true;
			}
			break;
		}
	}
	return false;
}

/* Save row @row's register, or the value it computes, at the entry
 * whose address is @entry. */
static void tap_ev_record(unsigned int row, struct pt_regs *regs, unsigned long entry)
{
	const struct tap_entryval *ev = &tap_entryvals[row];
	unsigned long val = 0;
	enum tap_ev_status status = TAP_EVS_OK;

	if (ev->ops)
		status = tap_ev_compute(ev, regs, entry, &val);
	else
		val = tap_regs_dwarf(regs, ev->reg);
	tap_ev_save(row + 1, val, status);
}

static int tap_ev_hit(struct kprobe *kp, struct pt_regs *regs)
{
	struct tap_ev_probe *p = container_of(kp, struct tap_ev_probe, kp);

	tap_ev_record(p->row, regs, (unsigned long)kp->addr);
	return 0;
}

/* The uprobe's: the task's user registers at the function's entry, the
 * IP at the probed instruction (uprobes.c). */
static int tap_ev_uhit(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct tap_ev_probe *p = container_of(uc, struct tap_ev_probe, uc);

	tap_ev_record(p->row, regs, instruction_pointer(regs));
	return 0;
}

/* The error of a value the entry probe could not compute. */
static void tap_ev_failed(struct tap_context *c, unsigned int k, unsigned long val,
			  unsigned int status)
{
	switch (status) {
	case TAP_EVS_FAULT:
		tap_errorf(c, "read fault [man error::fault] at 0x%016lx (addr), at the entry "
			   "of %s", val, tap_entryvals[k].target);
		break;
	case TAP_EVS_CALLSITE:	/* SystemTap's words */
		tap_error(c, "unknown callsite");
		break;
	case TAP_EVS_NOMOD:
		tap_errorf(c, "a module symbol was not loaded at the entry of %s",
			   tap_entryvals[k].target);
		break;
	case TAP_EVS_DIV0:
		tap_error(c, "division by 0");
		break;
	default:
		tap_errorf(c, "a malformed entry value of %s", tap_entryvals[k].target);
		break;
	}
}

unsigned long tap_entry_value(struct tap_context *c, unsigned int k)
{
	unsigned long val;
	unsigned int status;

	if (k < tap_nentryvals && tap_ev_load(k + 1, &val, &status)) {
		if (status == TAP_EVS_OK)
			return val;
		tap_ev_failed(c, k, val, status);
		return 0;
	}
	tap_errorf(c, "no value saved at the entry of %s for this task: the call began before "
		   "the probes were registered (or its saved value was evicted)",
		   k < tap_nentryvals ? tap_entryvals[k].target : "?");
	return 0;
}

/* Row @k's uprobe on its binary; a missing file is a warning, as a
 * process(PATH) probe's is. */
static void tap_entryval_uregister(struct tap_ev_probe *p, unsigned int k)
{
	const struct tap_entryval *ev = &tap_entryvals[k];
	int rc = kern_path(ev->target, LOOKUP_FOLLOW, &p->path);

	p->row = k;
	if (rc == 0 && !S_ISREG(d_real_inode(p->path.dentry)->i_mode)) {
		path_put(&p->path);
		rc = -EINVAL;
	}
	if (rc == 0) {
		p->inode = d_real_inode(p->path.dentry);
		p->uc.handler = tap_ev_uhit;
		rc = uprobe_register(p->inode, ev->offset, &p->uc);
		p->registered = rc == 0;
		if (rc) {
			path_put(&p->path);
			p->inode = NULL;
		}
	}
	if (rc)
		tap_errmsg("WARNING: cannot save entry values of %s+0x%lx [man warning::pass5] "
			   "(rc %d)\n", ev->target, ev->offset, rc);
}

static void tap_entryval_uunregister(struct tap_ev_probe *p)
{
	uprobe_unregister(p->inode, tap_entryvals[p->row].offset, &p->uc);
	path_put(&p->path);
	p->inode = NULL;
	p->registered = false;
}

/* Under tap_ev_mutex.  A module function whose module is not loaded
 * does not resolve (-ENOENT): it waits for the module, quietly. */
static void tap_entryval_register(struct tap_ev_probe *p, unsigned int k)
{
	const struct tap_entryval *ev = &tap_entryvals[k];
	int rc;

	if (ev->user) {
		tap_entryval_uregister(p, k);
		return;
	}
	memset(&p->kp, 0, sizeof(p->kp));
	p->row = k;
	p->kp.symbol_name = ev->target;
	p->kp.offset = ev->offset;
	p->kp.pre_handler = tap_ev_hit;
	rc = register_kprobe(&p->kp);
	p->registered = rc == 0;
	if (rc && !(rc == -ENOENT && strchr(ev->target, ':')))
		tap_errmsg("WARNING: cannot save entry values of %s+%lu [man warning::pass5] "
			   "(rc %d)\n", ev->target, ev->offset, rc);
}

/* Whether row @k's kernel function is in a module. */
static bool tap_ev_is_modular(unsigned int k)
{
	return !tap_entryvals[k].user && strchr(tap_entryvals[k].target, ':');
}

/* Whether row @k's function is in module @name ('-' and '_' alike). */
static bool tap_ev_in_module(unsigned int k, const char *name)
{
	const char *m = tap_entryvals[k].target;

	if (!tap_ev_is_modular(k))
		return false;
	for (; *m != ':' && *name; m++, name++)
		if (*m != *name && !((*m == '-' || *m == '_') && (*name == '-' || *name == '_')))
			return false;
	return *m == ':' && !*name;
}

static int tap_ev_module_event(struct notifier_block *nb, unsigned long state, void *data)
{
	struct module *mod = data;
	unsigned int k;

	if (state != MODULE_STATE_COMING && state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&tap_ev_mutex);
	for (k = 0; k < tap_nentryvals; k++) {
		struct tap_ev_probe *p = &tap_ev_probes[k];

		if (!tap_ev_in_module(k, mod->name))
			continue;
		if (state == MODULE_STATE_COMING && !p->registered) {
			tap_entryval_register(p, k);
		} else if (state == MODULE_STATE_GOING && p->registered) {
			unregister_kprobe(&p->kp);
			p->registered = false;
		}
	}
	mutex_unlock(&tap_ev_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block tap_ev_module_nb = {
	.notifier_call = tap_ev_module_event,
};

static void tap_entryvals_stop(void)
{
	struct kprobe **v;
	unsigned int k, n = 0;

	if (!tap_ev_probes)
		return;
	if (tap_ev_notifying)
		unregister_module_notifier(&tap_ev_module_nb);
	tap_ev_notifying = false;
	/* all at once: one RCU grace period, not one a probe */
	v = kcalloc(tap_nentryvals, sizeof(*v), GFP_KERNEL);
	for (k = 0; k < tap_nentryvals; k++) {
		if (!tap_ev_probes[k].registered)
			continue;
		if (tap_entryvals[k].user)
			tap_entryval_uunregister(&tap_ev_probes[k]);
		else if (v)
			v[n++] = &tap_ev_probes[k].kp;
		else
			unregister_kprobe(&tap_ev_probes[k].kp);
	}
	if (n)
		unregister_kprobes(v, n);
	kfree(v);
	kfree(tap_ev_probes);
	tap_ev_probes = NULL;
	kvfree(tap_ev_slots);
	tap_ev_slots = NULL;
}

static int tap_entryvals_init(void)
{
	unsigned int k;

	if (!tap_nentryvals)
		return 0;
	tap_ev_slots = kvcalloc(TAP_EV_SLOTS, sizeof(*tap_ev_slots), GFP_KERNEL);
	tap_ev_probes = kcalloc(tap_nentryvals, sizeof(*tap_ev_probes), GFP_KERNEL);
	if (!tap_ev_slots || !tap_ev_probes) {
		kvfree(tap_ev_slots);
		kfree(tap_ev_probes);
		tap_ev_slots = NULL;
		tap_ev_probes = NULL;
		return -ENOMEM;
	}
	/* before the first registration, so no module slips between */
	for (k = 0; k < tap_nentryvals; k++)
		if (tap_ev_is_modular(k))
			break;
	if (k < tap_nentryvals && register_module_notifier(&tap_ev_module_nb) == 0)
		tap_ev_notifying = true;
	mutex_lock(&tap_ev_mutex);
	for (k = 0; k < tap_nentryvals; k++)
		if (!tap_ev_probes[k].registered)
			tap_entryval_register(&tap_ev_probes[k], k);
	mutex_unlock(&tap_ev_mutex);
	return 0;
}

const struct tap_family tap_family_entryval = {
	.name = "entry value",
	.init = tap_entryvals_init,
	.stop = tap_entryvals_stop,
};
