/* tapc-sdt: a program with SDT markers (<sys/sdt.h>, from Debian's
 * systemtap-sdt-dev) whose arguments the .mark tests know exactly.  The
 * harness compiles it at -O0 and -O2 (gcc picks different operand forms:
 * stack slots, registers, constants, globals); scripts name the builds
 * {SDT_O0} and {SDT_O2}.
 *
 *   tapc-sdt N
 *
 * For i = 1 .. N, in this order:
 *   tapc:args	(int)-i, (long long)i * 1000000007, (unsigned char)(200 + i),
 *		(short)(-300 * i), (unsigned int)0xfffffff0 + i
 *   tapc:consts	constants: -5, 42, 4294967295 (unsigned int), -1 (long long)
 *   tapc:global	the global counter (i, then incremented) and the i-th
 *		element of table[] (i * i), read through memory operands
 *   tapc:str	a pointer to the string "hello sdt" (on main's stack) and
 *		its length 9
 *   tapc:guarded	i, only when its semaphore is set (a probe on it
 *		is registered): the marker is skipped otherwise
 * then tapc:done with no arguments, and prints "guarded N" on stderr
 * with how many times the guarded marker ran (stderr: the scripts'
 * expected output is only their own).
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>

/* With _SDT_HAS_SEMAPHORES every marker names a semaphore, as dtrace -G
 * would make them; only tapc:guarded tests its own.  The kernel
 * increments a semaphore while a uprobe with it as reference counter is
 * registered. */
#define SEMAPHORE(name) \
	unsigned short tapc_##name##_semaphore __attribute__((section(".probes")))
SEMAPHORE(args);
SEMAPHORE(consts);
SEMAPHORE(global);
SEMAPHORE(str);
SEMAPHORE(guarded);
SEMAPHORE(done);

int counter = 1;
long long table[16];

/* Not inlined, so that the markers' operands come from its parameters at
 * -O2 too (registers) instead of being folded into constants. */
__attribute__((noinline)) static void hit(int i, const char *msg, size_t len)
{
	STAP_PROBE5(tapc, args, (int)-i, (long long)i * 1000000007LL, (unsigned char)(200 + i),
		    (short)(-300 * i), (unsigned int)0xfffffff0u + (unsigned int)i);
	STAP_PROBE4(tapc, consts, -5, 42, 4294967295u, -1LL);
	STAP_PROBE2(tapc, global, counter, table[i]);
	counter++;
	STAP_PROBE2(tapc, str, msg, len);
}

__attribute__((noinline)) static int guarded(int i)
{
	if (__builtin_expect(tapc_guarded_semaphore, 0)) {
		STAP_PROBE1(tapc, guarded, i);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1, ran = 0;
	/* on the stack, written here: a literal's page of .rodata may not
	 * be mapped in yet when the probe reads it, and probes cannot
	 * fault pages in */
	char msg[16];

	strcpy(msg, "hello sdt");

	for (int i = 0; i < 16; i++)
		table[i] = (long long)i * i;
	for (int i = 1; i <= n && i < 16; i++) {
		hit(i, msg, strlen(msg));
		ran += guarded(i);
	}
	STAP_PROBE(tapc, done);
	fprintf(stderr, "guarded %d\n", ran);
	return 0;
}
