/* kbuild's command lines as argv, parsed and run without a shell.
 *
 * kbuild keeps each command it ran in a .cmd file, as a line for the
 * shell.  kcmd_parse() reads the small part of the shell's language those
 * lines use: words with '...', "..." and \ quoting; commands joined by ';'
 * or '&&', which run in turn (here: while they succeed), and by '|' into a
 * pipeline.  Anything else (expansions, globs, redirections, subshells,
 * comments, control characters) is refused, since running the words
 * without a shell would not do what the shell did.  kcmd_run_step() runs
 * one pipeline with fork and execvp: no shell ever sees the words.
 */
#ifndef TAPC_KCMD_H
#define TAPC_KCMD_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"

/* One program: its arguments, and the file its output goes to (NULL:
 * the next program of the pipeline, or the log for the last one). */
struct kcmd_prog {
	struct strlist argv;
	char *out;
};

/* Programs joined by pipes. */
struct kcmd_step {
	struct kcmd_prog *progs;
	int nprogs;
};

/* Steps run in turn while they succeed. */
struct kcmd_list {
	struct kcmd_step *steps;
	int nsteps;
};

/* Split line into l (which must start empty); false with why filled when
 * it uses anything beyond the subset above. */
bool kcmd_parse(const char *line, struct kcmd_list *l, char *why, size_t whylen);

struct kcmd_step *kcmd_add_step(struct kcmd_list *l);
struct kcmd_prog *kcmd_add_prog(struct kcmd_step *st);
/* Remove step i. */
void kcmd_drop_step(struct kcmd_list *l, int i);
void kcmd_list_free(struct kcmd_list *l);

/* Run st in the directory cwd: its programs together, each reading what
 * the one before writes (the first reads /dev/null); errors, and the last
 * program's output unless it names a file, go to logfd.  True when every
 * program ran and exited with status 0. */
bool kcmd_run_step(const struct kcmd_step *st, const char *cwd, int logfd);

#endif
