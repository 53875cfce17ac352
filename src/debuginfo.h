/* Debuginfo: what pass 2 knows of the binaries probes go into, kept as a
 * registry with one entry per binary: the target kernel, a kernel module,
 * a user binary.  An entry is found by its path or by its build-id; what
 * it reads (types, symbols, tracepoints) is loaded on its first use and
 * kept until the registry is freed.
 *
 * The kernel's entry reads its image (BTF types and the tracepoints BTF
 * describes, kimage.h) and its function symbols (ksyms.h).  Its files are,
 * best first:
 *
 *  - $TAPC_VMLINUX and $TAPC_KALLSYMS, as the user names them;
 *  - for the running kernel, /sys/kernel/btf/vmlinux and /proc/kallsyms;
 *  - the files another tool hands over for that kernel (tapc-vm's copies
 *    of the guest's vmlinux and /proc/kallsyms under --remote=vm, see
 *    remote.h): used only when they and their directory are the caller's
 *    alone, below directories nobody else may change, and never through a
 *    symlink (cachedir.h), since what they say decides what gets built and
 *    loaded, often by root;
 *  - the debug package's /usr/lib/debug/boot/vmlinux-R, then
 *    /boot/vmlinuz-R (decompressed on reading, which is slower).
 *
 * The DWARF of the kernel and of its modules (debuginfo_dwarf) is found
 * where Debian's linux-image-R-dbg package and kernel builds put it:
 *
 *  - the kernel's: /usr/lib/debug/boot/vmlinux-R,
 *    /usr/lib/debug/lib/modules/R/vmlinux, /lib/modules/R/build/vmlinux,
 *    then /usr/lib/debug/.build-id/XX/YYYY.debug by the kernel's build-id;
 *  - a module's: /usr/lib/debug/lib/modules/R/PATH.ko, PATH being where
 *    modules.dep of /lib/modules/R puts the module; or the module file
 *    the script names by its path, module("/path/to/NAME.ko"), which is
 *    its own debuginfo (an out-of-tree module built with -g).
 *
 * ($TAPC_DEBUG_ROOT replaces /usr/lib/debug.)  A file is used only when
 * its GNU build-id is the target's: the running kernel's from
 * /sys/kernel/notes, else that of the kernel image (the one handed over
 * under --remote=vm); a module's that of its .ko under /lib/modules/R.
 * A mismatch is refused, never used.
 *
 * Module and user-binary entries hold their path and build-id; readers of
 * their types and symbols other than DWARF (module BTF) are still to come,
 * and until then they answer with an error.
 */
#ifndef TAPC_DEBUGINFO_H
#define TAPC_DEBUGINFO_H

#include <stdbool.h>
#include <stddef.h>

struct btf;
struct ksyms;
struct btf_tracepoints;
struct dwindex;

enum debuginfo_kind {
	DEBUGINFO_KERNEL,	/* the kernel proper (vmlinux) */
	DEBUGINFO_KMODULE,	/* a kernel module (.ko) */
	DEBUGINFO_USER,		/* an executable or shared library */
};

/* Files another tool keeps for the kernel (either may be NULL). */
struct debuginfo_handover {
	const char *vmlinux;
	const char *kallsyms;
};

struct debuginfo_registry;
struct debuginfo;

struct debuginfo_registry *debuginfo_registry_new(void);
void debuginfo_registry_free(struct debuginfo_registry *r);

/* The entry of kernel RELEASE; BUILD_DIR (or NULL) is its build tree,
 * whose headers name the tracepoints' systems; HANDOVER (or NULL) lists
 * files another tool hands over.  Nothing is read yet. */
struct debuginfo *debuginfo_add_kernel(struct debuginfo_registry *r, const char *release,
				       const char *build_dir,
				       const struct debuginfo_handover *handover);
/* A module or user-binary entry for the file PATH (NAME: the module's
 * name, or NULL for the path). */
struct debuginfo *debuginfo_add(struct debuginfo_registry *r, enum debuginfo_kind kind,
				const char *name, const char *path);

/* The kernel's entry, or NULL before debuginfo_add_kernel. */
struct debuginfo *debuginfo_kernel(const struct debuginfo_registry *r);
/* The entry whose file is PATH (compared as real paths), or NULL. */
struct debuginfo *debuginfo_by_path(const struct debuginfo_registry *r, const char *path);
/* The entry whose build-id is HEX (lower-case hex digits), or NULL; reads
 * the build-ids not read yet. */
struct debuginfo *debuginfo_by_build_id(const struct debuginfo_registry *r, const char *hex);

enum debuginfo_kind debuginfo_kind(const struct debuginfo *e);
/* The kernel's release, a module's name, a user binary's path. */
const char *debuginfo_name(const struct debuginfo *e);
/* The kernel's build tree, or NULL (unknown, or not the kernel's entry). */
const char *debuginfo_build_dir(const struct debuginfo *e);
/* The file the entry reads (the kernel's image once it is looked for),
 * or NULL when there is none. */
const char *debuginfo_path(struct debuginfo *e);
/* The file's GNU build-id in lower-case hex, read on first use; "" when
 * it has none or cannot be read. */
const char *debuginfo_build_id(struct debuginfo *e);

/* What the entry reads, loaded on first use: NULL with *err (text kept
 * until the registry is freed) when unavailable. */
const struct btf *debuginfo_btf(struct debuginfo *e, const char **err);
const struct ksyms *debuginfo_ksyms(struct debuginfo *e, const char **err);
const struct btf_tracepoints *debuginfo_tracepoints(struct debuginfo *e, const char **err);
/* The DWARF of the kernel or of a module entry, indexed (dwindex.h). */
const struct dwindex *debuginfo_dwarf(struct debuginfo *e, const char **err);
/* A module entry's function symbols, from its .ko (kmodsyms.h), read on
 * first use: SystemTap's fallback where the module's DWARF is missing;
 * NULL with *err where a debug file was found and refused. */
struct kmodsyms;
const struct kmodsyms *debuginfo_module_symbols(struct debuginfo *e, const char **err);

/* The entry of the target kernel's module NAME ('-' and '_' alike), added
 * on first use; NULL with *err when the kernel has no such module.  A NAME
 * with a '/' is the path of a module file (an out-of-tree .ko, its own
 * debuginfo): the entry's name is the module's (base name without ".ko",
 * '-' as '_'). */
struct debuginfo *debuginfo_module(struct debuginfo_registry *r, const char *name,
				   const char **err);
/* The names of the target kernel's modules (modules.dep), NULL-terminated
 * and kept by the registry; NULL when there is no modules.dep. */
const char *const *debuginfo_module_names(struct debuginfo_registry *r);
/* Their files, relative to /lib/modules/RELEASE, *count of them. */
const char *const *debuginfo_module_paths(struct debuginfo_registry *r, size_t *count);

#endif
