/* tapc-run -D (tapc -F): the relay goes on in the background. */
#ifndef TAPC_RUN_BACKGROUND_H
#define TAPC_RUN_BACKGROUND_H

/*
 * Fork; the parent prints the child's pid on stdout and exits 0, the
 * child returns 0 in a session of its own with its standard streams on
 * /dev/null.  The parent exits only once the child has its own session:
 * whoever ran us may kill our process group the moment we exit (a job
 * runner, tapc-vm's guest agent), and that must not reach the relay.
 * -1 (told on stderr, prefixed by @prog) when the fork fails; then
 * nothing has changed.
 */
int run_in_background(const char *prog);

#endif
