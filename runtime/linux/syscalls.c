// SPDX-License-Identifier: GPL-2.0
/*
 * syscall.NAME[.return] and syscall_any[.return]: TAP_PROBE_SYSCALL entries
 * of tap_probes[] (arg[0]: the x86-64 system call number, or -1 for every
 * call; flags TAP_PF_RETURN for a return probe).
 *
 * However many such probes a script has, the family attaches at most two
 * callbacks: one on the raw_syscalls:sys_enter tracepoint and one on
 * sys_exit.  Each looks the call's number up in a table built at load
 * time (number -> the probes on it, plus the probes on every call), so a
 * "syscall.*" script costs one indirect call and one table lookup per
 * system call, not one probe per system call name (doc/SYSCALLS.md).
 *
 * 32-bit (ia32) system calls use another numbering: the probes on compat
 * numbers (arg[1] 1: the i386 numbers an alias also covers, e.g.
 * syscall.read's 3) sit in the table's entries past TAP_SC_COMPAT_BASE;
 * syscall_any sees every call of both ABIs, as SystemTap's (its
 * tracepoint does); numbers outside the table (x32 calls) are ignored.
 * A 32-bit socketcall(SYS_x, args) or ipc(x, ...) runs the probes on its
 * own number and then those of its sub-call (syscall.socket ...,
 * syscall.semop ..., as SystemTap's aliases cover the multiplexers),
 * which read the sub-call's arguments, fetched once per call
 * (syscall_mux.c).
 *
 * A syscall.NAME.return probe with @entry(...) has an entry half (its
 * ->entry), run on sys_enter of its call: the return probe sits in the
 * entry table too, and the values it saves wait in a slot of the task
 * (tap_sc_saves) until sys_exit of that call runs the return half on
 * them.  A call that began before the probes were armed has no slot, and
 * its return is not reported, as for a kretprobe without an instance.
 */
#include <linux/compat.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/tracepoint.h>
#include <asm/syscall.h>
#include "tap_internal.h"
#include "tap_syscall.h"

/* Where the compat numbers start in a table (above every x86-64 number). */
#define TAP_SC_COMPAT_BASE 1024

/* The probes on one system call number, in tap_probes[] order. */
struct tap_sc_list {
	unsigned int n;
	const struct tap_probe **probes;
};

/* One direction (entry or return): lists[nr] for nr < size, and any. */
struct tap_sc_table {
	unsigned int size;
	struct tap_sc_list *lists;
	struct tap_sc_list any;
	const struct tap_probe **storage;	/* every list's probes */
	struct tracepoint *tp;			/* registered, or NULL */
	/* While every probe of the table is disarmed, the tracepoint is
	 * unregistered (an enabled sys_enter sends every system call
	 * through the slow tracing path). */
	struct tracepoint *found;
	void *fn;
	unsigned int armed;			/* probes not disarmed */
	bool ever;				/* tp was registered once */
};

static struct tap_sc_table tap_sc_entry, tap_sc_exit;

/*
 * The values a return probe's entry half saved, per task in a system
 * call: a task is in one call at a time, so its slot is keyed by the
 * task (and the task's start time, should its task_struct be reused).
 * A task that never comes back (exit, killed inside the call) leaves
 * its slot taken; when no slot is free, the oldest idle one is reused.
 */
struct tap_sc_slot {
	struct task_struct *task;	/* NULL: free */
	u64 start_time;
	u64 seq;			/* taken in this order */
	bool busy;			/* a half runs on data: keep it */
	void *data;			/* probe->entry_size bytes */
};

struct tap_sc_saves {
	const struct tap_probe *probe;
	spinlock_t lock;
	u64 seq;
	unsigned int nslots;
	struct tap_sc_slot *slots;
	void *data;
};

static struct tap_sc_saves *tap_sc_saves;
static unsigned int tap_sc_nsaves;

static bool tap_sc_has_entry(const struct tap_probe *p)
{
	return (p->flags & TAP_PF_RETURN) && p->entry && p->arg[0] >= 0;
}

static struct tap_sc_saves *tap_sc_saves_of(const struct tap_probe *p)
{
	unsigned int i;

	for (i = 0; i < tap_sc_nsaves; i++)
		if (tap_sc_saves[i].probe == p)
			return &tap_sc_saves[i];
	return NULL;
}

static bool tap_sc_slot_is_current(const struct tap_sc_slot *s)
{
	return s->task == current && s->start_time == current->start_time;
}

/* Under sv->lock: this task's slot (a stale one of an earlier call
 * included), else a free one, else the oldest idle one; NULL if every
 * slot is busy. */
static struct tap_sc_slot *tap_sc_slot_take(struct tap_sc_saves *sv)
{
	struct tap_sc_slot *free = NULL, *oldest = NULL, *s;
	unsigned int i;

	for (i = 0; i < sv->nslots; i++) {
		s = &sv->slots[i];
		if (s->task && tap_sc_slot_is_current(s))
			return s->busy ? NULL : s;
		if (!s->task && !free)
			free = s;
		else if (s->task && !s->busy && (!oldest || s->seq < oldest->seq))
			oldest = s;
	}
	return free ? free : oldest;
}

/* sys_enter of a call return probe @p has: run its entry half into this
 * task's slot. */
static void tap_sc_save(const struct tap_probe *p, struct pt_regs *regs,
			const struct tap_syscall_event *ev)
{
	struct tap_sc_saves *sv = tap_sc_saves_of(p);
	struct tap_sc_slot *s;
	unsigned long flags;
	int rc;

	if (!sv)
		return;
	spin_lock_irqsave(&sv->lock, flags);
	s = tap_sc_slot_take(sv);
	if (s) {
		s->task = current;
		s->start_time = current->start_time;
		s->seq = ++sv->seq;
		s->busy = true;
	}
	spin_unlock_irqrestore(&sv->lock, flags);
	if (!s)
		return;
	rc = tap_run_entry(p, regs, 1, ev, s->data);
	spin_lock_irqsave(&sv->lock, flags);
	s->busy = false;
	if (rc)
		s->task = NULL;		/* nothing saved: no return half */
	spin_unlock_irqrestore(&sv->lock, flags);
}

/* sys_exit: run @p's return half on the values saved at this task's
 * entry, if there are any, and free the slot. */
static void tap_sc_restore(const struct tap_probe *p, struct pt_regs *regs,
			   const struct tap_syscall_event *ev)
{
	struct tap_sc_saves *sv = tap_sc_saves_of(p);
	struct tap_sc_slot *s = NULL;
	unsigned long flags;
	unsigned int i;

	if (!sv)
		return;
	spin_lock_irqsave(&sv->lock, flags);
	for (i = 0; i < sv->nslots; i++)
		if (sv->slots[i].task && !sv->slots[i].busy &&
		    tap_sc_slot_is_current(&sv->slots[i])) {
			s = &sv->slots[i];
			s->busy = true;
			break;
		}
	spin_unlock_irqrestore(&sv->lock, flags);
	if (!s)
		return;
	tap_run_return(p, regs, 1, ev, s->data);
	spin_lock_irqsave(&sv->lock, flags);
	s->busy = false;
	s->task = NULL;
	spin_unlock_irqrestore(&sv->lock, flags);
}

static unsigned int tap_sc_nslots(void)
{
	return max_t(unsigned int, 128, 16 * num_possible_cpus());
}

static void tap_sc_saves_free(void)
{
	unsigned int i;

	for (i = 0; i < tap_sc_nsaves; i++) {
		kfree(tap_sc_saves[i].data);
		kfree(tap_sc_saves[i].slots);
	}
	kfree(tap_sc_saves);
	tap_sc_saves = NULL;
	tap_sc_nsaves = 0;
}

/* A tap_sc_saves for every return probe with an entry half. */
static int tap_sc_saves_alloc(void)
{
	unsigned int i, j, n = 0, size;

	for (i = 0; i < tap_nprobes; i++)
		if (tap_probes[i].kind == TAP_PROBE_SYSCALL && tap_sc_has_entry(&tap_probes[i]))
			n++;
	if (!n)
		return 0;
	tap_sc_saves = kcalloc(n, sizeof(*tap_sc_saves), GFP_KERNEL);
	if (!tap_sc_saves)
		return -ENOMEM;
	for (i = 0; i < tap_nprobes; i++) {
		const struct tap_probe *p = &tap_probes[i];
		struct tap_sc_saves *sv;

		if (p->kind != TAP_PROBE_SYSCALL || !tap_sc_has_entry(p))
			continue;
		sv = &tap_sc_saves[tap_sc_nsaves++];
		sv->probe = p;
		spin_lock_init(&sv->lock);
		sv->nslots = tap_sc_nslots();
		size = ALIGN(p->entry_size, sizeof(long));
		sv->slots = kcalloc(sv->nslots, sizeof(*sv->slots), GFP_KERNEL);
		sv->data = kcalloc(sv->nslots, size, GFP_KERNEL);
		if (!sv->slots || !sv->data)
			return -ENOMEM;
		for (j = 0; j < sv->nslots; j++)
			sv->slots[j].data = (char *)sv->data + j * size;
	}
	return 0;
}

/* The table entry of a probe, -1 for the probes on every call. */
static long tap_sc_index(const struct tap_probe *p)
{
	if (p->arg[0] < 0)
		return -1;
	return p->arg[0] + (p->arg[1] ? TAP_SC_COMPAT_BASE : 0);
}

static bool tap_sc_ignored(long nr)
{
	return nr < 0 || nr >= TAP_SC_COMPAT_BASE;
}

/* The probes of table entry @at. */
static void tap_sc_run_list(struct tap_sc_table *t, unsigned long at,
			    struct pt_regs *regs, const struct tap_syscall_event *ev)
{
	const struct tap_sc_list *l;
	unsigned int i;

	if (at >= t->size)
		return;
	l = &t->lists[at];
	for (i = 0; i < l->n; i++) {
		const struct tap_probe *p = l->probes[i];

		if (!tap_sc_has_entry(p))
			tap_run_event(p, regs, 1, ev);
		else if (ev->is_return)
			tap_sc_restore(p, regs, ev);
		else
			tap_sc_save(p, regs, ev);
	}
}

static void tap_sc_dispatch(struct tap_sc_table *t, struct pt_regs *regs,
			    struct tap_syscall_event *ev)
{
	unsigned long base = ev->compat ? TAP_SC_COMPAT_BASE : 0;
	unsigned int i;

	for (i = 0; i < t->any.n; i++)
		tap_run_event(t->any.probes[i], regs, 1, ev);
	tap_sc_run_list(t, base + ev->nr, regs, ev);
	if (tap_sc_subcall(regs, ev))
		tap_sc_run_list(t, base + ev->subcall, regs, ev);
}

static void tap_sc_enter(void *data, struct pt_regs *regs, long id)
{
	struct tap_syscall_event ev = {
		.tp_args = { (unsigned long)regs, id },
		.nr = id, .ret = 0, .is_return = 0, .compat = in_compat_syscall(),
	};

	if (tap_sc_ignored(id))
		return;
	tap_sc_dispatch(&tap_sc_entry, regs, &ev);
}

/* sys_exit does not pass the number: orig_ax still holds it. */
static void tap_sc_leave(void *data, struct pt_regs *regs, long ret)
{
	struct tap_syscall_event ev = {
		.tp_args = { (unsigned long)regs, ret },
		.nr = syscall_get_nr(current, regs), .ret = ret, .is_return = 1,
		.compat = in_compat_syscall(),
	};

	if (tap_sc_ignored(ev.nr))
		return;
	tap_sc_dispatch(&tap_sc_exit, regs, &ev);
}

/* The probes of the entry table (ret false) or of the return table: a
 * return probe with an entry half is in both. */
static bool tap_sc_mine(const struct tap_probe *p, bool ret)
{
	if (p->kind != TAP_PROBE_SYSCALL)
		return false;
	if (!!(p->flags & TAP_PF_RETURN) == ret)
		return true;
	return !ret && tap_sc_has_entry(p);
}

/* Count, then fill, the lists of one direction. */
static int tap_sc_build(struct tap_sc_table *t, bool ret)
{
	unsigned int i, total = 0, size = 0, used = 0;

	for (i = 0; i < tap_nprobes; i++) {
		const struct tap_probe *p = &tap_probes[i];

		if (!tap_sc_mine(p, ret))
			continue;
		total++;
		if (tap_sc_index(p) >= 0 && tap_sc_index(p) + 1 > size)
			size = tap_sc_index(p) + 1;
	}
	if (!total)
		return 0;
	t->armed = total;
	t->storage = kcalloc(total, sizeof(*t->storage), GFP_KERNEL);
	t->lists = size ? kcalloc(size, sizeof(*t->lists), GFP_KERNEL) : NULL;
	if (!t->storage || (size && !t->lists))
		return -ENOMEM;
	t->size = size;
	for (i = 0; i < tap_nprobes; i++) {
		const struct tap_probe *p = &tap_probes[i];

		if (tap_sc_mine(p, ret))
			(p->arg[0] < 0 ? &t->any : &t->lists[tap_sc_index(p)])->n++;
	}
	/* Lay the lists out one after the other in storage. */
	t->any.probes = t->storage;
	used = t->any.n;
	t->any.n = 0;
	for (i = 0; i < size; i++) {
		t->lists[i].probes = t->storage + used;
		used += t->lists[i].n;
		t->lists[i].n = 0;
	}
	for (i = 0; i < tap_nprobes; i++) {
		const struct tap_probe *p = &tap_probes[i];
		struct tap_sc_list *l;

		if (!tap_sc_mine(p, ret))
			continue;
		l = p->arg[0] < 0 ? &t->any : &t->lists[tap_sc_index(p)];
		l->probes[l->n++] = p;
	}
	return 0;
}

static void tap_sc_free(struct tap_sc_table *t)
{
	kfree(t->storage);
	kfree(t->lists);
	memset(t, 0, sizeof(*t));
}

static int tap_sc_attach(struct tap_sc_table *t, const char *name, void *fn)
{
	struct tracepoint *tp;
	int rc;

	if (!t->storage)
		return 0;
	tp = tap_tracepoint_find(name);
	if (!tp) {
		tap_errmsg("ERROR: tracepoint %s not found: syscall probes need CONFIG_HAVE_SYSCALL_TRACEPOINTS\n",
			   name);
		return -ENOENT;
	}
	rc = tracepoint_probe_register(tp, fn, NULL);
	if (rc) {
		tap_errmsg("ERROR: cannot attach to tracepoint %s (%d)\n", name, rc);
		return rc;
	}
	t->tp = t->found = tp;
	t->fn = fn;
	t->ever = true;
	return 0;
}

static void tap_sc_stop(void)
{
	/* a callback registered before a disarm may still be running */
	bool any = tap_sc_entry.ever || tap_sc_exit.ever;

	if (tap_sc_entry.tp)
		tracepoint_probe_unregister(tap_sc_entry.tp, tap_sc_enter, NULL);
	if (tap_sc_exit.tp)
		tracepoint_probe_unregister(tap_sc_exit.tp, tap_sc_leave, NULL);
	if (any)
		tracepoint_synchronize_unregister();
	tap_sc_free(&tap_sc_entry);
	tap_sc_free(&tap_sc_exit);
	tap_sc_saves_free();
}

static int tap_sc_init(void)
{
	int rc;

	rc = tap_sc_saves_alloc();
	if (!rc)
		rc = tap_sc_build(&tap_sc_entry, false);
	if (!rc)
		rc = tap_sc_build(&tap_sc_exit, true);
	if (!rc)
		rc = tap_sc_attach(&tap_sc_entry, "sys_enter", tap_sc_enter);
	if (!rc)
		rc = tap_sc_attach(&tap_sc_exit, "sys_exit", tap_sc_leave);
	if (rc)
		tap_sc_stop();
	return rc;
}

static void tap_sc_table_arm(struct tap_sc_table *t, bool on)
{
	if (!t->found)
		return;
	if (on) {
		if (t->armed++ == 0 &&
		    tracepoint_probe_register(t->found, t->fn, NULL) == 0)
			t->tp = t->found;
	} else if (t->armed > 0 && --t->armed == 0 && t->tp) {
		if (tracepoint_probe_unregister(t->tp, t->fn, NULL) == 0)
			t->tp = NULL;
	}
}

/* A return probe with an entry half arms its call's entry too. */
static void tap_sc_arm(const struct tap_probe *p, bool on)
{
	if (p->flags & TAP_PF_RETURN) {
		tap_sc_table_arm(&tap_sc_exit, on);
		if (tap_sc_has_entry(p))
			tap_sc_table_arm(&tap_sc_entry, on);
	} else {
		tap_sc_table_arm(&tap_sc_entry, on);
	}
}

const struct tap_family tap_family_syscall = {
	.name = "syscall",
	.init = tap_sc_init,
	.stop = tap_sc_stop,
	.kind = TAP_PROBE_SYSCALL,
	.arm = tap_sc_arm,
};
