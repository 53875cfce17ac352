/* BTF reader: the target kernel's types without debuginfo.
 *
 * Reads the BPF Type Format of a kernel: the .BTF section of an ELF
 * vmlinux or a raw BTF blob such as /sys/kernel/btf/vmlinux.  Every offset
 * and length in the input is checked when it is loaded, so the accessors
 * below never read outside the data, and type chains are followed with a
 * depth limit, so looping input gives errors rather than hangs.
 *
 * Type ids run from 1 to btf_type_count(); id 0 is void.
 */
#ifndef TAPC_BTF_H
#define TAPC_BTF_H

#include <stddef.h>
#include <stdint.h>

enum btf_kind {
	BTF_K_UNKN, BTF_K_INT, BTF_K_PTR, BTF_K_ARRAY, BTF_K_STRUCT,
	BTF_K_UNION, BTF_K_ENUM, BTF_K_FWD, BTF_K_TYPEDEF, BTF_K_VOLATILE,
	BTF_K_CONST, BTF_K_RESTRICT, BTF_K_FUNC, BTF_K_FUNC_PROTO, BTF_K_VAR,
	BTF_K_DATASEC, BTF_K_FLOAT, BTF_K_DECL_TAG, BTF_K_TYPE_TAG,
	BTF_K_ENUM64,
	BTF_K_COUNT
};

/* Encoding bits of an INT. */
#define BTF_INT_SIGNED 1u
#define BTF_INT_CHAR 2u
#define BTF_INT_BOOL 4u

/* Longest typedef/modifier/pointer/array chain followed (as the kernel's
 * own verifier does); deeper input is treated as corrupt. */
#define BTF_MAX_DEPTH 32

struct btf;

/* Load from PATH: an ELF file with a .BTF section (a vmlinux), a
 * compressed x86 kernel image (/boot/vmlinuz-R: its payload is
 * decompressed with the xz, zstd, gzip, lzop or bzip2 program into an
 * unlinked temporary file, which takes seconds: cache the vmlinux where
 * that matters), or a raw BTF file (/sys/kernel/btf/vmlinux).  BTF of the
 * other byte order is rejected.  On failure returns NULL and writes a
 * message to ERR. */
struct btf *btf_load_file(const char *path, char *err, size_t errlen);
/* Load a raw BTF blob from memory (copied). */
struct btf *btf_load_mem(const void *data, size_t len, char *err, size_t errlen);
/* Split BTF, a kernel module's, over BASE (the kernel's, which must
 * outlive it): from PATH, the module's ELF file (its .BTF section), a
 * compressed one (.ko.xz, .ko.zst, .ko.gz) or a raw blob
 * (/sys/kernel/btf/MODULE); or from memory.  Its ids and string offsets
 * continue BASE's, and BASE's types are found through it as its own. */
struct btf *btf_load_split_file(const char *path, const struct btf *base, char *err,
				size_t errlen);
struct btf *btf_load_split_mem(const void *data, size_t len, const struct btf *base,
			       char *err, size_t errlen);
void btf_free(struct btf *btf);

uint32_t btf_type_count(const struct btf *btf);
/* Kind of ID; BTF_K_UNKN for void and for ids out of range. */
enum btf_kind btf_kind(const struct btf *btf, uint32_t id);
/* Name of ID ("" when anonymous or out of range). */
const char *btf_name(const struct btf *btf, uint32_t id);
/* The referenced type of PTR, TYPEDEF, modifiers, FUNC, VAR, DECL_TAG
 * (0 otherwise), the element type for ARRAY, the return type for
 * FUNC_PROTO. */
uint32_t btf_ref(const struct btf *btf, uint32_t id);
/* Number of members, enumerators, parameters or section entries. */
uint32_t btf_vlen(const struct btf *btf, uint32_t id);
/* Kind name as in the kernel's documentation ("STRUCT", ...). */
const char *btf_kind_name(enum btf_kind kind);

/* First type named NAME of kind KIND (any kind when KIND < 0); 0 if none. */
uint32_t btf_find(const struct btf *btf, const char *name, int kind);
/* Call FN for each type named NAME (any kind), in id order, until it
 * returns nonzero; returns that value or 0. */
int btf_find_each(const struct btf *btf, const char *name,
		  int (*fn)(uint32_t id, void *arg), void *arg);

/* Follow typedef, const, volatile, restrict and type tags to the
 * underlying type; 0 for void or on a broken or looping chain. */
uint32_t btf_resolve(const struct btf *btf, uint32_t id);
/* Same, but only const/volatile/restrict/type tags (keeps typedefs). */
uint32_t btf_skip_qualifiers(const struct btf *btf, uint32_t id);
/* What a pointer of type ID (through typedefs and qualifiers) points to,
 * for $p->field: 0 when ID is not a pointer or points to void. */
uint32_t btf_pointee(const struct btf *btf, uint32_t id);
/* Size in bytes of a value of type ID; -1 when it has none (void,
 * function, forward declaration) or the chain is broken.  Pointers have
 * the size of the target's "long int" (8 when the BTF has none). */
int64_t btf_size(const struct btf *btf, uint32_t id);

struct btf_int_info {
	uint32_t encoding;	/* BTF_INT_* bits */
	uint32_t bit_offset;
	uint32_t bits;
};
int btf_int_info(const struct btf *btf, uint32_t id, struct btf_int_info *out);

struct btf_array_info {
	uint32_t elem_type, index_type, nelems;
};
int btf_array_info(const struct btf *btf, uint32_t id, struct btf_array_info *out);

struct btf_member_info {
	const char *name;	/* "" for an anonymous struct/union member */
	uint32_t type;
	uint64_t bit_offset;	/* from the start of the outermost struct */
	uint32_t bitfield_size;	/* 0 when not a bit field */
	int64_t size;		/* bytes of the member's type, -1 if none */
};
/* Member INDEX of struct/union ID (offset relative to ID); 0 or -1. */
int btf_member_at(const struct btf *btf, uint32_t id, uint32_t index,
		  struct btf_member_info *out);
/* Member NAME of the struct/union that ID resolves to, looking into
 * anonymous struct/union members as C does; the offset is relative to ID.
 * Returns 0 when found, -1 when not. */
int btf_member_find(const struct btf *btf, uint32_t id, const char *name,
		    struct btf_member_info *out);

/* Enumerator INDEX of ENUM or ENUM64 ID; 0 or -1. */
int btf_enum_at(const struct btf *btf, uint32_t id, uint32_t index,
		const char **name, int64_t *value);

/* Parameter INDEX of FUNC_PROTO ID (a FUNC is followed to its proto).
 * A final parameter of type 0 means "...".  0 or -1. */
int btf_param_at(const struct btf *btf, uint32_t id, uint32_t index,
		 const char **name, uint32_t *type);

/* Write the C declaration of type ID, declaring VAR (may be NULL or ""
 * for an abstract type name such as a cast: "struct task_struct *").
 * Returns the length it needed, like snprintf, or -1 on a broken type. */
int btf_type_str(const struct btf *btf, uint32_t id, const char *var,
		 char *buf, size_t len);

#endif
