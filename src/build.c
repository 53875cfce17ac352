/* Pass 4: the temp build directory, the Kbuild file, the runtime object
 * cache and the kbuild run. */
#define _GNU_SOURCE
#include "build.h"
#include "fileutil.h"
#include "hash128.h"
#include "kbypass.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cachedir.h"
#include "paths.h"
#include "rtlimits.h"
#include "launch.h"
#include "util.h"

/* Bump when the layout of a cache entry changes (2: one object). */
#define RUNTIME_CACHE_FORMAT "tapc-runtime-cache 2"

/* The runtime is compiled as one translation unit, RUNTIME_UNIT.c, that
 * includes the copy of every runtime source: the kernel's headers, which
 * cost most of a file's compile, are then read once, not 66 times (about
 * 11 s of build against 53 s on this project's 2-core machine).  Each
 * source still compiles alone: make check's test-runtime-kbuild builds
 * them one by one. */
#define RUNTIME_UNIT "runtime"

/* ---- small file helpers ----------------------------------------------- */


static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir ending in suffix ("" for all but dot files), sorted. */
static void list_dir(const char *dir, const char *suffix, struct strlist *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t slen = strlen(suffix);

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.' || len <= slen ||
		    strcmp(e->d_name + len - slen, suffix) != 0)
			continue;
		strlist_add(out, e->d_name);
	}
	closedir(d);
	qsort(out->items, (size_t)out->count, sizeof(char *), by_name);
}

/* ---- the build directory ---------------------------------------------- */

/* kbuild takes the module's directory into make variables and shell
 * commands unquoted: a space, '#', '$', ':' ... there break it in
 * obscure ways, so, as SystemTap does for TMPDIR, only plain paths. */
static bool kbuild_safe_path(const char *path)
{
	for (const char *p = path; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-/._", *p))
			return false;
	return true;
}

bool build_init(struct build *b, const char *name)
{
	char *tried;
	char *templ = make_private_dir("tapc", &tried);

	memset(b, 0, sizeof(*b));
	if (!templ) {
		fprintf(stderr, "tapc: cannot create a build directory %s: %s\n",
			tried, strerror(errno));
		free(tried);
		return false;
	}
	if (!kbuild_safe_path(templ)) {
		fprintf(stderr, "tapc: the build directory '%s' has characters kbuild cannot "
			"take (only letters, digits and '-/._'): set TMPDIR to a plain path\n",
			templ);
		rmdir(templ);
		free(templ);
		return false;
	}
	b->dir = templ;
	b->name = xstrdup(name);
	b->src_path = xasprintf("%s/%s_src.c", b->dir, name);
	b->params_path = xasprintf("%s/%s_params.c", b->dir, name);
	b->ko_path = xasprintf("%s/%s.ko", b->dir, name);
	return true;
}

void build_remove(struct build *b)
{
	if (b->dir)
		remove_tree(b->dir);
}

void build_free(struct build *b)
{
	free(b->dir);
	free(b->name);
	free(b->src_path);
	free(b->params_path);
	free(b->ko_path);
	memset(b, 0, sizeof(*b));
}

/* ---- the runtime sources ---------------------------------------------- */

/* One runtime C file: its path and the object name it gets ("linux_print"
 * for linux/print.c), unique across linux/ and core/. */
struct rt_sources {
	struct strlist paths;
	struct strlist objs;
};

static void rt_sources_find(struct rt_sources *rs, const char *rt_dir)
{
	static const char *const subdirs[] = { "linux", "core" };

	memset(rs, 0, sizeof(*rs));
	for (size_t i = 0; i < sizeof(subdirs) / sizeof(subdirs[0]); i++) {
		struct strlist names = { 0 };
		char *dir = xasprintf("%s/%s", rt_dir, subdirs[i]);

		list_dir(dir, ".c", &names);
		for (int j = 0; j < names.count; j++) {
			char *path = xasprintf("%s/%s", dir, names.items[j]);
			char *obj = xasprintf("%s_%.*s", subdirs[i],
					      (int)strlen(names.items[j]) - 2,
					      names.items[j]);

			strlist_add(&rs->paths, path);
			strlist_add(&rs->objs, obj);
			free(path);
			free(obj);
		}
		strlist_free(&names);
		free(dir);
	}
}

static void rt_sources_free(struct rt_sources *rs)
{
	strlist_free(&rs->paths);
	strlist_free(&rs->objs);
}

/* ---- Kbuild text ------------------------------------------------------ */

/* One compiler flag as a Kbuild word: make sees '$' and '#', the shell
 * sees the rest, so quote for both. */
static void kbuild_word(FILE *f, const char *flag)
{
	fputs(" '", f);
	for (const char *p = flag; *p; p++) {
		if (*p == '\'')
			fputs("'\\''", f);
		else if (*p == '$')
			fputs("$$", f);
		else if (*p == '#')
			fputs("\\#", f);
		else
			fputc(*p, f);
	}
	fputc('\'', f);
}

/* ccflags-y: the runtime's include path and the -D set (for the runtime
 * alone: without the limits only the generated module reads). */
static void kbuild_ccflags(FILE *f, const struct build_config *c, bool runtime_alone)
{
	char *inc;

	fputs("ccflags-y :=", f);
	inc = xasprintf("-I%s", c->runtime_dir);
	kbuild_word(f, inc);
	free(inc);
	inc = xasprintf("-I%s/linux", c->runtime_dir);
	kbuild_word(f, inc);
	free(inc);
	inc = xasprintf("-I%s/core", c->runtime_dir);
	kbuild_word(f, inc);
	free(inc);
	for (int i = 0; i < c->defines->count; i++) {
		char *d;

		if (runtime_alone && limit_module_only(c->defines->items[i]))
			continue;
		d = xasprintf("-D%s", c->defines->items[i]);

		kbuild_word(f, d);
		free(d);
	}
	fputc('\n', f);
}

/* The kernel API feature tests (runtime/linux/tapconf/tapconf.mk) for a
 * Kbuild file that compiles the runtime: their directory, then the
 * fragment that turns each test that compiles into a -D flag.  False when
 * the fragment cannot be read. */
static bool kbuild_tapconf(FILE *f, const struct build_config *c)
{
	char *dir = xasprintf("%s/linux/tapconf", c->runtime_dir);
	char *mk = xasprintf("%s/tapconf.mk", dir);
	FILE *in = fopen(mk, "r");
	char buf[4096];
	size_t n;

	if (in) {
		fputs("tapc_conf_dir :=", f);
		kbuild_word(f, dir);
		fputc('\n', f);
		while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, n, f);
		fclose(in);
	} else {
		fprintf(stderr, "tapc: cannot read %s: %s\n", mk, strerror(errno));
	}
	free(dir);
	free(mk);
	return in != NULL;
}

/* A path that can appear as a make target or prerequisite as it is. */
static bool make_safe_path(const char *p)
{
	return strpbrk(p, " \t\n:#$%\\'\"*?[]()=;|&<>") == NULL;
}

/* ---- running kbuild --------------------------------------------------- */

static int make_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 8 ? 8 : (int)n;
}

/* make -C TREE M=DIR TARGETS... with its output in log; the exit status,
 * or -1 when make could not be run. */
static int run_make(const char *tree, const char *dir, const struct strlist *vars,
		    const struct strlist *targets, const char *log)
{
	int nvars = vars ? vars->count : 0;
	int nargs = 5 + nvars + targets->count + 1, n = 0, status;
	char **argv = xcalloc((size_t)nargs, sizeof(char *));
	char *cdir = xasprintf("-C%s", tree), *mdir = xasprintf("M=%s", dir);
	char *jobs = xasprintf("-j%d", make_jobs());

	argv[n++] = "make";
	argv[n++] = cdir;
	argv[n++] = mdir;
	argv[n++] = jobs;
	for (int i = 0; i < nvars; i++)
		argv[n++] = vars->items[i];
	for (int i = 0; i < targets->count; i++)
		argv[n++] = targets->items[i];
	argv[n] = NULL;
	status = run_logged(argv, log);
	free(cdir);
	free(mdir);
	free(jobs);
	free(argv);
	return status == 127 ? -1 : status;
}

static void show_log(const char *log, const char *what)
{
	FILE *f = fopen(log, "r");
	char line[4096];

	if (!f)
		return;
	fprintf(stderr, "%s:\n", what);
	while (fgets(line, sizeof(line), f))
		fputs(line, stderr);
	fclose(f);
}

/* ---- the runtime object cache ----------------------------------------- */

/* Everything in the runtime directory (names and contents), recursively:
 * headers matter as much as the C files. */
static void hash_runtime_dir(struct hash128 *h, const char *dir)
{
	struct strlist names = { 0 };

	list_dir(dir, "", &names);
	for (int i = 0; i < names.count; i++) {
		char *path = xasprintf("%s/%s", dir, names.items[i]);

		hash_add_str(h, names.items[i]);
		if (path_is_dir(path))
			hash_runtime_dir(h, path);
		else if (!hash_file(h, path))
			hash_add_str(h, "(unreadable)");
		free(path);
	}
	strlist_free(&names);
}

/* The cache key: the kernel build tree (its path, release, configuration,
 * which names the compiler, and exported symbols), the runtime, the -D set
 * in order (a later -D of a name overrides an earlier one); for the
 * runtime's objects alone, without the limits only the generated module
 * reads. */
static void runtime_cache_key(const struct build_config *c, bool runtime_alone,
			      char key[33])
{
	struct hash128 h;
	char real[PATH_MAX];
	static const char *const tree_files[] = {
		".config", "include/config/kernel.release", "Module.symvers",
		"Makefile",
	};

	hash_init(&h);
	hash_add_str(&h, RUNTIME_CACHE_FORMAT);
	hash_add_str(&h, realpath(c->kernel_tree, real) ? real : c->kernel_tree);
	for (size_t i = 0; i < sizeof(tree_files) / sizeof(tree_files[0]); i++) {
		char *path = xasprintf("%s/%s", c->kernel_tree, tree_files[i]);

		hash_add_str(&h, tree_files[i]);
		if (!hash_file(&h, path))
			hash_add_str(&h, "(missing)");
		free(path);
	}
	hash_runtime_dir(&h, c->runtime_dir);
	for (int i = 0; i < c->defines->count; i++)
		if (!runtime_alone || !limit_module_only(c->defines->items[i]))
			hash_add_str(&h, c->defines->items[i]);
	hash_hex(&h, key);
}

void build_runtime_key(const struct build_config *c, char key[33])
{
	runtime_cache_key(c, false, key);
}

/* Replace every occurrence of from by to in the file at path. */
static bool rewrite_file(const char *path, const char *from, const char *to)
{
	FILE *f = fopen(path, "r");
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t n, flen = strlen(from);
	char *text, *p, *hit;
	bool ok;

	if (!f)
		return false;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_addn(&sb, buf, n);
	fclose(f);
	text = strbuf_detach(&sb);
	for (p = text; (hit = strstr(p, from)) != NULL; p = hit + flen) {
		strbuf_addn(&sb, p, (size_t)(hit - p));
		strbuf_adds(&sb, to);
	}
	strbuf_adds(&sb, p);
	free(text);
	f = fopen(path, "w");
	ok = f && fwrite(sb.buf, 1, sb.len, f) == sb.len;
	if (f && fclose(f) != 0)
		ok = false;
	strbuf_free(&sb);
	return ok;
}

/* Copies of the runtime's sources in dir, each named PREFIX + its object
 * name, and PREFIX + RUNTIME_UNIT.c, which includes them all.  False
 * after saying what could not be written. */
static bool copy_runtime_unit(const char *dir, const char *prefix,
			      const struct rt_sources *rs)
{
	char *unit = xasprintf("%s/%s" RUNTIME_UNIT ".c", dir, prefix);
	FILE *f = fopen(unit, "w");
	bool ok = f != NULL;

	if (f)
		fputs("/* tapc's runtime as one translation unit (see build.c) */\n", f);
	for (int i = 0; ok && i < rs->objs.count; i++) {
		char *dst = xasprintf("%s/%s%s.c", dir, prefix, rs->objs.items[i]);

		ok = copy_file(rs->paths.items[i], dst) &&
		     fprintf(f, "#include \"%s%s.c\"\n", prefix, rs->objs.items[i]) > 0;
		if (!ok)
			fprintf(stderr, "tapc: cannot copy %s into %s\n",
				rs->paths.items[i], dir);
		free(dst);
	}
	if (f && fclose(f) != 0)
		ok = false;
	if (!f)
		fprintf(stderr, "tapc: cannot write %s: %s\n", unit, strerror(errno));
	free(unit);
	return ok;
}

/* Compile the runtime object in dir (a fresh temp directory whose final
 * name is final): copies of the sources, the unit that includes them, a
 * Kbuild file naming it, and one kbuild run for just that object. */
static bool compile_runtime_in(const char *dir, const char *final,
			       const struct rt_sources *rs,
			       const struct build_config *c)
{
	struct strlist targets = { 0 };
	char *kbuild = xasprintf("%s/Kbuild", dir);
	char *log = xasprintf("%s/build.log", dir);
	FILE *f = fopen(kbuild, "w");
	bool ok = f != NULL;

	if (f) {
		fputs("# tapc runtime object, copied into every module\n"
		      "obj-m := tapcrt.o\ntapcrt-y := " RUNTIME_UNIT ".o\n", f);
		kbuild_ccflags(f, c, true);
		ok = kbuild_tapconf(f, c);
		ok = fclose(f) == 0 && ok;
	}
	ok = ok && copy_runtime_unit(dir, "", rs);
	strlist_add(&targets, RUNTIME_UNIT ".o");
	if (ok) {
		int st = run_make(c->kernel_tree, dir, c->make_vars, &targets, log);

		ok = st == 0;
		if (!ok || c->verbose > 1)
			show_log(log, ok ? "Runtime build output" :
				 "tapc: compiling the runtime failed");
	}
	/* The .cmd files name the sources by the directory's final path, as
	 * modpost may read them from a module's build. */
	if (ok) {
		char *cmd = xasprintf("%s/." RUNTIME_UNIT ".o.cmd", dir);

		ok = rewrite_file(cmd, dir, final);
		if (!ok)
			fprintf(stderr, "tapc: cannot rewrite %s\n", cmd);
		free(cmd);
	}
	strlist_free(&targets);
	free(kbuild);
	free(log);
	return ok;
}

/* Whether the cache file DIR/NAME is the caller's own (cachedir.h). */
static bool cache_file_ok(const char *dir, const char *name, char *why, size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	bool ok = cache_entry_ok(path, false, why, len);

	free(path);
	return ok;
}

/* Whether final holds a complete runtime, all of it the caller's own
 * (cachedir.h): kbuild copies the objects and their .cmd files, the
 * replay links to them.  False with why filled, or empty when it is not
 * (all) there. */
static bool runtime_entry_ok(const char *final, char *why, size_t len)
{
	return cache_entry_ok(final, true, why, len) && cache_file_ok(final, "ok", why, len) &&
	       cache_file_ok(final, RUNTIME_UNIT ".o", why, len) &&
	       cache_file_ok(final, "." RUNTIME_UNIT ".o.cmd", why, len);
}

/* Mark the runtime compiled in dir complete. */
static bool mark_complete(const char *dir)
{
	char *mark = xasprintf("%s/ok", dir);
	int fd = open(mark, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	free(mark);
	return fd >= 0 && close(fd) == 0;
}

/* The cache directory holding the runtime objects for c, compiled now if
 * they are not there yet; NULL (and a reason in why) when there is no
 * usable cache, or after a failed compile (*failed set, reported). */
static char *runtime_cache(const struct build_config *c,
			   const struct rt_sources *rs, char *why, size_t len,
			   bool *failed)
{
	char key[33], *root, *final = NULL, *tmp;

	*failed = false;
	root = cachedir_get("runtime", true, why, len);
	if (!root)
		return NULL;
	if (!make_safe_path(root) || !make_safe_path(c->kernel_tree)) {
		snprintf(why, len, "the cache path has characters make cannot take");
		goto fail;
	}
	runtime_cache_key(c, true, key);
	final = xasprintf("%s/%s", root, key);
	if (runtime_entry_ok(final, why, len)) {
		if (c->verbose)
			fprintf(stderr, "tapc: using the runtime compiled in %s\n", final);
		goto out;
	}
	if (why[0])
		goto fail;	/* there, but not the caller's own: never used */
	tmp = xasprintf("%s/.build.XXXXXX", root);
	if (!mkdtemp(tmp)) {
		snprintf(why, len, "cannot create a directory in %s: %s", root,
			 strerror(errno));
		free(tmp);
		goto fail;
	}
	if (c->verbose)
		fprintf(stderr, "tapc: compiling the runtime for %s into %s\n",
			c->kernel_tree, final);
	if (!compile_runtime_in(tmp, final, rs, c)) {
		remove_tree(tmp);
		free(tmp);
		*failed = true;
		goto fail;
	}
	/* Concurrent runs each build their own; the first rename wins and the
	 * others use its result. */
	if (!mark_complete(tmp) || rename(tmp, final) != 0) {
		remove_tree(tmp);
		if (!runtime_entry_ok(final, why, len)) {
			if (!why[0])
				snprintf(why, len, "the compiled runtime cannot be moved "
					 "into %s", root);
			free(tmp);
			goto fail;
		}
	}
	free(tmp);
out:
	free(root);
	return final;
fail:
	free(root);
	free(final);
	return NULL;
}

/* ---- the module ------------------------------------------------------- */

static const char *opt_flag(char level)
{
	switch (level) {
	case '0': return "-O0";
	case 'g': return "-Og";	/* -O0 with top-level embedded C (main.c) */
	case '1': return "-O1";
	case '2': return "-O2";
	case '3': return "-O3";
	default: return "-Os";
	}
}

/* The Kbuild file of the module; cache_dir NULL: the runtime sources are
 * compiled into the module (copies in the build directory). */
static bool write_module_kbuild(const struct build *b,
				const struct build_config *c,
				const struct rt_sources *rs,
				const char *cache_dir)
{
	char *path = xasprintf("%s/Kbuild", b->dir);
	FILE *f = fopen(path, "w");
	bool ok = f != NULL;

	free(path);
	if (!f) {
		fprintf(stderr, "tapc: cannot write %s/Kbuild: %s\n", b->dir,
			strerror(errno));
		return false;
	}
	fprintf(f, "# tapc module %s\nobj-m := %s.o\n%s-y := %s_src.o %s_params.o",
		b->name, b->name, b->name, b->name, b->name);
	fputs(" tapcrt_" RUNTIME_UNIT ".o\n", f);
	kbuild_ccflags(f, c, false);
	if (!cache_dir)
		ok = kbuild_tapconf(f, c);
	fprintf(f, "CFLAGS_%s_src.o := %s\n", b->name, opt_flag(c->opt_level));
	if (cache_dir) {
		const char *o = RUNTIME_UNIT;

		/* the object and its .cmd, which modpost reads */
		fprintf(f, "$(obj)/tapcrt_%s.o: %s/%s.o\n"
			"\t$(Q)cp %s/%s.o $@ && cp %s/.%s.o.cmd $(obj)/.tapcrt_%s.o.cmd\n",
			o, cache_dir, o, cache_dir, o, cache_dir, o, o);
	}
	if (fclose(f) != 0)
		ok = false;
	if (ok && !cache_dir)
		ok = copy_runtime_unit(b->dir, "tapcrt_", rs);
	return ok;
}

static bool runtime_cache_wanted(void)
{
	const char *v = getenv("TAPC_RUNTIME_CACHE");

	return !v || strcmp(v, "0") != 0;
}

static bool kbuild_forced(void)
{
	const char *v = getenv("TAPC_KBUILD");

	return v && strcmp(v, "1") == 0;
}

/* Pass 4 without kbuild (see kbypass.h), in DIR/bypass so that a failure
 * leaves nothing behind for kbuild to trip on. */
static bool build_bypassing(struct build *b, const struct build_config *c,
			    const char *cache_dir, const char *recipe)
{
	char *sub = xasprintf("%s/bypass", b->dir), *log = xasprintf("%s/build.log", b->dir);
	char *src = xasprintf("%s/%s_src.c", sub, b->name);
	char *params = xasprintf("%s/%s_params.c", sub, b->name);
	char *ko = xasprintf("%s/%s.ko", sub, b->name), why[400] = "";
	/* none recorded yet: kbuild, quietly (a recipe that may not be used
	 * goes on to kbypass_build, which says why) */
	bool there = cache_entry_ok(recipe, false, why, sizeof(why)) || why[0];
	bool ok = there && mkdir(sub, 0700) == 0 &&
		  copy_file(b->src_path, src) && copy_file(b->params_path, params) &&
		  kbypass_build(recipe, c->kernel_tree, sub, b->name, cache_dir, log,
				why, sizeof(why)) &&
		  rename(ko, b->ko_path) == 0;

	if (ok && c->verbose)
		fprintf(stderr, "tapc: built without kbuild, with the commands it ran for "
			"this kernel, runtime and -O level (%s; TAPC_KBUILD=1 to use kbuild)\n",
			recipe);
	else if (!ok && c->verbose && why[0])
		fprintf(stderr, "tapc: building without kbuild failed (%s); using kbuild\n",
			why);
	if (!ok)
		remove_tree(sub);
	free(sub);
	free(log);
	free(src);
	free(params);
	free(ko);
	return ok;
}

bool build_module(struct build *b, const struct build_config *c)
{
	struct rt_sources rs;
	struct strlist targets = { 0 };
	char *cache_dir = NULL, *log, *recipe = NULL, why[400] = "TAPC_RUNTIME_CACHE=0";
	bool ok, failed = false;
	int st;

	if (!path_is_dir(c->kernel_tree)) {
		fprintf(stderr, "tapc: no kernel build tree %s (install the "
			"kernel's headers, e.g. linux-headers-RELEASE, or name "
			"one with -r DIR)\n", c->kernel_tree);
		return false;
	}
	rt_sources_find(&rs, c->runtime_dir);
	if (rs.objs.count == 0) {
		fprintf(stderr, "tapc: no runtime sources in %s/linux or %s/core "
			"(set TAPC_RUNTIME or -R DIR)\n", c->runtime_dir,
			c->runtime_dir);
		rt_sources_free(&rs);
		return false;
	}
	/* a -B setting may change how anything compiles: no cached runtime,
	 * and (no recipe) no replayed commands either */
	if (runtime_cache_wanted() && !(c->make_vars && c->make_vars->count))
		cache_dir = runtime_cache(c, &rs, why, sizeof(why), &failed);
	else if (c->make_vars && c->make_vars->count)
		snprintf(why, sizeof(why), "-B settings are given");
	if (failed) {
		rt_sources_free(&rs);
		return false;
	}
	if (!cache_dir && c->verbose)
		fprintf(stderr, "tapc: compiling the runtime into the module: %s\n",
			why);
	if (cache_dir) {
		/* The commands name the runtime's directory (its headers)
		 * and every -D: another installation with the same runtime,
		 * or a -D set that differs only in limits the runtime does
		 * not read, shares the objects, not the recipe. */
		struct hash128 h;
		char hex[33];

		hash_init(&h);
		hash_add_str(&h, c->runtime_dir);
		for (int i = 0; i < c->defines->count; i++)
			hash_add_str(&h, c->defines->items[i]);
		hash_hex(&h, hex);
		/* recipe3: the format's version, so that a tapc of another
		 * format sharing the cache keeps its own */
		recipe = xasprintf("%s/recipe3-O%c-%.16s", cache_dir, c->opt_level, hex);
	}
	/* The Kbuild file is written either way: a kept directory (-k)
	 * can always be rebuilt with make. */
	ok = write_module_kbuild(b, c, &rs, cache_dir);
	rt_sources_free(&rs);
	if (ok && recipe && !kbuild_forced() && build_bypassing(b, c, cache_dir, recipe)) {
		free(recipe);
		free(cache_dir);
		return true;
	}
	free(cache_dir);
	if (!ok) {
		free(recipe);
		return false;
	}

	log = xasprintf("%s/build.log", b->dir);
	strlist_add(&targets, "modules");
	st = run_make(c->kernel_tree, b->dir, c->make_vars, &targets, log);
	strlist_free(&targets);
	ok = st == 0 && access(b->ko_path, F_OK) == 0;
	if (st < 0)
		fprintf(stderr, "tapc: cannot run make (install make and a C "
			"compiler)\n");
	else if (!ok)
		show_log(log, "tapc: kbuild failed");
	else if (c->verbose > 1)
		show_log(log, "kbuild output");
	if (ok && recipe && !kbypass_record(recipe, b->dir, b->name, why, sizeof(why)) &&
	    c->verbose && why[0])
		fprintf(stderr, "tapc: not keeping the commands kbuild ran for later "
			"builds: %s\n", why);
	free(recipe);
	free(log);
	return ok;
}
