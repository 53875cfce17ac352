/* tapc: the SystemTap-compatible probe compiler driver. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>

#include "build.h"
#include "callee.h"
#include "color.h"
#include "dumps.h"
#include "dwindex.h"
#include "fileutil.h"
#include "hash128.h"
#include "elaborate.h"
#include "listing.h"
#include "modcache.h"
#include "options.h"
#include "passtime.h"
#include "paths.h"
#include "launch.h"
#include "pass1.h"
#include "probes/family.h"
#include "translate.h"
#include "translate_usym.h"
#include "umod.h"
#include "klines.h"
#include "util.h"

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The value of -D NAME=N when N is a plain decimal number (the last one
 * given wins, as for the C compiler), else 0. */
static int64_t define_value(const struct strlist *defines, const char *name)
{
	size_t n = strlen(name);
	int64_t v = 0;

	for (int i = 0; i < defines->count; i++) {
		const char *d = defines->items[i];
		char *end;
		long long x;

		if (strncmp(d, name, n) || d[n] != '=')
			continue;
		errno = 0;
		x = strtoll(d + n + 1, &end, 10);
		v = errno || end == d + n + 1 || *end ? 0 : x;
	}
	return v;
}

/*
 * Elaborate with the tapset files pass 1 found the script needs.  Should
 * that fail with a message naming candidates from the library (the
 * "similar:" list of an unresolved function or probe point) while other
 * tapset files were left unparsed, elaborate again with all of them, so
 * that such messages are those of the whole library; the first attempt's
 * messages are held back until it is known which attempt counts.  Other
 * failures (types, arity, target variables...) concern only what the
 * script uses, and pass 1 loaded every file defining a name it uses:
 * their messages stand, and a mistyped one-liner does not parse the rest
 * of the library.
 */
static struct program *elaborate_lazily(struct session *s, const struct elab_options *eo)
{
	FILE *saved = s->diag.stream;
	char *held = NULL;
	size_t held_len = 0;
	FILE *mem = session_library_complete(s) ? NULL : open_memstream(&held, &held_len);
	struct program *prog;

	if (mem)
		s->diag.stream = mem;
	prog = elaborate(s->user, s->n_user, s->library, s->n_library, eo, &s->diag);
	if (!mem)
		return prog;
	fclose(mem);
	s->diag.stream = saved;
	if (!prog && s->diag.library_named && session_load_library_rest(s) == 0) {
		diag_restart(&s->diag);
		free(held);
		return elaborate(s->user, s->n_user, s->library, s->n_library, eo, &s->diag);
	}
	fwrite(held, 1, held_len, saved);
	free(held);
	return prog;
}

/* Whether the program keeps v (a global). */
static bool kept_global(const struct program *prog, const struct vardecl *v)
{
	for (size_t i = 0; i < prog->globals.n; i++)
		if (prog->globals.v[i] == v)
			return true;
	return false;
}

/* A number as the kernel reads a module parameter of type long (kstrtoll
 * with base 0: decimal, 0x hex, 0 octal, a sign). */
static bool param_number(const char *s)
{
	char *end;

	errno = 0;
	(void)strtoll(s, &end, 0);
	return *s && *s != ' ' && errno == 0 && *end == '\0';
}

/* Each -G NAME=VALUE against the program, reported as pass 2 errors as
 * stap does: NAME must be a global of the script, one the module can set
 * (a scalar, not private to its file), and VALUE a number for a number. */
static bool check_global_settings(struct session *s, const struct program *prog)
{
	const struct strlist *settings = &s->opts->globals;
	int errors = s->diag.errors;

	for (int i = 0; i < settings->count; i++) {
		const char *g = settings->items[i], *val = strchr(g, '=') + 1;
		char *name = xstrndup(g, (size_t)(val - 1 - g));
		const struct vardecl *v = program_global(prog, name);

		if (!v)
			diag_error(&s->diag, NULL, "semantic error",
				   "unresolved global variable '%s' (-G %s)", name, g);
		else if (!kept_global(prog, v))
			;	/* unused and dropped: nothing to set, as in stap */
		else if (v->is_private)
			diag_error(&s->diag, NULL, "semantic error",
				   "global variable '%s' is private to its file (-G %s)",
				   name, g);
		else if (v->arity > 0 || v->type == SEM_STATS)
			diag_error(&s->diag, NULL, "semantic error",
				   "global %s '%s' cannot be set with -G, only a number or "
				   "a string (-G %s)", v->arity > 0 ? "array" : "statistic",
				   name, g);
		else if (v->type == SEM_LONG && !param_number(val))
			diag_error(&s->diag, NULL, "semantic error",
				   "global variable '%s' is a number, '%s' is not (-G %s)",
				   name, val, g);
		free(name);
	}
	return s->diag.errors == errors;
}

/* Pass 2: elaborate; -p2 prints the result. NULL after errors. */
static struct program *run_pass2(struct session *s,
				 const struct tapc_options *opts)
{
	struct elab_options eo = {
		.unoptimized = opts->unoptimized,
		.guru = opts->guru,
		.skip_badvars = opts->skip_badvars,
		.listing = opts->list_probes || opts->list_probes_vars,
		.maxstringlen = define_value(&opts->defines, "MAXSTRINGLEN"),
		.maxmapentries = define_value(&opts->defines, "MAXMAPENTRIES"),
		.privilege = opts->privilege,
		.check_version = opts->check_version,
	};
	struct pass_clock clock;
	struct program *prog;
	/* As SystemTap's, -l/-L say why nothing matched only from -vv on:
	 * a pattern that matches nothing lists nothing and fails quietly. */
	bool quiet = eo.listing && opts->verbose < 2;
	FILE *shown = s->diag.stream, *null = quiet ? fopen("/dev/null", "w") : NULL;

	if (null)
		s->diag.stream = null;
	pass_clock_start(&clock);
	prog = elaborate_lazily(s, &eo);
	if (null) {
		s->diag.stream = shown;
		fclose(null);
	}
	if (prog && !opts->list_probes && !opts->list_probes_vars &&
	    !check_global_settings(s, prog)) {
		program_free(prog);
		prog = NULL;
	}
	if (!prog) {
		if (!quiet)
			fputs("Pass 2: analysis failed.  [man error::pass2]\n", stderr);
		return NULL;
	}
	if (opts->vp[1]) {
		char figures[160];
		size_t np = prog->probes.n, nf = prog->functions.n;
		size_t ne = prog->embeds.n, ng = prog->globals.n;

		pass_clock_format(&clock, figures, sizeof(figures));
		fprintf(stderr, "Pass 2: analyzed script: %zu %s, %zu %s, "
			"%zu %s, %zu %s %s\n",
			np, plural(np, "probe", "probes"),
			nf, plural(nf, "function", "functions"),
			ne, plural(ne, "embed", "embeds"),
			ng, plural(ng, "global", "globals"), figures);
	}
	if (opts->list_probes || opts->list_probes_vars)
		listing_print(stdout, prog, opts->list_probes_vars != NULL);
	else if (opts->last_pass == 2)
		program_print(stdout, prog);
	return prog;
}

/* Times of passes that run other programs: ours and our children's, as
 * stap's "in Nusr/Nsys/Nreal ms." of passes 4 and 5. */
struct child_clock {
	struct timespec real;
	long usr_ms, sys_ms;
};

static long tv_ms(const struct timeval *tv)
{
	return (long)tv->tv_sec * 1000 + (long)tv->tv_usec / 1000;
}

static void child_clock_read(struct child_clock *c)
{
	struct rusage self, kids;

	clock_gettime(CLOCK_MONOTONIC, &c->real);
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	c->usr_ms = tv_ms(&self.ru_utime) + tv_ms(&kids.ru_utime);
	c->sys_ms = tv_ms(&self.ru_stime) + tv_ms(&kids.ru_stime);
}

static void child_clock_format(const struct child_clock *start, char *buf,
			       size_t len)
{
	struct child_clock now;
	long real;

	child_clock_read(&now);
	real = (long)(now.real.tv_sec - start->real.tv_sec) * 1000 +
	       (now.real.tv_nsec - start->real.tv_nsec) / 1000000;
	snprintf(buf, len, "in %ldusr/%ldsys/%ldreal ms.",
		 now.usr_ms - start->usr_ms, now.sys_ms - start->sys_ms, real);
}

/* --modinfo NAME=VALUE: a MODULE_INFO line each, in the file of the
 * module parameters (which includes <linux/module.h>).  options.c let
 * through only an identifier NAME and a VALUE without '"' or '\'. */
static void emit_modinfo(FILE *out, const struct strlist *modinfo)
{
	for (int i = 0; i < modinfo->count; i++) {
		const char *nv = modinfo->items[i], *val = strchr(nv, '=') + 1;

		fprintf(out, "MODULE_INFO(%.*s, \"%s\");\n", (int)(val - 1 - nv), nv, val);
	}
}

/* Pass 3: the script's C into the build directory; -p3 prints it. */
static bool run_pass3(struct session *s, const struct program *prog,
		      const struct build *b, const struct umod_set *umods)
{
	const struct tapc_options *o = s->opts;
	struct translate_options to = {
		.module_name = b->name,
		.timing = o->timing,
		.guru = o->guru,
		.global_var_display = !o->no_global_var_display,
		.suppress_handler_errors = o->suppress_handler_errors,
		.privilege = o->privilege,
		.umods = umods,
		.compatible = o->compatible,
	};
	struct pass_clock clock;
	FILE *main_c, *params_c;
	bool ok;

	pass_clock_start(&clock);
	main_c = fopen(b->src_path, "w");
	params_c = fopen(b->params_path, "w");
	if (!main_c || !params_c) {
		fprintf(stderr, "tapc: cannot write into %s: %s\n", b->dir,
			strerror(errno));
		ok = false;
	} else {
		ok = translate(prog, &to, main_c, params_c, &s->diag);
		emit_modinfo(params_c, &o->modinfo);
	}
	if (main_c && fclose(main_c) != 0)
		ok = false;
	if (params_c && fclose(params_c) != 0)
		ok = false;
	if (!ok || s->diag.errors) {
		fputs("Pass 3: translation failed.  [man error::pass3]\n", stderr);
		return false;
	}
	if (o->vp[2]) {
		char figures[160];

		pass_clock_format(&clock, figures, sizeof(figures));
		fprintf(stderr, "Pass 3: translated to C into \"%s\" %s\n",
			b->src_path, figures);
	}
	if (o->last_pass == 3)
		return print_file(b->src_path, stdout);
	return true;
}

/* The runtime directory, absolute (kbuild runs in the kernel tree). */
static char *runtime_dir(const struct tapc_options *o)
{
	char *dir = o->runtime_dir ? xstrdup(o->runtime_dir) :
				     tapc_data_dir("runtime");
	char *abs = realpath(dir, NULL);

	if (!abs)
		return dir;
	free(dir);
	return abs;
}

/*
 * The level the script's C compiles at: the one asked for, but -Og for
 * -O0 in guru mode or when the script has top-level embedded C.  Guru
 * mode includes the kernel headers SystemTap's runtime gives embedded C
 * (tapc_embedded.h), and top-level embedded C may include any other;
 * some define static functions that call symbols a module cannot link
 * to (<linux/mm.h>'s show_mem calls __show_free_areas); gcc keeps every
 * unused static function at -O0 (whatever -f flag), drops them at -Og,
 * which optimises no more than debugging allows.
 */
static char script_opt_level(const struct tapc_options *o, const struct program *prog)
{
	if (o->opt_level == '0' && (o->guru || (prog && prog->embeds.n)))
		return 'g';
	return o->opt_level;
}

static const char *opt_level_reason(const struct tapc_options *o, char level)
{
	if (level != o->opt_level)
		return "-O0 asked; guru mode and top-level embedded C "
		       "include kernel headers, which do not link at -O0";
	if (o->opt_level_given)
		return "given with -O";
	return o->script_text ? "the default for -e scripts: quick to compile" :
				"the default for script files: quick probes";
}

/* -p4: the module goes to the current directory, as stap's does, and its
 * name to stdout. */
static bool keep_module(const struct build *b)
{
	char *dest = xasprintf("%s.ko", b->name);
	bool ok = copy_file(b->ko_path, dest);

	if (ok)
		printf("%s\n", dest);
	else
		fprintf(stderr, "tapc: cannot copy the module to %s: %s\n",
			dest, strerror(errno));
	free(dest);
	return ok;
}

/* Pass 4: kbuild. */
static bool run_pass4(struct session *s, const struct program *prog, struct build *b)
{
	const struct tapc_options *o = s->opts;
	struct build_config bc = {
		.kernel_tree = s->target.build_dir,
		.defines = &o->defines,
		.opt_level = script_opt_level(o, prog),
		.verbose = o->vp[3],
		.make_vars = &o->kbuild_vars,
	};
	struct child_clock clock;
	char *rt, why[160];
	bool ok;

	if (!bc.kernel_tree) {
		fprintf(stderr, "tapc: no kernel build tree for %s (install "
			"linux-headers-%s, or name one with -r DIR)\n",
			s->target.release, s->target.release);
		if (!o->remote && !run_host_can_load(why, sizeof(why)))
			fprintf(stderr, "tapc: this host cannot run modules "
				"either (%s); --remote=vm builds for the test "
				"VM's kernel and runs there (see tapc-vm(1))\n",
				why);
		fputs("Pass 4: compilation failed.  [man error::pass4]\n", stderr);
		return false;
	}
	rt = runtime_dir(o);
	bc.runtime_dir = rt;
	if (o->vp[3])
		fprintf(stderr, "tapc: compiling the script's C at -O%c (%s)\n",
			bc.opt_level, opt_level_reason(o, bc.opt_level));
	child_clock_read(&clock);
	ok = build_module(b, &bc) && !run_interrupted();
	free(rt);
	if (!ok) {
		fputs("Pass 4: compilation failed.  [man error::pass4]\n", stderr);
		return false;
	}
	if (o->vp[3]) {
		char figures[96];

		child_clock_format(&clock, figures, sizeof(figures));
		fprintf(stderr, "Pass 4: compiled C into \"%s.ko\" %s\n",
			b->name, figures);
	}
	return true;
}

/* Whether pass 5 can run here; prints why not. *as_p4 is set when stap
 * would quietly make it a -p4 run (a module for another kernel). */
static bool can_run_here(const struct session *s, bool *as_p4)
{
	const struct tapc_options *o = s->opts;
	struct utsname u;
	char why[160];

	*as_p4 = false;
	if (o->remote)
		return true;
	if (uname(&u) == 0 && strcmp(u.release, s->target.release) != 0) {
		fputs("WARNING: kernel release/architecture mismatch with host "
		      "forces last-pass 4.\n", stderr);
		*as_p4 = true;
		return false;
	}
	if (!run_host_can_load(why, sizeof(why))) {
		fprintf(stderr, "tapc: cannot run the module on this host: %s.\n"
			"tapc: stopping after pass 4. Run it in the test VM with "
			"--remote=vm (see tapc-vm(1)), or keep the module with -p4 "
			"and load it with tapc-run(8) where modules load.\n", why);
		return false;
	}
	return true;
}

/* Whether the script has input.char/input.line probes (procfs
 * "__stdin", tapsets/input.stp): tapc-vm then passes our stdin on. */
static bool reads_stdin(const struct program *prog)
{
	for (size_t i = 0; i < prog->probes.n; i++) {
		const struct derived_probe *dp = prog->probes.v[i];

		if (dp->runs && !strcmp(dp->family->name, "procfs") &&
		    dp->fp.target && !strcmp(dp->fp.target, "__stdin"))
			return true;
	}
	return false;
}

/* Pass 5: tapc-run. Returns the exit status of tapc. */
static int run_pass5(struct session *s, const struct build *b, bool input)
{
	const struct tapc_options *o = s->opts;
	struct child_clock clock;
	int st;

	if (o->vp[4])
		fputs("Pass 5: starting run.\n", stderr);
	fflush(stderr);
	child_clock_read(&clock);
	st = run_module(o, b->ko_path, b->shared_name, input);
	if (o->vp[4]) {
		char figures[96];

		child_clock_format(&clock, figures, sizeof(figures));
		fprintf(stderr, "Pass 5: run completed %s\n", figures);
	}
	if (st != 0) {
		fputs("Pass 5: run failed.  [man error::pass5]\n", stderr);
		return 1;
	}
	return 0;
}

/* The module cache key of this run, or NULL when the cache is not used:
 * --disable-cache, -m (the name is the user's), -k (the build directory
 * is what the user wants to see), no kernel build tree. */
static char *module_cache_key(struct session *s, const struct program *prog,
			      const struct umod_set *umods)
{
	const struct tapc_options *o = s->opts;
	struct build_config bc = {
		.kernel_tree = s->target.build_dir,
		.defines = &o->defines,
		.opt_level = script_opt_level(o, prog),
	};
	char runtime_key[33], *key;

	/* what --modinfo, -B and -P change, the cache key does not hold */
	if (o->disable_cache || o->module_name || o->keep_tmpdir || !bc.kernel_tree ||
	    o->modinfo.count || o->kbuild_vars.count || o->prologue != PROLOGUE_AUTO)
		return NULL;
	bc.runtime_dir = runtime_dir(o);
	build_runtime_key(&bc, runtime_key);
	free((char *)bc.runtime_dir);
	key = session_cache_key(s, prog, runtime_key);
	if (key && (umods->count || umods->kernel_lines.count)) {
		/* the user binaries' tables are part of the module */
		struct hash128 h;
		char hex[33];

		hash_init(&h);
		hash_add_str(&h, key);
		umod_set_hash(umods, &h);
		hash_hex(&h, hex);
		free(key);
		key = xstrdup(hex);
	}
	return key;
}

/* Passes 3 and 4 from the module cache: true on a hit, with b's module
 * being the cached one (-p3 prints the cached C). */
static bool use_cached_module(const struct session *s, const char *key, struct build *b,
			      bool *ok)
{
	const struct tapc_options *o = s->opts;
	struct modcache_entry e;
	const char *damaged = NULL;	/* --poison-cache looks nothing up */
	char refused[400] = "";

	*ok = true;
	if (o->poison_cache ||
	    !modcache_lookup(key, &e, &damaged, refused, sizeof(refused))) {
		if (damaged && o->verbose)
			fprintf(stderr, "tapc: the cached module %s was damaged (%s); "
				"building it again\n", key, damaged);
		if (refused[0] && o->verbose)
			fprintf(stderr, "tapc: not using the module cache: %s\n", refused);
		return false;
	}
	if (o->vp[2])
		fprintf(stderr, "Pass 3: using cached %s\n", e.c_path);
	if (o->last_pass == 3) {
		*ok = print_file(e.c_path, stdout);
	} else if (o->vp[3]) {
		fprintf(stderr, "Pass 4: using cached %s\n", e.ko_path);
	}
	free(b->ko_path);
	b->ko_path = xstrdup(e.ko_path);
	modcache_entry_free(&e);
	return true;
}

/* Keep what passes 3 and 4 built for the next run of the same script. */
static void store_module(const struct session *s, const char *key, const struct build *b)
{
	char why[400] = "";

	if (!modcache_store(key, b->src_path, b->ko_path, why, sizeof(why))) {
		if (s->opts->verbose && why[0])
			fprintf(stderr, "tapc: the module is not cached: %s\n", why);
		return;
	}
	modcache_trim(modcache_limit());
}

/* Passes 3 and 4, or their cached result; false after a failure. */
static bool build_or_reuse(struct session *s, const struct program *prog,
			   const char *key, struct build *b,
			   const struct umod_set *umods)
{
	const struct tapc_options *o = s->opts;
	bool ok;

	if (key && use_cached_module(s, key, b, &ok))
		return ok;
	if (!run_pass3(s, prog, b, umods) || run_interrupted())
		return false;
	if (o->last_pass == 3)
		return true;
	if (!run_pass4(s, prog, b))
		return false;
	if (key)
		store_module(s, key, b);
	return true;
}

/* Whether the program calls one of the functions @names (@n of them). */
static bool calls_any(const struct program *prog, const char *const *names, size_t n)
{
	for (size_t i = 0; i < prog->functions.n; i++) {
		const struct sem_function *f = prog->functions.v[i];

		for (size_t j = 0; j < n; j++)
			if (strcmp(f->name, names[j]) == 0)
				return true;
	}
	return false;
}

/* The functions that read user binaries' line tables. */
static const char *const user_line_functions[] = {
	"usymfileline", "usymfile", "usymline", "print_ubacktrace_fileline",
};

/* Whether the program calls a function that names user addresses or
 * unwinds user stacks (ucontext.stp's). */
static bool uses_user_symbols(const struct program *prog)
{
	static const char *const names[] = {
		"usymname", "usymdata", "umodname", "ubacktrace", "ucallers",
		"print_ubacktrace", "print_ubacktrace_brief", "sprint_ubacktrace",
		"print_ustack", "sprint_ustack", "ustack", "print_usyms",
		"sprint_usyms", "umodbuildid",
	};

	return calls_any(prog, names, sizeof(names) / sizeof(names[0])) ||
	       calls_any(prog, user_line_functions,
			 sizeof(user_line_functions) / sizeof(user_line_functions[0]));
}

/* Whether the program asks for kernel lines: then the functions its
 * kernel probes are in bring their rows (klines.h). */
static bool uses_kernel_lines(const struct program *prog)
{
	static const char *const names[] = {
		"symfileline", "symfile", "symline", "print_backtrace_fileline",
	};

	return calls_any(prog, names, sizeof(names) / sizeof(names[0]));
}

/* The user binaries whose symbols and unwind rows go into the module:
 * -d, --ldd, and when the script uses them, -c's program and the programs
 * of process("PATH") probes (which are not worth their tables in every
 * module that runs a command). */
static bool collect_umods(struct session *s, const struct program *prog,
			  struct umod_set *umods)
{
	const struct tapc_options *o = s->opts;
	char **paths = xcalloc(2 * prog->probes.n + 1, sizeof(*paths));
	bool with_programs = uses_user_symbols(prog) || callee_needs_ustack(prog);
	size_t n = 0;
	bool ok;

	for (size_t i = 0; with_programs && i < prog->probes.n; i++) {
		const char *bins[2];
		size_t nb = usym_probe_binaries(prog->probes.v[i], bins);

		for (size_t j = 0; j < nb; j++)
			paths[n++] = (char *)bins[j];
	}
	ok = umod_collect(umods, o, paths, n, with_programs,
			  calls_any(prog, user_line_functions,
				    sizeof(user_line_functions) / sizeof(user_line_functions[0])),
			  o->verbose > 1);
	free(paths);
	if (ok && uses_kernel_lines(prog)) {
		size_t nf = klines_collect(&umods->kernel_lines, &umods->kernel_reloc_ref, prog);
		size_t nm = klines_collect_modules(&umods->kmods, &umods->nkmods, prog);

		if (o->verbose > 1) {
			size_t rows = 0;

			for (size_t i = 0; i < umods->nkmods; i++)
				rows += umods->kmods[i].rows.count;
			fprintf(stderr, "tapc: kernel lines: %zu rows of %zu files for %zu "
				"probed functions; %zu rows for %zu probed module functions\n",
				umods->kernel_lines.count, umods->kernel_lines.nfiles, nf,
				rows, nm);
		}
	}
	return ok;
}

/* Passes 3 to 5 in the build directory. Returns tapc's exit status. */
static int run_backend(struct session *s, const struct program *prog)
{
	const struct tapc_options *o = s->opts;
	struct umod_set umods;
	char *key, *name;
	struct build b;
	bool as_p4;
	int status = 1;

	if (!collect_umods(s, prog, &umods)) {
		umod_set_free(&umods);
		fputs("Pass 3: translation failed.  [man error::pass3]\n", stderr);
		return 1;
	}
	key = module_cache_key(s, prog, &umods);
	name = key ? xasprintf("tapc_%s", key) : session_module_name(s);

	run_hold_signals();	/* from here on, the build directory is removed */
	if (!build_init(&b, name)) {
		free(name);
		free(key);
		umod_set_free(&umods);
		return 1;
	}
	b.shared_name = key != NULL;
	free(name);
	if (!build_or_reuse(s, prog, key, &b, &umods))
		goto out;
	if (o->last_pass == 3) {
		status = 0;
		goto out;
	}
	if (o->last_pass == 4) {
		status = keep_module(&b) ? 0 : 1;
		goto out;
	}
	if (!can_run_here(s, &as_p4)) {
		if (as_p4)
			status = keep_module(&b) ? 0 : 1;
		goto out;
	}
	if (!run_interrupted())
		status = run_pass5(s, &b, reads_stdin(prog));
out:
	if (o->keep_tmpdir)
		fprintf(stderr, "Keeping temporary directory \"%s\"\n", b.dir);
	else
		build_remove(&b);
	build_free(&b);
	free(key);
	umod_set_free(&umods);
	return status;
}

/* --dump-*: the whole library parsed, one listing. */
static int run_dump(struct session *s)
{
	if (s->opts->dump != DUMP_PROBE_TYPES && session_load_library_rest(s) > 0)
		return 1;
	switch (s->opts->dump) {
	case DUMP_FUNCTIONS:
		dump_functions(stdout, s->library, s->n_library);
		break;
	case DUMP_PROBE_ALIASES:
		dump_probe_aliases(stdout, s->library, s->n_library);
		break;
	default:
		dump_probe_types(stdout);
		break;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct tapc_options opts;
	struct session s;
	struct pass_clock clock;
	struct program *prog;
	int status = 1;

	switch (options_parse(&opts, argc, argv)) {
	case OPTIONS_EXIT_OK:
		options_free(&opts);
		return 0;
	case OPTIONS_EXIT_ERROR:
		options_free(&opts);
		return 1;
	case OPTIONS_RUN:
		break;
	}
	if (opts.clean_cache) {
		/* stap's --clean-cache: trim, then quit */
		int n = modcache_trim(modcache_limit());

		if (opts.verbose)
			fprintf(stderr, "tapc: removed %d module cache entr%s\n", n,
				n == 1 ? "y" : "ies");
		options_free(&opts);
		return 0;
	}
	run_catch_signals();
	dwindex_set_prologue_searching(opts.prologue);
	if (!session_init(&s, &opts))
		goto out_opts;
	s.diag.colors = diag_colors_choose(opts.color);

	pass_clock_start(&clock);
	if (session_pass1(&s) > 0) {
		if (s.diag.parse_errors)
			fprintf(stderr, "%d parse error%s.\n", s.diag.parse_errors,
				s.diag.parse_errors == 1 ? "" : "s");
		fputs("Pass 1: parse failed.  [man error::pass1]\n", stderr);
		goto out;
	}
	if (opts.vp[0]) {
		char figures[160];

		pass_clock_format(&clock, figures, sizeof(figures));
		fprintf(stderr, "Pass 1: parsed user script and %d library "
			"script%s %s\n", s.n_library,
			s.n_library == 1 ? "" : "s", figures);
	}
	if (opts.dump) {
		status = run_dump(&s);
	} else if (opts.last_pass == 1) {
		session_print_pass1(&s, opts.dump_ast, stdout);
		status = 0;
	} else if ((prog = run_pass2(&s, &opts)) != NULL) {
		status = opts.last_pass == 2 ? 0 : run_backend(&s, prog);
		program_free(prog);
	}
	if (fflush(stdout) != 0)
		status = 1;
out:
	diag_summary(&s.diag);
	session_free(&s);
out_opts:
	options_free(&opts);
	return status;
}
