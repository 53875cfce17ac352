/* process("NAME") and .library("NAME") to the files they name
 * (upath.h).  No name is ever handed to a shell: files are only
 * stat()ed, opened and read. */
#include "upath.h"

#include <elf.h>
#include <fcntl.h>
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

/* CAND with links resolved, checked to be ELF; takes CAND. */
static char *finish(char *cand, const char *name, char **why)
{
	char *real = cand ? realpath(cand, NULL) : NULL;

	free(cand);
	if (!real) {
		*why = xasprintf("cannot find executable '%s'", name);
		return NULL;
	}
	if (!upath_is_elf(real)) {
		*why = xasprintf("'%s' is not an ELF file", real);
		free(real);
		return NULL;
	}
	return real;
}

char *upath_program(const char *name, char **why)
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
	return finish(cand, name, why);
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

char *upath_library(const char *prog, const char *name, char **why)
{
	char *cand = NULL;

	if (strchr(name, '/'))
		return finish(xstrdup(name), name, why);
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
	return finish(cand, name, why);
}

static char *target_command;	/* -c CMD */
static long target_pid;		/* -x PID */

void upath_set_target(const char *command, long pid)
{
	free(target_command);
	target_command = command ? xstrdup(command) : NULL;
	target_pid = pid;
}

/* /proc/PID/exe's file, checked as a program is. */
static char *pid_program(long pid, char **why)
{
	char link[64], buf[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%ld/exe", pid);
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n <= 0) {
		*why = xasprintf("cannot find the executable of process %ld", pid);
		return NULL;
	}
	buf[n] = '\0';
	return finish(xstrdup(buf), buf, why);
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
