/* The kernel's line rows for symfileline() and print_backtrace_fileline():
 * those of the vmlinux and module functions a script probes (its
 * kernel.function, module("M").function and .statement probes), read at
 * pass 3 when the script asks for lines.  SystemTap places the whole .debug_line of the kernel in the
 * module (17 MB for Debian's 6.1); a probed function's rows are what a
 * probe's own address needs, and a few hundred bytes. */
#ifndef TAPC_KLINES_H
#define TAPC_KLINES_H

#include <stdbool.h>
#include <stdint.h>

#include <elfutils/libdw.h>

#include "linetab.h"

struct derived_probe;
struct program;

/* A kernel.function/statement probe in vmlinux: the DWARF it was
 * resolved in and its link-time pc; NULL for any other probe
 * (src/probes/kfunc.c). */
Dwarf *kfunc_kernel_pc(const struct derived_probe *dp, uint64_t *pc);

/* A module("M").function/statement probe: M's DWARF (its addresses as
 * libdwfl placed the relocatable file's sections), the probe's pc there,
 * the module's name and the symbol the probe is registered past; NULL
 * for any other probe. */
Dwarf *kfunc_module_pc(const struct derived_probe *dp, uint64_t *pc, const char **module,
		       const char **symbol);

/* Into @rows (link-time addresses), the rows of the functions @prog's
 * probes are in, and jiffies_64's link-time address into @reloc_ref (the
 * runtime's measure of where the kernel image moved); the number of
 * functions. */
size_t klines_collect(struct linetab *rows, uint64_t *reloc_ref,
		      const struct program *prog);

struct kmod_lines;

/* Into *@groups (*@n of them, struct kmod_lines of umod.h), the rows of
 * the module functions @prog's probes are in, one group per symbol they
 * are registered past; the number of functions. */
size_t klines_collect_modules(struct kmod_lines **groups, size_t *n,
			      const struct program *prog);

#endif
