// SPDX-License-Identifier: GPL-2.0
/*
 * TAP_PROBE_PROCFS: procfs("PATH").read and .write probes, as files under
 * /proc/systemtap/MODULE/ that exist while the module is loaded and its
 * session has not stopped.
 *
 * Generic fields (src/probes/procfs.c): .target PATH (relative, may hold
 * subdirectories), .arg[0] the read buffer's size (.maxsize(N); 0:
 * STP_PROCFS_BUFSIZE), .arg[1] the umask, .flags TAP_PROCFS_WRITE for a
 * write probe.  The probes of one PATH share a file: at most one read
 * probe, any number of write probes, which each write runs in turn.
 *
 * As in SystemTap:
 *  - a file's mode is 0444 with a read probe, 0222 with write probes,
 *    less the read probe's umask and the first write probe's;
 *  - the first read() of an open file runs the read probe once, which
 *    fills a buffer of .maxsize(N) bytes (NUL included) through $value;
 *    that read and the following ones (at any offset) return that text,
 *    until the file is opened again;
 *  - a write() passes at most MAXSTRINGLEN - 1 bytes, and fewer than the
 *    read buffer's size, to the write probes as $value and reports that
 *    many written: a longer write goes on in the next call;
 *  - /proc/systemtap stays once made: other modules may have files in it;
 *  - the module's directory, its subdirectories and files belong to the
 *    user who loaded the module (a write-only file of mode 0200, as
 *    input.stp's __stdin, is that user's alone);
 * Unlike SystemTap, several readers may have a file open at once (each
 * open file has its own buffer), and a write whose probe failed, or that
 * comes while the session is not running, fails with EIO instead of
 * returning 0, which would make a writer retry forever.
 *
 * Probes run in process context, through tap_run_event() (session state,
 * locks, MAXACTION, errors), with a tap_procfs_event as the event.  The
 * user's buffer is only touched outside the hit (interrupts are off in
 * it).  stop() removes every file: proc_remove() waits for the reads and
 * writes in progress and closes the files still open (their release()
 * frees what each open file holds), so nothing here runs once it returns.
 */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/proc_fs.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "tap_internal.h"

#ifndef TAPCONF_PROC_OPS	/* tapconf/proc_ops.c */
#error "procfs probes need struct proc_ops (Linux 5.6 or later)"
#endif
#ifndef TAPCONF_PDE_DATA	/* tapconf/pde_data.c */
#define pde_data(inode) PDE_DATA(inode)
#endif


#ifndef STP_PROCFS_BUFSIZE
#define STP_PROCFS_BUFSIZE MAXSTRINGLEN	/* read buffer without .maxsize(N) */
#endif

/* CONTEXT->event of a procfs probe hit. */
struct tap_procfs_event {
	char *buf;
	size_t size;		/* bytes of buf, NUL included */
	size_t count;		/* bytes of text in buf */
	bool read;		/* a read probe: buf is the file's content */
};

/* One file: the probes of one PATH. */
struct tap_procfs_file {
	const char *path;
	const struct tap_probe *reader;		/* or NULL */
	const struct tap_probe **writers;	/* nwriters, in table order */
	unsigned int nwriters;
	size_t bufsize;
	umode_t mode;
};

/* A subdirectory of the module's directory that we made. */
struct tap_procfs_dir {
	char *path;			/* relative to the module's directory */
	struct proc_dir_entry *pde;
};

/* One open file. */
struct tap_procfs_open {
	struct tap_procfs_file *file;
	struct mutex lock;		/* one read or write at a time */
	char *text;			/* the read probe's text, once read */
	size_t count;
};

static struct tap_procfs_file *tap_procfs_files;
static unsigned int tap_procfs_nfiles;
static const struct tap_probe **tap_procfs_writers;	/* every file's */
static struct tap_procfs_dir *tap_procfs_dirs;
static unsigned int tap_procfs_ndirs;
static struct proc_dir_entry *tap_procfs_moddir;	/* systemtap/MODULE */

/* ---- $value ----------------------------------------------------------- */

static struct tap_procfs_event *tap_procfs_event_of(struct tap_context *c)
{
	if (!c->probe || c->probe->kind != TAP_PROBE_PROCFS || !c->event)
		return NULL;
	/* the event is ours and writable: see tap_procfs_fill() */
	return (struct tap_procfs_event *)c->event;
}

const char *tap_procfs_value(struct tap_context *c)
{
	struct tap_procfs_event *ev = tap_procfs_event_of(c);

	return ev && !ev->read ? ev->buf : "";
}

/* Append @s to the text; "buffer size exceeded" if it does not all fit. */
static int tap_procfs_add(struct tap_context *c, struct tap_procfs_event *ev,
			  const char *s)
{
	size_t len = strlen(s), room = ev->size - 1 - ev->count;

	memcpy(ev->buf + ev->count, s, min(len, room));
	ev->count += min(len, room);
	ev->buf[ev->count] = '\0';
	if (len > room) {
		tap_errorf(c, "buffer size exceeded, consider .maxsize(%lu).",
			   (unsigned long)(ev->count - min(len, room) + len + 1));
		return -1;
	}
	return 0;
}

int tap_procfs_set(struct tap_context *c, const char *s)
{
	struct tap_procfs_event *ev = tap_procfs_event_of(c);

	if (!ev || !ev->read)
		return 0;
	ev->count = 0;
	ev->buf[0] = '\0';
	return tap_procfs_add(c, ev, s);
}

int tap_procfs_append(struct tap_context *c, const char *s)
{
	struct tap_procfs_event *ev = tap_procfs_event_of(c);

	if (!ev || !ev->read)
		return 0;
	return tap_procfs_add(c, ev, s);
}

/* ---- file operations -------------------------------------------------- */

static int tap_procfs_open(struct inode *inode, struct file *filp)
{
	struct tap_procfs_open *o = kzalloc(sizeof(*o), GFP_KERNEL);

	if (!o)
		return -ENOMEM;
	o->file = pde_data(inode);
	mutex_init(&o->lock);
	filp->private_data = o;
	return 0;
}

static int tap_procfs_release(struct inode *inode, struct file *filp)
{
	struct tap_procfs_open *o = filp->private_data;

	kvfree(o->text);
	mutex_destroy(&o->lock);
	kfree(o);
	return 0;
}

/* Run the read probe once for this open file: its text, or an errno. */
static int tap_procfs_fill(struct tap_procfs_open *o)
{
	struct tap_procfs_file *f = o->file;
	struct tap_procfs_event ev = { .size = f->bufsize, .read = true };

	ev.buf = kvzalloc(f->bufsize, GFP_KERNEL | __GFP_NOWARN);
	if (!ev.buf)
		return -ENOMEM;
	/* SystemTap: a read while the session is not running fails */
	if (atomic_read(&tap_state) != TAP_RUNNING) {
		kvfree(ev.buf);
		return -EIO;
	}
	tap_run_event(f->reader, NULL, 0, &ev);
	o->text = ev.buf;
	o->count = ev.count;
	return 0;
}

static ssize_t tap_procfs_read(struct file *filp, char __user *ubuf,
			       size_t n, loff_t *ppos)
{
	struct tap_procfs_open *o = filp->private_data;
	ssize_t ret = 0;

	/* a file with only write probes reads as empty */
	if (!o->file->reader)
		return 0;
	if (mutex_lock_interruptible(&o->lock))
		return -ERESTARTSYS;
	if (!o->text)
		ret = tap_procfs_fill(o);
	if (ret == 0)
		ret = simple_read_from_buffer(ubuf, n, ppos, o->text, o->count);
	mutex_unlock(&o->lock);
	return ret;
}

/* Run the write probes on @data; false if one raised an error. */
static bool tap_procfs_run_writers(struct tap_procfs_file *f, char *data,
				   size_t len)
{
	struct tap_procfs_event ev = {
		.buf = data, .size = len + 1, .count = len, .read = false,
	};
	int errors = atomic_read(&tap_error_count);
	unsigned int i;

	for (i = 0; i < f->nwriters; i++)
		tap_run_event(f->writers[i], NULL, 0, &ev);
	return atomic_read(&tap_error_count) == errors &&
	       atomic_read(&tap_state) == TAP_RUNNING;
}

static ssize_t tap_procfs_write(struct file *filp, const char __user *ubuf,
				size_t n, loff_t *ppos)
{
	struct tap_procfs_open *o = filp->private_data;
	struct tap_procfs_file *f = o->file;
	size_t len = min3(n, (size_t)MAXSTRINGLEN - 1, f->bufsize - 1);
	ssize_t ret;
	char *data;

	if (f->nwriters == 0)
		return -EIO;
	data = kmalloc(len + 1, GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	if (copy_from_user(data, ubuf, len)) {
		kfree(data);
		return -EFAULT;
	}
	data[len] = '\0';
	if (mutex_lock_interruptible(&o->lock)) {
		kfree(data);
		return -ERESTARTSYS;
	}
	ret = -EIO;
	if (atomic_read(&tap_state) == TAP_RUNNING &&
	    tap_procfs_run_writers(f, data, len)) {
		*ppos += len;
		ret = len;
	}
	mutex_unlock(&o->lock);
	kfree(data);
	return ret;
}

static const struct proc_ops tap_procfs_ops = {
	.proc_open = tap_procfs_open,
	.proc_read = tap_procfs_read,
	.proc_write = tap_procfs_write,
	.proc_lseek = generic_file_llseek,
	.proc_release = tap_procfs_release,
};

/* ---- the files of the probes ---------------------------------------- */

static bool tap_procfs_probe(const struct tap_probe *p)
{
	return p->kind == TAP_PROBE_PROCFS && p->target;
}

static struct tap_procfs_file *tap_procfs_find(const char *path)
{
	unsigned int i;

	for (i = 0; i < tap_procfs_nfiles; i++)
		if (!strcmp(tap_procfs_files[i].path, path))
			return &tap_procfs_files[i];
	return NULL;
}

/* Whether @dir names a directory that @path lies in. */
static bool tap_procfs_is_dir_of(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	return !strncmp(dir, path, n) && path[n] == '/';
}

/* The files, each with its read probe; -EINVAL for a second one. */
static int tap_procfs_collect_readers(void)
{
	unsigned int i;

	for (i = 0; i < tap_nprobes; i++) {
		const struct tap_probe *p = &tap_probes[i];
		struct tap_procfs_file *f;

		if (!tap_procfs_probe(p))
			continue;
		f = tap_procfs_find(p->target);
		if (!f) {
			f = &tap_procfs_files[tap_procfs_nfiles++];
			f->path = p->target;
		}
		if (p->flags & TAP_PROCFS_WRITE)
			continue;
		if (f->reader) {
			pr_err("%s: only one read procfs probe can exist for procfs path \"%s\"\n",
			       THIS_MODULE->name, p->target);
			return -EINVAL;
		}
		f->reader = p;
	}
	return 0;
}

/* The write probes of each file, in table order: a slice of
 * tap_procfs_writers each. */
static void tap_procfs_collect_writers(void)
{
	const struct tap_probe **next = tap_procfs_writers;
	unsigned int i, j;

	for (j = 0; j < tap_procfs_nfiles; j++) {
		struct tap_procfs_file *f = &tap_procfs_files[j];

		f->writers = next;
		for (i = 0; i < tap_nprobes; i++) {
			const struct tap_probe *p = &tap_probes[i];

			if (tap_procfs_probe(p) && (p->flags & TAP_PROCFS_WRITE) &&
			    !strcmp(p->target, f->path))
				f->writers[f->nwriters++] = p;
		}
		next += f->nwriters;
	}
}

/* -EINVAL if a file's path is another's directory. */
static int tap_procfs_check_dirs(void)
{
	unsigned int i, j;

	for (i = 0; i < tap_procfs_nfiles; i++)
		for (j = 0; j < tap_procfs_nfiles; j++)
			if (tap_procfs_is_dir_of(tap_procfs_files[i].path,
						 tap_procfs_files[j].path)) {
				pr_err("%s: procfs path \"%s\" is both a file and a directory\n",
				       THIS_MODULE->name, tap_procfs_files[i].path);
				return -EINVAL;
			}
	return 0;
}

/*
 * Group the probes by file.  Pass 2 refuses a second read probe of a
 * path, or a path that is also a directory, except when the probes come
 * from several uses of one alias: refused here.
 */
static int tap_procfs_group(void)
{
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < tap_nprobes; i++)
		if (tap_procfs_probe(&tap_probes[i]))
			n++;
	tap_procfs_files = kcalloc(n, sizeof(*tap_procfs_files), GFP_KERNEL);
	tap_procfs_writers = kcalloc(n, sizeof(*tap_procfs_writers), GFP_KERNEL);
	if (!tap_procfs_files || !tap_procfs_writers)
		return -ENOMEM;
	ret = tap_procfs_collect_readers();
	if (ret)
		return ret;
	tap_procfs_collect_writers();
	return tap_procfs_check_dirs();
}

/* Buffer size and mode, as SystemTap gives them. */
static void tap_procfs_settle(struct tap_procfs_file *f)
{
	umode_t mode = 0, umask = 0;

	f->bufsize = STP_PROCFS_BUFSIZE;
	if (f->reader) {
		if (f->reader->arg[0] > 0)
			f->bufsize = f->reader->arg[0];
		mode |= 0444;
		umask |= (umode_t)f->reader->arg[1];
	}
	if (f->nwriters) {
		mode |= 0222;
		umask |= (umode_t)f->writers[0]->arg[1];
	}
	f->mode = mode & ~umask & 0777;
}

/* /proc/systemtap, made if it is not there (and left there). */
static int tap_procfs_topdir(void)
{
	struct path path;

	if (kern_path("/proc/systemtap", LOOKUP_DIRECTORY, &path) == 0) {
		path_put(&path);
		return 0;
	}
	/* another module may make it between the two calls; the second
	 * one then fails, harmlessly, and the lookup below finds it */
	proc_mkdir("systemtap", NULL);
	return 0;
}

/* The directory a file at @path (relative) goes in, made as needed. */
static struct proc_dir_entry *tap_procfs_dir_for(const char *path)
{
	struct proc_dir_entry *parent = tap_procfs_moddir;
	const char *slash;

	for (slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
		size_t n = slash - path;
		struct tap_procfs_dir *d = NULL;
		unsigned int i;
		char *name;

		for (i = 0; i < tap_procfs_ndirs; i++)
			if (strlen(tap_procfs_dirs[i].path) == n &&
			    !strncmp(tap_procfs_dirs[i].path, path, n))
				d = &tap_procfs_dirs[i];
		if (!d) {
			d = &tap_procfs_dirs[tap_procfs_ndirs];
			d->path = kstrndup(path, n, GFP_KERNEL);
			if (!d->path)
				return NULL;
			name = strrchr(d->path, '/');
			d->pde = proc_mkdir(name ? name + 1 : d->path, parent);
			if (!d->pde) {
				kfree(d->path);
				return NULL;
			}
			proc_set_user(d->pde, tap_uid, tap_gid);
			tap_procfs_ndirs++;
		}
		parent = d->pde;
	}
	return parent;
}

static void tap_procfs_remove(void)
{
	unsigned int i;

	/* the whole subtree: waits for the operations in progress and
	 * releases the files still open */
	proc_remove(tap_procfs_moddir);
	tap_procfs_moddir = NULL;
	for (i = 0; i < tap_procfs_ndirs; i++)
		kfree(tap_procfs_dirs[i].path);
	kfree(tap_procfs_dirs);
	tap_procfs_dirs = NULL;
	tap_procfs_ndirs = 0;
	kfree(tap_procfs_writers);
	tap_procfs_writers = NULL;
	kfree(tap_procfs_files);
	tap_procfs_files = NULL;
	tap_procfs_nfiles = 0;
}

static int tap_procfs_create(void)
{
	unsigned int i, slashes = 0;
	struct proc_dir_entry *pde;
	char *name;

	for (i = 0; i < tap_procfs_nfiles; i++) {
		const char *s;

		for (s = tap_procfs_files[i].path; (s = strchr(s, '/')); s++)
			slashes++;
	}
	tap_procfs_dirs = kcalloc(slashes + 1, sizeof(*tap_procfs_dirs),
				  GFP_KERNEL);
	name = kasprintf(GFP_KERNEL, "systemtap/%s", THIS_MODULE->name);
	if (!tap_procfs_dirs || !name) {
		kfree(name);
		return -ENOMEM;
	}
	tap_procfs_topdir();
	tap_procfs_moddir = proc_mkdir(name, NULL);
	kfree(name);
	if (!tap_procfs_moddir) {
		pr_err("%s: cannot create /proc/systemtap/%s\n",
		       THIS_MODULE->name, THIS_MODULE->name);
		return -ENOMEM;
	}
	proc_set_user(tap_procfs_moddir, tap_uid, tap_gid);
	for (i = 0; i < tap_procfs_nfiles; i++) {
		struct tap_procfs_file *f = &tap_procfs_files[i];
		struct proc_dir_entry *dir = tap_procfs_dir_for(f->path);
		const char *leaf = strrchr(f->path, '/');

		tap_procfs_settle(f);
		pde = dir ? proc_create_data(leaf ? leaf + 1 : f->path, f->mode,
					     dir, &tap_procfs_ops, f) : NULL;
		if (!pde) {
			pr_err("%s: cannot create /proc/systemtap/%s/%s\n",
			       THIS_MODULE->name, THIS_MODULE->name, f->path);
			return -ENOMEM;
		}
		proc_set_user(pde, tap_uid, tap_gid);
	}
	return 0;
}

static int tap_procfs_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < tap_nprobes; i++)
		if (tap_procfs_probe(&tap_probes[i]))
			break;
	if (i == tap_nprobes)
		return 0;
	ret = tap_procfs_group();
	if (ret == 0)
		ret = tap_procfs_create();
	if (ret)
		tap_procfs_remove();
	return ret;
}

static void tap_procfs_stop(void)
{
	tap_procfs_remove();
}

const struct tap_family tap_family_procfs = {
	.name = "procfs",
	.init = tap_procfs_init,
	.stop = tap_procfs_stop,
};
