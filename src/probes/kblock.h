/* SystemTap's own blocklist of kernel and module functions.
 *
 * Beyond what the kernel refuses to kprobe (dwindex.c), SystemTap will not
 * put a DWARF probe, outside guru mode, on functions its probes would
 * recurse into or that run where a probe cannot (locks, atomics, IRQ and
 * softirq entry, the kprobes code itself ...), on anything of a few files,
 * nor a return probe on the functions that never return.  tapc refuses the
 * same ones, with SystemTap's warnings; -g lifts the list, as in SystemTap.
 */
#ifndef TAPC_PROBES_KBLOCK_H
#define TAPC_PROBES_KBLOCK_H

#include <stdbool.h>

/* Why SystemTap refuses function FUNC declared in FILE (either may be
 * NULL), probed at its return when AT_RETURN: its warning as a format
 * with one %s for the function's name ("function %s is blocklisted"),
 * or NULL when the function may be probed. */
const char *kblock_why(const char *func, const char *file, bool at_return);

#endif
