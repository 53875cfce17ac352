/* The debuginfo registry (see debuginfo.h). */
#include "debuginfo.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btf.h"
#include "cachedir.h"
#include "dwindex.h"
#include "kimage.h"
#include "kmodsyms.h"
#include "ksyms.h"
#include "paths.h"
#include "tpcatalog.h"
#include "util.h"

struct debuginfo {
	enum debuginfo_kind kind;
	char *name;
	char *path;		/* the file read; the kernel's: once looked for */
	char *build_id;		/* hex, "" when none; NULL until read */

	/* the kernel's */
	char *build_dir;
	char *handed_vmlinux, *handed_kallsyms;
	bool image_tried, btf_tried, ksyms_tried, tps_tried;
	struct btf *btf;
	struct ksyms *ksyms;
	struct btf_tracepoints *tps;
	char btf_err[512], ksyms_err[512], tps_err[512];

	/* DWARF (the kernel's and a module's) */
	char *target_file;	/* a module: its .ko the kernel loads */
	bool dwarf_tried;
	bool dwarf_missing;	/* none found (not one refused) */
	struct dwindex *dwarf;
	char dwarf_err[1024];

	/* a module's .ko symbol table, where its DWARF is missing */
	bool syms_tried;
	struct kmodsyms *syms;
	char syms_err[512];
};

struct debuginfo_registry {
	struct debuginfo **entries;
	size_t count;
	/* the target kernel's modules: names and paths in modules.dep */
	bool modules_read;
	char **module_names, **module_paths;
	size_t n_modules;
};

struct debuginfo_registry *debuginfo_registry_new(void)
{
	return xcalloc(1, sizeof(struct debuginfo_registry));
}

static void entry_free(struct debuginfo *e)
{
	dwindex_free(e->dwarf);
	kmodsyms_free(e->syms);
	free(e->target_file);
	btf_tracepoints_free(e->tps);
	ksyms_free(e->ksyms);
	btf_free(e->btf);
	free(e->name);
	free(e->path);
	free(e->build_id);
	free(e->build_dir);
	free(e->handed_vmlinux);
	free(e->handed_kallsyms);
	free(e);
}

void debuginfo_registry_free(struct debuginfo_registry *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->count; i++)
		entry_free(r->entries[i]);
	free(r->entries);
	for (size_t i = 0; i < r->n_modules; i++) {
		free(r->module_names[i]);
		free(r->module_paths[i]);
	}
	free(r->module_names);
	free(r->module_paths);
	free(r);
}

static struct debuginfo *entry_add(struct debuginfo_registry *r, enum debuginfo_kind kind,
				   const char *name)
{
	struct debuginfo *e = xcalloc(1, sizeof(*e));

	e->kind = kind;
	e->name = xstrdup(name);
	r->entries = xrealloc(r->entries, (r->count + 1) * sizeof(*r->entries));
	r->entries[r->count++] = e;
	return e;
}

static char *dup_or_null(const char *s)
{
	return s && *s ? xstrdup(s) : NULL;
}

struct debuginfo *debuginfo_add_kernel(struct debuginfo_registry *r, const char *release,
				       const char *build_dir,
				       const struct debuginfo_handover *handover)
{
	struct debuginfo *e = entry_add(r, DEBUGINFO_KERNEL, release ? release : "");

	e->build_dir = dup_or_null(build_dir);
	if (handover) {
		e->handed_vmlinux = dup_or_null(handover->vmlinux);
		e->handed_kallsyms = dup_or_null(handover->kallsyms);
	}
	return e;
}

struct debuginfo *debuginfo_add(struct debuginfo_registry *r, enum debuginfo_kind kind,
				const char *name, const char *path)
{
	struct debuginfo *e = entry_add(r, kind, name ? name : path);

	e->path = xstrdup(path);
	e->image_tried = true;
	return e;
}

struct debuginfo *debuginfo_kernel(const struct debuginfo_registry *r)
{
	for (size_t i = 0; r && i < r->count; i++)
		if (r->entries[i]->kind == DEBUGINFO_KERNEL)
			return r->entries[i];
	return NULL;
}

struct debuginfo *debuginfo_by_path(const struct debuginfo_registry *r, const char *path)
{
	char *want = realpath(path, NULL);
	struct debuginfo *found = NULL;

	for (size_t i = 0; want && r && !found && i < r->count; i++) {
		const char *p = debuginfo_path(r->entries[i]);
		char *real = p ? realpath(p, NULL) : NULL;

		if (real && strcmp(real, want) == 0)
			found = r->entries[i];
		free(real);
	}
	free(want);
	return found;
}

struct debuginfo *debuginfo_by_build_id(const struct debuginfo_registry *r, const char *hex)
{
	for (size_t i = 0; r && hex && *hex && i < r->count; i++)
		if (strcmp(debuginfo_build_id(r->entries[i]), hex) == 0)
			return r->entries[i];
	return NULL;
}

enum debuginfo_kind debuginfo_kind(const struct debuginfo *e)
{
	return e->kind;
}

const char *debuginfo_name(const struct debuginfo *e)
{
	return e->name;
}

/* ---- the kernel's files */

/* A file handed over for the kernel, when it may be read (debuginfo.h);
 * a refused one is left out, as tapc would never have seen it. */
static char *handed_file(const char *path)
{
	char why[512];

	return path && cache_handed_file_ok(path, why, sizeof(why)) ? xstrdup(path) : NULL;
}

/* The best image of the kernel that carries .BTF, or NULL. */
static char *kernel_image(const struct debuginfo *e)
{
	const char *env = getenv("TAPC_VMLINUX");
	const char *release = e->name;
	char *p;

	if (env && *env)
		return xstrdup(env);
	if (kimage_is_running(release) && kimage_is_file("/sys/kernel/btf/vmlinux"))
		return xstrdup("/sys/kernel/btf/vmlinux");
	p = handed_file(e->handed_vmlinux);
	if (p)
		return p;
	return kimage_find_installed(release);
}

const char *debuginfo_path(struct debuginfo *e)
{
	if (!e->image_tried) {
		e->image_tried = true;
		e->path = e->name[0] ? kernel_image(e) : NULL;
	}
	return e->path;
}

/* ---- build-ids */

/* The GNU build-id note of the ELF file on FD in hex, or "". */
static char *elf_build_id(int fd)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	char *hex = NULL;

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	while (elf && !hex && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		GElf_Nhdr nh;
		Elf_Data *data;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		while (!hex && (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
			const unsigned char *desc = (const unsigned char *)data->d_buf + desc_off;

			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((const char *)data->d_buf + name_off, "GNU", 4) != 0)
				continue;
			hex = xmalloc(2 * nh.n_descsz + 1);
			for (size_t i = 0; i < nh.n_descsz; i++)
				sprintf(hex + 2 * i, "%02x", desc[i]);
			hex[2 * nh.n_descsz] = '\0';
		}
	}
	if (elf)
		elf_end(elf);
	return hex ? hex : xstrdup("");
}

const char *debuginfo_build_id(struct debuginfo *e)
{
	if (!e->build_id) {
		const char *path = debuginfo_path(e);
		int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;

		e->build_id = fd >= 0 ? elf_build_id(fd) : xstrdup("");
		if (fd >= 0)
			close(fd);
	}
	return e->build_id;
}

/* ---- what an entry reads */

/* The error of a reader that does not exist yet for E's kind. */
static const char *no_reader(struct debuginfo *e, char *buf, size_t len, const char *what)
{
	snprintf(buf, len, "%s: no reader of %s for %s yet", e->name, what,
		 e->kind == DEBUGINFO_KMODULE ? "kernel modules" : "user binaries");
	return buf;
}

const struct btf *debuginfo_btf(struct debuginfo *e, const char **err)
{
	if (!e->btf_tried) {
		const char *release = e->name;

		e->btf_tried = true;
		if (e->kind != DEBUGINFO_KERNEL)
			no_reader(e, e->btf_err, sizeof(e->btf_err), "types");
		else if (!debuginfo_path(e))
			snprintf(e->btf_err, sizeof(e->btf_err),
				 "no kernel image with BTF found for kernel %s "
				 "(looked for /boot/vmlinuz-%s; set TAPC_VMLINUX)",
				 release[0] ? release : "?", release[0] ? release : "?");
		else
			e->btf = btf_load_file(e->path, e->btf_err, sizeof(e->btf_err));
	}
	if (!e->btf && err)
		*err = e->btf_err;
	return e->btf;
}

/* The kernel's saved kallsyms: the user's, else one handed over. */
static char *kernel_kallsyms(const struct debuginfo *e)
{
	const char *env = getenv("TAPC_KALLSYMS");

	return env && *env ? xstrdup(env) : handed_file(e->handed_kallsyms);
}

const struct ksyms *debuginfo_ksyms(struct debuginfo *e, const char **err)
{
	if (!e->ksyms_tried) {
		const char *release = e->name;
		const struct btf *btf = NULL;
		const char *image;
		char *saved;

		e->ksyms_tried = true;
		if (e->kind != DEBUGINFO_KERNEL) {
			no_reader(e, e->ksyms_err, sizeof(e->ksyms_err), "symbols");
		} else {
			btf = kimage_is_running(release) ? NULL : debuginfo_btf(e, NULL);
			image = e->path && strcmp(e->path, "/sys/kernel/btf/vmlinux") ? e->path : NULL;
			saved = kernel_kallsyms(e);
			e->ksyms = ksyms_load(release, saved, image, btf, e->ksyms_err,
					      sizeof(e->ksyms_err));
			free(saved);
			if (!e->ksyms && !btf)
				snprintf(e->ksyms_err, sizeof(e->ksyms_err), "%s", e->btf_err);
		}
	}
	if (!e->ksyms && err)
		*err = e->ksyms_err;
	return e->ksyms;
}

/* The headers tree that names tracepoint systems: Debian splits a
 * release's headers into -ARCH and -common trees. */
const char *debuginfo_build_dir(const struct debuginfo *e)
{
	return e->build_dir;
}

static char *headers_dir(const struct debuginfo *e)
{
	const char *dash = strrchr(e->name, '-');
	char *p;

	if (dash) {
		p = xasprintf("/usr/src/linux-headers-%.*s-common", (int)(dash - e->name), e->name);
		if (path_is_dir(p))
			return p;
		free(p);
	}
	return e->build_dir ? xstrdup(e->build_dir) : NULL;
}

const struct btf_tracepoints *debuginfo_tracepoints(struct debuginfo *e, const char **err)
{
	if (!e->tps_tried) {
		const char *berr = NULL;
		const struct btf *btf = e->kind == DEBUGINFO_KERNEL ? debuginfo_btf(e, &berr) : NULL;

		e->tps_tried = true;
		if (btf) {
			char *hdr = headers_dir(e);

			e->tps = btf_tracepoints_load(btf, hdr, e->tps_err, sizeof(e->tps_err));
			free(hdr);
		} else if (berr) {
			snprintf(e->tps_err, sizeof(e->tps_err), "%s", berr);
		} else {
			no_reader(e, e->tps_err, sizeof(e->tps_err), "tracepoints");
		}
	}
	if (!e->tps && err)
		*err = e->tps_err;
	return e->tps;
}

/* ---- DWARF */

static char *file_build_id(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *hex = fd >= 0 ? elf_build_id(fd) : xstrdup("");

	if (fd >= 0)
		close(fd);
	return hex;
}

/* The GNU build-id in the notes the running kernel shows, or "". */
static char *running_build_id(void)
{
	unsigned char buf[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t len = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
	size_t off = 0;

	if (fd >= 0)
		close(fd);
	while (len > 0 && off + 12 <= (size_t)len) {
		uint32_t namesz, descsz, type;
		size_t name_off = off + 12, desc_off, next;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		desc_off = name_off + ((namesz + 3) & ~3u);
		next = desc_off + ((descsz + 3) & ~3u);
		if (next > (size_t)len)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && memcmp(buf + name_off, "GNU", 4) == 0) {
			char *hex = xmalloc(2 * descsz + 1);

			for (size_t i = 0; i < descsz; i++)
				sprintf(hex + 2 * i, "%02x", buf[desc_off + i]);
			hex[2 * descsz] = '\0';
			return hex;
		}
		off = next;
	}
	return xstrdup("");
}

/* Where debug packages put their files. */
static const char *debug_root(void)
{
	const char *env = getenv("TAPC_DEBUG_ROOT");

	return env && *env ? env : "/usr/lib/debug";
}

/* The build-id the kernel's DWARF must have: the running kernel's, else
 * its image's. */
static char *kernel_build_id(struct debuginfo *e)
{
	if (kimage_is_running(e->name) && !getenv("TAPC_VMLINUX"))
		return running_build_id();
	return xstrdup(debuginfo_build_id(e));
}

/* Index CANDIDATE if it exists and its build-id is WANT's: true when it
 * is the entry's DWARF now.  A file refused (another build-id) or
 * unreadable leaves its error in dwarf_err, the first one only: the
 * search goes on. */
static bool try_dwarf_file(struct debuginfo *e, const char *candidate, const char *want,
			   const char *what)
{
	char err[sizeof(e->dwarf_err)];
	char *have;

	if (access(candidate, R_OK) != 0)
		return false;
	have = file_build_id(candidate);
	if (*want && strcmp(have, want) != 0) {
		snprintf(err, sizeof(err),
			 "debuginfo %s does not match %s (its build-id %s, the %s's %s): refused",
			 candidate, what, *have ? have : "(none)", e->kind == DEBUGINFO_KERNEL
			 ? "kernel" : "module", want);
	} else {
		e->dwarf = dwindex_open(candidate, e->kind == DEBUGINFO_KMODULE ? e->name : NULL,
					err, sizeof(err));
	}
	free(have);
	if (e->dwarf) {
		/* a module's entry reads only its DWARF; the kernel's path
		 * stays its image */
		if (e->kind == DEBUGINFO_KMODULE) {
			free(e->path);
			e->path = xstrdup(candidate);
		}
		e->dwarf_err[0] = '\0';
		return true;
	}
	if (!e->dwarf_err[0])
		snprintf(e->dwarf_err, sizeof(e->dwarf_err), "%s", err);
	return false;
}

static void missing_dwarf(struct debuginfo *e, const char *release, const char *looked)
{
	e->dwarf_missing = true;
	snprintf(e->dwarf_err, sizeof(e->dwarf_err),
		 "missing x86_64 %s debuginfo [man warning::debuginfo] for %s %s (looked for %s): "
		 "install the package linux-image-%s-dbg (scripts/install-debuginfo), or probe "
		 "with kprobe.function(\"NAME\"), which needs none",
		 e->kind == DEBUGINFO_KERNEL ? "kernel" : "kernel/module",
		 e->kind == DEBUGINFO_KERNEL ? "kernel" : "module", e->name, looked, release);
}

static void find_kernel_dwarf(struct debuginfo *e)
{
	const char *root = debug_root(), *release = e->name;
	char *want = kernel_build_id(e);
	char *cands[4];
	bool done = false;
	size_t n = 0;

	cands[n++] = xasprintf("%s/boot/vmlinux-%s", root, release);
	cands[n++] = xasprintf("%s/lib/modules/%s/vmlinux", root, release);
	cands[n++] = xasprintf("/lib/modules/%s/build/vmlinux", release);
	if (strlen(want) > 2)
		cands[n++] = xasprintf("%s/.build-id/%.2s/%s.debug", root, want, want + 2);
	for (size_t i = 0; i < n && !done; i++)
		done = try_dwarf_file(e, cands[i], want, "the target kernel");
	if (!done && !e->dwarf_err[0]) {
		char *looked = xasprintf("%s/boot/vmlinux-%s, %s/lib/modules/%s/vmlinux, "
					 "/lib/modules/%s/build/vmlinux, %s/.build-id/",
					 root, release, root, release, release, root);

		missing_dwarf(e, release, looked);
		free(looked);
	}
	for (size_t i = 0; i < n; i++)
		free(cands[i]);
	free(want);
}

/* A module's .ko path under /lib/modules/R without a compressor's suffix. */
static char *uncompressed_ko(const char *rel)
{
	static const char *const suffixes[] = { ".xz", ".zst", ".gz" };
	size_t len = strlen(rel);

	for (size_t i = 0; i < 3; i++) {
		size_t sl = strlen(suffixes[i]);

		if (len > sl && strcmp(rel + len - sl, suffixes[i]) == 0)
			return xstrndup(rel, len - sl);
	}
	return xstrdup(rel);
}

static void find_module_dwarf(struct debuginfo *e, const char *release, const char *rel)
{
	char *ko = uncompressed_ko(rel);
	char *cand = xasprintf("%s/lib/modules/%s/%s", debug_root(), release, ko);
	/* a compressed .ko cannot be read here: its debug file is trusted */
	char *want = strcmp(ko, rel) == 0 ? file_build_id(e->target_file) : xstrdup("");

	if (!try_dwarf_file(e, cand, want, "the target kernel's module") && !e->dwarf_err[0])
		missing_dwarf(e, release, cand);
	free(want);
	free(cand);
	free(ko);
}

const struct dwindex *debuginfo_dwarf(struct debuginfo *e, const char **err)
{
	if (!e->dwarf_tried) {
		e->dwarf_tried = true;
		if (e->kind == DEBUGINFO_KERNEL)
			find_kernel_dwarf(e);
		else	/* a module's was looked for by debuginfo_module */
			no_reader(e, e->dwarf_err, sizeof(e->dwarf_err), "DWARF");
	}
	if (!e->dwarf && err)
		*err = e->dwarf_err;
	return e->dwarf;
}

const struct kmodsyms *debuginfo_module_symbols(struct debuginfo *e, const char **err)
{
	const char *why = NULL;

	if (!e->syms_tried) {
		e->syms_tried = true;
		if (e->kind != DEBUGINFO_KMODULE || !e->target_file)
			snprintf(e->syms_err, sizeof(e->syms_err), "not a kernel module");
		/* a refused debug file is never worked around */
		else if (!debuginfo_dwarf(e, &why) && !e->dwarf_missing)
			snprintf(e->syms_err, sizeof(e->syms_err), "%s", why);
		else
			e->syms = kmodsyms_open(e->target_file, e->syms_err, sizeof(e->syms_err));
	}
	if (!e->syms && err)
		*err = e->syms_err;
	return e->syms;
}

/* modules.dep of the target kernel: "kernel/fs/9p/9p.ko: deps ...". */
static void read_modules(struct debuginfo_registry *r, const char *release)
{
	char *dep = xasprintf("/lib/modules/%s/modules.dep", release);
	FILE *f = fopen(dep, "re");
	char *line = NULL;
	size_t cap = 0;

	r->modules_read = true;
	free(dep);
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		char *colon = strchr(line, ':');
		const char *base;
		size_t len;

		if (!colon)
			continue;
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		len = strcspn(base, ".");
		r->module_names = xrealloc(r->module_names,
					   (r->n_modules + 2) * sizeof(*r->module_names));
		r->module_paths = xrealloc(r->module_paths,
					   (r->n_modules + 1) * sizeof(*r->module_paths));
		/* the kernel's name for it (KBUILD_MODNAME): dm-mod.ko is
		 * dm_mod, as its symbols "dm_mod:NAME" are looked up */
		r->module_names[r->n_modules] = xstrndup(base, len);
		for (char *c = r->module_names[r->n_modules]; *c; c++)
			if (*c == '-')
				*c = '_';
		r->module_paths[r->n_modules++] = xstrdup(line);
		r->module_names[r->n_modules] = NULL;
	}
	free(line);
	fclose(f);
}

const char *const *debuginfo_module_names(struct debuginfo_registry *r)
{
	struct debuginfo *k = debuginfo_kernel(r);

	if (!r->modules_read && k)
		read_modules(r, k->name);
	return (const char *const *)r->module_names;
}

const char *const *debuginfo_module_paths(struct debuginfo_registry *r, size_t *count)
{
	debuginfo_module_names(r);
	*count = r->n_modules;
	return (const char *const *)r->module_paths;
}

/* Module names compare with '-' and '_' alike, as the kernel's do. */
static bool same_module(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '-' || *a == '_') && (*b == '-' || *b == '_')))
			return false;
	return *a == *b;
}

/* The name the kernel gives the module in file PATH: its base name
 * without ".ko", '-' as '_' (what kbuild's KBUILD_MODNAME holds). */
static char *module_name_of(const char *path)
{
	const char *base = strrchr(path, '/');
	char *name = xstrdup(base ? base + 1 : path);
	size_t len = strlen(name);

	if (len > 3 && !strcmp(name + len - 3, ".ko"))
		name[len - 3] = '\0';
	for (char *c = name; *c; c++)
		if (*c == '-')
			*c = '_';
	return name;
}

/*
 * module("/path/to/NAME.ko"), as SystemTap takes a module that is not
 * installed under /lib/modules (an out-of-tree module built with -g): the
 * file is both what the kernel loads and its DWARF (a .ko is its own
 * debuginfo), so its build-id is its own.
 */
static struct debuginfo *module_by_path(struct debuginfo_registry *r, const char *path,
					const char **err)
{
	static char msg[512];
	struct debuginfo *e;
	char *name;

	for (size_t i = 0; i < r->count; i++)
		if (r->entries[i]->kind == DEBUGINFO_KMODULE && r->entries[i]->target_file &&
		    !strcmp(r->entries[i]->target_file, path))
			return r->entries[i];
	if (access(path, R_OK) != 0) {
		snprintf(msg, sizeof(msg), "cannot read module file %s: %s", path, strerror(errno));
		*err = msg;
		return NULL;
	}
	name = module_name_of(path);
	e = entry_add(r, DEBUGINFO_KMODULE, name);
	free(name);
	e->image_tried = true;
	e->dwarf_tried = true;
	e->target_file = xstrdup(path);
	if (!try_dwarf_file(e, path, "", "the module file") && !e->dwarf_err[0])
		snprintf(e->dwarf_err, sizeof(e->dwarf_err), "no DWARF in module file %s", path);
	return e;
}

struct debuginfo *debuginfo_module(struct debuginfo_registry *r, const char *name,
				   const char **err)
{
	struct debuginfo *k = debuginfo_kernel(r);
	struct debuginfo *e;
	static char msg[512];	/* one at a time: read before the next call */

	if (strchr(name, '/'))
		return module_by_path(r, name, err);
	for (size_t i = 0; i < r->count; i++)
		if (r->entries[i]->kind == DEBUGINFO_KMODULE && same_module(r->entries[i]->name, name))
			return r->entries[i];
	debuginfo_module_names(r);
	for (size_t i = 0; k && i < r->n_modules; i++) {
		if (!same_module(r->module_names[i], name))
			continue;
		e = entry_add(r, DEBUGINFO_KMODULE, r->module_names[i]);
		e->image_tried = true;
		e->target_file = xasprintf("/lib/modules/%s/%s", k->name, r->module_paths[i]);
		e->dwarf_tried = true;
		find_module_dwarf(e, k->name, r->module_paths[i]);
		return e;
	}
	snprintf(msg, sizeof(msg), "kernel %s has no module %s", k ? k->name : "?", name);
	*err = msg;
	return NULL;
}
