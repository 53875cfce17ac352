/* The files process("NAME") and .library("NAME") probe points name, as
 * SystemTap resolves them: absolute paths of ELF files with their
 * symbolic links resolved.  Family-independent: the uprobe, SDT and
 * process-event families share it.
 */
#ifndef TAPC_UPATH_H
#define TAPC_UPATH_H

#include <stdbool.h>
#include <stddef.h>

/*
 * process("NAME"): NAME itself when it holds a '/' (relative to the
 * current directory if not absolute), else the first executable NAME
 * in $PATH, as execvp finds it; then with symbolic links resolved.  A
 * "#!" script resolves, as SystemTap's does, to the program its
 * processes run: its interpreter (for "#!/usr/bin/env NAME", NAME found
 * on $PATH), itself resolved so, at most 4 scripts deep.
 * Returns the malloc'd absolute path, or NULL with *why set to a
 * malloc'd message: SystemTap's "cannot find executable 'NAME'", or
 * that the file is not a regular ELF file.
 */
char *upath_program(const char *name, char **why);

/*
 * .library("NAME") of the program PROG (a path upath_program gave):
 * NAME when it holds a '/', else found in PROG's DT_RUNPATH/DT_RPATH,
 * $LD_LIBRARY_PATH and the system's library directories; links
 * resolved.  NULL with *why as for upath_program.
 */
char *upath_library(const char *prog, const char *name, char **why);

/* Whether PATH is a regular file that starts as an ELF file does; the
 * file is opened without following a last symbolic link. */
bool upath_is_elf(const char *path);

/*
 * SystemTap's process("PATTERN") and .library("/PATTERN"): when a name
 * holds a wildcard ('*', '?' or '['), it is a glob over the file system
 * ($PATH is not searched), and each ELF file it matches is probed as if
 * named on its own, with its links resolved.
 */
bool upath_has_glob(const char *name);

/*
 * The distinct files PATTERN's matches resolve to (links resolved;
 * files that are not regular ELF files left out), in glob(3)'s sorted
 * order of the first match of each; a NULL-terminated malloc'd vector
 * (free with upath_list_free) with the count in *n.  NULL with *why set
 * when nothing matches.
 */
char **upath_glob(const char *pattern, size_t *n, char **why);

/*
 * .library("PATTERN") without '/': the libraries PROG needs (DT_NEEDED,
 * and theirs in turn, found as upath_library finds a name) whose paths
 * match "*PATTERN", as SystemTap applies such a pattern to the libraries
 * statically in use by the process; links resolved, each once, in the
 * order of a breadth-first walk of the needs.  NULL with *why set when
 * none matches.
 */
char **upath_needed_glob(const char *prog, const char *pattern, size_t *n, char **why);

void upath_list_free(char **list);

/* process("NAME") and .library("NAME") of PROG, globs included: the
 * files to probe (upath_program or upath_library's one file, or a
 * glob's), as upath_glob returns them; a process glob's matches that
 * are scripts are their interpreters (as upath_program resolves them). */
char **upath_list_of(char *one, size_t *n);
char **upath_programs(const char *name, size_t *n, char **why);
char **upath_libraries(const char *prog, const char *name, size_t *n, char **why);

/*
 * The program of the session's -c command (its first word, found as
 * upath_program finds it) or of -x PID (/proc/PID/exe): what
 * process.function(...) and process(PID) probe.  pass 1 sets them.
 */
void upath_set_target(const char *command, long pid);

/* The -x PID (0: none) and -c CMD (NULL: none) pass 1 set. */
long upath_target_pid(void);
const char *upath_target_command(void);

/* Where a process id's program is found: by EXE_OF (--remote=vm:
 * remote_vm_pid_exe, the test VM's guest), or on this machine
 * (/proc/PID/exe) when NULL.  EXE_OF returns the malloc'd path or NULL
 * with *why set; each pid is asked once a run. */
void upath_set_pid_lookup(char *(*exe_of)(long pid, char **why));
char *upath_target_program(long pid, char **why);

#endif
