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
 * 32-bit (ia32) system calls use another numbering; they are ignored, as
 * are numbers outside the x86-64 table (x32 calls).
 */
#include <linux/compat.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <asm/syscall.h>
#include "tap_internal.h"
#include "tap_syscall.h"

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

static bool tap_sc_ignored(long nr)
{
	return nr < 0 || in_compat_syscall();
}

static void tap_sc_dispatch(struct tap_sc_table *t, struct pt_regs *regs,
			    const struct tap_syscall_event *ev)
{
	const struct tap_sc_list *l;
	unsigned int i;

	for (i = 0; i < t->any.n; i++)
		tap_run_event(t->any.probes[i], regs, 1, ev);
	if (ev->nr >= t->size)
		return;
	l = &t->lists[ev->nr];
	for (i = 0; i < l->n; i++)
		tap_run_event(l->probes[i], regs, 1, ev);
}

static void tap_sc_enter(void *data, struct pt_regs *regs, long id)
{
	struct tap_syscall_event ev = { .nr = id, .ret = 0, .is_return = 0 };

	if (tap_sc_ignored(id))
		return;
	tap_sc_dispatch(&tap_sc_entry, regs, &ev);
}

/* sys_exit does not pass the number: orig_ax still holds it. */
static void tap_sc_leave(void *data, struct pt_regs *regs, long ret)
{
	struct tap_syscall_event ev = {
		.nr = syscall_get_nr(current, regs), .ret = ret, .is_return = 1,
	};

	if (tap_sc_ignored(ev.nr))
		return;
	tap_sc_dispatch(&tap_sc_exit, regs, &ev);
}

static bool tap_sc_mine(const struct tap_probe *p, bool ret)
{
	return p->kind == TAP_PROBE_SYSCALL &&
	       !!(p->flags & TAP_PF_RETURN) == ret;
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
		if (p->arg[0] >= 0 && p->arg[0] + 1 > size)
			size = p->arg[0] + 1;
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
			(p->arg[0] < 0 ? &t->any : &t->lists[p->arg[0]])->n++;
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
		l = p->arg[0] < 0 ? &t->any : &t->lists[p->arg[0]];
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
}

static int tap_sc_init(void)
{
	int rc;

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

static void tap_sc_arm(const struct tap_probe *p, bool on)
{
	struct tap_sc_table *t = p->flags & TAP_PF_RETURN ? &tap_sc_exit : &tap_sc_entry;

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

const struct tap_family tap_family_syscall = {
	.name = "syscall",
	.init = tap_sc_init,
	.stop = tap_sc_stop,
	.kind = TAP_PROBE_SYSCALL,
	.arm = tap_sc_arm,
};
