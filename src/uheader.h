/* The types of user-space headers, for @cast(p, "T", "<header.h>") (uheader.c). */
#ifndef TAPC_UHEADER_H
#define TAPC_UHEADER_H

#include <stddef.h>

#include "dwindex.h"

/* The DWARF of the headers LEN bytes at HEADERS name ("<stdio.h>",
 * "<sys/types.h><stdio.h>"), compiled once per list; NULL with *why. */
const struct dwindex *uheader_dwarf(const char *headers, size_t len, const char **why);

/* The same for kernel headers ("kernel<linux/sched.h>" without its
 * "kernel"), built as a module with the kernel's kbuild. */
const struct dwindex *kheader_dwarf(const char *headers, size_t len, const char **why);

#endif
