/* --check-version: SystemTap's warnings for declarations that depend on
 * the language version. */
#ifndef TAPC_SEM_VERSION_H
#define TAPC_SEM_VERSION_H

struct derived_probe;
struct elab;
struct probe;
struct probe_alias;

/* A derived probe came from the user's probe through these aliases (n of
 * them, innermost first): remember the version-dependent ones. */
void sem_version_note_probe(struct elab *E, const struct derived_probe *dp,
			    const struct probe *user,
			    const struct probe_alias *const *aliases, int n);

/* Once the probes and what they use are resolved: warn, as SystemTap
 * does, of each global, function and probe (or alias it came through)
 * that was parsed under a %( systemtap_v ... %) condition. */
void sem_version_warn(struct elab *E);
void sem_version_free(struct elab *E);

#endif
