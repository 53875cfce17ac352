/* tapc-run installed set-user-ID root, as SystemTap's staprun: who the
 * caller is, and root only for what needs it (see tapc-run(8)).
 *
 * At start the process drops to the caller's user (keeping root as its
 * saved user id), hardens itself against the caller (no core dumps, no
 * ptrace), and takes root back only around the module's load and unload.
 * The -c command gives up root for good before it runs. */
#ifndef TAPC_RUN_SETUID_H
#define TAPC_RUN_SETUID_H

#include <stdbool.h>
#include <sys/types.h>

struct setuid_state {
	bool active;	/* set-user-ID root, run by a user who is not root */
	bool euid_root;	/* the effective user was root at start */
	uid_t ruid;	/* the caller */
	gid_t rgid;
};

/* First thing in main(): 0, or -1 after a message. */
int setuid_init(struct setuid_state *s);

/* Root for the load or the unload, and back to the caller: no-ops unless
 * active.  A failure is reported; setuid_lower() exits on one, since the
 * process must never go on as root. */
int setuid_raise(const struct setuid_state *s);
void setuid_lower(const struct setuid_state *s);

/* In the -c command's process before it runs: the caller's user for good
 * (real, effective and saved).  0, or -1. */
int setuid_drop(const struct setuid_state *s);

/* The caller's credentials (PRIV_* of src/privilege.h), as SystemTap's:
 * root has all; other users those of the groups stapusr, stapsys and
 * stapdev (by name, from /etc/group) they are in. */
unsigned setuid_credentials(const struct setuid_state *s);

#endif
