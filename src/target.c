/* Target kernel description for pass 1. */
#include "target.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "paths.h"
#include "util.h"

struct config_entry {
	char *name;		/* "CONFIG_SMP" */
	char *value;		/* "y", "m", or the unquoted string */
	struct config_entry *next;
};

/* The first line of a small file, without its newline; NULL if unreadable. */
static char *read_first_line(const char *path)
{
	FILE *fp = fopen(path, "r");
	char buf[512];
	char *nl;

	if (!fp)
		return NULL;
	if (!fgets(buf, sizeof(buf), fp)) {
		fclose(fp);
		return NULL;
	}
	fclose(fp);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return buf[0] ? xstrdup(buf) : NULL;
}

/* Parse "CONFIG_X=value" lines; "# CONFIG_X is not set" lines mean unset. */
static struct config_entry *read_config(const char *path)
{
	FILE *fp = fopen(path, "r");
	struct config_entry *head = NULL;
	char *line = NULL;
	size_t cap = 0;

	if (!fp)
		return NULL;
	while (getline(&line, &cap, fp) > 0) {
		char *eq, *val, *end;
		struct config_entry *e;

		if (strncmp(line, "CONFIG_", 7) != 0)
			continue;
		eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		val = eq + 1;
		end = val + strcspn(val, "\n");
		*end = '\0';
		if (val[0] == '"' && end > val + 1 && end[-1] == '"') {
			end[-1] = '\0';
			val++;
		}
		e = xmalloc(sizeof(*e));
		e->name = xstrdup(line);
		e->value = xstrdup(val);
		e->next = head;
		head = e;
	}
	free(line);
	fclose(fp);
	return head;
}

static void load_config(struct target *t)
{
	char *path;

	if (t->build_dir) {
		path = xasprintf("%s/.config", t->build_dir);
		t->config = read_config(path);
		free(path);
		if (t->config)
			return;
	}
	path = xasprintf("/boot/config-%s", t->release);
	t->config = read_config(path);
	free(path);
}

bool target_init(struct target *t, const char *spec)
{
	struct utsname u;
	char *dash;

	memset(t, 0, sizeof(*t));
	if (uname(&u) != 0) {
		fprintf(stderr, "tapc: uname: %s\n", strerror(errno));
		return false;
	}
	t->arch = xstrdup(u.machine);
	if (spec && (strchr(spec, '/') || path_is_dir(spec))) {
		char *path = xasprintf("%s/include/config/kernel.release", spec);

		t->release = read_first_line(path);
		free(path);
		if (!t->release) {
			fprintf(stderr, "tapc: '%s' is not a configured kernel "
				"build tree (no include/config/kernel.release)\n",
				spec);
			target_free(t);
			return false;
		}
		t->build_dir = xstrdup(spec);
	} else {
		char *build;

		t->release = xstrdup(spec ? spec : u.release);
		build = xasprintf("/lib/modules/%s/build", t->release);
		if (path_is_dir(build))
			t->build_dir = build;
		else
			free(build);
	}
	t->version = xstrdup(t->release);
	dash = strchr(t->version, '-');
	if (dash)
		*dash = '\0';
	load_config(t);
	return true;
}

const char *target_config(void *target, const char *name)
{
	const struct target *t = target;

	for (const struct config_entry *e = t->config; e; e = e->next)
		if (strcmp(e->name, name) == 0)
			return e->value;
	return NULL;
}

void target_free(struct target *t)
{
	struct config_entry *e = t->config;

	while (e) {
		struct config_entry *next = e->next;

		free(e->name);
		free(e->value);
		free(e);
		e = next;
	}
	free(t->release);
	free(t->version);
	free(t->arch);
	free(t->build_dir);
	memset(t, 0, sizeof(*t));
}
