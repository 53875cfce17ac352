// SPDX-License-Identifier: GPL-2.0
/*
 * User addresses and user stacks (uunwind.h).
 *
 * Pass 3 placed the symbols and unwind rows of the user binaries in the
 * module (tap_umods[], runtime/tapc_usym.h), addressed as each binary was
 * linked.  At load, each binary's file is found by its path and known by
 * its inode from then on; at a hit, an address is looked up in the task's
 * mappings, and one in a mapping of such a file becomes a file offset,
 * then a link-time address through the binary's PT_LOAD segments.  That
 * works alike for executables, position-independent ones and shared
 * libraries, wherever they were mapped.
 *
 * The stack is unwound with the rows pass 3 computed from the binaries'
 * .eh_frame (or .debug_frame): CFA from rsp or rbp, the return address
 * and the caller's rbp read from the user stack with fault-safe reads.
 * A frame in a binary without rows is unwound by frame pointers, and the
 * address found so is marked inexact, as SystemTap marks it; the first
 * time that happens for a file that was not given with -d, the warning
 * says which file to add.  At most MAXBACKTRACE frames.
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/mmap_lock.h>
#include <linux/namei.h>
#include <linux/rcupdate.h>
#include <linux/path.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "tap_internal.h"
#include "uunwind.h"

/* The files of tap_umods[], as found at load (by value: never
 * dereferenced, only compared with a mapping's inode). */
struct tap_umod_file {
	const struct super_block *sb;
	unsigned long ino;
};

static struct tap_umod_file *tap_umod_files;

static int tap_umods_init(void)
{
	unsigned int i;

	if (!tap_umod_count)
		return 0;
	tap_umod_files = kcalloc(tap_umod_count, sizeof(*tap_umod_files),
				 GFP_KERNEL);
	if (!tap_umod_files)
		return -ENOMEM;
	for (i = 0; i < tap_umod_count; i++) {
		struct path p;

		/* a binary that is not there now stays unnamed */
		if (kern_path(tap_umods[i].path, LOOKUP_FOLLOW, &p))
			continue;
		tap_umod_files[i].sb = p.dentry->d_sb;
		tap_umod_files[i].ino = d_inode(p.dentry)->i_ino;
		path_put(&p);
	}
	return 0;
}

static void tap_umods_stop(void)
{
	/* the lookups of late hits see no binary, never freed memory */
	struct tap_umod_file *files = tap_umod_files;

	WRITE_ONCE(tap_umod_files, NULL);
	synchronize_rcu();
	kfree(files);
}

const struct tap_family tap_family_umods = {
	.name = "umods",
	.init = tap_umods_init,
	.stop = tap_umods_stop,
};

static const struct tap_umod *umod_of_inode(const struct inode *inode)
{
	const struct tap_umod_file *files;
	const struct tap_umod *found = NULL;
	unsigned int i;

	rcu_read_lock();
	files = READ_ONCE(tap_umod_files);
	for (i = 0; files && i < tap_umod_count && !found; i++)
		if (files[i].sb == inode->i_sb && files[i].ino == inode->i_ino)
			found = &tap_umods[i];
	rcu_read_unlock();
	return found;
}

/* The link-time address of file offset @off of @m, or false. */
static bool umod_file_to_rel(const struct tap_umod *m, unsigned long off,
			     unsigned long *rel)
{
	unsigned int i;

	for (i = 0; i < m->nloads; i++) {
		const struct tap_uload *l = &m->loads[i];

		if (off >= l->off && off < l->off + l->filesz) {
			*rel = off - l->off + l->vaddr - m->base;
			return true;
		}
	}
	return false;
}

static void umod_symbol(const struct tap_umod *m, struct tap_uloc *l)
{
	unsigned int lo = 0, hi = m->nsyms;
	const struct tap_usym *s;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (m->syms[mid].addr <= l->rel)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return;
	s = &m->syms[lo - 1];
	if (s->size && l->rel >= (unsigned long)s->addr + s->size)
		return;
	l->sym = m->strtab + s->name;
	l->sym_off = l->rel - s->addr;
	l->sym_size = s->size;
}

/* The extent of @vma's file's mappings around @vma. */
static void file_extent(struct mm_struct *mm, struct vm_area_struct *vma,
			struct tap_uloc *l, unsigned long addr)
{
	unsigned long start = vma->vm_start - (vma->vm_pgoff << PAGE_SHIFT);
	unsigned long end = vma->vm_end;
	struct vm_area_struct *next = vma;
	int n;

	for (n = 0; n < 16; n++) {
		next = find_vma(mm, next->vm_end);
		if (!next || !next->vm_file ||
		    file_inode(next->vm_file) != file_inode(vma->vm_file))
			break;
		end = next->vm_end;
	}
	l->map_off = addr - start;
	l->map_size = end - start;
}

/*
 * @addr in @vma, a mapping of a file: a binary of the module's, or just
 * the file's path.  d_path() may wait for rename_lock after a concurrent
 * rename, which an interrupt that came in while this CPU held it would
 * never get: in interrupt context, a file that is no binary of the
 * module's stays unnamed.
 */
static void locate_in_file(struct mm_struct *mm, struct vm_area_struct *vma,
			   unsigned long addr, struct tap_uloc *l)
{
	unsigned long off = addr - vma->vm_start + (vma->vm_pgoff << PAGE_SHIFT);

	file_extent(mm, vma, l, addr);
	l->mod = umod_of_inode(file_inode(vma->vm_file));
	if (l->mod && !umod_file_to_rel(l->mod, off, &l->rel))
		l->mod = NULL;
	if (l->mod) {
		l->path = l->mod->path;
		umod_symbol(l->mod, l);
	} else if (!in_interrupt()) {
		char *p = d_path(&vma->vm_file->f_path, l->path_buf,
				 sizeof(l->path_buf));

		if (!IS_ERR(p)) {
			memmove(l->path_buf, p, strlen(p) + 1);
			l->path = l->path_buf;
		}
	}
}

bool tap_ulocate(unsigned long addr, struct tap_uloc *l)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	bool found = false;

	memset(l, 0, offsetof(struct tap_uloc, path_buf));
	l->path_buf[0] = '\0';
	if (!mm || (current->flags & PF_KTHREAD) || in_nmi() ||
	    addr >= TASK_SIZE_MAX)
		return false;
	if (!mmap_read_trylock(mm))
		return false;
	vma = vma_lookup(mm, addr);
	if (vma) {
		found = true;
		if (vma->vm_file)
			locate_in_file(mm, vma, addr, l);
	}
	mmap_read_unlock(mm);
	return found;
}

/* ---- Unwinding ---------------------------------------------------------- */

struct pt_regs *tap_uregs(struct tap_context *c)
{
	if (c->regs && (c->user_regs || user_mode(c->regs)))
		return c->regs;
	if (!current->mm || (current->flags & PF_KTHREAD))
		return NULL;
	return task_pt_regs(current);
}

static bool uread(unsigned long addr, unsigned long *val)
{
	return addr < TASK_SIZE_MAX - sizeof(*val) &&
	       !copy_from_user_nofault(val, (const void __user *)addr,
				       sizeof(*val));
}

/* Files already warned about (by inode), so that each is named once. */
#define TAP_UWARN_MAX 16
static unsigned long tap_uwarned_ino[TAP_UWARN_MAX];
static unsigned int tap_uwarned_count;
static DEFINE_SPINLOCK(tap_uwarn_lock);

/* "Missing unwind data" for the file mapped at @pc (its path in @l). */
static void warn_missing(const struct tap_uloc *l, unsigned long pc)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	unsigned long ino = 0, flags;
	unsigned int i;
	bool fresh = true;

	if (!l->path || !mm || !mmap_read_trylock(mm))
		return;
	vma = vma_lookup(mm, pc);
	if (vma && vma->vm_file)
		ino = file_inode(vma->vm_file)->i_ino;
	mmap_read_unlock(mm);
	if (!spin_trylock_irqsave(&tap_uwarn_lock, flags))
		return;
	for (i = 0; i < tap_uwarned_count; i++)
		if (tap_uwarned_ino[i] == ino)
			fresh = false;
	if (fresh && tap_uwarned_count < TAP_UWARN_MAX)
		tap_uwarned_ino[tap_uwarned_count++] = ino;
	else
		fresh = false;	/* past the table: said enough */
	spin_unlock_irqrestore(&tap_uwarn_lock, flags);
	if (fresh)
		tap_errmsg("WARNING: Missing unwind data for a module, rerun with 'tapc -d %s'\n",
			   l->path);
}

/* The rule of the rows of @m at @rel, or NULL. */
static const struct tap_ucfi *umod_cfi(const struct tap_umod *m,
				       unsigned long rel)
{
	unsigned int lo = 0, hi = m->ncfi;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (m->cfi[mid].pc <= rel)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &m->cfi[lo - 1] : NULL;
}

struct uframe {
	unsigned long pc, sp, bp;
	bool bp_ok;
};

/* One step by the unwind row @r; false at the outermost frame or when
 * the stack cannot be read. */
static bool step_cfi(struct uframe *f, const struct tap_ucfi *r)
{
	unsigned long cfa, ra, bp;

	if (r->cfa_reg == TAP_UCFA_RBP && !f->bp_ok)
		return false;
	cfa = (r->cfa_reg == TAP_UCFA_RSP ? f->sp : f->bp) + (long)r->cfa_off;
	if (!uread(cfa + (long)r->ra_off, &ra))
		return false;
	if (r->rbp_rule == TAP_URBP_SAVED) {
		if (!uread(cfa + (long)r->rbp_off, &bp))
			return false;
		f->bp = bp;
	} else if (r->rbp_rule == TAP_URBP_LOST) {
		f->bp_ok = false;
	}
	f->sp = cfa;
	f->pc = ra;
	return true;
}

/* One step by frame pointers: rbp points at the saved rbp, the return
 * address above it. */
static bool step_fp(struct uframe *f)
{
	unsigned long bp, ra;

	if (!f->bp_ok || f->bp < f->sp || f->bp - f->sp > (8UL << 20) ||
	    (f->bp & 7))
		return false;
	if (!uread(f->bp, &bp) || !uread(f->bp + 8, &ra))
		return false;
	f->sp = f->bp + 16;
	f->bp = bp;
	f->pc = ra;
	return true;
}

unsigned int tap_ustack(struct tap_context *c, unsigned long *pcs,
			bool *inexact, unsigned int max)
{
	struct pt_regs *regs = tap_uregs(c);
	struct tap_uloc loc, *l = &loc;
	struct uframe f;
	unsigned int n = 0;

	if (!regs || !max)
		return 0;
	f.pc = regs->ip;
	f.sp = regs->sp;
	f.bp = regs->bp;
	f.bp_ok = true;
	pcs[n] = f.pc;
	inexact[n++] = false;
	while (n < max) {
		/* a return address is past its call: look the call up */
		unsigned long at = n == 1 ? f.pc : f.pc - 1;
		const struct tap_ucfi *r = NULL;
		unsigned long old_sp = f.sp;
		bool by_fp = false;

		if (!tap_ulocate(at, l))
			break;
		if (l->mod)
			r = umod_cfi(l->mod, l->rel);
		if (r && r->cfa_reg == TAP_UCFA_END)
			break;
		if (r && r->cfa_reg != TAP_UCFA_NONE) {
			if (!step_cfi(&f, r))
				break;
		} else {
			if (!l->mod || !l->mod->ncfi)
				warn_missing(l, at);
			if (!step_fp(&f))
				break;
			by_fp = true;
		}
		if (f.pc < PAGE_SIZE || f.sp <= old_sp)
			break;
		pcs[n] = f.pc;
		inexact[n++] = by_fp;
	}
	return n;
}
