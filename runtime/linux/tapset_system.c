// SPDX-License-Identifier: GPL-2.0
/*
 * system(): a command for tapc-run, which runs it with /bin/sh -c as the
 * user who started the session, in the background (src/run/syscmd.c).
 *
 * The command goes on the cmd channel (transport.c) as its bytes and a
 * NUL.  The output the hit printed before the call is handed to the out
 * channel first, and tapc-run relays all the output it has before it
 * starts a command, so what a probe printed before system() comes out
 * before anything the command prints.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include "tap_internal.h"

/* SystemTap's limit: a control message of 384 bytes, the NUL included. */
#define TAPSET_SYSTEM_MAX 383

void tapset_system(struct tap_context *c, const char *cmd)
{
	size_t len = strnlen(cmd, MAXSTRINGLEN);

	if (len > TAPSET_SYSTEM_MAX) {
		tap_errmsg("WARNING: system() command of %zu bytes not run: the limit is %d\n",
			   len, TAPSET_SYSTEM_MAX);
		return;
	}
	tap_flush(c->priv);
	if (!tap_ring_write(&tap_cmd_ring, cmd, len + 1))
		tap_errmsg("WARNING: system() command not run: too many commands are waiting for tapc-run\n");
}
