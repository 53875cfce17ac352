/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Line tables placed in the module (runtime/tapc_usym.h): the file and
 * line of a user or kernel address (tapset_lines.c), for the *fileline
 * functions and backtraces.
 */
#ifndef TAP_LINES_H
#define TAP_LINES_H

#include <linux/types.h>

struct tap_umod;

/* The file and line of link-time address @rel (less the binary's base)
 * of user binary @m; false when its table has none there. */
bool tap_uline_find(const struct tap_umod *m, unsigned long rel,
		    const char **file, unsigned long *line);

/* The file and line of kernel address @addr (run time); false when the
 * module holds no row for it. */
bool tap_kline_find(unsigned long addr, const char **file, unsigned long *line);

#endif
