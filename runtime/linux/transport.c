// SPDX-License-Identifier: GPL-2.0
/*
 * Transport: the files tapc-run reads and writes, in /proc/tapc-MODULE/.
 *
 *   out  the script's output, in the order the probe hits committed it
 *   err  ERROR and WARNING lines, for tapc-run's stderr
 *   ctl  read: "STATE ERRORS SKIPPED DROPPED CUT\n"; poll says when it changed
 *        write: "start" (run begin probes, start timers) or "stop"
 *   cmd  the commands of system(), each ended by a NUL, for tapc-run to
 *        run as the session's user (tapset_system.c)
 *
 * In bulk mode (-b, TAP_BULK) the script's output goes instead to one
 * ring per possible CPU, out_0, out_1 ..., each as large as out would be:
 * a hit writes to the ring of the CPU it runs on, and tapc-run writes
 * each to its own file, as SystemTap's per-CPU files.
 *
 * out and err are bounded rings.  Probe hits never wait for the reader:
 * a hit's output that does not fit is dropped whole and counted, and
 * tapc-run reports the count.  Readers block until there are bytes or the
 * session is done; at DONE an empty ring reads as end of file.
 *
 * Loaded for the flight recorder in memory (_tap_flight=1: tapc -F
 * without -o, tapc-run -L), the script's output rings keep the latest
 * output instead: the oldest whole lines make room for a hit's, and
 * tapc-run -A reads what is left when it attaches.
 */
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/poll.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/irq_work.h>
#include <linux/preempt.h>
#include <linux/string.h>
#include "tap_internal.h"

static bool tap_flight;
module_param_named(_tap_flight, tap_flight, bool, 0444);
MODULE_PARM_DESC(_tap_flight, "flight recorder: keep the latest output (tapc-run -L)");

struct tap_ring tap_out_ring, tap_err_ring, tap_cmd_ring;
static struct tap_ring *tap_cpu_rings;	/* bulk mode: nr_cpu_ids rings */
static DECLARE_WAIT_QUEUE_HEAD(tap_ctl_wq);
static DEFINE_MUTEX(tap_read_mutex);
static struct proc_dir_entry *tap_dir;
static char tap_dir_name[64];

static void tap_wake(struct irq_work *w)
{
	unsigned int cpu;

	if (tap_cpu_rings)
		for_each_possible_cpu(cpu)
			wake_up_interruptible_all(&tap_cpu_rings[cpu].wq);
	wake_up_interruptible_all(&tap_out_ring.wq);
	wake_up_interruptible_all(&tap_err_ring.wq);
	wake_up_interruptible_all(&tap_cmd_ring.wq);
	wake_up_interruptible_all(&tap_ctl_wq);
}

static DEFINE_IRQ_WORK(tap_wake_work, tap_wake);

/* Wake readers from any context: the wake-up itself runs from irq_work. */
void tap_notify(void)
{
	irq_work_queue(&tap_wake_work);
}

static int tap_ring_init(struct tap_ring *r, size_t size)
{
	r->buf = vmalloc(size);
	if (!r->buf)
		return -ENOMEM;
	tap_mem_count(TAP_MEM_NET, size);
	r->size = size;
	r->head = r->tail = r->dropped = 0;
	r->overwrite = false;
	atomic64_set(&r->nmi_dropped, 0);
	atomic64_set(&r->cut, 0);
	spin_lock_init(&r->lock);
	init_waitqueue_head(&r->wq);
	return 0;
}

/*
 * Flight recorder: drop the oldest whole lines (the ring's lock held)
 * until len more bytes fit; a line without its end yet goes whole.
 */
static void tap_ring_make_room(struct tap_ring *r, size_t len)
{
	while (len > r->size - (size_t)(r->head - r->tail)) {
		u64 at = r->tail;

		while (at < r->head && r->buf[at % r->size] != '\n')
			at++;
		r->tail = at < r->head ? at + 1 : r->head;
	}
}

bool tap_ring_write(struct tap_ring *r, const char *s, size_t len)
{
	unsigned long flags;
	size_t off, first;
	bool written = false;

	if (!len)
		return true;
	/*
	 * A hit in NMI context (a hardware perf event) may have interrupted
	 * this CPU inside the lock: it must not wait, so its output is
	 * dropped, and counted, if the lock is busy.
	 */
	if (in_nmi()) {
		if (!spin_trylock_irqsave(&r->lock, flags)) {
			atomic64_add(len, &r->nmi_dropped);
			return false;
		}
	} else {
		spin_lock_irqsave(&r->lock, flags);
	}
	if (r->overwrite && len <= r->size)
		tap_ring_make_room(r, len);
	if (len > r->size - (size_t)(r->head - r->tail)) {
		r->dropped += len;
	} else {
		off = r->head % r->size;
		first = min(len, r->size - off);
		memcpy(r->buf + off, s, first);
		memcpy(r->buf, s + first, len - first);
		r->head += len;
		written = true;
	}
	spin_unlock_irqrestore(&r->lock, flags);
	tap_notify();
	return written;
}

/*
 * The script's output: the shared ring, or in bulk mode this CPU's (a
 * hit runs with preemption off; elsewhere, any CPU's ring will do, as
 * the ring's lock keeps the writes whole).
 */
bool tap_out_write(const char *s, size_t len)
{
	if (tap_cpu_rings)
		return tap_ring_write(&tap_cpu_rings[raw_smp_processor_id()], s, len);
	return tap_ring_write(&tap_out_ring, s, len);
}

/*
 * A single print longer than a hit's whole buffer is cut to fit; what was
 * cut is counted apart from what the full ring dropped, so that tapc-run
 * can say which limit to raise.
 */
void tap_count_cut(u64 len)
{
	atomic64_add(len, &tap_out_ring.cut);
}

/* Copy up to @len bytes out of the ring into @dst; returns the count. */
static size_t tap_ring_take(struct tap_ring *r, char *dst, size_t len)
{
	unsigned long flags;
	size_t n, off, first;

	spin_lock_irqsave(&r->lock, flags);
	n = min_t(size_t, len, r->head - r->tail);
	off = r->tail % r->size;
	first = min(n, r->size - off);
	memcpy(dst, r->buf + off, first);
	memcpy(dst + first, r->buf, n - first);
	r->tail += n;
	spin_unlock_irqrestore(&r->lock, flags);
	return n;
}

static bool tap_ring_empty(struct tap_ring *r)
{
	return READ_ONCE(r->head) == READ_ONCE(r->tail);
}

static bool tap_done(void)
{
	return atomic_read(&tap_state) == TAP_DONE;
}

/* An error or warning line for the err channel (never from NMI). */
void tap_errmsg(const char *fmt, ...)
{
	char line[TAP_ERRMSG_LEN + 256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	tap_ring_write(&tap_err_ring, line, n);
}

/* A line of the runtime's own for the out channel (-t reports). */
void tap_outmsg(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	tap_out_write(line, n);
}

#define TAP_BOUNCE 4096

static ssize_t tap_ring_read(struct tap_ring *r, struct file *file,
			     char __user *ubuf, size_t count)
{
	char *bounce;
	size_t n;
	int ret;

	if (!count)
		return 0;
	for (;;) {
		if (!tap_ring_empty(r))
			break;
		if (tap_done())
			return 0;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(r->wq,
					       !tap_ring_empty(r) || tap_done());
		if (ret)
			return ret;
	}
	bounce = kmalloc(TAP_BOUNCE, GFP_KERNEL);
	if (!bounce)
		return -ENOMEM;
	mutex_lock(&tap_read_mutex);
	n = tap_ring_take(r, bounce, min_t(size_t, count, TAP_BOUNCE));
	mutex_unlock(&tap_read_mutex);
	if (copy_to_user(ubuf, bounce, n)) {
		/* the bytes are gone from the ring: count them */
		spin_lock_irq(&r->lock);
		r->dropped += n;
		spin_unlock_irq(&r->lock);
		kfree(bounce);
		return -EFAULT;
	}
	kfree(bounce);
	return n;
}

static __poll_t tap_ring_poll(struct tap_ring *r, struct file *file,
			      poll_table *wait)
{
	poll_wait(file, &r->wq, wait);
	if (!tap_ring_empty(r) || tap_done())
		return EPOLLIN | EPOLLRDNORM;
	return 0;
}

static ssize_t tap_out_read(struct file *f, char __user *b, size_t n,
			    loff_t *pos)
{
	return tap_ring_read(&tap_out_ring, f, b, n);
}

static __poll_t tap_out_poll(struct file *f, poll_table *w)
{
	return tap_ring_poll(&tap_out_ring, f, w);
}

static ssize_t tap_err_read(struct file *f, char __user *b, size_t n,
			    loff_t *pos)
{
	return tap_ring_read(&tap_err_ring, f, b, n);
}

static __poll_t tap_err_poll(struct file *f, poll_table *w)
{
	return tap_ring_poll(&tap_err_ring, f, w);
}

#ifndef TAPCONF_PDE_DATA	/* tapconf/pde_data.c */
#define pde_data(inode) PDE_DATA(inode)
#endif

/* out_N: the file's data is CPU N's ring. */
static ssize_t tap_cpu_out_read(struct file *f, char __user *b, size_t n,
				loff_t *pos)
{
	return tap_ring_read(pde_data(file_inode(f)), f, b, n);
}

static __poll_t tap_cpu_out_poll(struct file *f, poll_table *w)
{
	return tap_ring_poll(pde_data(file_inode(f)), f, w);
}

static const struct proc_ops tap_cpu_out_ops = {
	.proc_read = tap_cpu_out_read,
	.proc_poll = tap_cpu_out_poll,
	.proc_lseek = noop_llseek,
};

static const struct proc_ops tap_out_ops = {
	.proc_read = tap_out_read,
	.proc_poll = tap_out_poll,
	.proc_lseek = noop_llseek,
};

static const struct proc_ops tap_err_ops = {
	.proc_read = tap_err_read,
	.proc_poll = tap_err_poll,
	.proc_lseek = noop_llseek,
};

static ssize_t tap_cmd_read(struct file *f, char __user *b, size_t n,
			    loff_t *pos)
{
	return tap_ring_read(&tap_cmd_ring, f, b, n);
}

static __poll_t tap_cmd_poll(struct file *f, poll_table *w)
{
	return tap_ring_poll(&tap_cmd_ring, f, w);
}

static const struct proc_ops tap_cmd_ops = {
	.proc_read = tap_cmd_read,
	.proc_poll = tap_cmd_poll,
	.proc_lseek = noop_llseek,
};

static const char *const tap_state_names[] = {
	[TAP_LOADED] = "loaded",
	[TAP_STARTING] = "starting",
	[TAP_RUNNING] = "running",
	[TAP_EXITING] = "exiting",
	[TAP_STOPPING] = "stopping",
	[TAP_DONE] = "done",
};

/* What a ring dropped, in NMI context or not. */
static u64 tap_ring_dropped(struct tap_ring *r)
{
	u64 n;

	spin_lock_irq(&r->lock);
	n = r->dropped;
	spin_unlock_irq(&r->lock);
	return n + atomic64_read(&r->nmi_dropped);
}

/* The ctl file remembers, per open file, the state generation last read. */
static int tap_ctl_open(struct inode *inode, struct file *file)
{
	file->private_data = (void *)(long)-1;
	return 0;
}

static ssize_t tap_ctl_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char line[128];
	int gen, st, n;
	u64 dropped, cut;

	gen = atomic_read(&tap_state_gen);
	smp_rmb();
	st = atomic_read(&tap_state);
	dropped = tap_ring_dropped(&tap_out_ring) + tap_ring_dropped(&tap_err_ring);
	if (tap_cpu_rings) {
		unsigned int cpu;

		for_each_possible_cpu(cpu)
			dropped += tap_ring_dropped(&tap_cpu_rings[cpu]);
	}
	cut = atomic64_read(&tap_out_ring.cut);
	n = scnprintf(line, sizeof(line), "%s %d %d %llu %llu %d\n",
		      tap_state_names[st], atomic_read(&tap_error_count),
		      atomic_read(&tap_skipped_count), dropped, cut,
		      atomic_read(&tap_suppressed_count));
	file->private_data = (void *)(long)gen;
	return simple_read_from_buffer(ubuf, count, ppos, line, n);
}

static __poll_t tap_ctl_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, &tap_ctl_wq, wait);
	if ((long)file->private_data != atomic_read(&tap_state_gen))
		return EPOLLIN | EPOLLRDNORM | EPOLLPRI;
	return 0;
}

static ssize_t tap_ctl_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char cmd[16];
	size_t n = min(count, sizeof(cmd) - 1);
	int ret;

	if (copy_from_user(cmd, ubuf, n))
		return -EFAULT;
	cmd[n] = '\0';
	strim(cmd);
	if (!strcmp(cmd, "start"))
		ret = tap_ctl_start();
	else if (!strcmp(cmd, "stop"))
		ret = tap_ctl_stop();
	else
		ret = -EINVAL;
	return ret ? ret : count;
}

static const struct proc_ops tap_ctl_ops = {
	.proc_open = tap_ctl_open,
	.proc_read = tap_ctl_read,
	.proc_write = tap_ctl_write,
	.proc_poll = tap_ctl_poll,
	.proc_lseek = default_llseek,
};

/* A channel file of tap_dir; it and its directory belong to the user who
 * loaded the module (privilege.c), only readable by them, as SystemTap's. */
static struct proc_dir_entry *tap_channel(const char *name, umode_t mode,
					  const struct proc_ops *ops)
{
	struct proc_dir_entry *pde = proc_create(name, mode, tap_dir, ops);

	if (pde)
		proc_set_user(pde, tap_uid, tap_gid);
	return pde;
}

static void tap_cpu_rings_free(struct tap_ring *rings)
{
	unsigned int cpu;

	if (!rings)
		return;
	for_each_possible_cpu(cpu)
		vfree(rings[cpu].buf);
	kfree(rings);
}

/*
 * Bulk mode: a ring per possible CPU, which out_N of tap_dir reads.  The
 * rings are all made before any file that reads them, and published in
 * tap_cpu_rings; should a file fail, the caller removes tap_dir (waiting
 * for its readers) before it frees them.
 */
static int tap_cpu_rings_init(void)
{
	struct tap_ring *rings;
	unsigned int cpu;
	char name[24];

	rings = kcalloc(nr_cpu_ids, sizeof(*rings), GFP_KERNEL);
	if (!rings)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		if (tap_ring_init(&rings[cpu], tap_limits.buffer_size)) {
			tap_cpu_rings_free(rings);
			return -ENOMEM;
		}
		rings[cpu].overwrite = tap_flight;
	}
	tap_cpu_rings = rings;
	for_each_possible_cpu(cpu) {
		struct proc_dir_entry *pde;

		snprintf(name, sizeof(name), "out_%u", cpu);
		pde = proc_create_data(name, 0400, tap_dir, &tap_cpu_out_ops,
				       &rings[cpu]);
		if (!pde)
			return -ENOMEM;
		proc_set_user(pde, tap_uid, tap_gid);
	}
	return 0;
}

int tap_transport_init(const char *modname)
{
	int ret;

	/* in bulk mode the per-CPU rings take the output: out stays small */
	ret = tap_ring_init(&tap_out_ring, tap_limits.bulk ? PAGE_SIZE : tap_limits.buffer_size);
	if (ret)
		return ret;
	tap_out_ring.overwrite = tap_flight;
	ret = tap_ring_init(&tap_err_ring, TAP_ERRBUF_SIZE);
	if (ret)
		goto err_out;
	ret = tap_ring_init(&tap_cmd_ring, TAP_CMDBUF_SIZE);
	if (ret)
		goto err_err;
	snprintf(tap_dir_name, sizeof(tap_dir_name), "tapc-%s", modname);
	tap_dir = proc_mkdir(tap_dir_name, NULL);
	if (!tap_dir) {
		ret = -EEXIST;
		goto err_cmd;
	}
	if (!tap_channel("out", 0400, &tap_out_ops) ||
	    !tap_channel("err", 0400, &tap_err_ops) ||
	    !tap_channel("cmd", 0400, &tap_cmd_ops) ||
	    !tap_channel("ctl", 0600, &tap_ctl_ops)) {
		ret = -ENOMEM;
		goto err_dir;
	}
	if (tap_limits.bulk) {
		ret = tap_cpu_rings_init();
		if (ret)
			goto err_dir;
	}
	proc_set_user(tap_dir, tap_uid, tap_gid);
	return 0;
err_dir:
	proc_remove(tap_dir);
	tap_cpu_rings_free(tap_cpu_rings);
	tap_cpu_rings = NULL;
err_cmd:
	vfree(tap_cmd_ring.buf);
err_err:
	vfree(tap_err_ring.buf);
err_out:
	vfree(tap_out_ring.buf);
	return ret;
}

/* Called once the session is DONE, so blocked readers have returned. */
void tap_transport_exit(void)
{
	tap_wake(NULL);
	proc_remove(tap_dir);
	irq_work_sync(&tap_wake_work);
	tap_cpu_rings_free(tap_cpu_rings);
	tap_cpu_rings = NULL;
	vfree(tap_cmd_ring.buf);
	vfree(tap_err_ring.buf);
	vfree(tap_out_ring.buf);
}
