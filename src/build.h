/* Pass 4: building the kernel module with kbuild.
 *
 * The script's C (pass 3) goes into a temp build directory with a Kbuild
 * file; `make -C TREE M=DIR modules` turns it into NAME.ko.  The generated
 * C is compiled at the chosen -O level, the runtime at kbuild's -O2.  The
 * runtime objects are compiled once per (kernel build tree, runtime
 * contents, -D set) into a cache directory and copied into each module,
 * so a new script only compiles its own C. */
#ifndef TAPC_BUILD_H
#define TAPC_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"

struct build {
	char *dir;		/* the temp build directory */
	char *name;		/* the module's name */
	char *src_path;		/* DIR/NAME_src.c: the script's C */
	char *params_path;	/* DIR/NAME_params.c: its module parameters */
	char *ko_path;		/* DIR/NAME.ko */
	bool shared_name;	/* named after the module cache key: other runs
				 * may load a module of that name too */
};

struct build_config {
	const char *kernel_tree;	/* kernel build tree (make -C) */
	const char *runtime_dir;	/* runtime/ with linux/ and core/ */
	const struct strlist *defines;	/* -D NAME[=VALUE] */
	char opt_level;			/* '0' '1' '2' '3' 's', 'g' (-Og) */
	/* -B NAME=VALUE: each one argument of make's command line; with
	 * any, the build is kbuild's own, the runtime compiled with it */
	const struct strlist *make_vars;
	int verbose;
};

/* Make the temp build directory under $TMPDIR (or /tmp) for module name.
 * False after printing why not. */
bool build_init(struct build *b, const char *name);
/* Pass 4: write the Kbuild file and run kbuild; false after printing why
 * (with the compiler's output). */
bool build_module(struct build *b, const struct build_config *c);
/* Remove the build directory and everything in it. */
void build_remove(struct build *b);
void build_free(struct build *b);

/* The runtime cache key of c (32 hex digits): what the runtime objects
 * depend on (kernel tree, runtime sources, -D set). */
void build_runtime_key(const struct build_config *c, char key[33]);

#endif
