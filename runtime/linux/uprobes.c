// SPDX-License-Identifier: GPL-2.0
/*
 * User-space probes through the kernel's uprobes: one uprobe (or
 * uretprobe) per TAP_PROBE_UPROBE entry of tap_probes[], for every
 * family that probes an instruction of a user binary
 * (process("PATH").function/.statement/.plt, and .mark with its
 * semaphore).
 *
 * Entry fields (written by src/probes/uprobe.c and the SDT family):
 * target = the binary's absolute path, resolved to its inode here at
 * module load; u.uprobe.offset = the probed instruction's offset in the
 * file; u.uprobe.ref_ctr = the file offset of a semaphore the kernel
 * increments in each process while the probe is registered, or 0;
 * flags & TAP_PF_RETURN = a uretprobe; arg[0] = the process (tgid) the
 * probe is limited to, 0 for any, -1 for target(); u.uprobe.maxactive =
 * the .return instances whose entry values are kept at once (-1: the
 * default); u.uprobe.entry_offset and .entry_addr = where a .return
 * probe's entry half runs when that is not the entry (past the prologue
 * of unoptimised code, where the parameters are in their stack slots;
 * 0: at the entry); u.uprobe.addr = the instruction's link-time address, from
 * which each hit's load bias is known (struct tap_uprobe_event: statics
 * of a PIE or a library are read at their link-time address + bias).
 *
 * Uprobes are set on the inode, so a process that starts after the
 * module loaded (a -c command) has them from its first instruction.  The
 * kernel runs the handlers in the probed task, in process context, with
 * the task's user registers; the hit then runs as any event does
 * (tap_run_event, interrupts off for its length).
 *
 * uprobe_unregister() takes the uprobe's register_rwsem for writing,
 * which every handler call holds for reading: when it returns, none of
 * our handlers runs or will run, and return instances still pending in
 * tasks no longer find our consumer.  Every probe this file registered
 * is unregistered at stop, and at init on any failure.
 */
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uprobes.h>
#include <asm/fsgsbase.h>
#include "tap_internal.h"

/*
 * A .return probe's values saved at entry, for one call: the kernel's
 * uretprobes keep no data per instance, so the entry half's bytes are
 * kept here, keyed by the task and its stack pointer at the entry (the
 * slot of the return address, which the return has popped).
 */
struct tap_uslot {
	struct task_struct *task;	/* NULL: free */
	unsigned long sp;
	bool ready;			/* the entry half ran into data */
	void *data;			/* probe->entry_size bytes */
};

struct tap_up {
	const struct tap_probe *probe;
	struct path path;		/* .target, held while set: a file
					 * system that drops unused dentries
					 * (9p without a cache) would make
					 * the next exec's lookup a new inode */
	struct inode *inode;		/* path's, while set */
	struct uprobe_consumer uc;
	bool ret;
	bool registered;
	/* a .return probe whose entry half runs past the prologue: its
	 * uprobe there (u.uprobe.entry_offset) */
	bool split_entry;
	struct uprobe_consumer entry_uc;
	bool entry_registered;
	spinlock_t lock;		/* slots */
	struct tap_uslot *slots;	/* .return with an entry half */
	unsigned int nslots;
	atomic_t missed;		/* calls without a free slot */
};

static struct tap_up *tap_ups;
static unsigned int tap_nups;

/* Whether the current task is one @p is limited to. */
static bool tap_up_wanted(const struct tap_probe *p)
{
	long long pid = p->arg[0];

	if (tap_stapusr() && !tap_is_myproc())
		return false;
	if (pid == -1)
		pid = tap_target();
	return !pid || current->tgid == pid;
}

/*
 * The kernel hands the handler the IP at the probed instruction already
 * (addr(), uaddr() and backtraces see the probed address).
 */
static int tap_uprobe_hit(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct tap_up *u = container_of(uc, struct tap_up, uc);
	struct tap_uprobe_event ev = {
		.bias = instruction_pointer(regs) - u->probe->u.uprobe.addr,
	};

	if (tap_up_wanted(u->probe))
		tap_run_event(u->probe, regs, 1, &ev);
	return 0;
}

unsigned long tap_uprobe_bias(struct tap_context *c)
{
	const struct tap_uprobe_event *ev = c->event;

	if (!c->probe || c->probe->kind != TAP_PROBE_UPROBE || !ev)
		return 0;
	return ev->bias;
}

/*
 * The probed thread's thread pointer: the FS base its user code set
 * (arch_prctl, or wrfsbase where FSGSBASE is on), still loaded while its
 * uprobe's handler runs in its context, as the kernel does not use FS.
 */
unsigned long tap_user_thread_pointer(struct tap_context *c)
{
	(void)c;
	return x86_fsbase_read_cpu();
}

/* A free slot for the current call, marked as its; NULL when none. */
static struct tap_uslot *tap_uslot_take(struct tap_up *u, unsigned long sp)
{
	struct tap_uslot *s = NULL;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&u->lock, flags);
	for (i = 0; i < u->nslots; i++) {
		if (!u->slots[i].task) {
			s = &u->slots[i];
			s->task = current;
			s->sp = sp;
			s->ready = false;
			break;
		}
	}
	spin_unlock_irqrestore(&u->lock, flags);
	return s;
}

static void tap_uslot_free(struct tap_up *u, struct tap_uslot *s)
{
	unsigned long flags;

	spin_lock_irqsave(&u->lock, flags);
	s->task = NULL;
	spin_unlock_irqrestore(&u->lock, flags);
}

/*
 * The slot of the current task's call whose entry saw the stack pointer
 * @sp; slots of the task's deeper calls, which did not return (a
 * longjmp past them), are freed on the way.
 */
static struct tap_uslot *tap_uslot_find(struct tap_up *u, unsigned long sp)
{
	struct tap_uslot *s = NULL;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&u->lock, flags);
	for (i = 0; i < u->nslots; i++) {
		struct tap_uslot *t = &u->slots[i];

		if (t->task != current)
			continue;
		if (t->sp == sp)
			s = t;
		else if (t->sp < sp)
			t->task = NULL;
	}
	spin_unlock_irqrestore(&u->lock, flags);
	return s;
}

/*
 * The current task's call that was entered and whose entry half has not
 * run yet: the innermost one (no call can come between a function's
 * entry and the end of its prologue).
 */
static struct tap_uslot *tap_uslot_pending(struct tap_up *u)
{
	struct tap_uslot *s = NULL;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&u->lock, flags);
	for (i = 0; i < u->nslots; i++) {
		struct tap_uslot *t = &u->slots[i];

		if (t->task == current && !t->ready && (!s || t->sp < s->sp))
			s = t;
	}
	spin_unlock_irqrestore(&u->lock, flags);
	return s;
}

/* Run the entry half into @s at @regs, at the instruction of link-time
 * address @addr; a failed one frees the slot. */
static void tap_uslot_fill(struct tap_up *u, struct tap_uslot *s, struct pt_regs *regs,
			   unsigned long long addr)
{
	struct tap_uprobe_event ev = { .bias = instruction_pointer(regs) - addr };

	if (tap_run_entry(u->probe, regs, 1, &ev, s->data))
		tap_uslot_free(u, s);
	else
		s->ready = true;
}

/*
 * A .return probe with an entry half, at the function's first
 * instruction: a slot for the call, keyed by the stack pointer, filled
 * here or, when the entry half runs past the prologue, by
 * tap_uretprobe_prologue().
 */
static int tap_uretprobe_entry(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct tap_up *u = container_of(uc, struct tap_up, uc);
	const struct tap_probe *p = u->probe;
	unsigned long sp = user_stack_pointer(regs);
	struct tap_uslot *s;

	if (!tap_up_wanted(p))
		return 0;
	/* a call the task entered again at the same depth (a longjmp
	 * out of it) leaves its slot behind: reuse it */
	s = tap_uslot_find(u, sp);
	if (!s)
		s = tap_uslot_take(u, sp);
	if (!s) {
		atomic_inc(&u->missed);
		return 0;
	}
	s->ready = false;
	if (!u->split_entry)
		tap_uslot_fill(u, s, regs, p->u.uprobe.addr);
	return 0;
}

/* The entry half past the prologue, where unoptimised code has stored
 * the parameters the DWARF describes there. */
static int tap_uretprobe_prologue(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct tap_up *u = container_of(uc, struct tap_up, entry_uc);
	struct tap_uslot *s;

	if (!tap_up_wanted(u->probe))
		return 0;
	s = tap_uslot_pending(u);
	if (s)
		tap_uslot_fill(u, s, regs, u->probe->u.uprobe.entry_addr);
	return 0;
}

/*
 * As for kretprobes, the handler sees the IP at the return address (the
 * kernel has set it so).  The return popped the return address, so the
 * entry's stack pointer was one word below.
 */
static int tap_uretprobe_hit(struct uprobe_consumer *uc, unsigned long func,
			     struct pt_regs *regs)
{
	struct tap_up *u = container_of(uc, struct tap_up, uc);
	struct tap_uprobe_event ev = { .bias = func - u->probe->u.uprobe.addr };
	struct tap_uslot *s;

	if (!u->probe->entry) {
		if (tap_up_wanted(u->probe))
			tap_run_event(u->probe, regs, 1, &ev);
		return 0;
	}
	s = tap_uslot_find(u, user_stack_pointer(regs) - sizeof(long));
	if (!s)
		return 0;	/* no slot was free at its entry */
	if (s->ready)		/* else its entry half failed */
		tap_run_return(u->probe, regs, 1, &ev, s->data);
	tap_uslot_free(u, s);
	return 0;
}

/* Instances of a .return probe's saved values when not given. */
static unsigned int tap_uret_default(void)
{
	return max_t(unsigned int, 64, 8 * num_possible_cpus());
}

static int tap_up_alloc_slots(struct tap_up *u)
{
	const struct tap_probe *p = u->probe;
	unsigned int i, n;
	char *data;

	n = p->u.uprobe.maxactive < 0 ? tap_uret_default() : p->u.uprobe.maxactive;
	u->slots = kcalloc(n, sizeof(*u->slots), GFP_KERNEL);
	data = kcalloc(n, ALIGN(p->entry_size, sizeof(long)), GFP_KERNEL);
	if (!u->slots || !data) {
		kfree(data);
		kfree(u->slots);
		u->slots = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		u->slots[i].data = data + i * ALIGN(p->entry_size, sizeof(long));
	u->nslots = n;
	return 0;
}

static void tap_up_release(struct tap_up *u)
{
	if (u->slots)
		kfree(u->slots[0].data);
	kfree(u->slots);
	u->slots = NULL;
	if (u->inode)
		path_put(&u->path);
	u->inode = NULL;
}

/* Hold @name's path in @u (a regular file): 0 or a negative errno. */
static int tap_up_lookup(struct tap_up *u, const char *name)
{
	int ret = kern_path(name, LOOKUP_FOLLOW, &u->path);

	if (ret)
		return ret;
	if (!S_ISREG(d_real_inode(u->path.dentry)->i_mode)) {
		path_put(&u->path);
		return -EINVAL;
	}
	u->inode = d_real_inode(u->path.dentry);
	return 0;
}

/* Fill in @u for @p; 0 or a negative errno (a warning printed). */
static int tap_up_prepare(struct tap_up *u, const struct tap_probe *p)
{
	int ret;

	u->probe = p;
	u->ret = p->flags & TAP_PF_RETURN;
	spin_lock_init(&u->lock);
	atomic_set(&u->missed, 0);
	ret = tap_up_lookup(u, p->target);
	if (ret) {
		tap_errmsg("WARNING: probe %s: cannot find %s (rc %d)\n", p->pp, p->target, ret);
		return ret;
	}
	if (!u->ret) {
		u->uc.handler = tap_uprobe_hit;
		return 0;
	}
	u->uc.ret_handler = tap_uretprobe_hit;
	if (p->entry) {
		u->uc.handler = tap_uretprobe_entry;
		u->split_entry = p->u.uprobe.entry_offset &&
				 p->u.uprobe.entry_offset != p->u.uprobe.offset;
		u->entry_uc.handler = tap_uretprobe_prologue;
		return tap_up_alloc_slots(u);
	}
	return 0;
}

static void tap_up_register(struct tap_up *u)
{
	const struct tap_probe *p = u->probe;
	int rc;

	if (u->split_entry) {
		rc = uprobe_register(u->inode, p->u.uprobe.entry_offset, &u->entry_uc);
		u->entry_registered = rc == 0;
		if (rc) {
			tap_errmsg("WARNING: probe %s (%s+0x%llx) registration error [man warning::pass5] (rc %d)\n",
				   p->pp, p->target, p->u.uprobe.entry_offset, rc);
			return;
		}
	}
	if (p->u.uprobe.ref_ctr)
		rc = uprobe_register_refctr(u->inode, p->u.uprobe.offset, p->u.uprobe.ref_ctr,
					    &u->uc);
	else
		rc = uprobe_register(u->inode, p->u.uprobe.offset, &u->uc);
	u->registered = rc == 0;
	if (rc)
		tap_errmsg("WARNING: probe %s (%s+0x%llx) registration error [man warning::pass5] (rc %d)\n",
			   p->pp, p->target, p->u.uprobe.offset, rc);
}

static void tap_up_unregister(struct tap_up *u)
{
	if (u->registered)
		uprobe_unregister(u->inode, u->probe->u.uprobe.offset, &u->uc);
	u->registered = false;
	if (u->entry_registered)
		uprobe_unregister(u->inode, u->probe->u.uprobe.entry_offset, &u->entry_uc);
	u->entry_registered = false;
}

static void tap_uprobes_free(void)
{
	unsigned int i;

	for (i = 0; i < tap_nups; i++) {
		tap_up_unregister(&tap_ups[i]);
		tap_up_release(&tap_ups[i]);
	}
	kfree(tap_ups);
	tap_ups = NULL;
	tap_nups = 0;
}

static int tap_uprobes_init(void)
{
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < tap_nprobes; i++)
		if (tap_probes[i].kind == TAP_PROBE_UPROBE)
			n++;
	if (!n)
		return 0;
	tap_ups = kcalloc(n, sizeof(*tap_ups), GFP_KERNEL);
	if (!tap_ups)
		return -ENOMEM;
	for (i = 0; i < tap_nprobes; i++) {
		if (tap_probes[i].kind != TAP_PROBE_UPROBE)
			continue;
		ret = tap_up_prepare(&tap_ups[tap_nups++], &tap_probes[i]);
		if (ret == -ENOMEM) {
			tap_uprobes_free();
			return ret;
		}
	}
	/* a probe whose file is missing is a warning, as a failed
	 * registration is: the script runs with the others */
	for (i = 0; i < tap_nups; i++)
		if (tap_ups[i].inode)
			tap_up_register(&tap_ups[i]);
	return 0;
}

/* Calls the kernel did not hand to a .return probe are skipped probes. */
static void tap_up_add_missed(const struct tap_up *u)
{
	int missed = atomic_read(&u->missed);

	if (!missed)
		return;
	atomic_add(missed, &tap_skipped_count);
	if (tap_timing)
		tap_errmsg("WARNING: Skipped due to missed uretprobe on '%s': %d\n",
			   u->probe->pp, missed);
}

static void tap_uprobes_stop(void)
{
	unsigned int i;

	for (i = 0; i < tap_nups; i++)
		tap_up_unregister(&tap_ups[i]);
	for (i = 0; i < tap_nups; i++)
		tap_up_add_missed(&tap_ups[i]);
	tap_uprobes_free();
}

const struct tap_family tap_family_uprobe = {
	.name = "uprobe",
	.init = tap_uprobes_init,
	.stop = tap_uprobes_stop,
};
