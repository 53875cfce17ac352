/*
 * The test program of the uprobe tests (tapc.uprobe/), built by the
 * harness at -O0 (a PIE) and -O2 (not a PIE) with -g, linked with
 * libuprobe-lib.so (uprobe-lib.c).  Each mode calls functions with
 * arguments and results the tests know exactly:
 *
 *   uprobe-prog calls N	add(i, 10) for i = 0..N-1, twice(i + 1)
 *				inlined, fact(5) (recursive), sum_point(&p1),
 *				greet("tapc"), uplib_mul(6, 7) once each
 *   uprobe-prog spin N		add(i, 1) N times (a hot function)
 *   uprobe-prog alloc N	malloc(100 + i) and free, N times
 *
 * It prints nothing: the tests' output is the script's.
 */
#include <stdlib.h>
#include <string.h>

int uplib_mul(int a, int b);

struct point {
	int x;
	long y;
	const char *name;
	struct point *next;
};

int counter = 7;
static volatile long sink;

__attribute__((noinline)) int add(int a, int b)
{
	counter++;
	return a + b;
}

__attribute__((noinline)) long fact(int n)
{
	if (n <= 1)
		return 1;
	return n * fact(n - 1);
}

__attribute__((noinline)) long sum_point(struct point *p)
{
	return p->x + p->y + p->next->x;
}

__attribute__((noinline)) int greet(const char *who)
{
	return (int)strlen(who);
}

static inline __attribute__((always_inline)) int twice(int v)
{
	sink += v;
	return v * 2;
}

static void calls(int n)
{
	struct point p2 = { 3, 40, "second", NULL };
	struct point p1 = { 1, 20, "first", &p2 };
	long total = 0;

	for (int i = 0; i < n; i++) {
		total += add(i, 10);
		total += twice(i + 1);
	}
	total += fact(5);
	total += sum_point(&p1);
	total += greet("tapc");
	total += uplib_mul(6, 7);
	sink = total;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 1;

	if (argc > 1 && strcmp(argv[1], "spin") == 0) {
		for (int i = 0; i < n; i++)
			sink += add(i, 1);
	} else if (argc > 1 && strcmp(argv[1], "alloc") == 0) {
		for (int i = 0; i < n; i++) {
			char *p = malloc(100 + (size_t)i);

			sink += p != NULL;
			free(p);
		}
	} else {
		calls(n);
	}
	return 0;
}
