/* The session's standard input for the script's input.char and
 * input.line probes (tapsets/input.stp), as SystemTap's stapio feeds
 * them: each byte read from stdin is one write() to the module's procfs
 * file /proc/systemtap/MODULE/__stdin, which exists only when the script
 * has such probes.  The file must belong to the caller (the runtime
 * gives a module's procfs files to the user who loaded it; input.stp
 * makes it writable by that user alone), so that no other user's module
 * can be fed the caller's input.  A terminal on stdin is made
 * non-canonical and silent while the session runs, as stapio does. */
#ifndef TAPC_RUN_INPUT_H
#define TAPC_RUN_INPUT_H

#include <stdbool.h>
#include <termios.h>

struct input {
	int fd;			/* __stdin, or -1: not forwarding */
	bool tty_changed;
	struct termios tty_saved;
};

/* Start forwarding if module @name has the file: 0 (in->fd -1 when it
 * has none), or -1 after a message. */
int input_open(struct input *in, const char *name);

/* stdin is readable: forward what it has.  At its end, or when the
 * module refuses a byte (the session stopped), forwarding ends. */
void input_forward(struct input *in);

/* End forwarding; the terminal gets its settings back. */
void input_close(struct input *in);

#endif
