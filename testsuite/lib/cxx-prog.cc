/*
 * The C++ test program of tapc.uprobe/cxx.stp and of test-uprobe's C++
 * cases, built with -g -O0: functions in a namespace, in classes (a
 * member defined in its class and one outside it, a constructor), an
 * overload, a template and a base class's member (Shape::sides), which
 * probe points name as SystemTap's do ("ns::Sq::area", "ns::*", "::main").
 *
 *   cxx-prog N		for i = 1..N: ns::Sq(i).area(), ns::over(i),
 *			ns::over(10L * i), ns::twice(i)
 *
 * It prints nothing: the test's output is the script's.
 */
#include <cstdlib>

static volatile long sink;

namespace ns {
struct Shape {
	virtual ~Shape() {}
	virtual int area() const = 0; int sides = 4;
};

struct Sq : Shape {
	int side;
	explicit Sq(int v) : side(v) {}
	int area() const override;
};

int Sq::area() const
{
	return side * side;
}

__attribute__((noinline)) int over(int a)
{
	return a + 1;
}

__attribute__((noinline)) long over(long a)
{
	return a + 2;
}

template <typename T> __attribute__((noinline)) T twice(T v)
{
	return v + v;
}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;

	for (int i = 1; i <= n; i++) {
		ns::Sq sq(i);
		const ns::Shape &shape = sq;

		sink += shape.area();
		sink += ns::over(i);
		sink += ns::over(10L * i);
		sink += ns::twice(i);
	}
	return 0;
}
