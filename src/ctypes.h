/* C types as debuginfo describes them, behind one small interface.
 *
 * Pass 2 reads the types of target variables ($p->a[i]->b) through this
 * interface only, so that the walker (tvar_resolve.c) does not care where
 * the types come from: the kernel's BTF (ctypes_btf.c) or DWARF through
 * libdw (ctypes_dwarf.c), each one backend file that fills a struct
 * ctype_ops.
 *
 * A type is a ctype_id, the backend's own handle (a BTF type id, a DIE
 * offset); 0 is void.  The queries take the type as given: typedefs and
 * qualifiers (const, volatile ...) are kinds of their own until
 * ctype_resolve() looks through them.
 */
#ifndef TAPC_CTYPES_H
#define TAPC_CTYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t ctype_id;

enum ctype_kind {
	CTYPE_VOID,		/* also unknown or broken types */
	CTYPE_INT,		/* integers, chars and bool */
	CTYPE_ENUM,
	CTYPE_PTR,
	CTYPE_ARRAY,
	CTYPE_STRUCT,
	CTYPE_UNION,
	CTYPE_FUNC,		/* a function type (what a function pointer points to) */
	CTYPE_TYPEDEF,
	CTYPE_QUAL,		/* const, volatile, restrict and the like */
	CTYPE_OTHER,		/* floats, forward declarations ... */
};

struct ctype_int {
	uint32_t bits;		/* width of the value (8 for a char) */
	bool is_signed;
	bool is_bool;
};

struct ctype_member {
	const char *name;	/* "" for an anonymous struct/union member */
	ctype_id type;
	uint64_t bit_offset;	/* from the start of the struct asked about */
	uint32_t bitfield_size;	/* 0 when not a bit field */
};

/* A backend.  SRC is its own data; every hook but find is required.
 * Hooks that return int return 0 on success and -1 when ID is not of the
 * right kind or INDEX is out of range. */
struct ctype_ops {
	enum ctype_kind (*kind)(const void *src, ctype_id id);
	/* "" when anonymous */
	const char *(*name)(const void *src, ctype_id id);
	/* through typedefs and qualifiers; 0 for void or a broken chain */
	ctype_id (*resolve)(const void *src, ctype_id id);
	/* what a pointer (the type itself, not through typedefs) points to */
	ctype_id (*pointee)(const void *src, ctype_id id);
	/* bytes of a value of the type, -1 when it has none */
	int64_t (*size)(const void *src, ctype_id id);
	int (*int_info)(const void *src, ctype_id id, struct ctype_int *out);
	int (*array_info)(const void *src, ctype_id id, ctype_id *elem, uint64_t *count);
	uint32_t (*member_count)(const void *src, ctype_id id);
	int (*member_at)(const void *src, ctype_id id, uint32_t index,
			 struct ctype_member *out);
	/* member NAME, looking into anonymous members as C does, then (C++)
	 * into the base classes */
	int (*member_find)(const void *src, ctype_id id, const char *name,
			   struct ctype_member *out);
	/* the index-th base class of a C++ class, as a member without a
	 * name (its type and where it starts); NULL: a backend without */
	int (*base_at)(const void *src, ctype_id id, uint32_t index, struct ctype_member *out);
	int (*enum_at)(const void *src, ctype_id id, uint32_t index,
		       const char **name, int64_t *value);
	/* the type's C name ("struct task_struct *"); like snprintf, -1 on a
	 * broken type */
	int (*type_str)(const void *src, ctype_id id, char *buf, size_t len);
	/* the type called NAME: "struct task_struct", "task_struct" (a
	 * struct, union, enum, typedef or base type), a typedef's name; 0
	 * when there is none.  May be NULL in a backend that has none yet. */
	ctype_id (*find)(const void *src, const char *name);
	/* where the type is declared, "include/linux/fs.h:948", as
	 * SystemTap's messages show it; like snprintf, -1 when not known.
	 * May be NULL (BTF has no source coordinates). */
	int (*decl)(const void *src, ctype_id id, char *buf, size_t len);
};

struct ctypes {
	const struct ctype_ops *ops;
	const void *src;
};

static inline enum ctype_kind ctype_kind(const struct ctypes *ct, ctype_id id)
{
	return ct->ops->kind(ct->src, id);
}

static inline const char *ctype_name(const struct ctypes *ct, ctype_id id)
{
	return ct->ops->name(ct->src, id);
}

static inline ctype_id ctype_resolve(const struct ctypes *ct, ctype_id id)
{
	return ct->ops->resolve(ct->src, id);
}

static inline ctype_id ctype_pointee(const struct ctypes *ct, ctype_id id)
{
	return ct->ops->pointee(ct->src, id);
}

static inline int64_t ctype_size(const struct ctypes *ct, ctype_id id)
{
	return ct->ops->size(ct->src, id);
}

static inline int ctype_int_info(const struct ctypes *ct, ctype_id id, struct ctype_int *out)
{
	return ct->ops->int_info(ct->src, id, out);
}

static inline int ctype_array_info(const struct ctypes *ct, ctype_id id, ctype_id *elem,
				   uint64_t *count)
{
	return ct->ops->array_info(ct->src, id, elem, count);
}

static inline uint32_t ctype_member_count(const struct ctypes *ct, ctype_id id)
{
	return ct->ops->member_count(ct->src, id);
}

static inline int ctype_member_at(const struct ctypes *ct, ctype_id id, uint32_t index,
				  struct ctype_member *out)
{
	return ct->ops->member_at(ct->src, id, index, out);
}

static inline int ctype_member_find(const struct ctypes *ct, ctype_id id, const char *name,
				    struct ctype_member *out)
{
	return ct->ops->member_find(ct->src, id, name, out);
}

static inline int ctype_base_at(const struct ctypes *ct, ctype_id id, uint32_t index,
				struct ctype_member *out)
{
	return ct->ops->base_at ? ct->ops->base_at(ct->src, id, index, out) : -1;
}

static inline int ctype_enum_at(const struct ctypes *ct, ctype_id id, uint32_t index,
				const char **name, int64_t *value)
{
	return ct->ops->enum_at(ct->src, id, index, name, value);
}

static inline int ctype_type_str(const struct ctypes *ct, ctype_id id, char *buf, size_t len)
{
	return ct->ops->type_str(ct->src, id, buf, len);
}

static inline ctype_id ctype_find(const struct ctypes *ct, const char *name)
{
	return ct->ops->find ? ct->ops->find(ct->src, name) : 0;
}

static inline int ctype_decl(const struct ctypes *ct, ctype_id id, char *buf, size_t len)
{
	return ct->ops->decl ? ct->ops->decl(ct->src, id, buf, len) : -1;
}

/* Longest chain of anonymous members looked into when listing members. */
#define CTYPE_MAX_DEPTH 32

/* The backends. */
struct btf;

/* Types of BTF (which must outlive the result's use). */
struct ctypes ctypes_btf(const struct btf *btf);

/* Types of a DWARF (ctypes_dwarf.c): a ctype_id is a type DIE's offset.
 * The backend's state for dbg lives until ctypes_dwarf_forget(dbg). */
typedef struct Dwarf Dwarf;
struct ctypes ctypes_dwarf(Dwarf *dbg);
void ctypes_dwarf_forget(Dwarf *dbg);

#endif
