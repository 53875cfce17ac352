/* umod-dump: what pass 3 would place in a module for a user binary, for
 * test-umod to compare with nm and readelf.
 *   umod-dump syms FILE	"ADDR SIZE NAME" per symbol, after a
 *				"# SOURCE PATH" line (where they came from)
 *   umod-dump cfi FILE		for each hex pc on stdin: "PC CFA RA RBP" in
 *				readelf's notation ("rsp+16 c-8 c-16"; "?"
 *				for a rule the unwinder does not follow)
 *   umod-dump size FILE	rows, symbols and the bytes of their tables
 *   umod-dump needed FILE	each DT_NEEDED library as --ldd finds it
 *   umod-dump lines FILE	for each hex address on stdin: "ADDR FILE:LINE"
 *				from the line table, "ADDR ??:?" without a line (as addr2line);
 *				after a "# ROWS FILES BYTES" line */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/tapc_usym.h"
#include "umod.h"

static void print_rule(const struct ucfi_row *r)
{
	if (!r || r->cfa_reg == UCFI_CFA_NONE) {
		printf("? ? ?\n");
		return;
	}
	if (r->cfa_reg == UCFI_CFA_END) {
		printf("* u *\n");
		return;
	}
	printf("%s%+d c%+d ", r->cfa_reg == UCFI_CFA_RSP ? "rsp" : "rbp",
	       r->cfa_off, r->ra_off);
	if (r->rbp_rule == UCFI_RBP_SAVED)
		printf("c%+d\n", r->rbp_off);
	else if (r->rbp_rule == UCFI_RBP_LOST)
		printf("?\n");
	else
		printf("u\n");
}

int main(int argc, char **argv)
{
	struct umod m;
	char err[512], line[128];

	if (argc != 3) {
		fprintf(stderr, "usage: umod-dump syms|cfi|size|needed|lines FILE\n");
		return 2;
	}
	if (!umod_load(&m, argv[2], err, sizeof(err))) {
		fprintf(stderr, "umod-dump: %s\n", err);
		return 1;
	}
	if (strcmp(argv[1], "syms") == 0) {
		printf("# %s\n", m.symsrc ? m.symsrc : "none");
		for (size_t i = 0; i < m.nsyms; i++)
			printf("%" PRIx64 " %" PRIx64 " %s\n", m.syms[i].addr,
			       m.syms[i].size, m.strtab + m.syms[i].name);
	} else if (strcmp(argv[1], "cfi") == 0) {
		while (fgets(line, sizeof(line), stdin)) {
			uint64_t pc = strtoull(line, NULL, 16);

			printf("%" PRIx64 " ", pc);
			print_rule(ucfi_lookup(&m.cfi, pc));
		}
	} else if (strcmp(argv[1], "size") == 0) {
		printf("fdes %zu rows %zu syms %zu bytes %zu\n", m.cfi.fdes,
		       m.cfi.count, m.nsyms,
		       m.cfi.count * sizeof(struct tap_ucfi) +
		       m.nsyms * sizeof(struct tap_usym) + m.strtab_len);
	} else if (strcmp(argv[1], "lines") == 0) {
		size_t names = 0;

		umod_load_lines(&m);
		for (size_t i = 0; i < m.lines.nfiles; i++)
			names += strlen(m.lines.files[i]) + 1 + sizeof(char *);
		printf("# %zu %zu %zu\n", m.lines.count, m.lines.nfiles,
		       m.lines.count * sizeof(struct tap_uline) + names);
		while (fgets(line, sizeof(line), stdin)) {
			uint64_t addr = strtoull(line, NULL, 16);
			const struct linetab_row *r = linetab_lookup(&m.lines, addr);

			if (r)
				printf("%" PRIx64 " %s:%u\n", addr, m.lines.files[r->file], r->line);
			else
				printf("%" PRIx64 " ??:?\n", addr);
		}
	} else if (strcmp(argv[1], "needed") == 0) {
		for (int i = 0; i < m.needed.count; i++) {
			char *lib = umod_find_library(&m, m.needed.items[i]);

			printf("%s %s\n", m.needed.items[i], lib ? lib : "-");
			free(lib);
		}
	}
	umod_free(&m);
	return 0;
}
