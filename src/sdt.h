/* SDT markers (<sys/sdt.h>'s STAP_PROBE*) of an ELF file.
 *
 * Each marker is one note of type 3 (NT_STAPSDT) owned by "stapsdt" in
 * the section .note.stapsdt: the marker's address, the link-time
 * address of .stapsdt.base, the address of its semaphore (0: none),
 * then three strings: provider, name and the argument descriptors
 * ("-4@%edi 8@-16(%rbp)"; sdt_arg.h reads them).  When prelink moved the
 * file, .stapsdt.base's address differs from the one in the note, and
 * the marker and its semaphore moved by as much.
 *
 * Uprobes take file offsets, so each address is also converted through
 * the program headers: the marker's and its semaphore's (which
 * uprobe_register_refctr() increments while the probe is registered).
 */
#ifndef TAPC_SDT_H
#define TAPC_SDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sdt_marker {
	char *provider;
	char *name;
	char *args;		/* the descriptors, "" for none */
	uint64_t pc;		/* the marker's address, prelink-adjusted */
	uint64_t base;		/* .stapsdt.base's address as the note has it */
	uint64_t semaphore;	/* the semaphore's address (adjusted), 0: none */
	uint64_t pc_offset;	/* pc's file offset */
	uint64_t sem_offset;	/* the semaphore's file offset, 0: none */
};

struct sdt_file {
	struct sdt_marker *v;	/* in the order of the notes */
	size_t n;
	uint16_t machine;	/* e_machine: EM_X86_64 ... */
	bool is_64;		/* ELFCLASS64 */
	bool pie;		/* ET_DYN: a PIE or a shared library */
	uint64_t load_base;	/* the lowest PT_LOAD address */
	bool has_base;		/* .stapsdt.base exists */
	uint64_t base_addr;	/* its address */
};

/* Read the markers of the ELF file at path (none: n == 0) into *out.
 * Returns 0, or -1 with *err (malloc'd) saying why: not readable, not
 * ELF, a malformed note, an address outside every loaded segment. */
int sdt_read(const char *path, struct sdt_file *out, char **err);
void sdt_file_free(struct sdt_file *f);

/* The address of the defined symbol name in path's symbol table
 * (.symtab, else .dynsym): SDT descriptors such as "8@counter(%rip)"
 * name globals.  false if there is none. */
bool sdt_symbol(const char *path, const char *name, uint64_t *addr);

#endif
