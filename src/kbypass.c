/* Pass 4 around kbuild (see kbypass.h). */
#include "kbypass.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomicfile.h"
#include "options.h"
#include "util.h"

#define RECIPE_HEADER "tapc-kbuild-recipe 2"
#define DIR_MARK "{{TAPC_DIR}}"
#define NAME_MARK "{{TAPC_NAME}}"
/* The runtime objects' names in the module directory, and in the cache. */
#define RT_PREFIX "tapcrt_"

/* s with every from replaced by to. */
static char *subst(const char *s, const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = strlen(from);
	const char *p;

	while ((p = strstr(s, from))) {
		strbuf_addn(&sb, s, (size_t)(p - s));
		strbuf_adds(&sb, to);
		s = p + n;
	}
	strbuf_adds(&sb, s);
	return strbuf_detach(&sb);
}

/* The text with dir and name made placeholders (dir first: it holds no
 * module name, while the name may appear inside file names). */
static char *generalise(const char *text, const char *dir, const char *name)
{
	char *a = subst(text, dir, DIR_MARK), *b = subst(a, name, NAME_MARK);

	free(a);
	return b;
}

static char *specialise(const char *text, const char *dir, const char *name)
{
	char *a = subst(text, DIR_MARK, dir), *b = subst(a, NAME_MARK, name);

	free(a);
	return b;
}

/* The command of a kbuild .cmd file ("cmd_TARGET := COMMAND" on its first
 * line), with make's $$ turned back into $. */
static char *read_cmd(const char *dir, const char *file)
{
	char *path = xasprintf("%s/%s", dir, file), *line = NULL, *cmd = NULL, *at;
	size_t cap = 0;
	FILE *f = fopen(path, "r");

	free(path);
	if (!f)
		return NULL;
	if (getline(&line, &cap, f) > 0 && !strncmp(line, "cmd_", 4) &&
	    (at = strstr(line, " := "))) {
		at[strcspn(at, "\n")] = '\0';
		cmd = subst(at + 4, "$$", "$");
	}
	free(line);
	fclose(f);
	return cmd;
}

/* Append each line of dir/file to out as "TAG LINE". */
static bool copy_lines(FILE *out, const char *tag, const char *dir, const char *file,
		       const char *name)
{
	char *path = xasprintf("%s/%s", dir, file), *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "r");
	bool any = false;

	free(path);
	if (!f)
		return false;
	while (getline(&line, &cap, f) > 0) {
		char *g;

		line[strcspn(line, "\n")] = '\0';
		g = generalise(line, dir, name);
		fprintf(out, "%s %s\n", tag, g);
		free(g);
		any = true;
	}
	free(line);
	fclose(f);
	return any;
}

void kbypass_record(const char *recipe, const char *dir, const char *name)
{
	struct atomic_file af;
	char *files[6];
	FILE *out;
	bool ok;

	if (strlen(name) < 16 || strncmp(name, "tapc_", 5) != 0)
		return;
	files[0] = xasprintf(".%s_src.o.cmd", name);
	files[1] = xasprintf(".%s_params.o.cmd", name);
	files[2] = xasprintf(".%s.o.cmd", name);
	files[3] = xstrdup(".Module.symvers.cmd");
	files[4] = xasprintf(".%s.mod.o.cmd", name);
	files[5] = xasprintf(".%s.ko.cmd", name);
	out = atomic_open(&af, recipe);
	ok = out != NULL;
	if (ok) {
		char *mod = xasprintf("%s.mod", name);

		fprintf(out, "%s\n", RECIPE_HEADER);
		ok = copy_lines(out, "MOD", dir, mod, name) &&
		     copy_lines(out, "ORDER", dir, "modules.order", name);
		free(mod);
	}
	for (int i = 0; i < 6; i++) {
		char *cmd = ok ? read_cmd(dir, files[i]) : NULL, *g;

		ok = ok && cmd;
		if (cmd) {
			g = generalise(cmd, dir, name);
			fprintf(out, "CMD %s\n", g);
			free(g);
		}
		/* kbuild's fixdep turns the compiler's dependencies into
		 * the object's .cmd file, which modpost reads */
		if (cmd && i < 2)
			fprintf(out, "CMD scripts/basic/fixdep %s/.%s%s.o.d %s/%s%s.o tapc > "
				"%s/.%s%s.o.cmd && rm -f %s/.%s%s.o.d\n",
				DIR_MARK, NAME_MARK, i ? "_params" : "_src",
				DIR_MARK, NAME_MARK, i ? "_params" : "_src",
				DIR_MARK, NAME_MARK, i ? "_params" : "_src",
				DIR_MARK, NAME_MARK, i ? "_params" : "_src");
		free(cmd);
		free(files[i]);
	}
	atomic_close(&af, ok);
}

/* ---- replaying ------------------------------------------------------------ */

struct recipe {
	struct strlist mod, order, cmds;
};

static bool load_recipe(const char *path, struct recipe *r)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	bool ok;

	memset(r, 0, sizeof(*r));
	if (!f)
		return false;
	ok = getline(&line, &cap, f) > 0 && !strcmp(line, RECIPE_HEADER "\n");
	while (ok && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "MOD ", 4))
			strlist_add(&r->mod, line + 4);
		else if (!strncmp(line, "ORDER ", 6))
			strlist_add(&r->order, line + 6);
		else if (!strncmp(line, "CMD ", 4))
			strlist_add(&r->cmds, line + 4);
		else
			ok = false;
	}
	free(line);
	fclose(f);
	return ok && r->mod.count > 0 && r->order.count > 0 && r->cmds.count == 8;
}

static void free_recipe(struct recipe *r)
{
	strlist_free(&r->mod);
	strlist_free(&r->order);
	strlist_free(&r->cmds);
}

/* Write the lines, specialised, into dir/file. */
static bool write_lines(const struct strlist *lines, const char *dir, const char *file,
			const char *name)
{
	char *path = xasprintf("%s/%s", dir, file);
	FILE *f = fopen(path, "w");
	bool ok = f != NULL;

	for (int i = 0; ok && i < lines->count; i++) {
		char *s = specialise(lines->items[i], dir, name);

		ok = fprintf(f, "%s\n", s) >= 0;
		free(s);
	}
	if (f && fclose(f) != 0)
		ok = false;
	free(path);
	return ok;
}

/* The runtime objects the module list names: DIR/tapcrt_X.o, linked to
 * runtime_cache/X.o as kbuild's rules would copy them. */
static bool link_runtime(const struct strlist *mod, const char *dir, const char *name,
			 const char *runtime_cache)
{
	for (int i = 0; i < mod->count; i++) {
		char *obj = specialise(mod->items[i], dir, name);
		const char *base = strrchr(obj, '/');
		bool ok = true;

		base = base ? base + 1 : obj;
		if (!strncmp(base, RT_PREFIX, strlen(RT_PREFIX))) {
			const char *cached = base + strlen(RT_PREFIX);
			char *from = xasprintf("%s/%s", runtime_cache, cached);
			char *cmd_from = xasprintf("%s/.%s.cmd", runtime_cache, cached);
			char *cmd_to = xasprintf("%.*s.%s.cmd", (int)(base - obj), obj, base);

			ok = access(from, R_OK) == 0 && symlink(from, obj) == 0 &&
			     access(cmd_from, R_OK) == 0 && symlink(cmd_from, cmd_to) == 0;
			free(from);
			free(cmd_from);
			free(cmd_to);
		}
		free(obj);
		if (!ok)
			return false;
	}
	return true;
}

/* sh -c cmd in cwd, output appended to log; true on status 0. */
static bool run_step(const char *cmd, const char *cwd, const char *log)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return false;
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

		if (fd < 0 || chdir(cwd) != 0)
			_exit(127);
		dup2(fd, 1);
		dup2(fd, 2);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

bool kbypass_build(const char *recipe, const char *kernel_tree, const char *dir,
		   const char *name, const char *runtime_cache, const char *log)
{
	struct recipe r;
	char *mod = xasprintf("%s.mod", name), *ko;
	bool ok;

	if (!load_recipe(recipe, &r)) {
		free(mod);
		return false;
	}
	ok = write_lines(&r.mod, dir, mod, name) &&
	     write_lines(&r.order, dir, "modules.order", name) &&
	     link_runtime(&r.mod, dir, name, runtime_cache);
	for (int i = 0; ok && i < r.cmds.count; i++) {
		char *cmd = specialise(r.cmds.items[i], dir, name);

		ok = run_step(cmd, kernel_tree, log);
		free(cmd);
	}
	ko = xasprintf("%s/%s.ko", dir, name);
	ok = ok && access(ko, F_OK) == 0;
	free(ko);
	free(mod);
	free_recipe(&r);
	return ok;
}
