/* The kernel a script is built for: its release, architecture and
 * configuration, as pass 1 conditionals (kernel_v, arch, CONFIG_*) see it. */
#ifndef TAPC_TARGET_H
#define TAPC_TARGET_H

#include <stdbool.h>

struct config_entry;

struct target {
	char *release;		/* "6.1.0-57-amd64" */
	char *version;		/* "6.1.0": release up to the first '-' */
	char *arch;		/* "x86_64" */
	char *build_dir;	/* kernel build tree, or NULL if unknown */
	struct config_entry *config;	/* CONFIG_* from .config, or NULL */
};

/* Describe the target named by -r (a release or a build directory), or the
 * running kernel when spec is NULL. Returns false after printing an error. */
bool target_init(struct target *t, const char *spec);
/* For pass1_env.config: the value of CONFIG_name, or NULL when unset. */
const char *target_config(void *target, const char *name);
void target_free(struct target *t);

#endif
