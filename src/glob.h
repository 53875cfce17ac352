/* Wildcards, in SystemTap's dialect: the one matcher of probe point
 * component names, function and tracepoint names, and the tapset index.
 *
 * A pattern is first expanded as csh expands braces ("{vfs_read,vfs_write}"
 * is two patterns; braces nest; "{a}" is "a"), then each expansion is a
 * shell wildcard as fnmatch(3) takes it: '*', '?', "[...]" classes and '\'
 * escapes.  That is what SystemTap does for the names of kernel functions
 * and tracepoints and what it matches component names with. */
#ifndef TAPC_GLOB_H
#define TAPC_GLOB_H

#include <stdbool.h>
#include <stddef.h>

/* Whether pattern pat matches all of name. */
bool glob_match(const char *pat, const char *name);

/* Whether pat matches the pair FIRST SEP SECOND, as in "sched:sched_*":
 * each of pat's brace expansions is split at its first unescaped SEP
 * and the two halves matched on their own, so that a brace may hold
 * whole pairs ("{sched:sched_switch,irq:*}").  An expansion without SEP
 * matches any pair whose SECOND it matches; FIRST may be NULL (unknown),
 * which only such expansions match. */
bool glob_match_pair(const char *pat, char sep, const char *first, const char *second);

/* Whether pat matches all of the file name path, or a tail of it after
 * a '/' (SystemTap's "vfs_read@read_write.c", @var("x@fs/file_table.c")). */
bool glob_match_path_tail(const char *pat, const char *path);

/* Whether pat holds any wildcard, so that it may match other names
 * than itself. */
bool glob_is_pattern(const char *pat);

/* The length of pat's literal beginning: every name it matches starts
 * with those characters (a lookup in a sorted list need only read the
 * names that do). */
size_t glob_literal_prefix(const char *pat);

#endif
