/* test-dwtvar: the DWARF target-variable resolver on any ELF file with
 * DWARF, without a probe family.
 *
 *   test-dwtvar FILE FUNC [--inline] [--return] [--list] [--type NAME]...
 *               [--members NAME]... [--pc-offset N] [--module M] [--user]
 *               [--binary BIN] [--write] [EXPR]...
 *
 * builds the scope of FUNC at its entry pc (--inline: of FUNC's first
 * inline instance; --return: as a .return probe; --pc-offset: N bytes
 * further; --module: in module M rather than the kernel; --user: in
 * FILE as a user binary, placed at file offsets as uprobes are; --binary:
 * FILE is BIN's separate debuginfo, BIN's .eh_frame the CFI; --write: the
 * EXPRs after it as assigned to), then prints, one line
 * each, the -L listing (--list), the C name of each --type looked up by
 * name, the members of each --members (name:TYPE@BIT_OFFSET[/BITS]),
 * and each target expression's type and access path (tvar.h's
 * text) or its error.  An EXPR is "[&]$name", "$$name" or
 * "[&]@var(NAME[@FILE][,MODULE])" (resolved as an @var in the file, of
 * the --module given before it) followed by "->member", "[N]" and a
 * final "$" or "$$".
 */
#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdw.h>

#include "ast.h"
#include "ctypes.h"
#include "dwatvar.h"
#include "dwscope.h"
#include "dwtvar.h"
#include "tvar.h"
#include "tvar_resolve.h"
#include "util.h"

static const char *wanted;
static bool write_mode;
static bool want_inline;
static Dwarf_Die found;
static bool have_found;

static bool is_instance_of(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Die origin;
	const char *n;

	if (dwarf_tag(die) != DW_TAG_inlined_subroutine ||
	    !dwarf_attr(die, DW_AT_abstract_origin, &attr) || !dwarf_formref_die(&attr, &origin))
		return false;
	n = dwarf_diename(&origin);
	return n && !strcmp(n, wanted);
}

/* The first inline instance of wanted under die. */
static bool find_instance(Dwarf_Die *die, int depth)
{
	Dwarf_Die child;

	if (depth > 32 || dwarf_child(die, &child) != 0)
		return false;
	do {
		if (is_instance_of(&child)) {
			found = child;
			return true;
		}
		if (find_instance(&child, depth + 1))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

static int func_cb(Dwarf_Die *func, void *arg)
{
	Dwarf_Addr pc;

	(void)arg;
	if (want_inline) {
		if (find_instance(func, 0)) {
			have_found = true;
			return DWARF_CB_ABORT;
		}
		return DWARF_CB_OK;
	}
	if (dwarf_diename(func) && !strcmp(dwarf_diename(func), wanted) &&
	    dwarf_entrypc(func, &pc) == 0) {
		found = *func;
		have_found = true;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

static bool find_scope(Dwarf *dbg, struct dwarf_scope *scope)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (!have_found && dwarf_nextcu(dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dbg, off + hsize, &scope->cu))
			dwarf_getfuncs(&scope->cu, func_cb, NULL, 0);
		off = next;
	}
	if (!have_found)
		return false;
	scope->func = found;
	return dwarf_entrypc(&scope->func, &scope->pc) == 0;
}

/* ---- expressions ----------------------------------------------------- */

static const struct srcpos nopos;

static struct expr *parse_target(const char *s)
{
	struct expr *e = expr_new(E_TARGET, &nopos);
	const char *p = s;
	size_t n;

	if (*p == '&') {
		e->addressof = true;
		p++;
	}
	if (!strncmp(p, "@var(", 5)) {
		/* "NAME[@FILE][,MODULE])" */
		e->kind = E_VAR;
		p += 5;
		n = strcspn(p, ",)");
		e->str = xstrndup(p, n);
		p += n;
		if (*p == ',') {
			n = strcspn(++p, ")");
			e->module = xstrndup(p, n);
			p += n;
		}
		p += *p == ')';
	} else {
		/* "$" or "$$", the name, then any "$"/"$$" is a suffix */
		n = p[1] == '$' ? 2 : 1;
		n += strspn(p + n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		e->name = xstrndup(p, n);
		p += n;
	}
	while (*p) {
		struct tcomp *tc;

		if (!strncmp(p, "->", 2)) {
			tc = tcomp_new(TC_FIELD, &nopos);
			p += 2;
			n = strcspn(p, "-[$");
			tc->name = xstrndup(p, n);
			p += n;
		} else if (*p == '[') {
			tc = tcomp_new(TC_INDEX, &nopos);
			tc->index = expr_new(E_NUM, &nopos);
			tc->index->num = strtoll(p + 1, (char **)&p, 0);
			p += *p == ']';
		} else if (*p == '$') {
			tc = tcomp_new(TC_PPRINT, &nopos);
			tc->name = xstrdup(p);
			p += strlen(p);
		} else {
			fprintf(stderr, "test-dwtvar: cannot parse %s\n", s);
			exit(2);
		}
		vec_push(&e->comps, tc);
	}
	return e;
}

static void resolve(const struct dwarf_scope *scope, const char *text)
{
	struct expr *e = parse_target(text);
	struct family_error err = { 0 };
	struct tvar *tv = NULL;
	enum sem_type t;

	if (e->kind == E_VAR) {
		tv = dwatvar_resolve(dwarf_cu_getdwarf(((Dwarf_Die *)&scope->cu)->cu),
				     e->module ? e->module : scope->module, scope->user, e, &err);
		t = tv ? tv->type : SEM_UNKNOWN;
	} else {
		t = dwtvar_type(scope, e, write_mode, &err, &tv);
	}

	if (tv) {
		char *d = tvar_describe(tv);

		printf("%s: %s %s\n", text, t == SEM_STRING ? "string" : "long", d);
		free(d);
	} else {
		printf("%s: error: %s%s%s\n", text, err.msg ? err.msg : "(no message)",
		       err.what ? " near " : "", err.what ? err.what : "");
	}
	tvar_free(tv);
	free(err.msg);
	free(err.what);
	for (size_t i = 0; i < e->comps.n; i++)
		tcomp_free(e->comps.v[i]);
	free(e->comps.v);
	e->comps.v = NULL;
	e->comps.n = 0;
	expr_free(e);
}

static void list(const struct dwarf_scope *scope)
{
	struct vec out = { 0 };

	dwtvar_list(scope, &out);
	printf("list:");
	for (size_t i = 0; i < out.n; i++) {
		printf(" %s", (char *)out.v[i]);
		free(out.v[i]);
	}
	printf("\n");
	free(out.v);
}

static void type_by_name(Dwarf *dbg, const char *name)
{
	struct ctypes ct = ctypes_dwarf(dbg);
	ctype_id id = ctype_find(&ct, name);
	char *tn;

	if (!id) {
		printf("type %s: not found\n", name);
		return;
	}
	tn = tvar_type_name(&ct, id);
	printf("type %s: %s size=%lld members=%u\n", name, tn,
	       (long long)ctype_size(&ct, ctype_resolve(&ct, id)),
	       ctype_member_count(&ct, ctype_resolve(&ct, id)));
	free(tn);
}

/* "name:TYPE" of each member of the struct or union called name. */
static void members(Dwarf *dbg, const char *name)
{
	struct ctypes ct = ctypes_dwarf(dbg);
	ctype_id id = ctype_resolve(&ct, ctype_find(&ct, name));
	struct ctype_member m;

	printf("members %s:", name);
	for (uint32_t i = 0; ctype_member_at(&ct, id, i, &m) == 0; i++) {
		char *tn = tvar_type_name(&ct, m.type);

		printf(" %s:%s@%llu", *m.name ? m.name : "<anon>", tn,
		       (unsigned long long)m.bit_offset);
		if (m.bitfield_size)
			printf("/%u", m.bitfield_size);
		free(tn);
	}
	printf("\n");
}

/* --user's file_offset: the PT_LOAD segment of the file's program
 * headers that holds addr, as the uprobe family reads them. */
static bool file_offset(const void *ctx, Dwarf_Addr addr, uint64_t *off)
{
	Elf *elf = dwarf_getelf((Dwarf *)ctx);
	size_t n;
	GElf_Phdr ph;

	if (!elf || elf_getphdrnum(elf, &n) != 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_filesz) {
			*off = addr - ph.p_vaddr + ph.p_offset;
			return true;
		}
	}
	return false;
}

/* --binary's CFI (the binary_cfi of the scope). */
static Dwarf_CFI *binary_cfi;

static Dwarf_CFI *get_binary_cfi(const void *ctx)
{
	(void)ctx;
	return binary_cfi;
}

/* BIN's .eh_frame as --binary's CFI; false if it has none. */
static bool open_binary(const char *bin)
{
	int fd = open(bin, O_RDONLY);
	Elf *elf;

	elf_version(EV_CURRENT);
	elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	binary_cfi = elf ? dwarf_getcfi_elf(elf) : NULL;
	return binary_cfi != NULL;	/* fd and elf kept until exit */
}

int main(int argc, char **argv)
{
	struct dwarf_scope scope = { .module = "kernel" };
	Dwarf *dbg;
	int fd, i;

	if (argc < 3) {
		fprintf(stderr, "usage: test-dwtvar FILE FUNC [--inline] [--return] [--list] "
			"[--type NAME]... [--members NAME]... [--pc-offset N] [--module M] "
			"[--user] [--binary BIN] [--write] [EXPR]...\n");
		return 2;
	}
	wanted = argv[2];
	for (i = 3; i < argc; i++)
		if (!strcmp(argv[i], "--inline"))
			want_inline = true;
	fd = open(argv[1], O_RDONLY);
	dbg = fd < 0 ? NULL : dwarf_begin(fd, DWARF_C_READ);
	if (!dbg) {
		fprintf(stderr, "test-dwtvar: %s: no DWARF\n", argv[1]);
		return 2;
	}
	if (!find_scope(dbg, &scope)) {
		fprintf(stderr, "test-dwtvar: no function %s\n", wanted);
		return 2;
	}
	for (i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--inline"))
			continue;
		if (!strcmp(argv[i], "--return"))
			scope.at_return = true;
		else if (!strcmp(argv[i], "--write"))
			write_mode = true;
		else if (!strcmp(argv[i], "--list"))
			list(&scope);
		else if (!strcmp(argv[i], "--pc-offset") && i + 1 < argc)
			scope.pc += strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--module") && i + 1 < argc)
			scope.module = argv[++i];
		else if (!strcmp(argv[i], "--user")) {
			scope.user = true;
			scope.module = argv[1];
			scope.file_offset = file_offset;
			scope.file_offset_ctx = dbg;
		} else if (!strcmp(argv[i], "--binary") && i + 1 < argc) {
			if (!open_binary(argv[++i])) {
				fprintf(stderr, "test-dwtvar: %s: no .eh_frame\n", argv[i]);
				return 2;
			}
			scope.binary_cfi = get_binary_cfi;
		}
		else if (!strcmp(argv[i], "--members") && i + 1 < argc)
			members(dbg, argv[++i]);
		else if (!strcmp(argv[i], "--type") && i + 1 < argc)
			type_by_name(dbg, argv[++i]);
		else
			resolve(&scope, argv[i]);
	}
	ctypes_dwarf_forget(dbg);
	dwarf_end(dbg);
	close(fd);
	return 0;
}
