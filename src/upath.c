/* process("NAME") and .library("NAME") to the files they name
 * (upath.h).  No name is ever handed to a shell: files are only
 * stat()ed, opened and read. */
#include "upath.h"

#include <elf.h>
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>

#include "util.h"

bool upath_is_elf(const char *path)
{
	unsigned char magic[SELFMAG];
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	bool elf;

	if (fd < 0)
		return false;
	elf = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	      read(fd, magic, SELFMAG) == SELFMAG && memcmp(magic, ELFMAG, SELFMAG) == 0;
	close(fd);
	return elf;
}

static bool is_executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static bool is_regular(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* NAME in the directories of the ':'-separated LIST that OK accepts
 * (an empty entry is the current directory), malloc'd, or NULL. */
static char *search_dirs(const char *list, const char *name, bool (*ok)(const char *))
{
	while (list) {
		const char *end = strchr(list, ':');
		size_t len = end ? (size_t)(end - list) : strlen(list);
		char *cand = xasprintf("%.*s/%s", (int)len, len ? list : ".", name);

		if (ok(cand))
			return cand;
		free(cand);
		list = end ? end + 1 : NULL;
	}
	return NULL;
}

/*
 * How deep "#!" interpreters are followed: the kernel runs a script's
 * interpreter, which may itself be a script, at most this deep
 * (binfmt_script's BINPRM_MAX_RECURSION), and a script that names
 * itself must not loop.
 */
#define INTERP_DEPTH_MAX 4

/* The kernel reads this much of a file to find its "#!" line. */
#define SHEBANG_MAX 256

/*
 * The program a "#!" script at PATH runs, malloc'd, or NULL when PATH
 * is no script: the first word after "#!", or, when that is an env
 * program ("#!/usr/bin/env NAME"), the NAME env runs, found on $PATH as
 * SystemTap finds it.  The file is opened without following a link.
 */
static char *script_interpreter(const char *path)
{
	char line[SHEBANG_MAX + 1];
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	ssize_t got;
	char *word, *end, *base;

	if (fd < 0)
		return NULL;
	got = read(fd, line, SHEBANG_MAX);
	close(fd);
	if (got < 3 || line[0] != '#' || line[1] != '!')
		return NULL;
	line[got] = '\0';
	line[strcspn(line, "\n")] = '\0';
	word = line + 2 + strspn(line + 2, " \t");
	end = word + strcspn(word, " \t");
	if (end == word)
		return NULL;
	base = end;
	while (base > word && base[-1] != '/')
		base--;
	if (end - base == 3 && !strncmp(base, "env", 3)) {
		char *arg = end + strspn(end, " \t");
		size_t len = strcspn(arg, " \t");

		if (len && arg[0] != '-')
			return xasprintf("%.*s", (int)len, arg);
	}
	return xasprintf("%.*s", (int)(end - word), word);
}

static char *resolve_program(const char *name, int depth, char **why);

/*
 * CAND with links resolved, checked to be ELF; takes CAND.  With DEPTH
 * >= 0 (a program, DEPTH interpreters in), a script resolves to its
 * interpreter, as SystemTap probes the program a script's processes run;
 * a library (DEPTH < 0) must be ELF itself.
 */
static char *finish(char *cand, const char *name, int depth, char **why)
{
	char *real = cand ? realpath(cand, NULL) : NULL;
	char *interp;

	free(cand);
	if (!real) {
		*why = xasprintf("cannot find executable '%s'", name);
		return NULL;
	}
	if (upath_is_elf(real))
		return real;
	interp = depth >= 0 ? script_interpreter(real) : NULL;
	if (interp && depth < INTERP_DEPTH_MAX) {
		char *prog = resolve_program(interp, depth + 1, why);

		free(interp);
		free(real);
		return prog;
	}
	if (interp)
		*why = xasprintf("'%s': too many levels of script interpreters", real);
	else
		*why = xasprintf("'%s' is not an ELF file", real);
	free(interp);
	free(real);
	return NULL;
}

static char *resolve_program(const char *name, int depth, char **why)
{
	const char *dirs = getenv("PATH");
	char *cand;

	if (!*name) {
		*why = xstrdup("cannot find executable ''");
		return NULL;
	}
	if (strchr(name, '/')) {
		cand = xstrdup(name);
	} else {
		if (!dirs || !*dirs)
			dirs = "/usr/local/bin:/usr/bin:/bin";
		cand = search_dirs(dirs, name, is_executable);
	}
	return finish(cand, name, depth, why);
}

char *upath_program(const char *name, char **why)
{
	return resolve_program(name, 0, why);
}

/* PROG's DT_RUNPATH (else DT_RPATH), with $ORIGIN replaced by PROG's
 * directory; malloc'd, or NULL. */
static char *elf_runpath(const char *prog)
{
	int fd = open(prog, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	Elf_Scn *scn = NULL;
	char *found = NULL;

	if (fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && !found && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		GElf_Dyn dyn;
		const char *rpath = NULL, *runpath = NULL;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
			if (!gelf_getdyn(data, (int)i, &dyn))
				break;
			if (dyn.d_tag == DT_RUNPATH)
				runpath = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val);
			else if (dyn.d_tag == DT_RPATH)
				rpath = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val);
		}
		if (runpath || rpath)
			found = xstrdup(runpath ? runpath : rpath);
	}
	if (elf)
		elf_end(elf);
	close(fd);
	if (found && strstr(found, "$ORIGIN")) {
		char *dir = xstrdup(prog), *slash = strrchr(dir, '/');
		char *rest = strstr(found, "$ORIGIN");
		char *expanded;

		if (slash)
			*slash = '\0';
		expanded = xasprintf("%.*s%s%s", (int)(rest - found), found, dir, rest + 7);
		free(dir);
		free(found);
		found = expanded;
	}
	return found;
}

static const char system_lib_dirs[] =
	"/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib64:/usr/lib64:/lib:/usr/lib";

/* NAME (without '/') where PROG's loader would find it: the path in
 * the directory found, links not resolved; malloc'd, or NULL. */
static char *library_candidate(const char *prog, const char *name)
{
	char *cand = NULL;

	if (prog) {
		char *runpath = elf_runpath(prog);

		if (runpath)
			cand = search_dirs(runpath, name, is_regular);
		free(runpath);
	}
	if (!cand && getenv("LD_LIBRARY_PATH") && *getenv("LD_LIBRARY_PATH"))
		cand = search_dirs(getenv("LD_LIBRARY_PATH"), name, is_regular);
	if (!cand)
		cand = search_dirs(system_lib_dirs, name, is_regular);
	return cand;
}

char *upath_library(const char *prog, const char *name, char **why)
{
	if (strchr(name, '/'))
		return finish(xstrdup(name), name, -1, why);
	return finish(library_candidate(prog, name), name, -1, why);
}

bool upath_has_glob(const char *name)
{
	return strpbrk(name, "*?[") != NULL;
}

void upath_list_free(char **list)
{
	for (size_t i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}

/* A growing NULL-terminated list of distinct paths. */
struct path_list {
	char **v;
	size_t n, cap;
};

static bool list_has(const struct path_list *l, const char *path)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], path) == 0)
			return true;
	return false;
}

/* Add PATH (taken) unless it is there already. */
static void list_add(struct path_list *l, char *path)
{
	if (list_has(l, path)) {
		free(path);
		return;
	}
	if (l->n + 2 > l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n++] = path;
	l->v[l->n] = NULL;
}

/* CAND resolved when it is a regular ELF file, or for a program
 * (PROGRAMS) a "#!" script, else NULL. */
static char *resolved_elf(const char *cand, bool programs)
{
	char *real = realpath(cand, NULL);
	char *interp;

	if (!real || upath_is_elf(real))
		return real;
	interp = programs ? script_interpreter(real) : NULL;
	if (!interp) {
		free(real);
		return NULL;
	}
	free(interp);
	return real;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of directory DIR (a prefix of a path: "" is the current
 * directory) that COMP (one component of a pattern) matches, as
 * glob(3) matches them ('*' and '?' match no leading '.'), sorted. */
static struct path_list dir_matches(const char *dir, const char *comp)
{
	struct path_list l = { 0 };
	DIR *d = opendir(*dir ? dir : ".");
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    fnmatch(comp, e->d_name, FNM_PERIOD) == 0)
			list_add(&l, xstrdup(e->d_name));
	if (d)
		closedir(d);
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), compare_names);
	return l;
}

/* Depth at which a pattern walk stops: more components than any path. */
#define GLOB_DEPTH_MAX 256

/* The paths under PREFIX that the components of REST match, added to
 * OUT as the regular ELF files they resolve to (resolved_elf). */
static void glob_walk(const char *prefix, const char *rest, struct path_list *out, int depth,
		      bool programs)
{
	const char *slash = strchr(rest, '/');
	size_t len = slash ? (size_t)(slash - rest) : strlen(rest);
	char *comp = xasprintf("%.*s", (int)len, rest);
	struct path_list names;

	if (depth > GLOB_DEPTH_MAX) {
		free(comp);
		return;
	}
	if (!upath_has_glob(comp)) {
		/* a literal component is taken as written, as glob does */
		names = (struct path_list){ 0 };
		list_add(&names, xstrdup(comp));
	} else {
		names = dir_matches(prefix, comp);
	}
	for (size_t i = 0; i < names.n; i++) {
		char *path = xasprintf("%s%s", prefix, names.v[i]);

		if (!slash) {
			char *real = resolved_elf(path, programs);

			if (real)
				list_add(out, real);
		} else {
			char *dir = xasprintf("%s/", path);
			const char *next = slash;

			while (*next == '/')
				next++;
			if (*next)
				glob_walk(dir, next, out, depth + 1, programs);
			free(dir);
		}
		free(path);
	}
	upath_list_free(names.v);
	free(comp);
}

/*
 * The scripts of L (programs a glob matched, each once) replaced by their
 * interpreters, as SystemTap resolves each match on its own: two scripts
 * of one interpreter probe it twice.  A script whose interpreter cannot
 * be resolved is left out.
 */
static void scripts_to_interpreters(struct path_list *l)
{
	size_t kept = 0;

	for (size_t i = 0; i < l->n; i++) {
		char *why = NULL, *prog = l->v[i];

		if (!upath_is_elf(prog)) {
			prog = finish(xstrdup(l->v[i]), l->v[i], 0, &why);
			free(l->v[i]);
			free(why);
		}
		if (prog)
			l->v[kept++] = prog;
	}
	l->n = kept;
	if (l->v)
		l->v[kept] = NULL;
}

static char **glob_files(const char *pattern, bool programs, size_t *n, char **why)
{
	struct path_list l = { 0 };
	const char *rest = pattern;

	while (*rest == '/')
		rest++;
	if (*rest)
		glob_walk(rest != pattern ? "/" : "", rest, &l, 0, programs);
	if (programs)
		scripts_to_interpreters(&l);
	*n = l.n;
	if (!l.n) {
		*why = xasprintf("no ELF file matches '%s'", pattern);
		free(l.v);
		return NULL;
	}
	return l.v;
}

char **upath_glob(const char *pattern, size_t *n, char **why)
{
	return glob_files(pattern, false, n, why);
}

/* The DT_NEEDED names of the ELF file PATH, pushed (malloc'd) on OUT. */
static void elf_needed(const char *path, struct path_list *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	Elf_Scn *scn = NULL;

	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		GElf_Dyn dyn;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
			const char *name;

			if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag == DT_NULL)
				break;
			if (dyn.d_tag == DT_NEEDED &&
			    (name = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val)) && *name)
				list_add(out, xstrdup(name));
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
}

/* At most this many libraries are walked: a bound, not a limit any
 * real program comes near. */
#define NEEDED_MAX 4096

char **upath_needed_glob(const char *prog, const char *pattern, size_t *n, char **why)
{
	struct path_list walked = { 0 }, found = { 0 };
	char *full = xasprintf("*%s", pattern);

	list_add(&walked, xstrdup(prog));
	for (size_t i = 0; i < walked.n && walked.n < NEEDED_MAX; i++) {
		struct path_list names = { 0 };

		elf_needed(walked.v[i], &names);
		for (size_t j = 0; j < names.n; j++) {
			char *cand = strchr(names.v[j], '/') ? xstrdup(names.v[j])
				     : library_candidate(walked.v[i], names.v[j]);
			char *real = cand ? resolved_elf(cand, false) : NULL;

			if (real && fnmatch(full, cand, 0) == 0)
				list_add(&found, xstrdup(real));
			if (real)
				list_add(&walked, real);
			free(cand);
		}
		upath_list_free(names.v);
	}
	upath_list_free(walked.v);
	*n = found.n;
	if (!found.n)
		*why = xasprintf("no library of '%s' matches '%s'", prog, full);
	free(full);
	return found.v;
}

/* ONE (taken; NULL gives NULL) as a list. */
char **upath_list_of(char *one, size_t *n)
{
	char **v;

	*n = 0;
	if (!one)
		return NULL;
	v = xcalloc(2, sizeof(*v));
	v[0] = one;
	*n = 1;
	return v;
}

char **upath_programs(const char *name, size_t *n, char **why)
{
	if (upath_has_glob(name))
		return glob_files(name, true, n, why);
	return upath_list_of(upath_program(name, why), n);
}

char **upath_libraries(const char *prog, const char *name, size_t *n, char **why)
{
	if (!upath_has_glob(name))
		return upath_list_of(upath_library(prog, name, why), n);
	if (strchr(name, '/'))
		return upath_glob(name, n, why);
	return upath_needed_glob(prog, name, n, why);
}

static char *target_command;	/* -c CMD */
static long target_pid;		/* -x PID */

void upath_set_target(const char *command, long pid)
{
	free(target_command);
	target_command = command ? xstrdup(command) : NULL;
	target_pid = pid;
}

long upath_target_pid(void)
{
	return target_pid;
}

const char *upath_target_command(void)
{
	return target_command;
}

static char *(*pid_exe_of)(long pid, char **why);

/* The pids looked up already (through pid_exe_of: each costs a job in
 * the guest) and their programs (NULL: not found, with why). */
static struct pid_seen {
	long pid;
	char *path, *why;
} *pids_seen;
static size_t npids_seen;

void upath_set_pid_lookup(char *(*exe_of)(long pid, char **why))
{
	pid_exe_of = exe_of;
	for (size_t i = 0; i < npids_seen; i++) {
		free(pids_seen[i].path);
		free(pids_seen[i].why);
	}
	free(pids_seen);
	pids_seen = NULL;
	npids_seen = 0;
}

/* PID's executable as named where it runs, not yet checked. */
static char *pid_exe(long pid, char **why)
{
	char link[64], buf[PATH_MAX];
	struct pid_seen *seen;
	ssize_t n;

	if (!pid_exe_of) {
		snprintf(link, sizeof(link), "/proc/%ld/exe", pid);
		n = readlink(link, buf, sizeof(buf) - 1);
		if (n <= 0) {
			*why = xasprintf("cannot find the executable of process %ld", pid);
			return NULL;
		}
		buf[n] = '\0';
		return xstrdup(buf);
	}
	for (size_t i = 0; i < npids_seen; i++)
		if (pids_seen[i].pid == pid) {
			seen = &pids_seen[i];
			goto found;
		}
	pids_seen = xrealloc(pids_seen, (npids_seen + 1) * sizeof(*pids_seen));
	seen = &pids_seen[npids_seen++];
	seen->pid = pid;
	seen->why = NULL;
	seen->path = pid_exe_of(pid, &seen->why);
found:
	if (!seen->path) {
		*why = xstrdup(seen->why);
		return NULL;
	}
	return xstrdup(seen->path);
}

/* PID's program, checked as a program is. */
static char *pid_program(long pid, char **why)
{
	char *exe = pid_exe(pid, why), *path;

	if (!exe)
		return NULL;
	path = finish(xstrdup(exe), exe, 0, why);
	free(exe);
	return path;
}

char *upath_target_program(long pid, char **why)
{
	size_t len;
	char *word, *path;

	if (pid > 0)
		return pid_program(pid, why);
	if (target_pid > 0)
		return pid_program(target_pid, why);
	if (!target_command) {
		*why = xstrdup("process probe without a path needs a target: -c CMD or -x PID");
		return NULL;
	}
	len = strcspn(target_command + strspn(target_command, " \t"), " \t");
	word = xasprintf("%.*s", (int)len, target_command + strspn(target_command, " \t"));
	path = upath_program(word, why);
	free(word);
	return path;
}
