/* The target kernel as pass 2 sees it: its function symbols, its BTF and
 * its tracepoints, each found and loaded on first use and kept for the
 * rest of the run.
 *
 * The kernel image is found as kimage.h says.  Symbols come from
 * /proc/kallsyms for the running kernel, else from $TAPC_KALLSYMS or the
 * copy of the guest's /proc/kallsyms that tapc-vm saves beside the
 * vmlinux once a guest of that kernel has booted, else from the image
 * (see ksyms.h).  Tracepoint systems come from the target's headers tree.
 */
#ifndef TAPC_KINFO_H
#define TAPC_KINFO_H

struct target;
struct btf;
struct ksyms;
struct btf_tracepoints;

/* The kernel later calls describe; t must outlive them. */
void kinfo_set_target(const struct target *t);

/* NULL with *err (static text, valid until kinfo_free) when unavailable. */
const struct btf *kinfo_btf(const char **err);
const struct ksyms *kinfo_ksyms(const char **err);
const struct btf_tracepoints *kinfo_tracepoints(const char **err);

void kinfo_free(void);

#endif
