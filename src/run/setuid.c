/* tapc-run as a set-user-ID root program (see setuid.h). */
#define _GNU_SOURCE
#include "setuid.h"

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "privilege.h"

/* Variables that change how a shell runs a -c command: they could only
 * affect the caller's own command, but staprun drops them too. */
static const char *const shell_vars[] = { "IFS", "CDPATH", "ENV", "BASH_ENV" };

/*
 * What the caller could use to get at a process that can become root
 * again: its memory (ptrace, /proc/PID/mem, a core dump).  The kernel
 * already makes a set-user-ID process undumpable; say so anyway, and
 * allow no core file even if something makes it dumpable again.
 */
static int harden(void)
{
	struct rlimit none = { 0, 0 };

	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 ||
	    setrlimit(RLIMIT_CORE, &none) != 0)
		return -1;
	for (size_t i = 0; i < sizeof(shell_vars) / sizeof(shell_vars[0]); i++)
		unsetenv(shell_vars[i]);
	return 0;
}

int setuid_init(struct setuid_state *s)
{
	uid_t ruid, euid, suid;

	memset(s, 0, sizeof(*s));
	if (getresuid(&ruid, &euid, &suid) != 0)
		return -1;
	s->ruid = ruid;
	s->rgid = getgid();
	s->euid_root = euid == 0;
	s->active = euid == 0 && ruid != 0;
	if (!s->active)
		return 0;
	/* the caller's user from here on; root stays the saved user id */
	if (harden() != 0 || setresuid(ruid, ruid, 0) != 0) {
		fprintf(stderr, "ERROR: tapc-run: cannot drop root: %s\n",
			strerror(errno));
		return -1;
	}
	return 0;
}

int setuid_raise(const struct setuid_state *s)
{
	if (!s->active)
		return 0;
	if (seteuid(0) != 0) {
		fprintf(stderr, "ERROR: tapc-run: cannot become root: %s\n",
			strerror(errno));
		return -1;
	}
	return 0;
}

void setuid_lower(const struct setuid_state *s)
{
	if (!s->active)
		return;
	if (seteuid(s->ruid) != 0) {
		fprintf(stderr, "ERROR: tapc-run: cannot drop root: %s\n",
			strerror(errno));
		_exit(1);
	}
}

int setuid_drop(const struct setuid_state *s)
{
	if (!s->active)
		return 0;
	if (setresgid(s->rgid, s->rgid, s->rgid) != 0 ||
	    setresuid(s->ruid, s->ruid, s->ruid) != 0)
		return -1;
	return 0;
}

/* The gids of SystemTap's groups, (gid_t)-1 where /etc/group has none;
 * read from the file itself, not through NSS modules. */
static void stap_group_ids(gid_t *usr, gid_t *sys, gid_t *dev)
{
	FILE *f = fopen("/etc/group", "re");
	struct group *g;

	*usr = *sys = *dev = (gid_t)-1;
	if (!f)
		return;
	while ((g = fgetgrent(f)) != NULL) {
		gid_t *slot = !strcmp(g->gr_name, "stapusr") ? usr :
			      !strcmp(g->gr_name, "stapsys") ? sys :
			      !strcmp(g->gr_name, "stapdev") ? dev : NULL;

		if (slot && *slot == (gid_t)-1)
			*slot = g->gr_gid;
	}
	fclose(f);
}

/* The credentials that membership of gid gives. */
static unsigned group_credentials(gid_t gid, gid_t usr, gid_t sys, gid_t dev)
{
	if (gid == (gid_t)-1)
		return PRIV_NONE;
	if (gid == dev)
		return PRIV_ALL;
	if (gid == sys)
		return PRIV_STAPSYS | PRIV_STAPUSR;
	if (gid == usr)
		return PRIV_STAPUSR;
	return PRIV_NONE;
}

unsigned setuid_credentials(const struct setuid_state *s)
{
	gid_t usr, sys, dev, groups[NGROUPS_MAX];
	unsigned creds;
	int n;

	if (s->ruid == 0)
		return PRIV_ALL;
	stap_group_ids(&usr, &sys, &dev);
	/* getgroups() may leave out the effective group: look at both */
	creds = group_credentials(getegid(), usr, sys, dev);
	n = getgroups(NGROUPS_MAX, groups);
	for (int i = 0; i < n; i++)
		creds |= group_credentials(groups[i], usr, sys, dev);
	return creds;
}
