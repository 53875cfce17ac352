/* The functions and PLT entries a process(...) point names, and where
 * each probe goes (src/probes/uprobe.h).  Without DWARF a function is
 * found in the binary's ELF symbol table, as SystemTap falls back to,
 * and probed at its first instruction.  Every address becomes the file
 * offset the kernel's uprobes take, through the program headers. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "glob.h"
#include "probes/family.h"
#include "probes/uprobe.h"
#include "uelf.h"
#include "util.h"

/* The binaries read in this run, kept open until it ends. */
struct ubin {
	char *path;
	struct uelf *elf;
};

static struct vec ubins;

static const struct ubin *ubin_get(const char *path, char *err, size_t errlen)
{
	struct ubin *b;
	struct uelf *elf;

	for (size_t i = 0; i < ubins.n; i++) {
		b = ubins.v[i];
		if (strcmp(b->path, path) == 0)
			return b;
	}
	elf = uelf_open(path, err, errlen);
	if (!elf)
		return NULL;
	b = xcalloc(1, sizeof(*b));
	b->path = xstrdup(path);
	b->elf = elf;
	vec_push(&ubins, b);
	return b;
}

static char *stash(char **at, const char *s)
{
	char *copy = *at;
	size_t len = strlen(s) + 1;

	memcpy(copy, s, len);
	*at += len;
	return copy;
}

/* The payload of a probe at ADDR (file offset OFF) of the query's
 * binary. */
static struct uprobe_data *make_data(const struct ufunc_query *q, uint64_t addr, uint64_t off)
{
	size_t len = strlen(q->program) + 1 + (q->library ? strlen(q->library) + 1 : 0);
	struct uprobe_data *d = xcalloc(1, sizeof(*d) + len);
	char *at = d->text;

	d->program = stash(&at, q->program);
	d->library = q->library ? stash(&at, q->library) : NULL;
	d->file = q->library ? d->library : d->program;
	d->addr = addr;
	d->offset = off;
	d->pid = q->pid;
	return d;
}

/* One probe at ADDR of the binary U, named TEXT (taken). */
static void push_probe(const struct ufunc_query *q, const struct uelf *u, char *text,
		       uint64_t addr)
{
	struct family_point *fp;
	uint64_t off;

	if (!uelf_offset(u, addr, &off)) {	/* not in the file's code */
		free(text);
		return;
	}
	fp = xcalloc(1, sizeof(*fp));
	fp->target = text;
	fp->num[0] = q->maxactive;
	fp->flags = (q->variant & UV_RETURN) ? 1 : 0;
	fp->target_comp = q->func_index;
	fp->data = make_data(q, addr, off);
	vec_push(q->out, fp);
}

static int no_match(const struct ufunc_query *q, const struct uelf *u, const char *name,
		    struct family_error *err)
{
	const char *near = u && !glob_is_pattern(name) ? uelf_nearest(u, name) : NULL;
	const struct pp_comp *c = q->func_comp;

	if (q->pp->optional)
		return 0;
	if (near && strcmp(near, name) != 0)
		return family_fail(err, c->arg ? &c->arg->pos : &c->pos,
				   xasprintf("no match (similar function: %s)", near));
	return family_fail(err, c->arg ? &c->arg->pos : &c->pos, xstrdup("no match"));
}

/* .plt("NAME"): the PLT entries NAME matches (all without NAME). */
static int expand_plt(struct ufunc_query *q, const struct uelf *u, struct family_error *err)
{
	const char *pat = q->func_comp->arg ? q->func_comp->arg->str : "*";
	const struct usym **found;
	size_t n = uelf_plt(u, pat, &found);

	for (size_t i = 0; i < n; i++)
		push_probe(q, u, xstrdup(found[i]->name), found[i]->addr);
	free(found);
	if (q->out->n > 0)
		return (int)q->out->n;
	return no_match(q, NULL, pat, err);
}

/* Whether the query has a probe at ADDR already (a function's alias
 * matched too: malloc and __libc_malloc are one function). */
static bool has_probe_at(const struct ufunc_query *q, size_t from, uint64_t addr)
{
	for (size_t i = from; i < q->out->n; i++) {
		const struct family_point *fp = q->out->v[i];
		const struct uprobe_data *d = fp->data;

		if (d->addr == addr)
			return true;
	}
	return false;
}

/* .function("PAT") through the symbol table. */
static int expand_symbols(struct ufunc_query *q, const struct uelf *u, const char *pat,
			  struct family_error *err)
{
	const struct usym **found;
	size_t n = uelf_functions(u, pat, &found), first = q->out->n;

	for (size_t i = 0; i < n; i++) {
		if ((q->variant & UV_EXPORTED) && !found[i]->global)
			continue;
		if (has_probe_at(q, first, found[i]->addr))
			continue;
		push_probe(q, u, xstrdup(found[i]->name), found[i]->addr);
	}
	free(found);
	if (q->out->n > 0)
		return (int)q->out->n;
	return no_match(q, u, pat, err);
}

int ufunc_expand(struct ufunc_query *q, struct family_error *err)
{
	const char *file = q->library ? q->library : q->program;
	const struct pp_comp *c = q->func_comp;
	char msg[512];
	const struct ubin *b = ubin_get(file, msg, sizeof(msg));

	if (!b)
		return family_fail(err, &family_comp(q->pp, 0)->pos, xstrdup(msg));
	if (q->variant & UV_PLT)
		return expand_plt(q, b->elf, err);
	if ((q->variant & (UV_STATEMENT | UV_INLINE)) || strchr(c->arg->str, '@'))
		return family_fail(err, &c->arg->pos, xasprintf(
			"no debuginfo for %s: a source file, line or inline instance needs it", file));
	return expand_symbols(q, b->elf, c->arg->str, err);
}
