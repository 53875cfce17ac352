/* sdt-dump: what tapc reads of SDT markers, as text test-sdt compares.
 *
 *   sdt-dump notes FILE	one line per marker of FILE's .note.stapsdt:
 *	PROVIDER:NAME pc=0x.. base=0x.. sem=0x.. pc_off=0x.. sem_off=0x.. args=...
 *   sdt-dump args DESC...	each argument descriptor as sdt_arg.h reads it,
 *	or "error: MESSAGE"
 *   sdt-dump symbol FILE NAME	the symbol's address, or "none"
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdt.h"
#include "sdt_arg.h"

static int dump_notes(const char *path)
{
	struct sdt_file f;
	char *err = NULL;

	if (sdt_read(path, &f, &err) != 0) {
		printf("error: %s\n", err);
		free(err);
		return 1;
	}
	printf("machine=%u class=%d pie=%d base=%s%#" PRIx64 "\n", f.machine, f.is_64 ? 64 : 32,
	       f.pie, f.has_base ? "" : "none:", f.base_addr);
	for (size_t i = 0; i < f.n; i++) {
		const struct sdt_marker *m = &f.v[i];

		printf("%s:%s pc=%#" PRIx64 " base=%#" PRIx64 " sem=%#" PRIx64 " pc_off=%#" PRIx64
		       " sem_off=%#" PRIx64 " args=%s\n", m->provider, m->name, m->pc, m->base,
		       m->semaphore, m->pc_offset, m->sem_offset, m->args);
	}
	sdt_file_free(&f);
	return 0;
}

static void print_arg(const struct sdt_arg *a)
{
	static const char *const kinds[] = { "const", "reg", "mem", "symbol" };

	printf("%s size=%d %s", kinds[a->kind], a->size, a->is_signed ? "signed" : "unsigned");
	switch (a->kind) {
	case SDT_ARG_CONST:
		printf(" value=%" PRId64, a->value);
		break;
	case SDT_ARG_REG:
		printf(" reg=%u reg_size=%d", a->reg, a->reg_size);
		break;
	case SDT_ARG_MEM:
		printf(" base=%u disp=%" PRId64, a->reg, a->value);
		if (a->has_index)
			printf(" index=%u scale=%u", a->index_reg, a->scale);
		break;
	case SDT_ARG_SYMBOL:
		printf(" symbol=%s disp=%" PRId64, a->symbol, a->value);
		break;
	}
	putchar('\n');
}

static int dump_args(int argc, char **argv)
{
	int rc = 0;

	for (int i = 0; i < argc; i++) {
		struct sdt_arg *args;
		size_t n;
		char *err = NULL;

		printf("%s: ", argv[i]);
		if (sdt_args_parse(argv[i], &args, &n, &err) != 0) {
			printf("error: %s\n", err);
			free(err);
			rc = 1;
			continue;
		}
		if (n == 0)
			printf("none\n");
		for (size_t k = 0; k < n; k++) {
			if (k)
				printf("  ");
			print_arg(&args[k]);
		}
		sdt_args_free(args, n);
	}
	return rc;
}

int main(int argc, char **argv)
{
	uint64_t addr;

	if (argc >= 3 && !strcmp(argv[1], "notes"))
		return dump_notes(argv[2]);
	if (argc >= 2 && !strcmp(argv[1], "args"))
		return dump_args(argc - 2, argv + 2);
	if (argc == 4 && !strcmp(argv[1], "symbol")) {
		if (sdt_symbol(argv[2], argv[3], &addr))
			printf("%#" PRIx64 "\n", addr);
		else
			printf("none\n");
		return 0;
	}
	fprintf(stderr, "usage: sdt-dump notes FILE | args DESC... | symbol FILE NAME\n");
	return 2;
}
