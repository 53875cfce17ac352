/* Driving pass 1 for one tapc run. */
#include "pass1.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "debuginfo.h"
#include "hash128.h"
#include "elaborate.h"
#include "kinfo.h"
#include "stap_print.h"
#include "parse.h"
#include "paths.h"
#include "remote.h"
#include "tapindex.h"
#include "tapsets.h"
#include "upath.h"
#include "util.h"
#include "version.h"

/* The target kernel's debuginfo entry, with the files the test VM hands
 * over (NULL when none). */
static void add_kernel(struct session *s, const char *vmlinux, const char *kallsyms)
{
	struct debuginfo_handover handover = { .vmlinux = vmlinux, .kallsyms = kallsyms };

	s->debuginfo = debuginfo_registry_new();
	kinfo_set_registry(s->debuginfo);
	kinfo_set_kernel(debuginfo_add_kernel(s->debuginfo, s->target.release,
					      s->target.build_dir, &handover));
}

bool session_init(struct session *s, struct tapc_options *o)
{
	memset(s, 0, sizeof(*s));
	s->opts = o;
	upath_set_target(o->command, o->target_pid);
	/* a process id names a process of the machine the module runs on */
	upath_set_pid_lookup(o->remote ? remote_vm_pid_exe : NULL);
	diag_init(&s->diag);
	s->diag.suppress_warnings = o->suppress_warnings;
	s->diag.warnings_are_errors = o->warnings_as_errors;
	s->diag.show_similar = o->verbose > 0;
	if (o->remote) {
		struct remote_vm_kernel vm;
		bool ok = remote_vm_kernel(&vm) && target_init(&s->target, vm.release);

		if (ok)
			add_kernel(s, vm.vmlinux, vm.kallsyms);
		remote_vm_kernel_free(&vm);
		if (!ok)
			return false;
	} else if (target_init(&s->target, o->release)) {
		add_kernel(s, NULL, NULL);
	} else {
		return false;
	}

	s->env.kernel_vr = s->target.release;
	s->env.kernel_v = s->target.version;
	s->env.arch = s->target.arch;
	s->env.runtime = "kernel";
	s->env.systemtap_v = o->compatible ? o->compatible : TAPC_COMPAT_VERSION;
	s->env.guru_mode = o->guru;
	s->env.privilege = privilege_name(o->privilege);
	s->env.argc = o->argc;
	s->env.argv = o->argv;
	s->env.config = target_config;
	s->env.config_ctx = &s->target;
	return true;
}

/* Keep f for the session's lifetime: ASTs point into it. */
static void keep_file(struct session *s, struct srcfile *f)
{
	f->next = s->files;
	s->files = f;
}

static void add_script(struct script ***list, int *n, struct script *sc)
{
	*list = xrealloc(*list, sizeof(**list) * (size_t)(*n + 1));
	(*list)[(*n)++] = sc;
}

static void parse_into(struct session *s, struct srcfile *f, bool user)
{
	struct script *sc;
	int errors = s->diag.errors;

	keep_file(s, f);
	sc = parse_script(f, &s->env, &s->diag);
	if (!sc)
		return;
	if (!user && s->diag.errors > errors) {
		/* As SystemTap, a tapset file that does not parse is left out
		 * with a warning (an error under -W), not the whole run. */
		s->diag.errors = errors;
		script_free(sc);
		diag_warning(&s->diag, NULL, "tapset \"%s\" has errors, and will be skipped",
			     f->name);
		return;
	}
	if (user)
		add_script(&s->user, &s->n_user, sc);
	else
		add_script(&s->library, &s->n_library, sc);
}

/* SystemTap refuses a main script that the parser gets no token of: only
 * blanks and comments, or conditionals that left nothing.  (One with a
 * syntax error only has that error.) */
static void refuse_empty(struct session *s, const struct srcfile *f, int n_user)
{
	const struct script *sc = s->n_user > n_user ? s->user[n_user] : NULL;

	if (!sc || sc->decls.n || sc->parsed_tokens)
		return;
	fprintf(stderr, "Input file '%s' is empty%s.\n", f->name,
		sc->lexed_tokens ? " after preprocessing" : "");
	s->diag.errors++;
}

static void parse_user_scripts(struct session *s)
{
	const struct tapc_options *o = s->opts;
	struct srcfile *f;
	char err[512];
	int n_user = s->n_user;

	if (o->script_text) {
		f = srcfile_new("<input>", o->script_text, strlen(o->script_text));
		f->privileged = o->guru;
		parse_into(s, f, true);
		refuse_empty(s, f, n_user);
	} else if (o->script_file) {
		f = srcfile_read(o->script_file, err, sizeof(err));
		if (!f) {
			struct stat st;

			/* stap's words for a script that is not there */
			if (strcmp(o->script_file, "-") && stat(o->script_file, &st) &&
			    errno == ENOENT)
				fprintf(stderr, "Input file '%s' is missing.\n",
					o->script_file);
			else
				fprintf(stderr, "tapc: %s\n", err);
			s->diag.errors++;
			return;
		}
		f->privileged = o->guru;
		parse_into(s, f, true);
		refuse_empty(s, f, n_user);
	}
	for (int i = 0; i < o->extra_scripts.count; i++) {
		const char *text = o->extra_scripts.items[i];

		f = srcfile_new("<input>", text, strlen(text));
		f->privileged = o->guru;
		parse_into(s, f, true);
	}
}

/* The tapset library: every directory's *.stp and *.stpm files. */
struct library_files {
	struct strlist scripts;
	struct strlist macros;
};

static void scan_library_dir(struct session *s, struct library_files *lf,
			     const char *dir, bool user)
{
	/* As SystemTap, an -I directory that does not exist adds nothing */
	if (user && access(dir, F_OK) != 0)
		return;
	if (tapset_scan(dir, s->target.arch, &lf->scripts, &lf->macros) < 0) {
		fprintf(stderr, "tapc: cannot read tapset directory '%s'\n", dir);
		s->diag.errors++;
	}
}

static struct srcfile *read_library_file(struct session *s, const char *path)
{
	char err[512];
	struct srcfile *f = srcfile_read(path, err, sizeof(err));

	if (!f) {
		fprintf(stderr, "tapc: %s\n", err);
		s->diag.errors++;
		return NULL;
	}
	/* Tapset files are privileged: they may hold embedded C. */
	f->privileged = true;
	return f;
}

/* Library macros first: every file, the user's included, may use them. */
static void load_library_macros(struct session *s, const struct strlist *paths)
{
	s->macros = macro_lib_new();
	s->env.library = s->macros;
	for (int i = 0; i < paths->count; i++) {
		struct srcfile *f = read_library_file(s, paths->items[i]);

		if (!f)
			continue;
		keep_file(s, f);
		macro_lib_load(s->macros, f, &s->env, &s->diag);
	}
}

/* tapindex's parser: a library file into the session's library. */
static struct script *parse_library_file(void *ctx, const char *path)
{
	struct session *s = ctx;
	struct srcfile *f = read_library_file(s, path);
	int before = s->n_library;

	strlist_add(&s->parsed_paths, path);
	if (!f)
		return NULL;
	parse_into(s, f, false);
	return s->n_library > before ? s->library[s->n_library - 1] : NULL;
}

/* What, besides the files, decides what the tapsets define: pass 1's
 * conditionals see the kernel, the architecture and the language
 * version; and which directories are searched. */
static char *tapset_index_key(const struct session *s)
{
	const struct tapc_options *o = s->opts;
	char *main_dir = tapc_data_dir("tapsets"), hex[33];
	struct hash128 h;

	hash_init(&h);
	hash_add_str(&h, TAPC_VERSION);
	hash_add_str(&h, s->target.release ? s->target.release : "");
	hash_add_str(&h, s->target.arch ? s->target.arch : "");
	hash_add_str(&h, s->target.build_dir ? s->target.build_dir : "");
	hash_add_str(&h, s->env.systemtap_v ? s->env.systemtap_v : "");
	hash_add_str(&h, main_dir);
	for (int i = 0; i < o->include_dirs.count; i++)
		hash_add_str(&h, o->include_dirs.items[i]);
	hash_hex(&h, hex);
	free(main_dir);
	return xstrdup(hex);
}

/* SystemTap will not run one of the library's own scripts as the main
 * script (its declarations would clash with the library's). */
static bool main_is_tapset(const struct session *s, const struct strlist *scripts)
{
	const char *file = s->opts->script_text ? NULL : s->opts->script_file;
	char *main_real = file && strcmp(file, "-") ? realpath(file, NULL) : NULL;
	bool found = false;

	for (int i = 0; main_real && !found && i < scripts->count; i++) {
		char *real = realpath(scripts->items[i], NULL);

		found = real && !strcmp(real, main_real);
		free(real);
	}
	free(main_real);
	if (found)
		fprintf(stderr, "usage error: tapset file '%s' cannot be run directly as a "
			"session script.\n", file);
	return found;
}

int session_pass1(struct session *s)
{
	struct library_files lf = { { 0 }, { 0 } };
	char *main_dir = tapc_data_dir("tapsets"), *key, why[400];

	scan_library_dir(s, &lf, main_dir, false);
	free(main_dir);
	for (int i = 0; i < s->opts->include_dirs.count; i++)
		scan_library_dir(s, &lf, s->opts->include_dirs.items[i], true);
	load_library_macros(s, &lf.macros);

	if (main_is_tapset(s, &lf.scripts))
		s->diag.errors++;
	else
		parse_user_scripts(s);
	key = tapset_index_key(s);
	tapindex_load(&lf.scripts, s->user, s->n_user, key, parse_library_file, s,
		      why, sizeof(why));
	if (why[0] && s->opts->vp[0])
		fprintf(stderr, "tapc: not using the tapset index: %s\n", why);
	free(key);
	s->library_paths = lf.scripts;
	strlist_free(&lf.macros);
	return s->diag.errors;
}

bool session_library_complete(const struct session *s)
{
	return s->parsed_paths.count >= s->library_paths.count;
}

static bool was_parsed(const struct session *s, const char *path)
{
	for (int i = 0; i < s->parsed_paths.count; i++)
		if (!strcmp(s->parsed_paths.items[i], path))
			return true;
	return false;
}

int session_load_library_rest(struct session *s)
{
	int errors = s->diag.errors;

	for (int i = 0; i < s->library_paths.count; i++)
		if (!was_parsed(s, s->library_paths.items[i]))
			parse_library_file(s, s->library_paths.items[i]);
	return s->diag.errors - errors;
}

void session_print_pass1(const struct session *s, bool canonical, FILE *out)
{
	fputs("# parse tree dump\n", out);
	for (int i = 0; i < s->n_user; i++) {
		fprintf(out, "# file %s\n", s->user[i]->file->name);
		if (canonical)
			ast_print(out, s->user[i]);
		else
			stap_print_script(out, s->user[i]);
	}
}

void session_free(struct session *s)
{
	for (int i = 0; i < s->n_user; i++)
		script_free(s->user[i]);
	for (int i = 0; i < s->n_library; i++)
		script_free(s->library[i]);
	free(s->user);
	free(s->library);
	macro_lib_free(s->macros);
	while (s->files) {
		struct srcfile *next = s->files->next;

		srcfile_free(s->files);
		s->files = next;
	}
	kinfo_set_kernel(NULL);
	kinfo_set_registry(NULL);
	debuginfo_registry_free(s->debuginfo);
	strlist_free(&s->library_paths);
	strlist_free(&s->parsed_paths);
	target_free(&s->target);
}

static void hash_strlist(struct hash128 *h, const char *tag,
			 const struct strlist *l)
{
	hash_add_str(h, tag);
	for (int i = 0; i < l->count; i++)
		hash_add_str(h, l->items[i]);
}

/* What of the command line shapes the module: the script's arguments,
 * the -D set, the -O level and the flags that change the C. */
static void hash_run_options(struct hash128 *h, const struct tapc_options *o)
{
	char flags[28];

	hash_add_str(h, "args");
	for (int i = 0; i < o->argc; i++)
		hash_add_str(h, o->argv[i]);
	hash_strlist(h, "-D", &o->defines);
	snprintf(flags, sizeof(flags), "%c%d%d%d%d%x%d", o->opt_level, o->guru,
		 o->timing, o->unoptimized, o->no_global_var_display,
		 (unsigned)o->privilege, o->suppress_handler_errors);
	hash_add_str(h, flags);
	/* embedded C may test STAP_COMPAT_VERSION */
	hash_add_str(h, o->compatible ? o->compatible : "");
}

char *session_module_name(const struct session *s)
{
	const struct tapc_options *o = s->opts;
	struct hash128 h;
	char hex[33];

	if (o->module_name)
		return xstrdup(o->module_name);
	hash_init(&h);
	for (int i = 0; i < s->n_user; i++) {
		const struct srcfile *f = s->user[i]->file;

		hash_add_str(&h, f->name);
		hash_add(&h, f->text, f->len);
	}
	hash_run_options(&h, o);
	hash_strlist(&h, "-I", &o->include_dirs);
	hash_add_str(&h, s->target.release);
	hash_hex(&h, hex);
	return xasprintf("tapc_%s_%ld", hex, (long)getpid());
}

char *session_cache_key(const struct session *s, const struct program *prog,
			const char *runtime_key)
{
	const struct tapc_options *o = s->opts;
	struct hash128 h;
	char hex[33], *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	hash_init(&h);
	hash_add_str(&h, "tapc-module-cache 1");
	hash_add_str(&h, TAPC_VERSION);
	hash_add_str(&h, runtime_key);
	/* The elaborated program, and the texts it came from: statement
	 * positions end up in the module's error messages. */
	if (mem) {
		program_print(mem, prog);
		fclose(mem);
		hash_add(&h, text, len);
		free(text);
	}
	for (const struct srcfile *f = s->files; f; f = f->next) {
		hash_add_str(&h, f->name);
		hash_add(&h, f->text, f->len);
	}
	hash_run_options(&h, o);
	hash_hex(&h, hex);
	return xstrdup(hex);
}
