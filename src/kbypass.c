/* Pass 4 around kbuild (see kbypass.h). */
#include "kbypass.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomicfile.h"
#include "cachedir.h"
#include "kcmd.h"
#include "options.h"
#include "util.h"

#define RECIPE_HEADER "tapc-kbuild-recipe 3"
#define MARK_PREFIX "{{TAPC_"
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

/* The placeholders of text replaced, in one pass: whatever dir and name
 * hold is never read as a placeholder. */
static char *specialise(const char *text, const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	while (*text) {
		if (!strncmp(text, DIR_MARK, strlen(DIR_MARK))) {
			strbuf_adds(&sb, dir);
			text += strlen(DIR_MARK);
		} else if (!strncmp(text, NAME_MARK, strlen(NAME_MARK))) {
			strbuf_adds(&sb, name);
			text += strlen(NAME_MARK);
		} else {
			strbuf_addc(&sb, *text++);
		}
	}
	return strbuf_detach(&sb);
}

/* ---- what a recipe may run ------------------------------------------------ */

/* Whether s, from its start, is a version suffix: "-12", "-16.0". */
static bool version_suffix(const char *s)
{
	if (*s++ != '-' || !(*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s == '.' && s[1] >= '0' && s[1] <= '9')))
			return false;
	return true;
}

/* kbuild's compiler or linker as kbuild runs it, from PATH: gcc, cc,
 * clang, ld, ld.bfd, ld.gold or ld.lld, with a target prefix
 * ("x86_64-linux-gnu-") and a version ("-12") allowed. */
static bool compiler_or_linker(const char *name)
{
	static const char *const tools[] = {
		"gcc", "cc", "clang", "ld", "ld.bfd", "ld.gold", "ld.lld",
	};

	if (strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		   "0123456789_.+-") != strlen(name))
		return false;
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		size_t n = strlen(tools[i]);

		for (const char *p = name; (p = strstr(p, tools[i])); p++) {
			const char *rest = p + n;

			if ((p == name || p[-1] == '-') && (!*rest || version_suffix(rest)))
				return true;
		}
	}
	return false;
}

/* The kernel tree's own tools that build a module, relative to the tree
 * (commands run there). */
static bool kbuild_tool(const char *name)
{
	static const char *const tools[] = {
		"scripts/mod/modpost", "tools/objtool/objtool", "scripts/basic/fixdep",
	};

	if (!strncmp(name, "./", 2))
		name += 2;
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (!strcmp(name, tools[i]))
			return true;
	return false;
}

/* sed with one plain substitution ("s/ko$/o/", kbuild's modpost input)
 * and file names: no options, so no w or e commands, no script files. */
static bool sed_substitution(const struct strlist *argv)
{
	const char *s = argv->count >= 2 ? argv->items[1] : "";
	const char *mid, *end;

	if (strcmp(argv->items[0], "sed") || strncmp(s, "s/", 2))
		return false;
	mid = strchr(s + 2, '/');
	end = mid ? strchr(mid + 1, '/') : NULL;
	if (!end || (end[1] && strcmp(end + 1, "g")))
		return false;
	for (int i = 2; i < argv->count; i++)
		if (argv->items[i][0] == '-')
			return false;
	return true;
}

/* Whether s is DIR_MARK "/" and a plain file name ending in suffix. */
static bool build_dir_file(const char *s, const char *suffix)
{
	size_t n = strlen(DIR_MARK), len = strlen(s), slen = strlen(suffix);

	if (strncmp(s, DIR_MARK "/", n + 1) || len <= n + 1 + slen ||
	    strcmp(s + len - slen, suffix))
		return false;
	s += n + 1;
	if (strstr(s, ".."))
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_.+-{}", *s))
			return false;
	return true;
}

/* Whether the steps (generalised) run only what a module's build runs. */
static bool steps_allowed(const struct kcmd_list *l, char *why, size_t len)
{
	for (int i = 0; i < l->nsteps; i++) {
		const struct kcmd_step *st = &l->steps[i];

		for (int j = 0; j < st->nprogs; j++) {
			const struct kcmd_prog *prog = &st->progs[j];
			const char *name = prog->argv.count ? prog->argv.items[0] : "";

			if (!prog->argv.count || (!compiler_or_linker(name) && !kbuild_tool(name) &&
						  !sed_substitution(&prog->argv))) {
				snprintf(why, len, "'%s' is not a compiler, linker or kbuild "
					 "tool that builds a module", name);
				return false;
			}
			if (prog->out && (j + 1 < st->nprogs ||
					  !build_dir_file(prog->out, ".cmd"))) {
				snprintf(why, len, "the output of '%s' goes to '%s'", name,
					 prog->out);
				return false;
			}
		}
	}
	return true;
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

/* The lines of dir/file, generalised, each a file of the build directory
 * ending in suffix; false with why filled. */
static bool read_lines(const char *dir, const char *file, const char *name,
		       const char *suffix, struct strlist *out, char *why, size_t len)
{
	char *path = xasprintf("%s/%s", dir, file), *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "re");
	bool ok = f != NULL;

	if (!f)
		snprintf(why, len, "cannot read %s", path);
	while (ok && getline(&line, &cap, f) > 0) {
		char *g;

		line[strcspn(line, "\n")] = '\0';
		g = generalise(line, dir, name);
		ok = build_dir_file(g, suffix) && !strstr(line, MARK_PREFIX);
		if (ok)
			strlist_add(out, g);
		else
			snprintf(why, len, "%s names '%s'", path, line);
		free(g);
	}
	ok = ok && out->count > 0;
	free(line);
	if (f)
		fclose(f);
	free(path);
	return ok;
}

/* Move the steps of from to the end of to. */
static void append_steps(struct kcmd_list *to, struct kcmd_list *from)
{
	for (int i = 0; i < from->nsteps; i++)
		*kcmd_add_step(to) = from->steps[i];
	free(from->steps);
	memset(from, 0, sizeof(*from));
}

/* The commands of the .cmd file dir/file as steps, generalised and
 * checked, appended to l; false with why filled. */
static bool record_cmd(struct kcmd_list *l, const char *dir, const char *file,
		       const char *name, char *why, size_t len)
{
	char *cmd = read_cmd(dir, file);
	struct kcmd_list steps = { 0 };
	bool ok = cmd && !strstr(cmd, MARK_PREFIX);

	if (!ok)
		snprintf(why, len, "no command to keep in %s/%s", dir, file);
	ok = ok && kcmd_parse(cmd, &steps, why, len);
	for (int i = steps.nsteps - 1; ok && i >= 0; i--) {
		struct kcmd_step *st = &steps.steps[i];

		/* "; true" ends the link of the .ko: nothing to run */
		if (st->nprogs == 1 && st->progs[0].argv.count == 1 &&
		    !strcmp(st->progs[0].argv.items[0], "true")) {
			kcmd_drop_step(&steps, i);
			continue;
		}
		for (int j = 0; j < st->nprogs; j++)
			for (int k = 0; k < st->progs[j].argv.count; k++) {
				char **arg = &st->progs[j].argv.items[k];
				char *g = generalise(*arg, dir, name);

				free(*arg);
				*arg = g;
			}
	}
	ok = ok && steps_allowed(&steps, why, len);
	if (ok)
		append_steps(l, &steps);
	kcmd_list_free(&steps);
	free(cmd);
	return ok;
}

/* kbuild's fixdep after compiling NAME<stem>.o: it turns the compiler's
 * dependencies into the object's .cmd file, which modpost reads. */
static void add_fixdep(struct kcmd_list *l, const char *stem)
{
	struct kcmd_prog *prog = kcmd_add_prog(kcmd_add_step(l));
	char *s;

	strlist_add(&prog->argv, "scripts/basic/fixdep");
	s = xasprintf(DIR_MARK "/." NAME_MARK "%s.o.d", stem);
	strlist_add(&prog->argv, s);
	free(s);
	s = xasprintf(DIR_MARK "/" NAME_MARK "%s.o", stem);
	strlist_add(&prog->argv, s);
	free(s);
	strlist_add(&prog->argv, "tapc");
	prog->out = xasprintf(DIR_MARK "/." NAME_MARK "%s.o.cmd", stem);
}

static void write_recipe(FILE *out, const struct strlist *mod, const struct strlist *order,
			 const struct kcmd_list *l)
{
	fprintf(out, "%s\n", RECIPE_HEADER);
	for (int i = 0; i < mod->count; i++)
		fprintf(out, "MOD %s\n", mod->items[i]);
	for (int i = 0; i < order->count; i++)
		fprintf(out, "ORDER %s\n", order->items[i]);
	for (int i = 0; i < l->nsteps; i++)
		for (int j = 0; j < l->steps[i].nprogs; j++) {
			const struct kcmd_prog *prog = &l->steps[i].progs[j];

			fputs(j ? "PIPE\n" : "STEP\n", out);
			for (int k = 0; k < prog->argv.count; k++)
				fprintf(out, "ARG %s\n", prog->argv.items[k]);
			if (prog->out)
				fprintf(out, "OUT %s\n", prog->out);
		}
}

bool kbypass_record(const char *recipe, const char *dir, const char *name,
		    char *why, size_t len)
{
	struct strlist mod = { 0 }, order = { 0 };
	struct kcmd_list steps = { 0 };
	struct atomic_file af;
	char *files[6], *modfile;
	bool ok;

	why[0] = '\0';
	if (strlen(name) < 16 || strncmp(name, "tapc_", 5) != 0)
		return false;	/* a name of the user's: it may be part of anything */
	files[0] = xasprintf(".%s_src.o.cmd", name);
	files[1] = xasprintf(".%s_params.o.cmd", name);
	files[2] = xasprintf(".%s.o.cmd", name);
	files[3] = xstrdup(".Module.symvers.cmd");
	files[4] = xasprintf(".%s.mod.o.cmd", name);
	files[5] = xasprintf(".%s.ko.cmd", name);
	modfile = xasprintf("%s.mod", name);
	ok = read_lines(dir, modfile, name, ".o", &mod, why, len) &&
	     read_lines(dir, "modules.order", name, ".ko", &order, why, len);
	for (int i = 0; i < 6; i++) {
		ok = ok && record_cmd(&steps, dir, files[i], name, why, len);
		if (ok && i < 2)
			add_fixdep(&steps, i ? "_params" : "_src");
		free(files[i]);
	}
	if (ok && atomic_open(&af, recipe)) {
		write_recipe(af.f, &mod, &order, &steps);
		ok = atomic_close(&af, true);
		if (!ok)
			snprintf(why, len, "cannot write %s", recipe);
	} else if (ok) {
		snprintf(why, len, "cannot write %s", recipe);
		ok = false;
	}
	free(modfile);
	strlist_free(&mod);
	strlist_free(&order);
	kcmd_list_free(&steps);
	return ok;
}

/* ---- replaying ------------------------------------------------------------ */

struct recipe {
	struct strlist mod, order;
	struct kcmd_list steps;
};

/* One line of a recipe into r; false when it does not belong there. */
static bool recipe_line(struct recipe *r, const char *line, struct kcmd_prog **prog)
{
	struct kcmd_step *st = r->steps.nsteps ? &r->steps.steps[r->steps.nsteps - 1] : NULL;

	if (!strncmp(line, "MOD ", 4) && build_dir_file(line + 4, ".o"))
		strlist_add(&r->mod, line + 4);
	else if (!strncmp(line, "ORDER ", 6) && build_dir_file(line + 6, ".ko"))
		strlist_add(&r->order, line + 6);
	else if (!strcmp(line, "STEP"))
		*prog = kcmd_add_prog(kcmd_add_step(&r->steps));
	else if (!strcmp(line, "PIPE") && st)
		*prog = kcmd_add_prog(st);
	else if (!strncmp(line, "ARG ", 4) && *prog)
		strlist_add(&(*prog)->argv, line + 4);
	else if (!strncmp(line, "OUT ", 4) && *prog && !(*prog)->out)
		(*prog)->out = xstrdup(line + 4);
	else
		return false;
	return true;
}

static void free_recipe(struct recipe *r)
{
	strlist_free(&r->mod);
	strlist_free(&r->order);
	kcmd_list_free(&r->steps);
}

/* The recipe at path, read only from the caller's own cache (see
 * cachedir.h) and checked: what it runs is what a module's build runs. */
static bool load_recipe(const char *path, struct recipe *r, char *why, size_t len)
{
	FILE *f = cache_fopen(path, why, len);
	struct kcmd_prog *prog = NULL;
	char *line = NULL;
	size_t cap = 0;
	bool ok;

	memset(r, 0, sizeof(*r));
	if (!f)
		return false;
	ok = getline(&line, &cap, f) > 0 && !strcmp(line, RECIPE_HEADER "\n");
	while (ok && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		ok = recipe_line(r, line, &prog);
	}
	free(line);
	fclose(f);
	if (!ok || !r->mod.count || !r->order.count || !r->steps.nsteps) {
		snprintf(why, len, "%s is not a recipe of this tapc", path);
		ok = false;
	}
	ok = ok && steps_allowed(&r->steps, why, len);
	if (!ok)
		free_recipe(r);
	return ok;
}

/* Write the lines, specialised, into dir/file. */
static bool write_lines(const struct strlist *lines, const char *dir, const char *file,
			const char *name)
{
	char *path = xasprintf("%s/%s", dir, file);
	FILE *f = fopen(path, "we");
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

/* The placeholders of every argument and output file replaced. */
static void specialise_steps(struct kcmd_list *l, const char *dir, const char *name)
{
	for (int i = 0; i < l->nsteps; i++)
		for (int j = 0; j < l->steps[i].nprogs; j++) {
			struct kcmd_prog *prog = &l->steps[i].progs[j];
			char *s;

			for (int k = 0; k < prog->argv.count; k++) {
				s = specialise(prog->argv.items[k], dir, name);
				free(prog->argv.items[k]);
				prog->argv.items[k] = s;
			}
			if (prog->out) {
				s = specialise(prog->out, dir, name);
				free(prog->out);
				prog->out = s;
			}
		}
}

bool kbypass_build(const char *recipe, const char *kernel_tree, const char *dir,
		   const char *name, const char *runtime_cache, const char *log,
		   char *why, size_t len)
{
	struct recipe r;
	char *mod = xasprintf("%s.mod", name), *ko;
	int logfd;
	bool ok;

	why[0] = '\0';
	if (!load_recipe(recipe, &r, why, len)) {
		free(mod);
		return false;
	}
	specialise_steps(&r.steps, dir, name);
	logfd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	ok = logfd >= 0 && write_lines(&r.mod, dir, mod, name) &&
	     write_lines(&r.order, dir, "modules.order", name) &&
	     link_runtime(&r.mod, dir, name, runtime_cache);
	for (int i = 0; ok && i < r.steps.nsteps; i++) {
		ok = kcmd_run_step(&r.steps.steps[i], kernel_tree, logfd);
		if (!ok)
			snprintf(why, len, "'%s' failed", r.steps.steps[i].progs[0].argv.items[0]);
	}
	if (logfd >= 0)
		close(logfd);
	ko = xasprintf("%s/%s.ko", dir, name);
	ok = ok && access(ko, F_OK) == 0;
	free(ko);
	free(mod);
	free_recipe(&r);
	return ok;
}
