/* The commands of the script's system() calls (SystemTap's STP_SYSTEM):
 * read from the module's cmd channel, run with /bin/sh -c as the
 * session's user, in the background. */
#ifndef TAPC_RUN_SYSCMD_H
#define TAPC_RUN_SYSCMD_H

#include <stddef.h>

#include "setuid.h"

/* The longest command the runtime sends (runtime/linux/tapset_system.c),
 * its NUL excluded. */
#define SYSCMD_MAX 383

/* Bytes of the channel not yet ended by a NUL. */
struct syscmd_reader {
	char part[SYSCMD_MAX + 1];
	size_t len;
	unsigned long long overlong;	/* commands cut off (not run) */
};

/* Split @n bytes of the channel into commands and call @run on each
 * whole one, in order; a command longer than SYSCMD_MAX (which the
 * runtime never sends) is counted in r->overlong and not run. */
void syscmd_feed(struct syscmd_reader *r, const char *buf, size_t n,
		 void (*run)(const char *cmd, void *arg), void *arg);

/*
 * Start @cmd as SystemTap's stapio does: "/bin/sh -c CMD" in a grandchild
 * that nobody waits for, with the standard input, output and error of
 * this process and nothing else of it: every other descriptor is closed,
 * the signal mask and dispositions are the defaults, and, set-user-ID,
 * the caller's user and group for good (@privs: setuid_drop(); the
 * command is not run when that fails).  Returns once the intermediate
 * child has exited, so that the command never holds our descriptors.
 * 0, or -1 with errno set when no process could be made.
 */
int syscmd_start(const char *cmd, const struct setuid_state *privs);

#endif
