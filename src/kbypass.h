/* Pass 4 around kbuild: kbuild's own commands, replayed.
 *
 * Running `make M=DIR modules` costs seconds before and around the few
 * commands that matter (reading the kernel tree's makefiles, checking
 * every prerequisite).  After a kbuild build of a tapc module, the
 * commands kbuild ran (from its .cmd files: compile the script's C and
 * parameters, link, modpost, compile NAME.mod.c, link NAME.ko) are kept
 * as a recipe, with the build directory and the module's name made
 * placeholders, beside the cached runtime objects they go with, one
 * recipe per -O level.  A later build with the same kernel tree, runtime
 * and -D set (the runtime cache's key) and -O level runs those commands
 * itself.  kbuild stays the reference: any step that fails sends the
 * build back to it, and TAPC_KBUILD=1 always uses it.
 *
 * No shell runs a recipe.  When recording, each command kbuild ran is
 * split into programs and their arguments (kcmd.h), and kept only when
 * every program is one that builds a module (the compiler, the linker,
 * objtool, modpost, fixdep, sed for modpost's input); anything else
 * leaves the kernel tree to kbuild.  A recipe is read only from the
 * caller's own cache (cachedir.h), checked the same way again, and its
 * programs run with execvp.
 */
#ifndef TAPC_KBYPASS_H
#define TAPC_KBYPASS_H

#include <stdbool.h>
#include <stddef.h>

/* Record the recipe of the kbuild build of module name in dir; recipe is
 * the file to write.  False with why filled when the build's commands
 * cannot be kept (unreadable, beyond what runs without a shell, or not
 * all a module build's tools); false with why empty when name is not one
 * of tapc's, too short to be replaced safely. */
bool kbypass_record(const char *recipe, const char *dir, const char *name,
		    char *why, size_t whylen);

/* Build module name in dir (its NAME_src.c and NAME_params.c written)
 * with recipe, the runtime objects coming from runtime_cache; output in
 * log.  False when there is no recipe (why empty), when it may not be
 * used or a step failed (why says which). */
bool kbypass_build(const char *recipe, const char *kernel_tree, const char *dir,
		   const char *name, const char *runtime_cache, const char *log,
		   char *why, size_t whylen);

#endif
