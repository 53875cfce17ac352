/* Pass 5: running the module with tapc-run, on this host or in the test VM. */
#ifndef TAPC_LAUNCH_H
#define TAPC_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"

/* Whether modules can be loaded here; if not, why (into why). */
bool run_host_can_load(char *why, size_t len);

/* Run module ko (an absolute path) with the options' -o -c -x -T -G
 * (in the test VM with --remote=vm).  SIGINT, SIGTERM and SIGHUP that
 * tapc receives meanwhile are passed on, so the script stops cleanly.
 * Returns tapc-run's exit status (0, or 1 after errors), or -1 when it
 * could not be run (reported). */
/* @input: the script reads stdin (input.char/input.line), which tapc-vm
 * then passes into the test VM. */
int run_module(const struct tapc_options *o, const char *ko, bool rename_if_loaded,
	       bool input);

/* The tapc-run program to run (malloc'ed): next to tapc when installed,
 * src/run/tapc-run in the build tree, else from PATH. */
char *run_loader_path(void);

/* Set up SIGINT/SIGTERM/SIGHUP handling for the whole of tapc.  Until
 * run_hold_signals(), nothing needs cleaning up (passes 1 and 2 write
 * nothing but atomically renamed cache files), so a signal ends tapc at
 * once, as its default action.  After it, the signal is remembered (and
 * passed on to a running child); passes 3 to 5 check run_interrupted()
 * and stop, removing the build directory. */
void run_catch_signals(void);
void run_hold_signals(void);
int run_interrupted(void);
/* fork() for a child that signals are passed on to (make, tapc-run):
 * the child starts with the default signal dispositions, and a signal
 * that arrives around the fork reaches it.  Call run_child_done() once
 * it has been waited for. */
int run_fork(void);
void run_child_done(void);

/* Run argv[0] (found on $PATH, no shell) with argv, reading /dev/null
 * and writing both outputs to the file log: its exit status, 128 when a
 * signal ended it, 127 when it could not run, -1 when fork failed. */
int run_logged(char *const argv[], const char *log);

#endif
