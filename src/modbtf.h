/* Kernel modules' BTF, for @cast(ptr, "type", "MODULE").
 *
 * A module's types are split BTF over the kernel's: the .BTF section of
 * its .ko (which Debian may ship compressed, .ko.xz), or
 * /sys/kernel/btf/MODULE while the running kernel has it loaded.
 */
#ifndef TAPC_MODBTF_H
#define TAPC_MODBTF_H

#include <stdbool.h>
#include <stddef.h>

struct btf;

/* The file of module NAME under DIR (searched recursively, symlinks not
 * followed): NAME.ko, .ko.xz, .ko.zst or .ko.gz, '-' and '_' alike as
 * modprobe has them; malloc'd, or NULL. */
char *modbtf_find(const char *dir, const char *name);

/* The BTF of module NAME of kernel RELEASE (running: whether it is the
 * kernel this machine runs) over KERNEL, the kernel's BTF (which must
 * outlive it): /sys/kernel/btf/NAME of a running kernel, else the
 * module's file under /lib/modules/RELEASE; NULL with a message in ERR. */
struct btf *modbtf_load(const char *release, bool running, const char *name,
			const struct btf *kernel, char *err, size_t errlen);

#endif
