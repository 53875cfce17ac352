/* btf-dump: print what tapc's BTF reader finds in a kernel, for tests and
 * for looking around.
 *
 *   btf-dump [-H HEADERS] FILE tp PATTERN     tracepoints and their arguments
 *   btf-dump FILE struct NAME                 a struct's members
 *   btf-dump FILE type NAME                   every type of that name, as C
 *   btf-dump FILE stats                       counts and load time
 *
 * FILE is an ELF vmlinux with a .BTF section or a raw BTF file such as
 * /sys/kernel/btf/vmlinux; HEADERS a kernel headers tree that names the
 * events' systems (e.g. /usr/src/linux-headers-R-common).
 */
#include "btf.h"
#include "tpcatalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct btf *btf;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void print_tp(const struct btf_tracepoint *tp, void *arg)
{
	uint32_t i;
	char buf[512];

	(void)arg;
	printf("%s:%s", tp->system ? tp->system : "?", tp->name);
	if (tp->class_name && strcmp(tp->class_name, tp->name) != 0)
		printf(" (class %s)", tp->class_name);
	putchar('\n');
	for (i = 0; i < tp->nargs; i++) {
		if (btf_type_str(btf, tp->args[i].type, "", buf, sizeof(buf)) < 0)
			snprintf(buf, sizeof(buf), "?");
		printf("  $%s:%s\n", *tp->args[i].name ? tp->args[i].name : "?", buf);
	}
}

static int dump_tp(const char *headers, const char *pattern)
{
	char err[512];
	struct btf_tracepoints *tps = btf_tracepoints_load(btf, headers, err, sizeof(err));
	size_t n;

	if (!tps) {
		fprintf(stderr, "btf-dump: %s\n", err);
		return 1;
	}
	n = btf_tracepoints_match(tps, pattern, print_tp, NULL);
	btf_tracepoints_free(tps);
	if (!n) {
		fprintf(stderr, "btf-dump: no tracepoint matches %s\n", pattern);
		return 1;
	}
	return 0;
}

static int dump_struct(const char *name)
{
	uint32_t id = btf_find(btf, name, BTF_K_STRUCT), i;
	char buf[512];

	if (!id)
		id = btf_find(btf, name, BTF_K_UNION);
	if (!id) {
		fprintf(stderr, "btf-dump: no struct or union %s\n", name);
		return 1;
	}
	printf("%s %s size %lld\n", btf_kind(btf, id) == BTF_K_STRUCT ? "struct" : "union",
	       name, (long long)btf_size(btf, id));
	for (i = 0; i < btf_vlen(btf, id); i++) {
		struct btf_member_info m;

		btf_member_at(btf, id, i, &m);
		if (btf_type_str(btf, m.type, m.name, buf, sizeof(buf)) < 0)
			snprintf(buf, sizeof(buf), "? %s", m.name);
		printf("  %-40s offset %llu", buf, (unsigned long long)(m.bit_offset / 8));
		if (m.bitfield_size || m.bit_offset % 8)
			printf(" bit %llu:%u", (unsigned long long)(m.bit_offset % 8),
			       m.bitfield_size);
		printf(" size %lld\n", (long long)m.size);
	}
	return 0;
}

static int print_type(uint32_t id, void *arg)
{
	char buf[1024];

	(void)arg;
	if (btf_type_str(btf, id, btf_kind(btf, id) == BTF_K_FUNC ? "" : NULL,
			 buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "?");
	printf("[%u] %s %s size %lld\n", id, btf_kind_name(btf_kind(btf, id)), buf,
	       (long long)btf_size(btf, id));
	return 0;
}

int main(int argc, char **argv)
{
	const char *headers = NULL;
	char err[512];
	struct btf *loaded;
	double t0, t1;
	int rc = 2;

	if (argc > 2 && strcmp(argv[1], "-H") == 0) {
		headers = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: btf-dump [-H HEADERS] FILE tp PATTERN | struct NAME | type NAME | stats\n");
		return 2;
	}
	t0 = now_ms();
	loaded = btf_load_file(argv[1], err, sizeof(err));
	t1 = now_ms();
	if (!loaded) {
		fprintf(stderr, "btf-dump: %s\n", err);
		return 1;
	}
	btf = loaded;
	if (strcmp(argv[2], "tp") == 0 && argc == 4) {
		rc = dump_tp(headers, argv[3]);
	} else if (strcmp(argv[2], "struct") == 0 && argc == 4) {
		rc = dump_struct(argv[3]);
	} else if (strcmp(argv[2], "type") == 0 && argc == 4) {
		rc = btf_find(btf, argv[3], -1) ? 0 : 1;
		btf_find_each(btf, argv[3], print_type, NULL);
	} else if (strcmp(argv[2], "stats") == 0) {
		struct btf_tracepoints *tps;
		double t2, t3;

		t2 = now_ms();
		tps = btf_tracepoints_load(btf, headers, err, sizeof(err));
		t3 = now_ms();
		if (tps) {
			printf("types %u, load+index %.1f ms, tracepoints %zu in %.1f ms\n",
			       btf_type_count(btf), t1 - t0, btf_tracepoints_count(tps), t3 - t2);
			btf_tracepoints_free(tps);
			rc = 0;
		} else {
			fprintf(stderr, "btf-dump: %s\n", err);
			rc = 1;
		}
	} else {
		fprintf(stderr, "btf-dump: unknown command %s\n", argv[2]);
	}
	btf_free(loaded);
	return rc;
}
