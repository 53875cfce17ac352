/* Fixture of test-dwtvar: types and functions whose DWARF the DWARF
 * target-variable resolver is tested on (compiled at -O0 and -O2). */
typedef unsigned long ulong_t;
typedef const char *cstr;
typedef ulong_t ulong2_t;

struct inner {
	int x;
	char name[8];
};

enum color { RED, GREEN = 5, BLUE = -1 };

struct outer {
	int id;
	struct inner in;
	struct inner *next;
	union {
		long anon_l;
		int anon_i;
	};
	struct {
		short sx;
		short sy;
	};
	unsigned f1 : 3, f2 : 7;
	signed f3 : 5;
	ulong2_t arr[4];
	int grid[2][3];
	enum color col;
	int (*fn)(int, char *);
	const char *label;
	volatile int vol;
	char tail[];
};

/* What static addresses are relocated against (as in the kernel). */
unsigned long long jiffies_64;
static int counter = 3;
/* declared as a header would, then defined: two DIEs of one name */
extern int shared_count;
int shared_count = 4;
struct outer global_outer;

__attribute__((noinline)) int probe_me(struct outer *o, int n, char c, cstr s, ulong_t u)
{
	int local = n * 2 + c;

	if (s && u) {
		int inner_only = local + (int)u;

		counter += inner_only;
	}
	return local + counter + shared_count + global_outer.id + o->id;
}

static inline __attribute__((always_inline)) int helper(struct outer *o, int k)
{
	int sum = 0;

	for (int i = 0; i < k; i++)
		sum += (int)o->arr[i & 3] * i;
	return sum + o->id * k + o->in.x;
}

__attribute__((noinline)) int use_inline(struct outer *o)
{
	return helper(o, o->vol) * 3;
}

__attribute__((noinline)) void no_result(struct inner *in)
{
	in->x++;
}

int main(int argc, char **argv)
{
	static struct outer o;

	o.id = argc;
	no_result(&o.in);
	return probe_me(&o, argc, argv[0][0], argv[0], (ulong_t)argc) + use_inline(&o) +
	       (int)jiffies_64;
}
