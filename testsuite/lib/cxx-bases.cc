/*
 * A C++ class hierarchy for the pretty-printing tests, built with -g -O0:
 * Box derives from Kind (itself from Named, which has the virtual table)
 * and from Sized.  Kind::id masks Named::id and Box::size Sized::size, as
 * C++ looks names up; Box's static member has no storage in its objects.
 */
#include <stdlib.h>

static volatile long sink;

struct Named {
	virtual ~Named() {}
	int id = 1;
	int weight = 2;
	__attribute__((noinline)) int ident() const { return id; }
};

struct Kind : Named {
	int kind = 3;
	int id = 9;
};

struct Sized {
	int count = 4;
	int size = 5;
};

struct Box : Kind, Sized {
	static int made;
	int size = 6;
	__attribute__((noinline)) int volume() const { return size * kind; }
};

int Box::made = 7;

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;

	for (int i = 0; i < n; i++) {
		Box box;

		sink += box.volume() + box.ident() + Box::made;
	}
	return 0;
}
