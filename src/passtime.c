/* Memory and time figures for the -v pass lines. */
#include "passtime.h"

#include <stdio.h>
#include <unistd.h>

void pass_clock_start(struct pass_clock *c)
{
	clock_gettime(CLOCK_MONOTONIC, &c->real);
	getrusage(RUSAGE_SELF, &c->usage);
}

static long ms_between(const struct timeval *a, const struct timeval *b)
{
	return (long)(b->tv_sec - a->tv_sec) * 1000 +
	       (long)(b->tv_usec - a->tv_usec) / 1000;
}

/* Sizes from /proc/self/statm, converted from pages to kB. */
static void memory_kb(unsigned long kb[4])
{
	unsigned long size = 0, res = 0, shr = 0, text, lib, data = 0;
	long page_kb = sysconf(_SC_PAGESIZE) / 1024;
	FILE *fp = fopen("/proc/self/statm", "r");

	if (fp) {
		if (fscanf(fp, "%lu %lu %lu %lu %lu %lu", &size, &res, &shr,
			   &text, &lib, &data) != 6)
			size = res = shr = data = 0;
		fclose(fp);
	}
	kb[0] = size * (unsigned long)page_kb;
	kb[1] = res * (unsigned long)page_kb;
	kb[2] = shr * (unsigned long)page_kb;
	kb[3] = data * (unsigned long)page_kb;
}

void pass_clock_format(const struct pass_clock *c, char *buf, size_t len)
{
	struct pass_clock now;
	unsigned long kb[4];
	long real_ms;

	pass_clock_start(&now);
	memory_kb(kb);
	real_ms = (long)(now.real.tv_sec - c->real.tv_sec) * 1000 +
		  (now.real.tv_nsec - c->real.tv_nsec) / 1000000;
	snprintf(buf, len,
		 "using %luvirt/%lures/%lushr/%ludata kb, in %ldusr/%ldsys/%ldreal ms.",
		 kb[0], kb[1], kb[2], kb[3],
		 ms_between(&c->usage.ru_utime, &now.usage.ru_utime),
		 ms_between(&c->usage.ru_stime, &now.usage.ru_stime), real_ms);
}
