/* Bulk mode (-b): the module's output in one channel per CPU, out_0,
 * out_1 ..., each relayed to its own file as SystemTap's staprun names
 * them: with -o FILE, FILE_0, FILE_1 ... (all of them /dev/null with -o
 * /dev/null); without -o, stpd_cpu0, stpd_cpu1 ... in the current
 * directory. */
#ifndef TAPC_RUN_BULK_H
#define TAPC_RUN_BULK_H

#include <poll.h>
#include <stdbool.h>

#include "outfile.h"

struct bulk_chan {
	unsigned cpu;
	int fd;
	bool eof;
	struct outfile dest;
};

struct bulk {
	int n;
	struct bulk_chan *ch;
};

/* Open the out_N channels the module directory dir has (none: not a
 * bulk-mode module, n stays 0) and their files (-o pattern, -S size_max
 * and num_max for each).  0, or -1 after a message. */
int bulk_open(struct bulk *b, const char *dir, const char *pattern,
	      unsigned long long size_max, unsigned long num_max);

/* Whether every channel has ended. */
bool bulk_done(const struct bulk *b);

/* Add a pollfd per open channel at pfd[0...]; returns how many. */
int bulk_poll_fds(const struct bulk *b, struct pollfd *pfd, int *chan_of);

/* Relay what channel i has; false on error. */
bool bulk_relay(struct bulk *b, int i);

/* switch_file() / SIGUSR2: every file goes on to its next; -1 on error. */
int bulk_switch(struct bulk *b);

/* Close channels and files: 0, or -1 after a message. */
int bulk_close(struct bulk *b);

#endif
