/* The BTF backend of the type interface (see ctypes.h): a ctype_id is a
 * BTF type id. */
#include "ctypes.h"

#include <string.h>

#include "btf.h"

static const struct btf *B(const void *src)
{
	return src;
}

/* BTF ids are 32 bits: a larger handle is none of ours. */
static uint32_t id32(ctype_id id)
{
	return id > UINT32_MAX ? 0 : (uint32_t)id;
}

static enum ctype_kind k_kind(const void *src, ctype_id id)
{
	switch (btf_kind(B(src), id32(id))) {
	case BTF_K_INT:
		return CTYPE_INT;
	case BTF_K_ENUM: case BTF_K_ENUM64:
		return CTYPE_ENUM;
	case BTF_K_PTR:
		return CTYPE_PTR;
	case BTF_K_ARRAY:
		return CTYPE_ARRAY;
	case BTF_K_STRUCT:
		return CTYPE_STRUCT;
	case BTF_K_UNION:
		return CTYPE_UNION;
	case BTF_K_FUNC_PROTO:
		return CTYPE_FUNC;
	case BTF_K_TYPEDEF:
		return CTYPE_TYPEDEF;
	case BTF_K_VOLATILE: case BTF_K_CONST: case BTF_K_RESTRICT: case BTF_K_TYPE_TAG:
		return CTYPE_QUAL;
	case BTF_K_UNKN:
		return CTYPE_VOID;
	default:
		return CTYPE_OTHER;
	}
}

static const char *k_name(const void *src, ctype_id id)
{
	return btf_name(B(src), id32(id));
}

static ctype_id k_resolve(const void *src, ctype_id id)
{
	return btf_resolve(B(src), id32(id));
}

static ctype_id k_pointee(const void *src, ctype_id id)
{
	return btf_kind(B(src), id32(id)) == BTF_K_PTR ? btf_ref(B(src), id32(id)) : 0;
}

static int64_t k_size(const void *src, ctype_id id)
{
	return btf_size(B(src), id32(id));
}

static int k_int_info(const void *src, ctype_id id, struct ctype_int *out)
{
	struct btf_int_info ii;

	if (btf_kind(B(src), id32(id)) != BTF_K_INT || btf_int_info(B(src), id32(id), &ii) != 0)
		return -1;
	out->bits = ii.bits;
	out->is_signed = (ii.encoding & BTF_INT_SIGNED) != 0;
	out->is_bool = (ii.encoding & BTF_INT_BOOL) != 0;
	return 0;
}

static int k_array_info(const void *src, ctype_id id, ctype_id *elem, uint64_t *count)
{
	struct btf_array_info ai;

	if (btf_array_info(B(src), id32(id), &ai) != 0)
		return -1;
	*elem = ai.elem_type;
	*count = ai.nelems;
	return 0;
}

static uint32_t k_member_count(const void *src, ctype_id id)
{
	enum btf_kind k = btf_kind(B(src), id32(id));

	return k == BTF_K_STRUCT || k == BTF_K_UNION ? btf_vlen(B(src), id32(id)) : 0;
}

static void member_out(const struct btf_member_info *m, struct ctype_member *out)
{
	out->name = m->name;
	out->type = m->type;
	out->bit_offset = m->bit_offset;
	out->bitfield_size = m->bitfield_size;
}

static int k_member_at(const void *src, ctype_id id, uint32_t index, struct ctype_member *out)
{
	struct btf_member_info m;

	if (btf_member_at(B(src), id32(id), index, &m) != 0)
		return -1;
	member_out(&m, out);
	return 0;
}

static int k_member_find(const void *src, ctype_id id, const char *name,
			 struct ctype_member *out)
{
	struct btf_member_info m;

	if (btf_member_find(B(src), id32(id), name, &m) != 0)
		return -1;
	member_out(&m, out);
	return 0;
}

static int k_enum_at(const void *src, ctype_id id, uint32_t index, const char **name,
		     int64_t *value)
{
	return btf_enum_at(B(src), id32(id), index, name, value);
}

static int k_type_str(const void *src, ctype_id id, char *buf, size_t len)
{
	return btf_type_str(B(src), id32(id), NULL, buf, len);
}

/* NAME without the keyword PREFIX ("struct ") and the spaces after it, or
 * NULL when NAME does not start with it. */
static const char *after_keyword(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(name, prefix, n) != 0 || (name[n] != ' ' && name[n] != '\t'))
		return NULL;
	name += n;
	while (*name == ' ' || *name == '\t')
		name++;
	return name;
}

/* "struct x", "union x", "enum x", or a bare name tried as a struct, a
 * union, a typedef, an enum and a base type ("int"), in that order. */
static ctype_id k_find(const void *src, const char *name)
{
	static const int bare_kinds[] = { BTF_K_STRUCT, BTF_K_UNION, BTF_K_TYPEDEF,
					  BTF_K_ENUM, BTF_K_ENUM64, BTF_K_INT };
	const struct btf *btf = B(src);
	const char *tag;
	uint32_t id;

	if ((tag = after_keyword(name, "struct")))
		return btf_find(btf, tag, BTF_K_STRUCT);
	if ((tag = after_keyword(name, "union")))
		return btf_find(btf, tag, BTF_K_UNION);
	if ((tag = after_keyword(name, "enum"))) {
		id = btf_find(btf, tag, BTF_K_ENUM);
		return id ? id : btf_find(btf, tag, BTF_K_ENUM64);
	}
	for (size_t i = 0; i < sizeof(bare_kinds) / sizeof(bare_kinds[0]); i++) {
		id = btf_find(btf, name, bare_kinds[i]);
		if (id)
			return id;
	}
	return 0;
}

static const struct ctype_ops btf_ops = {
	.kind = k_kind,
	.name = k_name,
	.resolve = k_resolve,
	.pointee = k_pointee,
	.size = k_size,
	.int_info = k_int_info,
	.array_info = k_array_info,
	.member_count = k_member_count,
	.member_at = k_member_at,
	.member_find = k_member_find,
	.enum_at = k_enum_at,
	.type_str = k_type_str,
	.find = k_find,
};

struct ctypes ctypes_btf(const struct btf *btf)
{
	return (struct ctypes){ .ops = &btf_ops, .src = btf };
}
