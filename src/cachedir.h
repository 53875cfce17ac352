/* The caches' directories, safe from other local users.
 *
 * tapc keeps compiled runtimes with the kbuild commands that build modules
 * from them, built modules and the tapset index under
 * $XDG_CACHE_HOME/tapc (else ~/.cache/tapc).  What is found there is run
 * or loaded by whoever runs tapc, often root (sudo -E keeps the caller's
 * $HOME), so nothing in a cache may come from anyone else.  A cache
 * directory is used only when
 *
 *  - every directory from / down to the cache base ($XDG_CACHE_HOME or
 *    ~/.cache, symlinks resolved) belongs to root or to the caller and is
 *    not writable by group or others, unless it is sticky as /tmp is, so
 *    that nobody else can rename or replace any of them;
 *  - tapc's own directories and every file tapc uses under them belong to
 *    the caller and are not writable by group or others; symlinks are
 *    never followed there.
 *
 * Missing directories are created 0700.  A cache that fails a check is not
 * used at all: the run goes on without it, and -v says why.
 */
#ifndef TAPC_CACHEDIR_H
#define TAPC_CACHEDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The checked directory BASE/tapc/WHAT (created when create) as a
 * canonical path, malloc'd.  NULL when there is none: why says why it may
 * not be used, or is empty when it only does not exist yet. */
char *cachedir_get(const char *what, bool create, char *why, size_t whylen);

/* The directory PATH inside a checked cache directory, created 0700 when
 * create and missing; false with why filled (empty: only missing). */
bool cachedir_sub(const char *path, bool create, char *why, size_t whylen);

/* Whether PATH, not followed if a symlink, is a regular file (a directory
 * with dir) of the caller's that group and others cannot write; false with
 * why filled, or empty when PATH does not exist. */
bool cache_entry_ok(const char *path, bool dir, char *why, size_t whylen);

/* Whether PATH, a file that another tool keeps in a cache of its own and
 * hands over (tapc-vm's copy of the guest kernel's vmlinux), may be read:
 * it and its directory pass cache_entry_ok, the path has no symlink in
 * it, and every directory above is root's or the caller's and nobody
 * else's to change.  False with why filled. */
bool cache_handed_file_ok(const char *path, char *why, size_t whylen);

/* Open the cache file PATH to read, only if cache_entry_ok would accept it
 * and without following a symlink: the descriptor, or -1 with why filled
 * (empty when PATH does not exist). */
int cache_open(const char *path, char *why, size_t whylen);
FILE *cache_fopen(const char *path, char *why, size_t whylen);

#endif
