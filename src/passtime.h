/* Per-pass resource figures for -v, in stap's format:
 * "using 147376virt/46840res/5112shr/41908data kb, in 340usr/20sys/370real ms." */
#ifndef TAPC_PASSTIME_H
#define TAPC_PASSTIME_H

#include <sys/resource.h>
#include <time.h>

struct pass_clock {
	struct timespec real;
	struct rusage usage;
};

void pass_clock_start(struct pass_clock *c);
/* The "using ... kb, in ... ms." tail for the pass started at c,
 * written into buf. */
void pass_clock_format(const struct pass_clock *c, char *buf, size_t len);

#endif
