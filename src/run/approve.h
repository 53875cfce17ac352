/* What tapc-run lets its caller load, as SystemTap's staprun (see
 * tapc-run(8)): which module file, built for which privilege level, under
 * which name, with which parameters.  Each check prints its own ERROR. */
#ifndef TAPC_RUN_APPROVE_H
#define TAPC_RUN_APPROVE_H

#include <stdbool.h>

#include "modimage.h"

/*
 * Open the module at path for a caller with credentials creds (PRIV_*).
 * Members of stapdev (and root) may load any file they can read.  Others
 * may load only a module an administrator approved by installing it under
 * /lib/modules/RELEASE/systemtap/: the file and every directory from / down
 * to it, symbolic links resolved first, belong to root and are writable by
 * no one else; the file is opened through that chain of directories
 * without following links, so the file checked is the file loaded.  The
 * descriptor, or -1.
 */
int approve_open(const char *path, unsigned creds);

/* Whether a caller with credentials creds may load module m (path is for
 * messages): members of stapdev any, others only one whose recorded level
 * (tapc --privilege) their credentials hold; a module that records none
 * needs stapdev. */
bool approve_level(const struct modimage *m, const char *path, unsigned creds);

/* Whether name is a module name tapc-run works with: letters, digits and
 * '_', at most the kernel's 55 bytes (it names /proc/tapc-NAME). */
bool approve_name(const char *name);

/*
 * Whether arg is a module parameter tapc-run may pass: NAME=VALUE with a
 * value free of spaces, quotes and control characters (the kernel splits
 * its parameter string at spaces).  With strict (the caller is not root),
 * NAME must also be one the module declares (a global of the script) and
 * not one of tapc-run's own (_tap_*).
 */
bool approve_param(const struct modimage *m, const char *arg, bool strict);

#endif
