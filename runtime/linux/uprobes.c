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
 * default).
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
	void *data;			/* probe->entry_size bytes */
};

struct tap_up {
	const struct tap_probe *probe;
	struct inode *inode;		/* a reference while set */
	struct path path;		/* held as long: see tap_up_inode() */
	struct uprobe_consumer uc;
	bool ret;
	bool registered;
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

	if (tap_up_wanted(u->probe))
		tap_run_event(u->probe, regs, 1, NULL);
	return 0;
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
 * The slot of the call returning now, whose entry saw the stack pointer
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

/* A .return probe's entry half, at the function's first instruction. */
static int tap_uretprobe_entry(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct tap_up *u = container_of(uc, struct tap_up, uc);
	unsigned long sp = user_stack_pointer(regs);
	struct tap_uslot *s;

	if (!tap_up_wanted(u->probe))
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
	if (tap_run_entry(u->probe, regs, 1, s->data))
		tap_uslot_free(u, s);
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
	struct tap_uslot *s;

	if (!u->probe->entry) {
		if (tap_up_wanted(u->probe))
			tap_run_event(u->probe, regs, 1, NULL);
		return 0;
	}
	s = tap_uslot_find(u, user_stack_pointer(regs) - sizeof(long));
	if (!s)
		return 0;	/* its entry half did not run or failed */
	tap_run_return(u->probe, regs, 1, s->data);
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
	if (u->inode) {
		iput(u->inode);
		path_put(&u->path);
	}
	u->inode = NULL;
}

/*
 * The inode of @path (a regular file), referenced; or an ERR_PTR.  The
 * path is kept in @p while the probe is set (as the kernel's own
 * uprobe_events do): a file system that makes a new inode at each lookup
 * of a name no dentry holds (9p without cache=loose, in the test VM)
 * would otherwise give the program that is started later an inode
 * without our uprobes.
 */
static struct inode *tap_up_inode(const char *path, struct path *p)
{
	struct inode *inode;
	int ret = kern_path(path, LOOKUP_FOLLOW, p);

	if (ret)
		return ERR_PTR(ret);
	inode = d_real_inode(p->dentry);
	if (!S_ISREG(inode->i_mode))
		inode = ERR_PTR(-EINVAL);
	else
		inode = igrab(inode);
	if (IS_ERR_OR_NULL(inode))
		path_put(p);
	return inode ? inode : ERR_PTR(-ENOENT);
}

/* Fill in @u for @p; 0 or a negative errno (a warning printed). */
static int tap_up_prepare(struct tap_up *u, const struct tap_probe *p)
{
	struct inode *inode;

	u->probe = p;
	u->ret = p->flags & TAP_PF_RETURN;
	spin_lock_init(&u->lock);
	atomic_set(&u->missed, 0);
	inode = tap_up_inode(p->target, &u->path);
	if (IS_ERR(inode)) {
		tap_errmsg("WARNING: probe %s: cannot find %s (rc %ld)\n", p->pp, p->target,
			   PTR_ERR(inode));
		return PTR_ERR(inode);
	}
	u->inode = inode;
	if (!u->ret) {
		u->uc.handler = tap_uprobe_hit;
		return 0;
	}
	u->uc.ret_handler = tap_uretprobe_hit;
	if (p->entry) {
		u->uc.handler = tap_uretprobe_entry;
		return tap_up_alloc_slots(u);
	}
	return 0;
}

static void tap_up_register(struct tap_up *u)
{
	const struct tap_probe *p = u->probe;
	int rc;

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
	if (!u->registered)
		return;
	uprobe_unregister(u->inode, u->probe->u.uprobe.offset, &u->uc);
	u->registered = false;
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
