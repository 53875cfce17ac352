/* The test program of tapc.ubacktrace: main -> f1 -> f2 -> f3, and f3
 * makes the getpid system call itself (no libc frame above it), N times
 * (argv[1], default 1); with "spin" (argv[2]) f3 spins N x 10^8 rounds
 * in user mode instead, for profiles.  Built -O2 -fomit-frame-pointer, as a PIE and
 * not, so that only CFI can unwind it.  Each call is followed by work so
 * that none is a tail call. */
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

static volatile long sink;
static long spin_rounds;

__attribute__((noinline, noipa)) static long f3(long x)
{
	long ret;

	if (spin_rounds) {
		for (long i = 0; i < spin_rounds; i++)
			sink = i;
		return x;
	}
	__asm__ volatile("syscall" : "=a"(ret) : "0"((long)SYS_getpid)
			 : "rcx", "r11", "memory");
	return ret + x;
}

__attribute__((noinline, noipa)) static long f2(long x)
{
	long r = f3(x * 3);

	sink = r;
	return r + 2;
}

__attribute__((noinline, noipa)) static long f1(long x)
{
	long r = f2(x + 5);

	sink = r;
	return r * 7;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1, total = 0;

	if (argc > 2 && strcmp(argv[2], "spin") == 0) {
		spin_rounds = n * 100000000;
		n = 1;
	}

	for (long i = 0; i < n; i++)
		total += f1(i);
	sink = total;
	return 0;
}
