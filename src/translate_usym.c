/* Pass 3: the user binaries' symbol tables and unwind rows as C data
 * (runtime/tapc_usym.h), one set of arrays per binary, for the user
 * symbol and backtrace functions (runtime/linux/uunwind.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elaborate.h"
#include "probes/family.h"
#include "probes/uprobe.h"
#include "translate.h"
#include "translate_int.h"
#include "translate_usym.h"
#include "ucfi.h"
#include "umod.h"
#include "util.h"

static void translate_klines(FILE *out, const struct umod_set *set);

static uint64_t umod_base(const struct umod *m)
{
	uint64_t base = UINT64_MAX;

	for (int i = 0; i < m->nloads; i++)
		if (m->loads[i].vaddr < base)
			base = m->loads[i].vaddr;
	return m->nloads ? base : 0;
}

/* A C string literal of @s (a path or symbol name: printable ASCII is
 * kept, the rest escaped). */
static void put_cstr(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f || ch == '?')
			fprintf(out, "\\%03o", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

static void emit_syms(FILE *out, const struct umod *m, size_t idx, uint64_t base)
{
	fprintf(out, "static const struct tap_usym tap_umod%zu_syms[] = {\n", idx);
	for (size_t i = 0; i < m->nsyms; i++) {
		const struct umod_sym *s = &m->syms[i];

		fprintf(out, "\t{ 0x%" PRIx64 ", 0x%" PRIx64 ", %u },\n",
			s->addr - base, s->size > UINT32_MAX ? 0 : s->size, s->name);
	}
	fprintf(out, "\t{ 0, 0, 0 }\n};\n");
	fprintf(out, "static const char tap_umod%zu_strtab[] =", idx);
	for (size_t off = 0; off < m->strtab_len; off += strlen(m->strtab + off) + 1) {
		fputs("\n\t", out);
		put_cstr(out, m->strtab + off);
		fputs(" \"\\0\"", out);
	}
	fputs(" \"\";\n", out);
}

static void emit_cfi(FILE *out, const struct umod *m, size_t idx, uint64_t base)
{
	fprintf(out, "static const struct tap_ucfi tap_umod%zu_cfi[] = {\n", idx);
	for (size_t i = 0; i < m->cfi.count; i++) {
		const struct ucfi_row *r = &m->cfi.rows[i];

		if (r->pc < base || r->pc - base > UINT32_MAX)
			continue;
		fprintf(out, "\t{ 0x%" PRIx64 ", %d, %d, %d, %u, %u },\n",
			r->pc - base, r->cfa_off, r->ra_off, r->rbp_off,
			r->cfa_reg, r->rbp_rule);
	}
	fprintf(out, "\t{ 0xffffffff, 0, 0, 0, TAP_UCFA_NONE, 0 }\n};\n");
}

/* @t's rows relative to @base as tap_uline rows named @name, and its
 * files as @name_files; the tap_ulines initialiser into @init. */
static void emit_lines(FILE *out, const struct linetab *t, uint64_t base,
		       const char *name, char *init, size_t initlen)
{
	size_t n = 0;

	if (!t->count) {
		snprintf(init, initlen, "{ 0 }");
		return;
	}
	fprintf(out, "static const char *const %s_files[] = {\n", name);
	for (size_t i = 0; i < t->nfiles; i++) {
		fputc('\t', out);
		put_cstr(out, t->files[i]);
		fputs(",\n", out);
	}
	fprintf(out, "};\nstatic const struct tap_uline %s[] = {\n", name);
	for (size_t i = 0; i < t->count; i++) {
		const struct linetab_row *r = &t->rows[i];

		if (r->addr < base || r->addr - base > UINT32_MAX)
			continue;
		fprintf(out, "\t{ 0x%" PRIx64 ", 0x%x },\n", r->addr - base,
			r->file << LINETAB_LINE_BITS | r->line);
		n++;
	}
	fputs("};\n", out);
	snprintf(init, initlen, "{ %s, %zu, %s_files }", name, n, name);
}

static void emit_one(FILE *out, const struct umod *m, size_t idx, char *lines,
		     size_t lineslen)
{
	char name[48];

	uint64_t base = umod_base(m);

	fprintf(out, "/* %s: %zu symbols, %zu unwind rows */\n", m->path,
		m->nsyms, m->cfi.count);
	emit_syms(out, m, idx, base);
	emit_cfi(out, m, idx, base);
	snprintf(name, sizeof(name), "tap_umod%zu_lines", idx);
	emit_lines(out, &m->lines, base, name, lines, lineslen);
	fprintf(out, "static const struct tap_uload tap_umod%zu_loads[] = {\n", idx);
	for (int i = 0; i < m->nloads; i++)
		fprintf(out, "\t{ 0x%" PRIx64 "ULL, 0x%" PRIx64 "ULL, 0x%" PRIx64 "ULL },\n",
			m->loads[i].off, m->loads[i].vaddr, m->loads[i].filesz);
	fprintf(out, "\t{ 0, 0, 0 }\n};\n");
	fprintf(out, "static const unsigned char tap_umod%zu_build_id[] = {", idx);
	for (size_t i = 0; i < m->build_id_len; i++)
		fprintf(out, "%s0x%02x", i ? ", " : " ", m->build_id[i]);
	fprintf(out, "%s0 };\n\n", m->build_id_len ? ", " : " ");
}

void translate_umods(FILE *out, const struct umod_set *set)
{
	size_t n = set ? set->count : 0;
	char (*lines)[128] = xcalloc(n + 1, sizeof(*lines));

	for (size_t i = 0; i < n; i++)
		emit_one(out, &set->mods[i], i, lines[i], sizeof(lines[i]));
	translate_klines(out, set);
	fprintf(out, "const struct tap_umod tap_umods[] = {\n");
	for (size_t i = 0; i < n; i++) {
		const struct umod *m = &set->mods[i];
		size_t ncfi = 0;
		uint64_t base = umod_base(m);

		for (size_t j = 0; j < m->cfi.count; j++)
			ncfi += m->cfi.rows[j].pc >= base &&
				m->cfi.rows[j].pc - base <= UINT32_MAX;
		fputs("\t{ .path = ", out);
		put_cstr(out, m->path);
		fprintf(out, ", .build_id = tap_umod%zu_build_id, .build_id_len = %zu,\n"
			"\t  .base = 0x%" PRIx64 "ULL, .loads = tap_umod%zu_loads, .nloads = %d,\n"
			"\t  .syms = tap_umod%zu_syms, .nsyms = %zu, .strtab = tap_umod%zu_strtab,\n"
			"\t  .cfi = tap_umod%zu_cfi, .ncfi = %zu,\n"
			"\t  .lines = %s },\n",
			i, m->build_id_len, base, i, m->nloads, i, m->nsyms, i, i, ncfi,
			lines[i]);
	}
	if (!n)
		fputs("\t{ .path = 0 }	/* placeholder: no user binary */\n", out);
	fprintf(out, "};\nconst unsigned int tap_umod_count = %zu;\n\n", n);
	free(lines);
}

/* The kernel's rows, relative to their lowest address. */
static void translate_klines(FILE *out, const struct umod_set *set)
{
	const struct linetab *t = set ? &set->kernel_lines : NULL;
	uint64_t base = t && t->count ? t->rows[0].addr : 0;
	char init[128];

	if (!t || !t->count) {
		fputs("const struct tap_klines tap_klines = { 0 };\n\n", out);
		return;
	}
	fprintf(out, "/* the kernel: %zu line rows of the probed functions */\n", t->count);
	emit_lines(out, t, base, "tap_klines_rows", init, sizeof(init));
	fprintf(out, "const struct tap_klines tap_klines = {\n"
		"\t.base = 0x%" PRIx64 "ULL, .reloc_ref = 0x%" PRIx64 "ULL,\n"
		"\t.lines = %s\n};\n\n", base, set->kernel_reloc_ref, init);
}

void translate_kmod_lines(struct tr *T, FILE *out, const struct umod_set *set)
{
	size_t n = set ? set->nkmods : 0;
	char (*lines)[128] = xcalloc(n + 1, sizeof(*lines));

	for (size_t i = 0; i < n; i++) {
		char name[48];

		snprintf(name, sizeof(name), "tap_kmod%zu_lines", i);
		fprintf(out, "/* %s: %zu line rows of its probed functions */\n",
			set->kmods[i].modsym, set->kmods[i].rows.count);
		emit_lines(out, &set->kmods[i].rows, set->kmods[i].anchor, name, lines[i],
			   sizeof(lines[i]));
	}
	fputs("const struct tap_kmod_lines tap_kmod_lines[] = {\n", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "\t{ .modsym = %u, .lines = %s },\n",
			tr_modsym_index(T, set->kmods[i].modsym), lines[i]);
	if (!n)
		fputs("\t{ .modsym = 0 }	/* placeholder: no module rows */\n", out);
	fprintf(out, "};\nconst unsigned int tap_kmod_lines_count = %zu;\n\n", n);
	free(lines);
}

extern const struct probe_family probe_family_process;
extern const struct probe_family probe_family_uprobe;
extern const struct probe_family probe_family_sdt;

size_t usym_probe_binaries(const struct derived_probe *dp, const char **out)
{
	if (!dp->runs)
		return 0;
	if (dp->family == &probe_family_process && dp->fp.target) {
		out[0] = dp->fp.target;
		return 1;
	}
	if (dp->family == &probe_family_sdt && dp->fp.module) {
		out[0] = dp->fp.module;
		return 1;
	}
	if (dp->family == &probe_family_uprobe && dp->fp.data) {
		const struct uprobe_data *d = dp->fp.data;

		out[0] = d->file;
		if (d->library && d->program && strcmp(d->program, d->file) != 0) {
			out[1] = d->program;
			return 2;
		}
		return 1;
	}
	return 0;
}
