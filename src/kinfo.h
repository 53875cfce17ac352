/* The target kernel as pass 2's probe families see it: its entry in the
 * session's debuginfo registry (debuginfo.h), which finds its image,
 * symbols and tracepoints and loads each on first use.
 *
 * The families' hooks take no session yet, so the session names its
 * kernel's entry here once; the entry and everything it loaded belong to
 * the registry.
 */
#ifndef TAPC_KINFO_H
#define TAPC_KINFO_H

struct debuginfo;
struct btf;
struct ksyms;
struct btf_tracepoints;
struct debuginfo_registry;
struct dwindex;
struct modtp_index;

/* The kernel the next calls describe (NULL: none); it must outlive them. */
void kinfo_set_kernel(struct debuginfo *kernel);
/* The registry that holds it, where its modules' entries go (NULL: none). */
void kinfo_set_registry(struct debuginfo_registry *r);

/* NULL with *err (text kept by the registry) when unavailable. */
const struct btf *kinfo_btf(const char **err);
const struct ksyms *kinfo_ksyms(const char **err);
const struct btf_tracepoints *kinfo_tracepoints(const char **err);
/* The BTF of the kernel's module NAME (split over the kernel's, see
 * modbtf.h), loaded on first use and kept until the kernel changes;
 * NULL with *err (text kept as long) when unavailable.  (The registry's
 * module entries will hold these once families probe modules.) */
const struct btf *kinfo_module_btf(const char *name, const char **err);
/* The tracepoints module NAME defines itself, from its BTF (the
 * catalogue of tpcatalog.h); NULL with *err when unavailable. */
const struct btf_tracepoints *kinfo_module_tracepoints(const char *name, const char **err);
/* Which of the kernel's modules define which tracepoints (modtp.h), read
 * on first use; NULL when there is no kernel or no modules.dep. */
const struct modtp_index *kinfo_module_events(void);
/* The kernel's DWARF, indexed (dwindex.h). */
const struct dwindex *kinfo_dwarf(const char **err);
/* The DWARF of the kernel's module NAME. */
const struct dwindex *kinfo_module_dwarf(const char *name, const char **err);
/* The function symbols of module NAME's .ko (kmodsyms.h), read on first
 * use: SystemTap's fallback where its DWARF is missing (NULL where a
 * debug file was found and refused). */
struct kmodsyms;
const struct kmodsyms *kinfo_module_symbols(const char *name, const char **err);
/* The name the kernel knows module SPEC by: SPEC itself, or for a path
 * (module("/path/to/x.ko")) the module's name in the file; NULL with *err
 * when there is no such module. */
const char *kinfo_module_name(const char *spec, const char **err);
/* The kernel's build tree, or NULL when unknown. */
const char *kinfo_build_dir(void);
/* The kernel's modules by name, NULL-terminated, or NULL. */
const char *const *kinfo_module_names(void);

#endif
