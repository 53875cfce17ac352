/* User binaries' symbols, load segments, build-ids, unwind rows and
 * needed libraries, read with libelf (umod.h). */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <gelf.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash128.h"
#include "umod.h"
#include "util.h"

/* Where the dynamic loader looks after DT_RUNPATH, on Debian's x86-64
 * (besides what /etc/ld.so.conf names). */
static const char *const system_lib_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
	"/lib64", "/usr/lib64", "/lib", "/usr/lib",
};

static void strtab_add(struct umod *m, const char *name, uint32_t *off)
{
	size_t n = strcspn(name, "@") + 1;	/* no symbol version */

	if (m->strtab_len + n > m->strtab_cap) {
		m->strtab_cap = (m->strtab_len + n) * 2 + 4096;
		m->strtab = xrealloc(m->strtab, m->strtab_cap);
	}
	memcpy(m->strtab + m->strtab_len, name, n - 1);
	m->strtab[m->strtab_len + n - 1] = '\0';
	*off = (uint32_t)m->strtab_len;
	m->strtab_len += n;
}

/* A global name over a weak one over a local one, for one address. */
static int bind_rank(uint8_t bind)
{
	return bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct umod_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (bind_rank(x->bind) != bind_rank(y->bind))
		return bind_rank(x->bind) - bind_rank(y->bind);
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

/* The function symbols of section @scn (a SHT_SYMTAB or SHT_DYNSYM). */
static size_t read_symbols(struct umod *m, Elf *elf, Elf_Scn *scn, size_t *cap)
{
	GElf_Shdr sh;
	Elf_Data *data;
	size_t n, added = 0;

	if (!gelf_getshdr(scn, &sh) || !(data = elf_getdata(scn, NULL)) ||
	    !sh.sh_entsize)
		return 0;
	n = sh.sh_size / sh.sh_entsize;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_value)
			continue;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		if (m->nsyms == *cap) {
			*cap = *cap ? 2 * *cap : 1024;
			m->syms = xrealloc(m->syms, *cap * sizeof(*m->syms));
		}
		m->syms[m->nsyms].addr = sym.st_value;
		m->syms[m->nsyms].size = sym.st_size;
		m->syms[m->nsyms].bind = (uint8_t)GELF_ST_BIND(sym.st_info);
		strtab_add(m, name, &m->syms[m->nsyms].name);
		m->nsyms++;
		added++;
	}
	return added;
}

/* The first section of @type, or NULL. */
static Elf_Scn *find_section_type(Elf *elf, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			return scn;
	return NULL;
}

static Elf_Scn *find_section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh->sh_name);
		if (n && strcmp(n, name) == 0)
			return scn;
	}
	return NULL;
}

/* Open @path as ELF (not through a symlink's surprises: it is the
 * canonical path).  *fd is the descriptor to close. */
static Elf *open_elf(const char *path, int *fd)
{
	Elf *elf;

	elf_version(EV_CURRENT);
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	elf = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(*fd);
		*fd = -1;
		return NULL;
	}
	return elf;
}

/* Symbols from the separate debuginfo of the build-id, if installed: it
 * has the full .symtab that Debian strips from the binary. */
static bool symbols_from_debuginfo(struct umod *m, size_t *cap)
{
	char path[64 + 2 * UMOD_MAX_BUILD_ID];
	int len, fd;
	Elf *elf;
	Elf_Scn *scn;
	bool ok = false;

	if (m->build_id_len < 2)
		return false;
	len = snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%02x/",
		       m->build_id[0]);
	for (size_t i = 1; i < m->build_id_len; i++)
		len += snprintf(path + len, sizeof(path) - (size_t)len, "%02x",
				m->build_id[i]);
	snprintf(path + len, sizeof(path) - (size_t)len, ".debug");
	elf = open_elf(path, &fd);
	if (!elf)
		return false;
	scn = find_section_type(elf, SHT_SYMTAB);
	if (scn && read_symbols(m, elf, scn, cap)) {
		m->symsrc = "debuginfo .symtab";
		ok = true;
	}
	elf_end(elf);
	close(fd);
	return ok;
}

static void read_build_id(struct umod *m, Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off))) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    memcmp((char *)data->d_buf + name_off, "GNU", 4) == 0 &&
			    nh.n_descsz <= UMOD_MAX_BUILD_ID) {
				memcpy(m->build_id, (char *)data->d_buf + desc_off,
				       nh.n_descsz);
				m->build_id_len = nh.n_descsz;
				return;
			}
		}
	}
}

static void read_loads(struct umod *m, Elf *elf)
{
	size_t n;

	if (elf_getphdrnum(elf, &n) != 0)
		return;
	for (size_t i = 0; i < n && m->nloads < UMOD_MAX_LOADS; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		m->loads[m->nloads].off = ph.p_offset;
		m->loads[m->nloads].vaddr = ph.p_vaddr;
		m->loads[m->nloads].filesz = ph.p_filesz;
		m->nloads++;
	}
}

static void read_dynamic(struct umod *m, Elf *elf)
{
	Elf_Scn *scn = find_section_type(elf, SHT_DYNAMIC);
	GElf_Shdr sh;
	Elf_Data *data;

	if (!scn || !gelf_getshdr(scn, &sh) || !(data = elf_getdata(scn, NULL)) ||
	    !sh.sh_entsize)
		return;
	for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Dyn dyn;
		const char *s;

		if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag == DT_NULL)
			break;
		if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RUNPATH &&
		    dyn.d_tag != DT_RPATH)
			continue;
		s = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val);
		if (!s)
			continue;
		if (dyn.d_tag == DT_NEEDED) {
			strlist_add(&m->needed, s);
		} else if (!m->runpath || dyn.d_tag == DT_RUNPATH) {
			free(m->runpath);
			m->runpath = xstrdup(s);
		}
	}
}

/* The unwind rows: .eh_frame, else .debug_frame (GCC puts every
 * function's CFI in one of them on x86-64, never half in each). */
static bool read_cfi(struct umod *m, Elf *elf, char *err, size_t errlen)
{
	static const char *const names[] = { ".eh_frame", ".debug_frame" };

	for (int i = 0; i < 2; i++) {
		GElf_Shdr sh;
		Elf_Scn *scn = find_section(elf, names[i], &sh);
		Elf_Data *data;
		char why[160] = "";

		if (!scn || sh.sh_type == SHT_NOBITS ||
		    !(data = elf_getdata(scn, NULL)) || !data->d_size)
			continue;
		if (!ucfi_add_section(&m->cfi, data->d_buf, data->d_size,
				      sh.sh_addr, i == 0, why, sizeof(why))) {
			snprintf(err, errlen, "%s: %s: %s", m->path, names[i], why);
			return false;
		}
		ucfi_finish(&m->cfi);
		m->cfisrc = names[i];
		return true;
	}
	return true;
}

static void dedup_symbols(struct umod *m)
{
	size_t out = 0;

	if (m->nsyms == 0)	/* no table at all: qsort must not see NULL */
		return;
	qsort(m->syms, m->nsyms, sizeof(*m->syms), sym_cmp);
	for (size_t i = 0; i < m->nsyms; i++)
		if (!out || m->syms[out - 1].addr != m->syms[i].addr)
			m->syms[out++] = m->syms[i];
	m->nsyms = out;
}

bool umod_load(struct umod *m, const char *path, char *err, size_t errlen)
{
	int fd;
	Elf *elf;
	GElf_Ehdr eh;
	size_t cap = 0;
	Elf_Scn *scn;
	bool ok;

	memset(m, 0, sizeof(*m));
	m->path = realpath(path, NULL);
	if (!m->path) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return false;
	}
	elf = open_elf(m->path, &fd);
	if (!elf || !gelf_getehdr(elf, &eh) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_machine != EM_X86_64 ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)) {
		snprintf(err, errlen, "%s: not an x86-64 executable or shared library",
			 path);
		if (elf) {
			elf_end(elf);
			close(fd);
		}
		return false;
	}
	m->is_dyn = eh.e_type == ET_DYN;
	read_build_id(m, elf);
	read_loads(m, elf);
	read_dynamic(m, elf);
	if (!symbols_from_debuginfo(m, &cap)) {
		if ((scn = find_section_type(elf, SHT_SYMTAB)) &&
		    read_symbols(m, elf, scn, &cap))
			m->symsrc = ".symtab";
		else if ((scn = find_section_type(elf, SHT_DYNSYM)) &&
			 read_symbols(m, elf, scn, &cap))
			m->symsrc = ".dynsym";
	}
	dedup_symbols(m);
	ok = read_cfi(m, elf, err, errlen);
	elf_end(elf);
	close(fd);
	return ok;
}

void umod_free(struct umod *m)
{
	free(m->path);
	free(m->syms);
	free(m->strtab);
	ucfi_free(&m->cfi);
	strlist_free(&m->needed);
	free(m->runpath);
	linetab_free(&m->lines);
	memset(m, 0, sizeof(*m));
}

bool umod_load_lines(struct umod *m)
{
	if (!m->have_lines) {
		m->have_lines = linetab_read_user(&m->lines, m->path, m->build_id,
						  m->build_id_len);
		linetab_finish(&m->lines);
	}
	return m->have_lines;
}

const struct umod_sym *umod_symbol(const struct umod *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nsyms;
	const struct umod_sym *s;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &m->syms[lo - 1];
	return (s->size == 0 || addr < s->addr + s->size) ? s : NULL;
}

/* ---- --ldd: the libraries a binary needs ------------------------------ */

static bool is_x86_64_elf(const char *path)
{
	int fd;
	Elf *elf = open_elf(path, &fd);
	GElf_Ehdr eh;
	bool ok;

	if (!elf)
		return false;
	ok = gelf_getehdr(elf, &eh) && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
	     eh.e_machine == EM_X86_64;
	elf_end(elf);
	close(fd);
	return ok;
}

/* @name in the directory list @dirs (':'-separated, $ORIGIN expanded). */
static char *search_dirs(const char *dirs, const char *origin, const char *name)
{
	char *copy = xstrdup(dirs), *save = NULL;

	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char *dir = strncmp(d, "$ORIGIN", 7) == 0 ?
			xasprintf("%s%s", origin, d + 7) : xstrdup(d);
		char *cand = xasprintf("%s/%s", dir, name);

		free(dir);
		if (is_x86_64_elf(cand)) {
			free(copy);
			return cand;
		}
		free(cand);
	}
	free(copy);
	return NULL;
}

/* The directories the files of /etc/ld.so.conf.d name, ':'-joined
 * (Debian's ld.so.conf includes only them). */
static char *ld_so_conf_dirs(void)
{
	DIR *dir = opendir("/etc/ld.so.conf.d");
	struct dirent *e;
	char *dirs = xstrdup("");

	while (dir && (e = readdir(dir))) {
		size_t n = strlen(e->d_name);
		char *file, line[512];
		FILE *f;

		if (n < 5 || strcmp(e->d_name + n - 5, ".conf") != 0)
			continue;
		file = xasprintf("/etc/ld.so.conf.d/%s", e->d_name);
		f = fopen(file, "r");
		free(file);
		while (f && fgets(line, sizeof(line), f)) {
			char *d = line + strspn(line, " \t");

			d[strcspn(d, " \t\r\n#")] = '\0';
			if (d[0] == '/') {
				char *more = xasprintf("%s%s%s", dirs, *dirs ? ":" : "", d);

				free(dirs);
				dirs = more;
			}
		}
		if (f)
			fclose(f);
	}
	if (dir)
		closedir(dir);
	return dirs;
}

char *umod_find_library(const struct umod *m, const char *name)
{
	char *origin = xstrdup(m->path), *slash = strrchr(origin, '/'), *found = NULL;
	const char *env = getenv("LD_LIBRARY_PATH");

	if (slash)
		*slash = '\0';
	if (strchr(name, '/')) {
		found = is_x86_64_elf(name) ? xstrdup(name) : NULL;
	} else {
		if (m->runpath)
			found = search_dirs(m->runpath, origin, name);
		if (!found && env && *env)
			found = search_dirs(env, origin, name);
		if (!found) {
			char *conf = ld_so_conf_dirs();

			found = search_dirs(conf, origin, name);
			free(conf);
		}
		for (size_t i = 0; !found && i < sizeof(system_lib_dirs) /
				   sizeof(system_lib_dirs[0]); i++)
			found = search_dirs(system_lib_dirs[i], origin, name);
	}
	free(origin);
	return found;
}

/* ---- The binaries of a run --------------------------------------------- */

static bool set_has(const struct umod_set *set, const char *path)
{
	char *real = realpath(path, NULL);
	bool has = false;

	for (size_t i = 0; real && i < set->count && !has; i++)
		has = strcmp(set->mods[i].path, real) == 0;
	free(real);
	return has;
}

/* Add path's symbols, unwind data and (with_lines) lines to set.  named:
 * a -d file, which as in SystemTap may be unreadable (the script just
 * lacks its symbols): a warning, with tapc's reason under -v. */
static bool set_add(struct umod_set *set, const char *path, bool with_lines,
		    bool verbose, bool named)
{
	struct umod m;
	char err[512];

	if (set_has(set, path))
		return true;
	if (!umod_load(&m, path, err, sizeof(err))) {
		if (!named || verbose)
			fprintf(stderr, "tapc: cannot read symbols and unwind data of %s\n", err);
		if (named)
			fprintf(stderr, "WARNING: missing unwind/symbol data for module '%s'\n",
				path);
		umod_free(&m);
		return named;
	}
	if (with_lines)
		umod_load_lines(&m);
	if (verbose)
		fprintf(stderr, "tapc: user module %s: %zu symbols (%s), %zu unwind rows (%s), "
			"%zu line rows of %zu files\n",
			m.path, m.nsyms, m.symsrc ? m.symsrc : "none", m.cfi.count,
			m.cfisrc ? m.cfisrc : "none", m.lines.count, m.lines.nfiles);
	set->mods = xrealloc(set->mods, (set->count + 1) * sizeof(*set->mods));
	set->mods[set->count++] = m;
	return true;
}

/* -c CMD's program: its first word, found on $PATH as the shell would. */
static char *command_program(const char *cmd)
{
	size_t n;
	char *word, *found = NULL;
	const char *path = getenv("PATH");

	cmd += strspn(cmd, " \t");
	n = strcspn(cmd, " \t");
	if (!n)
		return NULL;
	word = xasprintf("%.*s", (int)n, cmd);
	if (strchr(word, '/'))
		return word;
	if (path) {
		char *copy = xstrdup(path), *save = NULL;

		for (char *d = strtok_r(copy, ":", &save); d && !found;
		     d = strtok_r(NULL, ":", &save)) {
			char *cand = xasprintf("%s/%s", *d ? d : ".", word);

			if (access(cand, X_OK) == 0)
				found = cand;
			else
				free(cand);
		}
		free(copy);
	}
	free(word);
	return found;
}

bool umod_collect(struct umod_set *set, const struct tapc_options *o,
		  char *const *probe_paths, size_t n_probe_paths,
		  bool with_command, bool with_lines, bool verbose)
{
	bool ok = true;

	memset(set, 0, sizeof(*set));
	for (int i = 0; i < o->user_modules.count; i++)
		ok &= set_add(set, o->user_modules.items[i], with_lines, verbose, true);
	for (size_t i = 0; i < n_probe_paths; i++)
		ok &= set_add(set, probe_paths[i], with_lines, verbose, false);
	if (o->command && with_command) {
		char *prog = command_program(o->command);
		struct stat st;

		/* a program that is no ELF file (a script) has nothing for us */
		if (prog && stat(prog, &st) == 0 && S_ISREG(st.st_mode) &&
		    is_x86_64_elf(prog))
			ok &= set_add(set, prog, with_lines, verbose, false);
		free(prog);
	}
	/* --ldd: each library every binary so far needs, and theirs */
	for (size_t i = 0; o->ldd && i < set->count; i++) {
		for (int j = 0; j < set->mods[i].needed.count; j++) {
			char *lib = umod_find_library(&set->mods[i],
						      set->mods[i].needed.items[j]);

			if (!lib) {
				fprintf(stderr, "WARNING: cannot find library %s needed by %s\n",
					set->mods[i].needed.items[j], set->mods[i].path);
				continue;
			}
			ok &= set_add(set, lib, with_lines, verbose, false);
			free(lib);
		}
	}
	return ok;
}

void umod_set_free(struct umod_set *set)
{
	for (size_t i = 0; i < set->count; i++)
		umod_free(&set->mods[i]);
	free(set->mods);
	linetab_free(&set->kernel_lines);
	for (size_t i = 0; i < set->nkmods; i++) {
		free(set->kmods[i].modsym);
		linetab_free(&set->kmods[i].rows);
	}
	free(set->kmods);
	memset(set, 0, sizeof(*set));
}

void umod_set_hash(const struct umod_set *set, struct hash128 *h)
{
	char rows[64];

	snprintf(rows, sizeof(rows), "kernel lines %zu %zu", set->kernel_lines.count,
		 set->kernel_lines.nfiles);
	hash_add_str(h, rows);
	for (size_t i = 0; i < set->nkmods; i++) {
		const struct kmod_lines *k = &set->kmods[i];

		snprintf(rows, sizeof(rows), "module lines %zu %zu %" PRIx64, k->rows.count,
			 k->rows.nfiles, k->anchor);
		hash_add_str(h, k->modsym);
		hash_add_str(h, rows);
	}
	for (size_t i = 0; i < set->count; i++) {
		const struct umod *m = &set->mods[i];
		struct stat st;
		char ident[128];

		hash_add_str(h, m->path);
		hash_add(h, m->build_id, m->build_id_len);
		if (stat(m->path, &st) == 0) {
			snprintf(ident, sizeof(ident), "%lld %lld %lld.%09ld %zu %zu",
				 (long long)st.st_ino, (long long)st.st_size,
				 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
				 m->nsyms, m->cfi.count);
			hash_add_str(h, ident);
			snprintf(ident, sizeof(ident), "lines %zu %zu", m->lines.count,
				 m->lines.nfiles);
			hash_add_str(h, ident);
		}
		hash_add_str(h, m->symsrc ? m->symsrc : "");
	}
}
