/* The files process("NAME") and .library("NAME") probe points name, as
 * SystemTap resolves them: absolute paths of ELF files with their
 * symbolic links resolved.  Family-independent: the uprobe, SDT and
 * process-event families share it.
 */
#ifndef TAPC_UPATH_H
#define TAPC_UPATH_H

#include <stdbool.h>

/*
 * process("NAME"): NAME itself when it holds a '/' (relative to the
 * current directory if not absolute), else the first executable NAME
 * in $PATH, as execvp finds it; then with symbolic links resolved.
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
 * The program of the session's -c command (its first word, found as
 * upath_program finds it) or of -x PID (/proc/PID/exe): what
 * process.function(...) and process(PID) probe.  pass 1 sets them.
 */
void upath_set_target(const char *command, long pid);
char *upath_target_program(long pid, char **why);

#endif
