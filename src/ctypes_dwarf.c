/* The DWARF backend of the type interface (see ctypes.h).
 *
 * A ctype_id is the offset of a type's DIE in .debug_info.  The rows of
 * a multi-dimensional array have no DIE of their own, so the id of row
 * level N of the array at offset O is O | N << DIM_SHIFT (level 0 is the
 * array itself); DIE offsets stay far below that bit.
 *
 * A struct, union or enum that a CU only declares is completed by
 * ctype_resolve() with the first definition of the same name found in
 * any CU (a linear search, remembered per name).
 */
#include "ctypes.h"

#include <dwarf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <elfutils/libdw.h>

#include "util.h"

#define DIM_SHIFT 48
#define OFF_MASK ((UINT64_C(1) << DIM_SHIFT) - 1)
/* Longest typedef/qualifier chain followed (a loop is broken DWARF). */
#define MAX_CHAIN 64

struct found {
	char *key;		/* "struct foo", "typedef foo", ... */
	ctype_id id;		/* 0: none */
};

/* What a backend's src points to: one per Dwarf handle, kept for the
 * life of the process (the registry keeps the Dwarf open as long). */
struct dwtypes {
	Dwarf *dbg;
	struct found *found;	/* definitions looked up by name */
	size_t nfound;
	struct dwtypes *next;
};

static struct dwtypes *all_dwtypes;

static struct dwtypes *D(const void *src)
{
	return (struct dwtypes *)src;
}

static bool die_of(const void *src, ctype_id id, Dwarf_Die *die)
{
	Dwarf_Off off = id & OFF_MASK;

	return off != 0 && dwarf_offdie(D(src)->dbg, off, die) != NULL;
}

static unsigned dim_of(ctype_id id)
{
	return (unsigned)(id >> DIM_SHIFT);
}

static ctype_id id_of(const Dwarf_Die *die)
{
	return dwarf_dieoffset((Dwarf_Die *)die);
}

/* The DW_AT_type of die, 0 (void) when it has none. */
static ctype_id type_attr(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Die t;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &t))
		return 0;
	return id_of(&t);
}

static bool is_declaration(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	bool flag = false;

	return dwarf_attr(die, DW_AT_declaration, &attr) && dwarf_formflag(&attr, &flag) == 0 &&
	       flag;
}

static int64_t udata_attr(Dwarf_Die *die, unsigned name, int64_t dflt)
{
	Dwarf_Attribute attr;
	Dwarf_Word w;

	if (!dwarf_attr_integrate(die, name, &attr) || dwarf_formudata(&attr, &w) != 0)
		return dflt;
	return (int64_t)w;
}

static enum ctype_kind kind_of_die(Dwarf_Die *die)
{
	switch (dwarf_tag(die)) {
	case DW_TAG_base_type:
		switch (udata_attr(die, DW_AT_encoding, 0)) {
		case DW_ATE_float: case DW_ATE_complex_float: case DW_ATE_imaginary_float:
		case DW_ATE_decimal_float:
			return CTYPE_OTHER;
		default:
			return CTYPE_INT;
		}
	case DW_TAG_enumeration_type:
		return CTYPE_ENUM;
	case DW_TAG_pointer_type: case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		return CTYPE_PTR;
	case DW_TAG_array_type:
		return CTYPE_ARRAY;
	case DW_TAG_structure_type: case DW_TAG_class_type:
		return CTYPE_STRUCT;
	case DW_TAG_union_type:
		return CTYPE_UNION;
	case DW_TAG_subroutine_type:
		return CTYPE_FUNC;
	case DW_TAG_typedef:
		return CTYPE_TYPEDEF;
	case DW_TAG_const_type: case DW_TAG_volatile_type: case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		return CTYPE_QUAL;
	case DW_TAG_unspecified_type:
		return CTYPE_VOID;
	default:
		return CTYPE_OTHER;
	}
}

static enum ctype_kind d_kind(const void *src, ctype_id id)
{
	Dwarf_Die die;

	if (!die_of(src, id, &die))
		return CTYPE_VOID;
	return dim_of(id) ? CTYPE_ARRAY : kind_of_die(&die);
}

static const char *d_name(const void *src, ctype_id id)
{
	Dwarf_Die die;
	const char *n;

	if (!die_of(src, id, &die) || dim_of(id))
		return "";
	n = dwarf_diename(&die);
	return n ? n : "";
}

/* ---- finding definitions by name ------------------------------------ */

static bool tag_matches(int tag, const char *prefix)
{
	if (!strcmp(prefix, "struct"))
		return tag == DW_TAG_structure_type || tag == DW_TAG_class_type;
	if (!strcmp(prefix, "union"))
		return tag == DW_TAG_union_type;
	if (!strcmp(prefix, "enum"))
		return tag == DW_TAG_enumeration_type;
	if (!strcmp(prefix, "typedef"))
		return tag == DW_TAG_typedef;
	/* a bare name: a typedef, a base type or any tagged type */
	return tag == DW_TAG_typedef || tag == DW_TAG_base_type ||
	       tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	       tag == DW_TAG_union_type || tag == DW_TAG_enumeration_type;
}

/* The first definition in any CU of a top-level type called name whose
 * tag fits prefix ("struct", "union", "enum", "typedef" or "" for any). */
static ctype_id search_cus(Dwarf *dbg, const char *prefix, const char *name)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, child;

		if (dwarf_offdie(dbg, off + hsize, &cu) && dwarf_child(&cu, &child) == 0) {
			do {
				const char *n = dwarf_diename(&child);

				if (n && !strcmp(n, name) && tag_matches(dwarf_tag(&child), prefix) &&
				    !is_declaration(&child))
					return id_of(&child);
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		off = next;
	}
	return 0;
}

static ctype_id find_cached(struct dwtypes *dt, const char *prefix, const char *name)
{
	char *key = xasprintf("%s %s", prefix, name);
	ctype_id id;

	for (size_t i = 0; i < dt->nfound; i++) {
		if (!strcmp(dt->found[i].key, key)) {
			free(key);
			return dt->found[i].id;
		}
	}
	id = search_cus(dt->dbg, prefix, name);
	dt->found = xrealloc(dt->found, (dt->nfound + 1) * sizeof(*dt->found));
	dt->found[dt->nfound++] = (struct found){ .key = key, .id = id };
	return id;
}

static ctype_id d_find(const void *src, const char *name)
{
	static const char *const prefixes[] = { "struct", "union", "enum" };

	while (*name == ' ')
		name++;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++) {
		size_t n = strlen(prefixes[i]);

		if (!strncmp(name, prefixes[i], n) && name[n] == ' ')
			return find_cached(D(src), prefixes[i], name + n + 1);
	}
	return find_cached(D(src), "", name);
}

/* A declared-only struct, union or enum: its definition elsewhere, if
 * any; else the declaration itself. */
static ctype_id complete(const void *src, Dwarf_Die *die)
{
	const char *name = dwarf_diename(die);
	const char *prefix;
	ctype_id def;

	if (!is_declaration(die) || !name)
		return id_of(die);
	switch (dwarf_tag(die)) {
	case DW_TAG_structure_type: case DW_TAG_class_type:
		prefix = "struct";
		break;
	case DW_TAG_union_type:
		prefix = "union";
		break;
	case DW_TAG_enumeration_type:
		prefix = "enum";
		break;
	default:
		return id_of(die);
	}
	def = find_cached(D(src), prefix, name);
	return def ? def : id_of(die);
}

static ctype_id d_resolve(const void *src, ctype_id id)
{
	for (int i = 0; i < MAX_CHAIN; i++) {
		Dwarf_Die die;

		if (!die_of(src, id, &die))
			return 0;
		if (dim_of(id))
			return id;
		switch (kind_of_die(&die)) {
		case CTYPE_TYPEDEF: case CTYPE_QUAL:
			id = type_attr(&die);
			break;
		case CTYPE_STRUCT: case CTYPE_UNION: case CTYPE_ENUM:
			return complete(src, &die);
		case CTYPE_VOID:
			return 0;
		default:
			return id;
		}
	}
	return 0;
}

static ctype_id d_pointee(const void *src, ctype_id id)
{
	Dwarf_Die die;

	if (!die_of(src, id, &die) || dim_of(id) || kind_of_die(&die) != CTYPE_PTR)
		return 0;
	return type_attr(&die);
}

/* ---- arrays ------------------------------------------------------------ */

/* The subrange DIE of dimension dim of array die. */
static bool subrange_at(Dwarf_Die *array, unsigned dim, Dwarf_Die *out)
{
	unsigned n = 0;

	if (dwarf_child(array, out) != 0)
		return false;
	do {
		int tag = dwarf_tag(out);

		if ((tag == DW_TAG_subrange_type || tag == DW_TAG_enumeration_type) && n++ == dim)
			return true;
	} while (dwarf_siblingof(out, out) == 0);
	return false;
}

/* Elements of a subrange: 0 when unbounded (a flexible array). */
static uint64_t subrange_count(Dwarf_Die *sub)
{
	int64_t count = udata_attr(sub, DW_AT_count, -1);
	Dwarf_Attribute attr;
	Dwarf_Sword upper;

	if (count >= 0)
		return (uint64_t)count;
	if (!dwarf_attr(sub, DW_AT_upper_bound, &attr) || dwarf_formsdata(&attr, &upper) != 0)
		return 0;
	return (uint64_t)(upper - udata_attr(sub, DW_AT_lower_bound, 0) + 1);
}

static int d_array_info(const void *src, ctype_id id, ctype_id *elem, uint64_t *count)
{
	Dwarf_Die die, sub, next;
	unsigned dim = dim_of(id);

	if (!die_of(src, id, &die) || dwarf_tag(&die) != DW_TAG_array_type)
		return -1;
	if (!subrange_at(&die, dim, &sub)) {
		/* no subrange at all: an array of unknown size */
		if (dim)
			return -1;
		*elem = type_attr(&die);
		*count = 0;
		return 0;
	}
	*count = subrange_count(&sub);
	if (subrange_at(&die, dim + 1, &next))
		*elem = (id & OFF_MASK) | (uint64_t)(dim + 1) << DIM_SHIFT;
	else
		*elem = type_attr(&die);
	return 0;
}

/* ---- sizes and integers ---------------------------------------------- */

static int64_t d_size(const void *src, ctype_id id)
{
	ctype_id r = d_resolve(src, id), elem;
	uint64_t count;
	int64_t esize;
	Dwarf_Die die;

	if (!die_of(src, r, &die))
		return -1;
	switch (d_kind(src, r)) {
	case CTYPE_ARRAY:
		if (d_array_info(src, r, &elem, &count) != 0)
			return -1;
		esize = d_size(src, elem);
		return esize < 0 ? -1 : (int64_t)count * esize;
	case CTYPE_PTR:
		return udata_attr(&die, DW_AT_byte_size, 8);
	case CTYPE_FUNC: case CTYPE_VOID:
		return -1;
	default:
		if (is_declaration(&die))
			return -1;
		return udata_attr(&die, DW_AT_byte_size, -1);
	}
}

static int d_int_info(const void *src, ctype_id id, struct ctype_int *out)
{
	Dwarf_Die die;
	int64_t enc;

	if (!die_of(src, id, &die) || dim_of(id) || kind_of_die(&die) != CTYPE_INT)
		return -1;
	enc = udata_attr(&die, DW_AT_encoding, 0);
	out->bits = (uint32_t)udata_attr(&die, DW_AT_bit_size,
					 udata_attr(&die, DW_AT_byte_size, 0) * 8);
	out->is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
	out->is_bool = enc == DW_ATE_boolean;
	return 0;
}

/* ---- members ------------------------------------------------------------ */

static bool is_aggregate_die(Dwarf_Die *die)
{
	enum ctype_kind k = kind_of_die(die);

	return k == CTYPE_STRUCT || k == CTYPE_UNION;
}

/* The byte offset of a member: a constant, or the old form, an
 * expression DW_OP_plus_uconst N. */
static uint64_t member_byte_offset(Dwarf_Die *m)
{
	Dwarf_Attribute attr;
	Dwarf_Word w;
	Dwarf_Op *ops;
	size_t n;

	if (!dwarf_attr(m, DW_AT_data_member_location, &attr))
		return 0;
	if (dwarf_formudata(&attr, &w) == 0)
		return w;
	if (dwarf_getlocation(&attr, &ops, &n) == 0 && n == 1 && ops[0].atom == DW_OP_plus_uconst)
		return ops[0].number;
	return 0;
}

static void member_info(Dwarf_Die *m, struct ctype_member *out)
{
	const char *n = dwarf_diename(m);
	int64_t bit_size = udata_attr(m, DW_AT_bit_size, 0);
	int64_t data_bit = udata_attr(m, DW_AT_data_bit_offset, -1);

	out->name = n ? n : "";
	out->type = type_attr(m);
	out->bitfield_size = (uint32_t)bit_size;
	if (data_bit >= 0) {
		out->bit_offset = (uint64_t)data_bit;
	} else if (bit_size && dwarf_hasattr(m, DW_AT_bit_offset)) {
		/* DWARF 2/3: bits from the most significant end of a storage
		 * unit of DW_AT_byte_size bytes (little-endian here) */
		int64_t unit = udata_attr(m, DW_AT_byte_size, 0) * 8;
		int64_t from_msb = udata_attr(m, DW_AT_bit_offset, 0);

		out->bit_offset = member_byte_offset(m) * 8 +
				  (uint64_t)(unit - from_msb - bit_size);
	} else {
		out->bit_offset = member_byte_offset(m) * 8;
	}
}

/* The index-th DW_TAG_member of aggregate id that has storage in it: a
 * C++ static member (a declaration, in DWARF 4) has not. */
static bool member_die(const void *src, ctype_id id, uint32_t index, Dwarf_Die *out)
{
	Dwarf_Die die;
	uint32_t n = 0;

	if (!die_of(src, id, &die) || dim_of(id) || !is_aggregate_die(&die) ||
	    dwarf_child(&die, out) != 0)
		return false;
	do {
		if (dwarf_tag(out) == DW_TAG_member && !dwarf_hasattr(out, DW_AT_declaration) &&
		    n++ == index)
			return true;
	} while (dwarf_siblingof(out, out) == 0);
	return false;
}

static uint32_t d_member_count(const void *src, ctype_id id)
{
	Dwarf_Die m;
	uint32_t n = 0;

	while (member_die(src, id, n, &m))
		n++;
	return n;
}

static int d_member_at(const void *src, ctype_id id, uint32_t index, struct ctype_member *out)
{
	Dwarf_Die m;

	if (!member_die(src, id, index, &m))
		return -1;
	member_info(&m, out);
	return 0;
}

static int find_member(const void *src, ctype_id id, const char *name,
			struct ctype_member *out, int depth);

/* The index-th DW_TAG_inheritance of C++ class id: its base class. */
static int d_base_at(const void *src, ctype_id id, uint32_t index, struct ctype_member *out)
{
	Dwarf_Die die, base;
	uint32_t n = 0;

	if (!die_of(src, id, &die) || dim_of(id) || !is_aggregate_die(&die) ||
	    dwarf_child(&die, &base) != 0)
		return -1;
	do {
		if (dwarf_tag(&base) == DW_TAG_inheritance && n++ == index) {
			out->name = "";
			out->type = type_attr(&base);
			out->bit_offset = member_byte_offset(&base) * 8;
			out->bitfield_size = 0;
			return 0;
		}
	} while (dwarf_siblingof(&base, &base) == 0);
	return -1;
}

/* Member NAME of one of a C++ class's base classes, in order, as
 * SystemTap looks there once the class's own members have not had it. */
static int find_inherited(const void *src, ctype_id id, const char *name,
			  struct ctype_member *out, int depth)
{
	struct ctype_member b;

	for (uint32_t i = 0; d_base_at(src, id, i, &b) == 0; i++) {
		if (find_member(src, d_resolve(src, b.type), name, out, depth + 1) == 0) {
			out->bit_offset += b.bit_offset;
			return 0;
		}
	}
	return -1;
}

static int find_member(const void *src, ctype_id id, const char *name,
		       struct ctype_member *out, int depth)
{
	struct ctype_member m;

	if (depth > CTYPE_MAX_DEPTH)
		return -1;
	for (uint32_t i = 0; d_member_at(src, id, i, &m) == 0; i++) {
		if (*m.name) {
			if (!strcmp(m.name, name)) {
				*out = m;
				return 0;
			}
			continue;
		}
		if (find_member(src, d_resolve(src, m.type), name, out, depth + 1) == 0) {
			out->bit_offset += m.bit_offset;
			return 0;
		}
	}
	return find_inherited(src, id, name, out, depth);
}

static int d_member_find(const void *src, ctype_id id, const char *name,
			 struct ctype_member *out)
{
	return find_member(src, id, name, out, 0);
}

static int d_enum_at(const void *src, ctype_id id, uint32_t index, const char **name,
		     int64_t *value)
{
	Dwarf_Die die, e;
	uint32_t n = 0;

	if (!die_of(src, id, &die) || dim_of(id) || dwarf_tag(&die) != DW_TAG_enumeration_type ||
	    dwarf_child(&die, &e) != 0)
		return -1;
	do {
		Dwarf_Attribute attr;
		Dwarf_Sword v;

		if (dwarf_tag(&e) != DW_TAG_enumerator || n++ != index)
			continue;
		if (!dwarf_attr(&e, DW_AT_const_value, &attr) || dwarf_formsdata(&attr, &v) != 0)
			return -1;
		*name = dwarf_diename(&e) ? dwarf_diename(&e) : "";
		*value = v;
		return 0;
	} while (dwarf_siblingof(&e, &e) == 0);
	return -1;
}

/* ---- names as SystemTap prints them ---------------------------------- *
 *
 * Modifiers follow what they modify: "char const*", "int[]"; anonymous
 * aggregates are "struct {...}"; a function type prints as
 * "RET (MODIFIERS) (PARAMS)" around the modifiers applied to it.
 */
static bool name_of(const void *src, ctype_id id, struct strbuf *sb, ctype_id *func,
		    int depth);

static bool func_name(const void *src, ctype_id fid, const char *mods, struct strbuf *sb,
		      int depth)
{
	Dwarf_Die f, p;
	ctype_id ret, inner = 0;
	bool first = true;

	if (!die_of(src, fid, &f))
		return false;
	ret = type_attr(&f);
	if (!ret)
		strbuf_adds(sb, "void");
	else if (!name_of(src, ret, sb, &inner, depth + 1) || inner)
		return false;
	strbuf_addf(sb, " (%s) (", mods);
	if (dwarf_child(&f, &p) == 0) {
		do {
			int tag = dwarf_tag(&p);

			if (tag != DW_TAG_formal_parameter && tag != DW_TAG_unspecified_parameters)
				continue;
			strbuf_adds(sb, first ? "" : ", ");
			first = false;
			if (tag == DW_TAG_unspecified_parameters)
				strbuf_adds(sb, "...");
			else if (!type_attr(&p))
				strbuf_adds(sb, "void");
			else if (!name_of(src, type_attr(&p), sb, &inner, depth + 1) || inner)
				return false;
		} while (dwarf_siblingof(&p, &p) == 0);
	}
	strbuf_adds(sb, first ? "void)" : ")");
	return true;
}

static bool name_of(const void *src, ctype_id id, struct strbuf *sb, ctype_id *func,
		    int depth)
{
	Dwarf_Die die, sub;
	ctype_id to;
	const char *n;
	int tag;

	if (depth > MAX_CHAIN || !die_of(src, id, &die))
		return false;
	tag = dim_of(id) ? DW_TAG_array_type : dwarf_tag(&die);
	switch (tag) {
	case DW_TAG_enumeration_type: case DW_TAG_structure_type: case DW_TAG_union_type:
	case DW_TAG_class_type: case DW_TAG_typedef: case DW_TAG_base_type:
		strbuf_adds(sb, tag == DW_TAG_enumeration_type ? "enum " :
			    tag == DW_TAG_structure_type ? "struct " :
			    tag == DW_TAG_union_type ? "union " :
			    tag == DW_TAG_class_type ? "class " : "");
		n = dwarf_diename(&die);
		strbuf_adds(sb, n ? n : "{...}");
		return true;
	case DW_TAG_subroutine_type:
		*func = id;
		return true;
	case DW_TAG_pointer_type: case DW_TAG_reference_type: case DW_TAG_rvalue_reference_type:
	case DW_TAG_array_type: case DW_TAG_const_type: case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
		break;
	default:
		return false;
	}
	to = dim_of(id) ? 0 : type_attr(&die);
	if (tag == DW_TAG_pointer_type && to && die_of(src, to, &sub) &&
	    dwarf_tag(&sub) == DW_TAG_structure_type && dwarf_diename(&sub) &&
	    !strcmp(dwarf_diename(&sub), "__va_list_tag")) {
		strbuf_adds(sb, "va_list");
		return true;
	}
	if (!to || !name_of(src, to, sb, func, depth + 1))
		strbuf_adds(sb, "void");
	switch (tag) {
	case DW_TAG_reference_type:
		strbuf_adds(sb, "&");
		break;
	case DW_TAG_rvalue_reference_type:
		strbuf_adds(sb, "&&");
		break;
	case DW_TAG_pointer_type:
		strbuf_adds(sb, "*");
		break;
	case DW_TAG_array_type:
		strbuf_adds(sb, "[]");
		break;
	case DW_TAG_const_type:
		if (!to || !die_of(src, to, &sub) || (dwarf_tag(&sub) != DW_TAG_reference_type &&
						       dwarf_tag(&sub) != DW_TAG_rvalue_reference_type))
			strbuf_adds(sb, " const");
		break;
	case DW_TAG_volatile_type:
		strbuf_adds(sb, " volatile");
		break;
	default:
		strbuf_adds(sb, " restrict");
		break;
	}
	return true;
}

static int d_type_str(const void *src, ctype_id id, char *buf, size_t len)
{
	struct strbuf sb = STRBUF_INIT, full = STRBUF_INIT;
	ctype_id func = 0;
	bool ok;
	int n;

	if (!id) {
		return snprintf(buf, len, "void");
	}
	ok = name_of(src, id, &sb, &func, 0);
	if (ok && func)
		ok = func_name(src, func, sb.buf ? sb.buf : "", &full, 0);
	else if (ok)
		strbuf_adds(&full, sb.buf ? sb.buf : "");
	n = ok ? snprintf(buf, len, "%s", full.buf ? full.buf : "") : -1;
	strbuf_free(&sb);
	strbuf_free(&full);
	return n;
}

/* The file as the DWARF names it (SystemTap's way, not made relative) and
 * the line. */
static int d_decl(const void *src, ctype_id id, char *buf, size_t len)
{
	Dwarf_Die die;
	const char *file;
	int line = 0;

	if (dim_of(id) != 0 || !die_of(src, id, &die))
		return -1;
	file = dwarf_decl_file(&die);
	if (!file || dwarf_decl_line(&die, &line) != 0)
		return -1;
	return snprintf(buf, len, "%s:%d", file, line);
}

static const struct ctype_ops dwarf_ops = {
	.kind = d_kind,
	.name = d_name,
	.resolve = d_resolve,
	.pointee = d_pointee,
	.size = d_size,
	.int_info = d_int_info,
	.array_info = d_array_info,
	.member_count = d_member_count,
	.member_at = d_member_at,
	.member_find = d_member_find,
	.base_at = d_base_at,
	.enum_at = d_enum_at,
	.type_str = d_type_str,
	.find = d_find,
	.decl = d_decl,
};

struct ctypes ctypes_dwarf(Dwarf *dbg)
{
	struct dwtypes *dt;

	for (dt = all_dwtypes; dt; dt = dt->next)
		if (dt->dbg == dbg)
			break;
	if (!dt) {
		dt = xcalloc(1, sizeof(*dt));
		dt->dbg = dbg;
		dt->next = all_dwtypes;
		all_dwtypes = dt;
	}
	return (struct ctypes){ .ops = &dwarf_ops, .src = dt };
}

void ctypes_dwarf_forget(Dwarf *dbg)
{
	for (struct dwtypes **p = &all_dwtypes; *p; p = &(*p)->next) {
		struct dwtypes *dt = *p;

		if (dt->dbg != dbg)
			continue;
		*p = dt->next;
		for (size_t i = 0; i < dt->nfound; i++)
			free(dt->found[i].key);
		free(dt->found);
		free(dt);
		return;
	}
}
