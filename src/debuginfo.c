/* The debuginfo registry (see debuginfo.h). */
#include "debuginfo.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btf.h"
#include "cachedir.h"
#include "kimage.h"
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
};

struct debuginfo_registry {
	struct debuginfo **entries;
	size_t count;
};

struct debuginfo_registry *debuginfo_registry_new(void)
{
	return xcalloc(1, sizeof(struct debuginfo_registry));
}

static void entry_free(struct debuginfo *e)
{
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
