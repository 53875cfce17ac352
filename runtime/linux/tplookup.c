// SPDX-License-Identifier: GPL-2.0
/*
 * Finding a tracepoint by name.  Modules cannot take the address of most
 * __tracepoint_NAME symbols (they are not exported), so the families that
 * attach to tracepoints walk the kernel's list instead.
 */
#include <linux/string.h>
#include <linux/tracepoint.h>
#include "tap_internal.h"

struct tap_tp_search {
	const char *name;
	struct tracepoint *found;
};

static void tap_tp_match(struct tracepoint *tp, void *priv)
{
	struct tap_tp_search *s = priv;

	if (!s->found && strcmp(tp->name, s->name) == 0)
		s->found = tp;
}

struct tracepoint *tap_tracepoint_find(const char *name)
{
	struct tap_tp_search s = { .name = name, .found = NULL };

	for_each_kernel_tracepoint(tap_tp_match, &s);
	return s.found;
}
