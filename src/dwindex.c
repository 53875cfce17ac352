/* The DWARF function index of one binary (see dwindex.h).
 *
 * Which functions are left out, as the kernel would refuse to kprobe them
 * (register_kprobe's checks, which SystemTap's own section rule agrees
 * with):
 *  - anything outside the text proper: a module's function must lie in
 *    .text or a .text.* section (not .noinstr.text ...), or in its
 *    .init.text or .exit.text, whose functions SystemTap lists and probes
 *    too (the runtime registers them when the module is loaded, before
 *    its init function runs); a vmlinux function must lie in .text, as
 *    its init text is gone once the kernel has booted; a user binary's
 *    in .text;
 *  - in vmlinux, the areas the kernel blacklists as a whole:
 *    __kprobes_text (functions marked __kprobes), the noinstr text and,
 *    on x86, the entry text (populate_kprobe_blacklist);
 *  - in vmlinux, the functions NOKPROBE_SYMBOL() lists, read from the
 *    addresses in its _kprobe_blacklist section.
 * A module's own NOKPROBE_SYMBOL list is not read: the kernel refuses
 * those at registration, which is a warning then.
 *
 * Walking every compile unit of Debian's vmlinux for its subprograms and
 * inline instances takes about half a second, so the index of a file with
 * a build-id is kept on disk (dwcache.h) and read back on the next run.
 */
#include "dwindex.h"

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dwcache.h"
#include "glob.h"
#include "suggest.h"
#include "symtab.h"
#include "util.h"

/* An address range [lo, hi) the kernel refuses as a whole. */
struct addr_range {
	Dwarf_Addr lo, hi;
};

struct dwindex {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dw;
	Dwarf_Addr bias;	/* DWARF address + bias = the module's address */
	bool is_kernel;
	bool is_kmodule;	/* a kernel module's */

	struct dwfunc *funcs;	/* sorted by name, then address */
	size_t n, cap;
	char *strings;		/* the index's bytes, which its names and
				 * files point into (dwcache.h) */
	size_t strings_mapped;	/* their length when dwcache_load mapped
				 * them, else 0 (malloc'd) */

	struct symtab syms;	/* a view into the cache file, but in a walk's
				 * own index */
	struct vec codeless;	/* a walk's: names of DWARF functions defined
				 * without code, not as inline ones' abstract
				 * DIEs (SYMTAB_DWARF_CODELESS) */
	Dwarf_Addr stext, etext;
	struct addr_range refused[3];
	struct addr_range *blacklist;	/* NOKPROBE_SYMBOL functions, sorted */
	size_t n_blacklist;
};

/* ---- opening */

/* The debug file is the file itself: libdwfl must not look elsewhere. */
static int no_separate_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
				 Dwarf_Addr base, const char *file_name,
				 const char *debuglink_file, GElf_Word debuglink_crc,
				 char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = no_separate_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* A user binary's DWARF may be in a file of its own: by build-id under
 * /usr/lib/debug/.build-id/, or by .gnu_debuglink beside it or under
 * /usr/lib/debug (libdwfl's standard search). */
static char *user_debuginfo_path;
static const Dwfl_Callbacks user_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &user_debuginfo_path,
};

static bool open_dwfl(struct dwindex *ix, const Dwfl_Callbacks *cb, const char *path,
		      const char *module, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %m", path);
		return false;
	}
	ix->dwfl = dwfl_begin(cb);
	/* dwfl owns fd from here on */
	ix->mod = ix->dwfl ? dwfl_report_offline(ix->dwfl, module ? module : "kernel", path, fd)
			   : NULL;
	if (!ix->mod) {
		if (!ix->dwfl)
			close(fd);
		snprintf(err, errlen, "cannot read %s: %s", path, dwfl_errmsg(-1));
		return false;
	}
	dwfl_report_end(ix->dwfl, NULL, NULL);
	ix->dw = dwfl_module_getdwarf(ix->mod, &ix->bias);
	if (!ix->dw) {
		snprintf(err, errlen, "%s has no DWARF debuginfo: %s", path, dwfl_errmsg(-1));
		return false;
	}
	return true;
}

/* ---- symbols */

static void read_symbols(struct dwindex *ix)
{
	int n = dwfl_module_getsymtab(ix->mod);
	struct symtab_builder *b = symtab_begin(n > 1 ? (size_t)n : 1);
	bool user = !ix->is_kernel && !ix->is_kmodule;

	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(ix->mod, i, &sym, &addr, NULL, NULL,
							   NULL);
		int type = name ? GELF_ST_TYPE(sym.st_info) : STT_NOTYPE;
		int bind = name ? GELF_ST_BIND(sym.st_info) : STB_LOCAL;

		if (!name)
			continue;
		/* a user binary's functions without a size (crt's _init,
		 * frame_dummy ...) are functions SystemTap probes too */
		symtab_add(b, name, addr - ix->bias,
			   type == STT_FUNC || (ix->is_kernel && type == STT_NOTYPE) ||
				   strncmp(name, "__ksymtab_", 10) == 0,
			   type == STT_FUNC && (sym.st_size > 0 || user),
			   type == STT_FUNC ? sym.st_size : 0,
			   bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2);
	}
	symtab_end(b, &ix->syms);
}

static const char *fn_name(const struct dwindex *ix, const struct symtab_fn *f)
{
	return symtab_name(&ix->syms, f->name);
}

/* The DWARF address of symbol NAME (the first of that name), or 0. */
static Dwarf_Addr symbol_addr(const struct dwindex *ix, const char *name)
{
	const struct symtab_slot *v = symtab_lookup(&ix->syms, name);

	return v ? v->addr : 0;
}

/* ---- what the kernel refuses */

static int range_cmp(const void *a, const void *b)
{
	const struct addr_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The ELF data holding vmlinux address ADDR, and its section's address. */
static Elf_Data *data_at(const struct dwindex *ix, Dwarf_Addr addr, GElf_Addr *sec_addr)
{
	Dwarf_Addr a = addr + ix->bias, bias;
	Elf_Scn *scn = dwfl_module_address_section(ix->mod, &a, &bias);
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
		return NULL;
	*sec_addr = sh.sh_addr;
	return elf_getdata(scn, NULL);
}

/* NOKPROBE_SYMBOL(): the addresses vmlinux lists in _kprobe_blacklist,
 * each the start of a function the kernel refuses whole. */
static void read_blacklist(struct dwindex *ix)
{
	Dwarf_Addr start = symbol_addr(ix, "__start_kprobe_blacklist");
	Dwarf_Addr stop = symbol_addr(ix, "__stop_kprobe_blacklist");
	GElf_Addr sec_addr;
	Elf_Data *data = start && stop > start ? data_at(ix, start, &sec_addr) : NULL;
	size_t off, count;

	if (!data || !data->d_buf)
		return;
	off = start - sec_addr;
	count = (stop - start) / sizeof(uint64_t);
	if (off + count * sizeof(uint64_t) > data->d_size)
		return;
	ix->blacklist = xmalloc(count * sizeof(*ix->blacklist));
	for (size_t i = 0; i < count; i++) {
		uint64_t a;
		const struct symtab_fn *f;

		memcpy(&a, (const char *)data->d_buf + off + i * sizeof(a), sizeof(a));
		f = symtab_fn_at(&ix->syms, a);
		ix->blacklist[ix->n_blacklist++] = f ? (struct addr_range){ f->lo, f->hi }
						     : (struct addr_range){ a, a + 1 };
	}
	if (ix->n_blacklist > 1)
		qsort(ix->blacklist, ix->n_blacklist, sizeof(*ix->blacklist), range_cmp);
}

/* Whether ADDR is in one of the sorted, disjoint ranges R[0 .. n). */
static bool in_ranges(const struct addr_range *r, size_t n, Dwarf_Addr addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < r[mid].lo)
			hi = mid;
		else if (addr >= r[mid].hi)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

static void read_kernel_limits(struct dwindex *ix)
{
	static const char *const areas[3][2] = {
		{ "__kprobes_text_start", "__kprobes_text_end" },
		{ "__noinstr_text_start", "__noinstr_text_end" },
		{ "__entry_text_start", "__entry_text_end" },
	};

	ix->stext = symbol_addr(ix, "_stext");
	ix->etext = symbol_addr(ix, "_etext");
	for (int i = 0; i < 3; i++) {
		ix->refused[i].lo = symbol_addr(ix, areas[i][0]);
		ix->refused[i].hi = symbol_addr(ix, areas[i][1]);
	}
	read_blacklist(ix);
}

/* The name of the section of a module or user binary that holds ADDR
 * (a DWARF address), or NULL; its flags in *FLAGS when FLAGS is not
 * NULL. */
static const char *section_at(const struct dwindex *ix, Dwarf_Addr addr, GElf_Xword *flags)
{
	Dwarf_Addr a = addr + ix->bias, bias;
	Elf_Scn *scn = dwfl_module_address_section(ix->mod, &a, &bias);
	GElf_Shdr sh;
	size_t shstrndx;
	Elf *elf = dwfl_module_getelf(ix->mod, &bias);

	if (!scn || !elf || !gelf_getshdr(scn, &sh) || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	if (flags)
		*flags = sh.sh_flags;
	return elf_strptr(elf, shstrndx, sh.sh_name);
}

static const char *section_of(const struct dwindex *ix, Dwarf_Addr addr)
{
	return section_at(ix, addr, NULL);
}

/* Whether the kernel would kprobe a function entered at ADDR. */
static bool probeable(const struct dwindex *ix, Dwarf_Addr addr)
{
	GElf_Xword flags = 0;
	const char *name;

	if (ix->is_kernel) {
		if (addr < ix->stext || addr >= ix->etext)
			return false;
		for (int i = 0; i < 3; i++)
			if (addr >= ix->refused[i].lo && addr < ix->refused[i].hi)
				return false;
		return !in_ranges(ix->blacklist, ix->n_blacklist, addr);
	}
	name = section_at(ix, addr, &flags);
	if (!name)
		return false;
	if (ix->is_kmodule && (!strcmp(name, ".init.text") || !strcmp(name, ".exit.text")))
		return true;
	/* a user binary's code is in any executable section but its
	 * procedure linkage tables (libc's __libc_freeres_fn too, as
	 * SystemTap probes it) */
	if (!ix->is_kmodule && (flags & SHF_EXECINSTR) && strncmp(name, ".plt", 4) != 0)
		return true;
	return strcmp(name, ".text") == 0 || strncmp(name, ".text.", 6) == 0;
}

bool dwindex_in_init_text(const struct dwindex *ix, Dwarf_Addr addr)
{
	const char *name = ix->is_kmodule ? section_of(ix, addr) : NULL;

	return name && !strcmp(name, ".init.text");
}

/* ---- the walk */

/* A function the DWARF gives no declaration (an assembler file's): named
 * by the line-table row of its entry, file and line, as SystemTap does
 * ("pkey_alloc@../sysdeps/unix/syscall-template.S:120" in libc,
 * "asm_one@/home/u/src/a.S:8" in a program assembled there), and
 * "<unknown source>" when no row has it (the kernel's
 * copy_user_generic_unrolled, as stap 4.8 prints it). */
static void undeclared_place(Dwarf_Die *cu, struct dwfunc *f)
{
	Dwarf_Line *line = dwarf_getsrc_die(cu, f->entry);
	const char *file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;

	f->decl_file = file ? file : "<unknown source>";
	if (file)
		dwarf_lineno(line, &f->decl_line);
}

/* F's file is named as its DWARF names it (dwarf_decl_file, and
 * dwarf_linesrc for lines), as SystemTap prints it: "fs/read_write.c" in
 * the kernel, "/home/u/src/prog.c" in a program compiled there,
 * "./malloc/malloc.c" in libc; never made relative to DW_AT_comp_dir. */
static void add_func(struct dwindex *ix, Dwarf_Die *cu, Dwarf_Die *die, bool inline_instance)
{
	const char *name = dwarf_diename(die);
	Dwarf_Addr entry, base, end;
	Dwarf_Attribute attr;
	bool flag = false;
	struct dwfunc *f;

	if (!name)
		return;
	if (dwarf_entrypc(die, &entry) != 0 && dwarf_ranges(die, 0, &base, &entry, &end) <= 0)
		return;		/* no code */
	if (!probeable(ix, entry))
		return;
	if (ix->n == ix->cap) {
		ix->cap = ix->cap ? 2 * ix->cap : 4096;
		ix->funcs = xrealloc(ix->funcs, ix->cap * sizeof(*ix->funcs));
	}
	f = &ix->funcs[ix->n++];
	f->name = name;
	f->die = dwarf_dieoffset(die);
	f->entry = entry;
	f->inline_instance = inline_instance;
	if (dwarf_attr_integrate(die, DW_AT_external, &attr))
		dwarf_formflag(&attr, &flag);
	f->external = flag;
	f->decl_file = dwarf_decl_file(die);
	f->decl_line = 0;
	if (f->decl_file)
		dwarf_decl_line(die, &f->decl_line);
	else if (!inline_instance)
		undeclared_place(cu, f);
}

/* The functions among DIE's children, and the inline instances in them. */
static void walk_children(struct dwindex *ix, Dwarf_Die *cu, Dwarf_Die *die)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child) != 0)
		return;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
			if (dwarf_hasattr(&child, DW_AT_low_pc) || dwarf_hasattr(&child, DW_AT_ranges))
				add_func(ix, cu, &child, false);
			else if (!dwarf_hasattr(&child, DW_AT_declaration) &&
				 !dwarf_hasattr(&child, DW_AT_inline) && dwarf_diename(&child))
				vec_push(&ix->codeless, (void *)dwarf_diename(&child));
			walk_children(ix, cu, &child);
			break;
		case DW_TAG_inlined_subroutine:
			add_func(ix, cu, &child, true);
			walk_children(ix, cu, &child);
			break;
		case DW_TAG_lexical_block:
			walk_children(ix, cu, &child);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int func_cmp(const void *a, const void *b)
{
	const struct dwfunc *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

static void build_index(struct dwindex *ix)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(ix->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(ix->dw, off + hsize, &cu))
			walk_children(ix, &cu, &cu);
		off = next;
	}
	if (ix->n > 1)	/* none in a file of types only (uheader.c) */
		qsort(ix->funcs, ix->n, sizeof(*ix->funcs), func_cmp);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Flag the function symbols whose name the walk found only defined
 * without code (SYMTAB_DWARF_CODELESS).  The walk's table is its own
 * (malloc'd), so its entries may change. */
static void mark_codeless(struct dwindex *ix)
{
	struct symtab_fn *fns = (struct symtab_fn *)ix->syms.fns;
	const char **names = (const char **)ix->codeless.v;

	if (!ix->codeless.n)
		return;
	qsort(names, ix->codeless.n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < ix->syms.n_fns; i++) {
		const char *name = fn_name(ix, &fns[i]);

		if (bsearch(&name, names, ix->codeless.n, sizeof(*names), name_cmp))
			fns[i].rank |= SYMTAB_DWARF_CODELESS;
	}
}

/* The cache's name for the index: the file's build-id and the module's
 * name, or "" when it has no build-id. */
static void cache_key(const struct dwindex *ix, const char *module, char *key, size_t len)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(ix->mod, &bits, &vaddr);
	size_t at = 0;

	*key = '\0';
	if (n <= 0 || (size_t)n * 2 + 2 > len)
		return;
	for (int i = 0; i < n; i++)
		at += (size_t)snprintf(key + at, len - at, "%02x", bits[i]);
	/* module names are file names: no '/' */
	snprintf(key + at, len - at, "-%s", module ? module : "vmlinux");
}

/* IX's DWARF, opened through CB (false with a message in ERR). */
static bool open_all(struct dwindex *ix, const Dwfl_Callbacks *cb, const char *path,
		     const char *module, bool is_kernel, char *err, size_t errlen)
{
	ix->is_kernel = is_kernel;
	ix->is_kmodule = !is_kernel && strcmp(module, "@user") != 0;
	return open_dwfl(ix, cb, path, module, err, errlen);
}

/* What IX's symbols tell once it has them. */
static void symbols_read(struct dwindex *ix)
{
	if (ix->is_kernel)
		read_kernel_limits(ix);
}

/* The index of PATH, built by walking its DWARF, as the bytes of a cache
 * file (*len of them), or NULL with a message in ERR.  The walk has a
 * Dwfl of its own, dropped after: the declaration files load the line
 * table of every compile unit, which the session must not keep. */
static char *build_encoded(const Dwfl_Callbacks *cb, const char *path, const char *module,
			   bool is_kernel, size_t *len, char *err, size_t errlen)
{
	struct dwindex *walk = xcalloc(1, sizeof(*walk));
	char *buf = NULL;

	if (open_all(walk, cb, path, module, is_kernel, err, errlen)) {
		read_symbols(walk);
		symbols_read(walk);
		build_index(walk);
		mark_codeless(walk);
		buf = dwcache_encode(path, walk->funcs, walk->n, &walk->syms, len);
		if (!buf)
			snprintf(err, errlen, "cannot index %s: %m", path);
	}
	dwindex_free(walk);
	return buf;
}

static struct dwindex *open_index(const Dwfl_Callbacks *cb, const char *path,
				  const char *module, bool is_kernel, char *err, size_t errlen)
{
	struct dwindex *ix = xcalloc(1, sizeof(*ix));
	char key[256];
	char *buf = NULL;
	size_t len = 0;

	if (!open_all(ix, cb, path, module, is_kernel, err, errlen)) {
		dwindex_free(ix);
		return NULL;
	}
	cache_key(ix, is_kernel ? NULL : module, key, sizeof(key));
	if (*key)
		buf = dwcache_load(key, &len);
	if (buf && dwcache_check(buf, len, path, &ix->n, &ix->syms)) {
		ix->strings_mapped = len;
	} else {
		dwcache_unload(buf, len);
		buf = build_encoded(cb, path, module, is_kernel, &len, err, errlen);
		if (buf && *key)
			dwcache_store(key, buf, len);
		if (!buf || !dwcache_check(buf, len, path, &ix->n, &ix->syms)) {
			if (buf)
				snprintf(err, errlen, "%s changed while it was indexed", path);
			free(buf);
			dwindex_free(ix);
			return NULL;
		}
	}
	ix->strings = buf;
	symbols_read(ix);
	/* decoded by func_at as lookups reach them: pages of this array
	 * that no lookup touches are never even allocated */
	ix->funcs = xcalloc(ix->n ? ix->n : 1, sizeof(*ix->funcs));
	return ix;
}

struct dwindex *dwindex_open(const char *path, const char *module, char *err, size_t errlen)
{
	return open_index(&offline_callbacks, path, module, module == NULL, err, errlen);
}

/* "@user" is no kernel module's name: the cache keeps a user binary's
 * index apart from a module's of the same build-id. */
struct dwindex *dwindex_open_user(const char *path, char *err, size_t errlen)
{
	return open_index(&user_callbacks, path, "@user", false, err, errlen);
}

Elf *dwindex_elf(const struct dwindex *ix)
{
	Dwarf_Addr bias;

	return dwfl_module_getelf(ix->mod, &bias);
}

/*
 * Whether the compile unit was built with optimisation: GCC records its
 * options in DW_AT_producer ("GNU C17 12.2.0 -mtune=generic -g -O2").  Its
 * unoptimised code keeps parameters in stack slots that the prologue
 * fills, and its DWARF describes them only after it.
 */
static bool cu_optimized(Dwarf_Die *cu)
{
	Dwarf_Attribute attr;
	const char *producer = dwarf_formstring(dwarf_attr(cu, DW_AT_producer, &attr));
	const char *o, *last = NULL;

	for (o = producer; o && (o = strstr(o, " -O")); o += 3)
		last = o + 3;
	return last && *last != '0' && *last != ' ' && *last != '\0';
}

static int prologue_searching;	/* 0 auto, 1 never, 2 always */

void dwindex_set_prologue_searching(int when)
{
	prologue_searching = when;
}

/*
 * Where SystemTap ends the prologue, and so where its users' probes go:
 * at the line-table row that follows the entry's first row, whatever its
 * line.  GCC -O0 starts a row there once the prologue has stored the
 * parameters, even when the body shares the function's line ("int f(int
 * a) { return a; }"); a rule that waits for another line would stay at
 * the entry, where those slots still hold garbage.  The entry itself when
 * that row is outside the function (no prologue to skip).
 */
Dwarf_Addr dwindex_prologue_end(const struct dwindex *ix, const struct dwfunc *f)
{
	Dwarf_Die die, cu;
	Dwarf_Lines *table;
	Dwarf_Addr addr = 0;
	size_t n = 0, i;

	if (prologue_searching == 1 || f->inline_instance ||
	    !dwindex_die(ix, f->die, &die, &cu) ||
	    (prologue_searching != 2 && cu_optimized(&cu)) ||
	    dwarf_getsrclines(&cu, &table, &n) != 0)
		return f->entry;
	/* the rows are sorted by address: find the entry's first, not the
	 * end of the sequence before it at the same address (C++'s inline
	 * and template functions have sequences of their own, often end to
	 * end at -O0).  SystemTap takes that end for the entry's row, and
	 * so stays at the entry: this is where it parts from SystemTap. */
	for (i = 0; i < n; i++) {
		Dwarf_Line *ln = dwarf_onesrcline(table, i);
		bool end = false;

		if (dwarf_lineaddr(ln, &addr) == 0 && addr >= f->entry &&
		    dwarf_lineendsequence(ln, &end) == 0 && !end)
			break;
	}
	if (i + 1 >= n || addr != f->entry ||
	    dwarf_lineaddr(dwarf_onesrcline(table, i + 1), &addr) != 0 ||
	    dwarf_haspc(&die, addr) <= 0)
		return f->entry;
	return addr;
}

void dwindex_free(struct dwindex *ix)
{
	if (!ix)
		return;
	if (ix->dwfl)
		dwfl_end(ix->dwfl);
	symtab_free(&ix->syms);
	free(ix->funcs);
	if (ix->strings_mapped)
		dwcache_unload(ix->strings, ix->strings_mapped);
	else
		free(ix->strings);
	free(ix->blacklist);
	vec_free(&ix->codeless);
	free(ix);
}

/* ---- questions */

/* Function I of the index, decoded from the cache file's record on first
 * use (a walk's own index is decoded already).  The index is logically
 * const: this only fills in what was always there. */
static const struct dwfunc *func_at(const struct dwindex *ix, size_t i)
{
	struct dwfunc *f = &ix->funcs[i];

	if (!f->name)
		dwcache_record(ix->strings, i, f);
	return f;
}

const struct dwfunc *dwindex_at(const struct dwindex *ix, Dwarf_Addr entry)
{
	for (size_t i = 0; i < ix->n; i++) {
		const struct dwfunc *f = func_at(ix, i);

		if (f->entry == entry && !f->inline_instance)
			return f;
	}
	return NULL;
}

/* GCC names the out-of-line part that partial inlining splits off a
 * function "NAME.part.N" (with more suffixes when it is cloned again);
 * the DWARF gives it NAME through its abstract origin. */
bool dwindex_split_part(const struct dwindex *ix, Dwarf_Addr entry)
{
	const struct symtab_fn *fns = ix->syms.fns;
	size_t lo = 0, hi = ix->syms.n_fns;
	bool any = false;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fns[mid].lo < entry)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* every symbol there (aliases included) is such a part */
	for (; lo < ix->syms.n_fns && fns[lo].lo == entry; lo++) {
		if (!strstr(fn_name(ix, &fns[lo]), ".part."))
			return false;
		any = true;
	}
	return any;
}

size_t dwindex_count(const struct dwindex *ix)
{
	return ix->n;
}

/* The first function named NAME or after it in order. */
static size_t lower_bound(const struct dwindex *ix, const char *name)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(func_at(ix, mid)->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t dwindex_match(const struct dwindex *ix, const char *name, const struct dwfunc ***out)
{
	struct vec found = { 0 };

	if (!glob_is_pattern(name)) {
		for (size_t i = lower_bound(ix, name);
		     i < ix->n && strcmp(func_at(ix, i)->name, name) == 0; i++)
			vec_push(&found, (void *)func_at(ix, i));
	} else {
		/* the names that start with the pattern's literal part are
		 * one run of the sorted index: only those are read */
		size_t plen = glob_literal_prefix(name);
		char *prefix = xstrndup(name, plen);
		bool matched = false;

		for (size_t i = lower_bound(ix, prefix); i < ix->n; i++) {
			/* one glob test per name: the index is sorted */
			const struct dwfunc *f = func_at(ix, i);

			if (strncmp(f->name, prefix, plen) != 0)
				break;
			if (i == 0 || strcmp(f->name, func_at(ix, i - 1)->name) != 0)
				matched = glob_match(name, f->name);
			if (matched)
				vec_push(&found, (void *)f);
		}
		free(prefix);
	}
	*out = (const struct dwfunc **)found.v;
	return found.n;
}

/* Whether the index has an out-of-line function named NAME. */
static bool has_outofline(const struct dwindex *ix, const char *name)
{
	for (size_t i = lower_bound(ix, name); i < ix->n && !strcmp(func_at(ix, i)->name, name);
	     i++)
		if (!func_at(ix, i)->inline_instance)
			return true;
	return false;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct dwfunc *const *x = a, *const *y = b;

	return (*x)->entry < (*y)->entry ? -1 : (*x)->entry > (*y)->entry;
}

/* The out-of-line functions of FOUND[0 .. n), by entry; how many. */
static size_t outofline_by_entry(const struct dwfunc **found, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!found[i]->inline_instance)
			found[k++] = found[i];
	if (k > 1)	/* FOUND may be NULL when nothing matched */
		qsort(found, k, sizeof(*found), entry_cmp);
	return k;
}

/* Whether one of BY_ENTRY[0 .. n) starts at ADDR with its DIE giving
 * DW_AT_low_pc there (SystemTap then counts the symbol as probed), not
 * ranges only.  GCC gives ranges to a function it split in a hot and a
 * cold part, which have symbols SYM and SYM.cold: that is told from the
 * symbol table, as reading the DIEs would load their compile units
 * (120 MB more for kernel.function("*")). */
static bool lowpc_at(const struct dwindex *ix, const struct dwfunc **by_entry, size_t n,
		     const struct symtab_fn *sym)
{
	size_t lo = 0, hi = n;
	char *cold;
	bool split;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (by_entry[mid]->entry < sym->lo)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n || by_entry[lo]->entry != sym->lo)
		return false;
	cold = xasprintf("%s.cold", fn_name(ix, sym));
	split = symtab_lookup(&ix->syms, cold) != NULL;
	free(cold);
	return !split;
}

/* The out-of-line function of the DWARF that symbol S is another name
 * of: one whose own name is a symbol at S's address, where it starts
 * (SystemTap's aliases, such as __clk_register_clkdev of
 * clkdev_hw_create); NULL when none. */
static const struct dwfunc *alias_of(const struct dwindex *ix, size_t s)
{
	const struct symtab_fn *fns = ix->syms.fns;
	size_t first = s;

	while (first > 0 && fns[first - 1].lo == fns[s].lo)
		first--;
	for (size_t i = first; i < ix->syms.n_fns && fns[i].lo == fns[s].lo; i++) {
		const char *name = fn_name(ix, &fns[i]);

		for (size_t k = lower_bound(ix, name); k < ix->n && !strcmp(func_at(ix, k)->name, name);
		     k++)
			if (!func_at(ix, k)->inline_instance && func_at(ix, k)->entry == fns[s].lo)
				return func_at(ix, k);
	}
	return NULL;
}

size_t dwindex_symtab_funcs(const struct dwindex *ix, const char *pat, struct dwsym **out)
{
	bool glob = glob_is_pattern(pat);
	const struct dwfunc **dwarf_at = NULL;
	size_t n_dwarf = 0, n = 0, cap = 0;

	if (glob) {
		n_dwarf = dwindex_match(ix, pat, &dwarf_at);
		n_dwarf = outofline_by_entry(dwarf_at, n_dwarf);
	}

	*out = NULL;
	for (size_t i = 0; i < ix->syms.n_fns; i++) {
		const struct symtab_fn *s = &ix->syms.fns[i];
		const char *name = fn_name(ix, s);

		if (glob ? !glob_match(pat, name) : strcmp(pat, name) != 0)
			continue;
		/* one probe per address; what the DWARF names is probed there */
		if ((n > 0 && (*out)[n - 1].addr == s->lo) || !probeable(ix, s->lo) ||
		    has_outofline(ix, name) ||
		    (n_dwarf && lowpc_at(ix, dwarf_at, n_dwarf, s)))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			*out = xrealloc(*out, cap * sizeof(**out));
		}
		(*out)[n] = (struct dwsym){ name, s->lo, alias_of(ix, i) };
		/* a name the DWARF defines without code is probed as the
		 * DWARF function at its address (folded into it), or not at
		 * all */
		if (!(*out)[n].alias && (s->rank & SYMTAB_DWARF_CODELESS))
			continue;
		/* an alias of a function the glob matches is probed already */
		if (!(*out)[n].alias || !glob || !glob_match(pat, (*out)[n].alias->name))
			n++;
	}
	free(dwarf_at);
	return n;
}

bool dwindex_codeless(const struct dwindex *ix, const char *name)
{
	const struct symtab_slot *v = symtab_lookup(&ix->syms, name);
	const struct symtab_fn *fns = ix->syms.fns;
	size_t lo = 0, hi = ix->syms.n_fns;

	if (!v)
		return false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fns[mid].lo < v->addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < ix->syms.n_fns && fns[lo].lo == v->addr; lo++)
		if (!strcmp(fn_name(ix, &fns[lo]), name))
			return fns[lo].rank & SYMTAB_DWARF_CODELESS;
	return false;
}

void dwindex_offer_names(const struct dwindex *ix, struct nearest *nr)
{
	for (size_t i = 0; i < ix->n; i++)
		if (i == 0 || strcmp(func_at(ix, i)->name, func_at(ix, i - 1)->name) != 0)
			nearest_offer(nr, func_at(ix, i)->name);
}

bool dwindex_die(const struct dwindex *ix, Dwarf_Off off, Dwarf_Die *die, Dwarf_Die *cu)
{
	if (!dwarf_offdie(ix->dw, off, die))
		return false;
	return cu == NULL || dwarf_diecu(die, cu, NULL, NULL) != NULL;
}

size_t dwindex_scopes(const struct dwindex *ix, const struct dwfunc *f, const char **names,
		      size_t max)
{
	Dwarf_Die die, cu, decl, *chain = NULL;
	Dwarf_Attribute attr;
	size_t k = 0;
	int n;

	if (!f->die || !dwindex_die(ix, f->die, &die, &cu))
		return 0;
	if (dwarf_formref_die(dwarf_attr(&die, DW_AT_abstract_origin, &attr), &decl))
		die = decl;
	if (dwarf_formref_die(dwarf_attr(&die, DW_AT_specification, &attr), &decl))
		die = decl;
	n = dwarf_getscopes_die(&die, &chain);
	for (int i = 1; i < n && k < max; i++) {
		int tag = dwarf_tag(&chain[i]);

		if (tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
		    tag == DW_TAG_structure_type) {
			const char *name = dwarf_diename(&chain[i]);

			names[k++] = name ? name : "";
		}
	}
	free(chain);
	return k;
}

Dwarf_Off dwindex_last_alias(const struct dwindex *ix, const struct dwfunc *f, const char **name)
{
	Dwarf_Die die, cu, child;
	Dwarf_Off last = f->die;

	*name = f->name;
	if (f->inline_instance || !dwindex_die(ix, f->die, &die, &cu) ||
	    dwarf_srclang(&cu) != DW_LANG_Mips_Assembler || dwarf_child(&cu, &child) != 0)
		return f->die;
	do {
		Dwarf_Addr low;
		const char *n;

		if (dwarf_tag(&child) == DW_TAG_subprogram && dwarf_lowpc(&child, &low) == 0 &&
		    low == f->entry && (n = dwarf_diename(&child)) != NULL) {
			last = dwarf_dieoffset(&child);
			*name = n;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return last;
}

const char *dwindex_decl_file(const struct dwindex *ix, const struct dwfunc *f, int *line)
{
	(void)ix;
	*line = f->decl_line;
	return f->decl_file;
}

bool dwindex_file_matches(const char *pat, const char *file)
{
	return glob_match_path_tail(pat, file);
}

/* Keep line L of FILE at ADDR in LINES (by line; the lowest address). */
static void keep_line(struct vec *lines, int l, Dwarf_Addr addr, const char *file)
{
	for (size_t i = 0; i < lines->n; i++) {
		struct dwline *k = lines->v[i];

		if (k->line == l && strcmp(k->file, file) == 0) {
			if (addr < k->addr)
				k->addr = addr;
			return;
		}
	}
	struct dwline *k = xmalloc(sizeof(*k));

	*k = (struct dwline){ l, addr, file };
	vec_push(lines, k);
}

static int dwline_cmp(const void *a, const void *b)
{
	const struct dwline *x = a, *y = b;

	if (x->line != y->line)
		return x->line - y->line;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

size_t dwindex_lines(const struct dwindex *ix, const struct dwfunc *f, const char *file,
		     int lo, int hi, struct dwline **out)
{
	Dwarf_Die die, cu;
	Dwarf_Lines *table;
	size_t n_table = 0;
	struct vec kept = { 0 };
	const char *decl = NULL;
	int decl_line;

	*out = NULL;
	if (!file && !(decl = dwindex_decl_file(ix, f, &decl_line)))
		return 0;
	if (!dwindex_die(ix, f->die, &die, &cu) || dwarf_getsrclines(&cu, &table, &n_table) != 0)
		return 0;
	for (size_t i = 0; i < n_table; i++) {
		Dwarf_Line *ln = dwarf_onesrcline(table, i);
		Dwarf_Addr addr;
		int l;
		const char *src;

		/* every row, is_stmt or not: SystemTap places a line at its
		 * lowest address whatever the row's flags say */
		if (!ln || dwarf_lineno(ln, &l) != 0 || l < lo || l > hi ||
		    dwarf_lineaddr(ln, &addr) != 0 || dwarf_haspc(&die, addr) <= 0)
			continue;
		src = dwarf_linesrc(ln, NULL, NULL);
		if (!src || (file ? !dwindex_file_matches(file, src) : strcmp(src, decl) != 0))
			continue;
		keep_line(&kept, l, addr, src);
	}
	*out = xmalloc((kept.n ? kept.n : 1) * sizeof(**out));
	for (size_t i = 0; i < kept.n; i++) {
		(*out)[i] = *(struct dwline *)kept.v[i];
		free(kept.v[i]);
	}
	n_table = kept.n;
	qsort(*out, n_table, sizeof(**out), dwline_cmp);
	vec_free(&kept);
	return n_table;
}

/* One row of a file's rows in a CU, and whether the function holds it. */
struct file_row {
	int line;
	Dwarf_Addr addr;
	bool held;
};

static int file_row_cmp(const void *a, const void *b)
{
	const struct file_row *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* The line the walk starts at: that of the last row at F's entry, as
 * dwarf_getsrc_die finds it, else that of the first row F holds (any file
 * for both, as SystemTap); 0 if F holds none. */
static int walk_start(Dwarf_Lines *table, size_t n, Dwarf_Die *die, Dwarf_Addr entry)
{
	int at_entry = 0, first = 0;

	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *ln = dwarf_onesrcline(table, i);
		Dwarf_Addr addr;
		bool end = false;
		int l;

		if (!ln || dwarf_lineaddr(ln, &addr) != 0 || dwarf_lineno(ln, &l) != 0 ||
		    dwarf_lineendsequence(ln, &end) != 0 || end)
			continue;
		if (addr == entry)
			at_entry = l;
		if (!first && dwarf_haspc(die, addr) > 0)
			first = l;
	}
	return at_entry ? at_entry : first;
}

/* Every row of the CU's line table in FILE, by line then address. */
static size_t file_rows(Dwarf_Lines *table, size_t n, Dwarf_Die *die,
			const char *file, struct file_row **out)
{
	size_t k = 0;

	*out = xmalloc((n ? n : 1) * sizeof(**out));
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *ln = dwarf_onesrcline(table, i);
		const char *src;
		Dwarf_Addr addr;
		int l;

		if (!ln || dwarf_lineno(ln, &l) != 0 || dwarf_lineaddr(ln, &addr) != 0)
			continue;
		src = dwarf_linesrc(ln, NULL, NULL);
		if (!src || strcmp(src, file) != 0)
			continue;
		(*out)[k++] = (struct file_row){ l, addr, dwarf_haspc(die, addr) > 0 };
	}
	qsort(*out, k, sizeof(**out), file_row_cmp);
	return k;
}

Dwarf_Off dwindex_cu_offset(const struct dwindex *ix, const struct dwfunc *f)
{
	Dwarf_Die die, cu;

	return dwindex_die(ix, f->die, &die, &cu) ? dwarf_dieoffset(&cu) : 0;
}

bool dwindex_holds(const struct dwindex *ix, const struct dwfunc *f, Dwarf_Addr addr)
{
	Dwarf_Die die;

	return dwindex_die(ix, f->die, &die, NULL) && dwarf_haspc(&die, addr) > 0;
}

size_t dwindex_walk_lines(const struct dwindex *ix, const struct dwfunc *f, struct dwline **out)
{
	Dwarf_Die die, cu;
	Dwarf_Lines *table;
	size_t n_table = 0, n_rows, i = 0, n = 0;
	struct file_row *rows;
	int start;

	*out = NULL;
	if (!f->decl_file || !dwindex_die(ix, f->die, &die, &cu) ||
	    dwarf_getsrclines(&cu, &table, &n_table) != 0)
		return 0;
	start = walk_start(table, n_table, &die, f->entry);
	n_rows = file_rows(table, n_table, &die, f->decl_file, &rows);
	*out = xmalloc((n_rows ? n_rows : 1) * sizeof(**out));
	while (i < n_rows && rows[i].line < start)
		i++;
	if (i < n_rows && rows[i].line != start)
		i = n_rows;	/* no row of the file at the first line */
	while (i < n_rows) {
		size_t next = i, held = n_rows;

		for (; next < n_rows && rows[next].line == rows[i].line; next++)
			if (held == n_rows && rows[next].held)
				held = next;
		if (held == n_rows)
			break;	/* a line none of whose rows F holds ends it */
		(*out)[n++] = (struct dwline){ rows[held].line, rows[held].addr, f->decl_file };
		i = next;
	}
	free(rows);
	return n;
}

/* The labels under DIE (a function or a block of it) into OUT. */
static void collect_labels(Dwarf_Die *cu, Dwarf_Die *parent, const char *pat, struct vec *out)
{
	Dwarf_Die child;

	if (dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Attribute attr;
		const char *name;
		Dwarf_Addr addr;
		struct dwlabel *l;

		if (tag == DW_TAG_lexical_block) {
			collect_labels(cu, &child, pat, out);
			continue;
		}
		if (tag != DW_TAG_label || dwarf_lowpc(&child, &addr) != 0)
			continue;	/* inlined functions' labels are theirs */
		name = dwarf_formstring(dwarf_attr_integrate(&child, DW_AT_name, &attr));
		if (!name || !glob_match(pat, name))
			continue;
		l = xcalloc(1, sizeof(*l));
		l->name = name;
		l->addr = addr;
		l->file = dwarf_decl_file(&child);
		dwarf_decl_line(&child, &l->line);
		vec_push(out, l);
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int dwlabel_cmp(const void *a, const void *b)
{
	const struct dwlabel *x = a, *y = b;

	if (x->line != y->line)
		return x->line - y->line;
	return strcmp(x->name, y->name);
}

size_t dwindex_labels(const struct dwindex *ix, const struct dwfunc *f, const char *pat,
		      struct dwlabel **out)
{
	Dwarf_Die die, cu;
	struct vec found = { 0 };
	size_t n;

	*out = NULL;
	if (!f->die || !dwindex_die(ix, f->die, &die, &cu))
		return 0;
	collect_labels(&cu, &die, pat, &found);
	n = found.n;
	*out = xmalloc((n ? n : 1) * sizeof(**out));
	for (size_t i = 0; i < n; i++) {
		(*out)[i] = *(struct dwlabel *)found.v[i];
		free(found.v[i]);
	}
	if (n > 1)
		qsort(*out, n, sizeof(**out), dwlabel_cmp);
	vec_free(&found);
	return n;
}

const char *dwindex_symbol(const struct dwindex *ix, Dwarf_Addr addr, unsigned long *offset)
{
	const struct symtab_fn *f = symtab_fn_at(&ix->syms, addr);
	const struct symtab_slot *same = f ? symtab_lookup(&ix->syms, fn_name(ix, f)) : NULL;

	if (same && same->count == 1) {
		*offset = addr - f->lo;
		return fn_name(ix, f);
	}
	if (!ix->is_kernel || !ix->stext)
		return NULL;
	*offset = addr - ix->stext;
	return "_stext";
}

bool dwindex_function_start(const struct dwindex *ix, Dwarf_Addr addr, Dwarf_Addr *start)
{
	const struct symtab_fn *f = symtab_fn_at(&ix->syms, addr);

	if (!f)
		return false;
	*start = f->lo;
	return true;
}

bool dwindex_row_start(const struct dwindex *ix, Dwarf_Addr addr, Dwarf_Addr *start)
{
	Dwarf_Die cu;
	Dwarf_Line *row;

	if (!dwarf_addrdie(ix->dw, addr, &cu) || !(row = dwarf_getsrc_die(&cu, addr)))
		return false;
	return dwarf_lineaddr(row, start) == 0;
}

Dwarf_Addr dwindex_stext(const struct dwindex *ix)
{
	return ix->is_kernel ? ix->stext : 0;
}

bool dwindex_exported(const struct dwindex *ix, const char *name)
{
	char *ksym = xasprintf("__ksymtab_%s", name);
	bool found = symtab_lookup(&ix->syms, ksym) != NULL;

	free(ksym);
	return found;
}

Dwarf *dwindex_dwarf(const struct dwindex *ix)
{
	return ix->dw;
}

const char *dwindex_debug_file(const struct dwindex *ix)
{
	const char *main_file = NULL, *debug_file = NULL;

	dwfl_module_info(ix->mod, NULL, NULL, NULL, NULL, NULL, &main_file, &debug_file);
	return debug_file ? debug_file : main_file;
}
