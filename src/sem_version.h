/* --check-version: SystemTap's warnings for declarations that depend on
 * the language version. */
#ifndef TAPC_SEM_VERSION_H
#define TAPC_SEM_VERSION_H

struct derived_probe;
struct elab;
struct srcpos;

/* Derived probe dp came through a version-dependent alias or user's
 * probe (kind "alias" or "probe") declared at pos. */
void sem_version_note(struct elab *E, const struct derived_probe *dp, const char *kind,
		      const struct srcpos *pos);

/* Once the probes and what they use are resolved: warn, as SystemTap
 * does, of each global, function and probe (or alias it came through)
 * that was parsed under a %( systemtap_v ... %) condition. */
void sem_version_warn(struct elab *E);
void sem_version_free(struct elab *E);

#endif
