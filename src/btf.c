/* BTF reader: loading, validation, indexing and type queries.
 * Written from the kernel's Documentation/bpf/btf.rst description of the
 * format: a header, a type section of variable-length records and a
 * string section.  Compressed kernel images are opened by kimage.c; the
 * kernel's tracepoints are catalogued by tpcatalog.c. */
#include "errbuf.h"
#include "btf.h"
#include "kimage.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BTF_MAGIC 0xeB9F
#define BTF_HDR_MIN 24
/* Most steps spent printing one type or looking up one member: real types
 * take a few dozen; hostile ones (a struct among its own anonymous
 * members, many times over) would take exponential time. */
#define BTF_PRINT_BUDGET 10000
#define BTF_MEMBER_BUDGET 100000

struct btf_rec {		/* struct btf_type as stored */
	uint32_t name_off;
	uint32_t info;
	uint32_t size_or_type;
};

struct btf {
	uint8_t *data;		/* the whole blob, owned */
	size_t len;
	const char *strs;
	uint32_t str_len;
	uint32_t ntypes;	/* ids 1..ntypes */
	const uint8_t **types;	/* types[id] -> record (types[0] unused) */
	/* name index: open hash of ids, chained through name_next */
	uint32_t *buckets;
	uint32_t nbuckets;
	uint32_t *name_next;
	int64_t ptr_size;	/* the target's, from its "long" */
	/* Split BTF (a module's) continues its base's (the kernel's) ids and
	 * string offsets: types[1..first_id - 1] are the base's records and
	 * offsets below base_str_len its strings. */
	const struct btf *base;
	uint32_t first_id;	/* of the types the data holds: 1 unless split */
	uint32_t base_str_len;
};


static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint32_t info_kind(uint32_t info) { return (info >> 24) & 0x1f; }
static uint32_t info_vlen(uint32_t info) { return info & 0xffff; }
static bool info_kflag(uint32_t info) { return info >> 31; }

static struct btf_rec rec_of(const struct btf *btf, uint32_t id)
{
	struct btf_rec r = { 0, 0, 0 };

	if (id == 0 || id > btf->ntypes)
		return r;
	memcpy(&r, btf->types[id], sizeof(r));
	return r;
}

/* Bytes that follow the 12-byte record of a type of KIND with VLEN
 * entries; -1 for an unknown kind. */
static int64_t trailer_size(uint32_t kind, uint32_t vlen)
{
	switch (kind) {
	case BTF_K_INT: case BTF_K_VAR: case BTF_K_DECL_TAG:
		return 4;
	case BTF_K_ARRAY:
		return 12;
	case BTF_K_STRUCT: case BTF_K_UNION: case BTF_K_DATASEC:
	case BTF_K_ENUM64:
		return 12 * (int64_t)vlen;
	case BTF_K_ENUM: case BTF_K_FUNC_PROTO:
		return 8 * (int64_t)vlen;
	case BTF_K_PTR: case BTF_K_FWD: case BTF_K_TYPEDEF:
	case BTF_K_VOLATILE: case BTF_K_CONST: case BTF_K_RESTRICT:
	case BTF_K_FUNC: case BTF_K_FLOAT: case BTF_K_TYPE_TAG:
		return 0;
	default:
		return -1;
	}
}

static bool str_ok(const struct btf *btf, uint32_t off)
{
	return off < btf->base_str_len ||
	       (uint64_t)off - btf->base_str_len < btf->str_len;
}

/* The string at OFF (checked by str_ok when the types were loaded). */
static const char *str_at(const struct btf *btf, uint32_t off)
{
	if (off < btf->base_str_len)
		return str_at(btf->base, off);
	return btf->strs + (off - btf->base_str_len);
}

static bool id_ok(const struct btf *btf, uint32_t id)
{
	return id <= btf->ntypes;
}

/* Check every string offset and type id a record holds. */
static int check_refs(const struct btf *btf, uint32_t id, char *err, size_t errlen)
{
	const uint8_t *p = btf->types[id];
	struct btf_rec r = rec_of(btf, id);
	uint32_t kind = info_kind(r.info), vlen = info_vlen(r.info), i;
	const uint8_t *t = p + sizeof(r);

	if (!str_ok(btf, r.name_off))
		goto bad_str;
	switch (kind) {
	case BTF_K_PTR: case BTF_K_TYPEDEF: case BTF_K_VOLATILE:
	case BTF_K_CONST: case BTF_K_RESTRICT: case BTF_K_FUNC:
	case BTF_K_VAR: case BTF_K_DECL_TAG: case BTF_K_TYPE_TAG:
	case BTF_K_FUNC_PROTO:
		if (!id_ok(btf, r.size_or_type))
			goto bad_id;
		break;
	}
	if (kind == BTF_K_FUNC && btf_kind(btf, r.size_or_type) != BTF_K_FUNC_PROTO) {
		errbuf_set(err, errlen, "BTF type %u: FUNC does not refer to a FUNC_PROTO", id);
		return -1;
	}
	if (kind == BTF_K_ARRAY && (!id_ok(btf, rd32(t)) || !id_ok(btf, rd32(t + 4))))
		goto bad_id;
	for (i = 0; i < vlen; i++) {
		switch (kind) {
		case BTF_K_STRUCT: case BTF_K_UNION:
			if (!str_ok(btf, rd32(t + 12 * i)))
				goto bad_str;
			if (!id_ok(btf, rd32(t + 12 * i + 4)))
				goto bad_id;
			break;
		case BTF_K_FUNC_PROTO:
			if (!str_ok(btf, rd32(t + 8 * i)))
				goto bad_str;
			if (!id_ok(btf, rd32(t + 8 * i + 4)))
				goto bad_id;
			break;
		case BTF_K_ENUM:
			if (!str_ok(btf, rd32(t + 8 * i)))
				goto bad_str;
			break;
		case BTF_K_ENUM64:
			if (!str_ok(btf, rd32(t + 12 * i)))
				goto bad_str;
			break;
		case BTF_K_DATASEC:
			if (!id_ok(btf, rd32(t + 12 * i)))
				goto bad_id;
			break;
		}
	}
	return 0;
bad_str:
	errbuf_set(err, errlen, "BTF type %u: string offset out of range", id);
	return -1;
bad_id:
	errbuf_set(err, errlen, "BTF type %u: reference to a type id out of range", id);
	return -1;
}

/* Length of the chain of single references from ID (typedefs, modifiers,
 * pointers, arrays), or -1 when it is longer than BTF_MAX_DEPTH, which
 * includes every loop. */
static int chain_ok(const struct btf *btf, uint32_t id)
{
	int depth;

	for (depth = 0; depth <= BTF_MAX_DEPTH; depth++) {
		switch (btf_kind(btf, id)) {
		case BTF_K_PTR: case BTF_K_TYPEDEF: case BTF_K_VOLATILE:
		case BTF_K_CONST: case BTF_K_RESTRICT: case BTF_K_TYPE_TAG:
		case BTF_K_ARRAY:
			id = btf_ref(btf, id);
			break;
		default:
			return 0;
		}
	}
	return -1;
}

static uint32_t hash_name(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

static int build_index(struct btf *btf)
{
	uint32_t id, n = 1;

	while (n < btf->ntypes * 2 + 1)
		n <<= 1;
	btf->nbuckets = n;
	btf->buckets = calloc(n, sizeof(*btf->buckets));
	btf->name_next = calloc(btf->ntypes + 1, sizeof(*btf->name_next));
	if (!btf->buckets || !btf->name_next)
		return -1;
	/* Insert in reverse so that each chain lists ids in increasing order. */
	for (id = btf->ntypes; id >= 1; id--) {
		const char *name = btf_name(btf, id);
		uint32_t b;

		if (!*name)
			continue;
		b = hash_name(name) & (n - 1);
		btf->name_next[id] = btf->buckets[b];
		btf->buckets[b] = id;
	}
	return 0;
}

/* Split the type section into records, checking that each lies inside it. */
static int scan_types(struct btf *btf, const uint8_t *sec, uint32_t sec_len,
		      char *err, size_t errlen)
{
	/* Kernel types average over 16 bytes: usually one allocation. */
	uint32_t off = 0, n = btf->first_id - 1, cap = n + sec_len / 16 + 16;

	btf->types = malloc(cap * sizeof(*btf->types));
	if (!btf->types)
		goto oom;
	if (n)	/* split: the base's records first, under their own ids */
		memcpy(btf->types + 1, btf->base->types + 1, n * sizeof(*btf->types));
	while (off < sec_len) {
		struct btf_rec r;
		int64_t extra;

		if (sec_len - off < sizeof(r)) {
			errbuf_set(err, errlen, "BTF type %u truncated", n + 1);
			return -1;
		}
		memcpy(&r, sec + off, sizeof(r));
		extra = trailer_size(info_kind(r.info), info_vlen(r.info));
		if (extra < 0 || info_kind(r.info) == BTF_K_UNKN) {
			errbuf_set(err, errlen, "BTF type %u has unknown kind %u", n + 1,
			       info_kind(r.info));
			return -1;
		}
		if ((uint64_t)sec_len - off - sizeof(r) < (uint64_t)extra) {
			errbuf_set(err, errlen, "BTF type %u truncated", n + 1);
			return -1;
		}
		if (n + 2 > cap) {
			const uint8_t **grown;

			cap *= 2;
			grown = realloc(btf->types, cap * sizeof(*btf->types));
			if (!grown)
				goto oom;
			btf->types = grown;
		}
		btf->types[++n] = sec + off;
		off += sizeof(r) + (uint32_t)extra;
	}
	btf->ntypes = n;
	return 0;
oom:
	errbuf_set(err, errlen, "out of memory");
	return -1;
}

static int parse(struct btf *btf, const struct btf *base, char *err, size_t errlen)
{
	const uint8_t *d = btf->data;
	uint32_t hdr_len, type_off, type_len, str_off, str_len, id;
	uint16_t magic;

	if (btf->len < BTF_HDR_MIN) {
		errbuf_set(err, errlen, "BTF data too short for a header (%zu bytes)", btf->len);
		return -1;
	}
	memcpy(&magic, d, 2);
	if (magic != BTF_MAGIC) {
		errbuf_set(err, errlen, magic == 0x9FEB ? "BTF of the other byte order is not supported"
			: "not BTF data (bad magic 0x%04x)", magic);
		return -1;
	}
	if (d[2] != 1) {
		errbuf_set(err, errlen, "unsupported BTF version %u", d[2]);
		return -1;
	}
	hdr_len = rd32(d + 4);
	type_off = rd32(d + 8);
	type_len = rd32(d + 12);
	str_off = rd32(d + 16);
	str_len = rd32(d + 20);
	if (hdr_len < BTF_HDR_MIN || hdr_len > btf->len) {
		errbuf_set(err, errlen, "BTF header length %u out of range", hdr_len);
		return -1;
	}
	if ((uint64_t)type_off + type_len > btf->len - hdr_len ||
	    (uint64_t)str_off + str_len > btf->len - hdr_len) {
		errbuf_set(err, errlen, "BTF type or string section extends past the end of the data");
		return -1;
	}
	if (type_off % 4) {
		errbuf_set(err, errlen, "BTF type section is misaligned");
		return -1;
	}
	btf->strs = (const char *)d + hdr_len + str_off;
	btf->str_len = str_len;
	btf->base = base;
	btf->first_id = base ? base->ntypes + 1 : 1;
	btf->base_str_len = base ? base->base_str_len + base->str_len : 0;
	/* (a split section's strings need not start with an empty one) */
	if (str_len == 0 || (!base && btf->strs[0] != '\0') || btf->strs[str_len - 1] != '\0') {
		errbuf_set(err, errlen, "BTF string section is not a list of NUL-terminated strings");
		return -1;
	}
	if (scan_types(btf, d + hdr_len + type_off, type_len, err, errlen) < 0)
		return -1;
	for (id = btf->first_id; id <= btf->ntypes; id++)
		if (check_refs(btf, id, err, errlen) < 0)
			return -1;
	for (id = btf->first_id; id <= btf->ntypes; id++)
		if (chain_ok(btf, id) < 0) {
			errbuf_set(err, errlen, "BTF type %u: type chain too deep or looping", id);
			return -1;
		}
	if (build_index(btf) < 0) {
		errbuf_set(err, errlen, "out of memory");
		return -1;
	}
	id = btf_find(btf, "long int", BTF_K_INT);
	btf->ptr_size = id ? (int64_t)rec_of(btf, id).size_or_type : 8;
	return 0;
}

/* Parse BUF (LEN bytes, malloc'd), which the result then owns; BUF is
 * freed on failure. */
static struct btf *adopt(uint8_t *buf, size_t len, const struct btf *base, char *err,
			 size_t errlen)
{
	struct btf *btf;

	if (len > UINT32_MAX) {
		free(buf);
		errbuf_set(err, errlen, "BTF data too large");
		return NULL;
	}
	btf = calloc(1, sizeof(*btf));
	if (!btf) {
		free(buf);
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	btf->data = buf;
	btf->len = len;
	if (parse(btf, base, err, errlen) < 0) {
		btf_free(btf);
		return NULL;
	}
	return btf;
}

struct btf *btf_load_mem(const void *data, size_t len, char *err, size_t errlen)
{
	uint8_t *buf = malloc(len ? len : 1);

	if (!buf) {
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	memcpy(buf, data, len);
	return adopt(buf, len, NULL, err, errlen);
}

/* Put "PATH: " before the message in ERR. */
static void prefix_path(const char *path, char *err, size_t errlen)
{
	char tmp[256];

	if (!err || !errlen)
		return;
	snprintf(tmp, sizeof(tmp), "%s", err);
	errbuf_set(err, errlen, "%s: %s", path, tmp);
}

void btf_free(struct btf *btf)
{
	if (!btf)
		return;
	free(btf->data);
	free(btf->types);
	free(btf->buckets);
	free(btf->name_next);
	free(btf);
}

/* Read the section SCN of the ELF file on FD straight from the file: a
 * vmlinux is large and only this part of it is wanted. */
static struct btf *read_section(int fd, Elf_Scn *scn, const char *path,
				const struct btf *base, char *err, size_t errlen)
{
	GElf_Shdr sh;
	uint8_t *buf;
	struct stat st;
	size_t done = 0;
	struct btf *btf;

	if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS || fstat(fd, &st) < 0 ||
	    sh.sh_offset > (uint64_t)st.st_size || sh.sh_size > (uint64_t)st.st_size - sh.sh_offset ||
	    sh.sh_size > UINT32_MAX) {
		errbuf_set(err, errlen, "%s: the .BTF section lies outside the file", path);
		return NULL;
	}
	buf = malloc(sh.sh_size ? sh.sh_size : 1);
	if (!buf) {
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	while (done < sh.sh_size) {
		ssize_t n = pread(fd, buf + done, sh.sh_size - done, (off_t)(sh.sh_offset + done));

		if (n <= 0) {
			errbuf_set(err, errlen, "%s: %s", path, n < 0 ? strerror(errno) : "unexpected end of file");
			free(buf);
			return NULL;
		}
		done += (size_t)n;
	}
	btf = adopt(buf, sh.sh_size, base, err, errlen);
	if (!btf)
		prefix_path(path, err, errlen);
	return btf;
}

/* The .BTF section of the ELF file on FD, loaded. */
static struct btf *load_elf(int fd, const char *path, const struct btf *base, char *err,
			    size_t errlen)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	struct btf *btf = NULL;

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0) {
		errbuf_set(err, errlen, "%s: not a readable ELF file: %s", path, elf_errmsg(-1));
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && strcmp(name, ".BTF") == 0)
			break;
	}
	if (!scn) {
		errbuf_set(err, errlen, "%s: no .BTF section (kernel built without CONFIG_DEBUG_INFO_BTF?)", path);
		goto out;
	}
	btf = read_section(fd, scn, path, base, err, errlen);
out:
	if (elf)
		elf_end(elf);
	return btf;
}

static struct btf *load_raw(int fd, const char *path, const struct btf *base, char *err,
			    size_t errlen)
{
	struct stat st;
	size_t cap, len = 0;
	uint8_t *buf;
	struct btf *btf;
	ssize_t n;

	/* Sized from the file when it says, but read until EOF all the same:
	 * sysfs files report a size of 4096 or 0. */
	cap = fstat(fd, &st) == 0 && st.st_size > 0 && st.st_size < ((off_t)1 << 32) ?
		(size_t)st.st_size + 1 : (size_t)1 << 20;
	buf = malloc(cap);
	if (!buf) {
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	while ((n = read(fd, buf + len, cap - len)) > 0) {
		len += (size_t)n;
		if (len == cap) {
			uint8_t *grown = cap < ((size_t)1 << 32) ? realloc(buf, cap * 2) : NULL;

			if (!grown) {
				free(buf);
				errbuf_set(err, errlen, "%s: too large or out of memory", path);
				return NULL;
			}
			buf = grown;
			cap *= 2;
		}
	}
	if (n < 0) {
		errbuf_set(err, errlen, "%s: %s", path, strerror(errno));
		free(buf);
		return NULL;
	}
	btf = adopt(buf, len, base, err, errlen);
	if (!btf)
		prefix_path(path, err, errlen);
	return btf;
}

/* A compressed kernel image: the .BTF of the vmlinux inside it. */
static struct btf *load_compressed(int fd, const char *path, char *err, size_t errlen)
{
	int elf = kimage_decompress(fd, path, err, errlen);
	struct btf *btf;

	if (elf < 0)
		return NULL;
	btf = load_elf(elf, path, NULL, err, errlen);
	close(elf);
	return btf;
}

/* A compressed module (.ko.xz): the .BTF of the ELF file inside it. */
static struct btf *load_compressed_module(int fd, const char *path, const struct btf *base,
					  char *err, size_t errlen)
{
	int elf = kimage_decompress_file(fd, path, err, errlen);
	struct btf *btf;

	if (elf < 0)
		return NULL;
	btf = load_elf(elf, path, base, err, errlen);
	close(elf);
	return btf;
}

static struct btf *load_path(const char *path, const struct btf *base, char *err,
			     size_t errlen)
{
	unsigned char magic[4] = { 0 };
	struct btf *btf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		errbuf_set(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	n = read(fd, magic, sizeof(magic));
	if (n < 0 || lseek(fd, 0, SEEK_SET) != 0) {
		errbuf_set(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (n == 4 && memcmp(magic, "\177ELF", 4) == 0)
		btf = load_elf(fd, path, base, err, errlen);
	else if (!base && kimage_is_compressed(fd))
		btf = load_compressed(fd, path, err, errlen);
	else if (base && kimage_is_compressed_file(fd))
		btf = load_compressed_module(fd, path, base, err, errlen);
	else
		btf = load_raw(fd, path, base, err, errlen);
	close(fd);
	return btf;
}

struct btf *btf_load_file(const char *path, char *err, size_t errlen)
{
	return load_path(path, NULL, err, errlen);
}

struct btf *btf_load_split_file(const char *path, const struct btf *base, char *err,
				size_t errlen)
{
	return load_path(path, base, err, errlen);
}

struct btf *btf_load_split_mem(const void *data, size_t len, const struct btf *base,
			       char *err, size_t errlen)
{
	uint8_t *buf = malloc(len ? len : 1);

	if (!buf) {
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	memcpy(buf, data, len);
	return adopt(buf, len, base, err, errlen);
}

/* ------------------------------------------------------------ queries */

uint32_t btf_type_count(const struct btf *btf)
{
	return btf->ntypes;
}

enum btf_kind btf_kind(const struct btf *btf, uint32_t id)
{
	return (enum btf_kind)info_kind(rec_of(btf, id).info);
}

const char *btf_name(const struct btf *btf, uint32_t id)
{
	if (id == 0 || id > btf->ntypes)
		return "";
	return str_at(btf, rec_of(btf, id).name_off);
}

uint32_t btf_vlen(const struct btf *btf, uint32_t id)
{
	return info_vlen(rec_of(btf, id).info);
}

uint32_t btf_ref(const struct btf *btf, uint32_t id)
{
	struct btf_rec r = rec_of(btf, id);

	switch (info_kind(r.info)) {
	case BTF_K_PTR: case BTF_K_TYPEDEF: case BTF_K_VOLATILE:
	case BTF_K_CONST: case BTF_K_RESTRICT: case BTF_K_FUNC:
	case BTF_K_VAR: case BTF_K_DECL_TAG: case BTF_K_TYPE_TAG:
	case BTF_K_FUNC_PROTO:
		return r.size_or_type;
	case BTF_K_ARRAY:
		return rd32(btf->types[id] + sizeof(r));
	default:
		return 0;
	}
}

const char *btf_kind_name(enum btf_kind kind)
{
	static const char *const names[BTF_K_COUNT] = {
		"UNKN", "INT", "PTR", "ARRAY", "STRUCT", "UNION", "ENUM", "FWD",
		"TYPEDEF", "VOLATILE", "CONST", "RESTRICT", "FUNC", "FUNC_PROTO",
		"VAR", "DATASEC", "FLOAT", "DECL_TAG", "TYPE_TAG", "ENUM64",
	};

	return (unsigned)kind < BTF_K_COUNT ? names[kind] : "?";
}

int btf_find_each(const struct btf *btf, const char *name,
		  int (*fn)(uint32_t id, void *arg), void *arg)
{
	uint32_t id;

	if (!*name)
		return 0;
	for (id = btf->buckets[hash_name(name) & (btf->nbuckets - 1)]; id;
	     id = btf->name_next[id]) {
		int rc;

		if (strcmp(btf_name(btf, id), name) != 0)
			continue;
		rc = fn(id, arg);
		if (rc)
			return rc;
	}
	return 0;
}

struct find_kind {
	const struct btf *btf;
	int kind;
	uint32_t found;
};

static int match_kind(uint32_t id, void *arg)
{
	struct find_kind *fk = arg;

	if (fk->kind >= 0 && (int)btf_kind(fk->btf, id) != fk->kind)
		return 0;
	fk->found = id;
	return 1;
}

uint32_t btf_find(const struct btf *btf, const char *name, int kind)
{
	struct find_kind fk = { btf, kind, 0 };

	btf_find_each(btf, name, match_kind, &fk);
	return fk.found;
}

static bool is_qualifier(enum btf_kind k)
{
	return k == BTF_K_CONST || k == BTF_K_VOLATILE || k == BTF_K_RESTRICT ||
	       k == BTF_K_TYPE_TAG;
}

uint32_t btf_skip_qualifiers(const struct btf *btf, uint32_t id)
{
	int depth;

	for (depth = 0; depth <= BTF_MAX_DEPTH; depth++) {
		if (!is_qualifier(btf_kind(btf, id)))
			return id;
		id = btf_ref(btf, id);
	}
	return 0;
}

uint32_t btf_resolve(const struct btf *btf, uint32_t id)
{
	int depth;

	for (depth = 0; depth <= BTF_MAX_DEPTH; depth++) {
		enum btf_kind k = btf_kind(btf, id);

		if (!is_qualifier(k) && k != BTF_K_TYPEDEF)
			return id;
		id = btf_ref(btf, id);
	}
	return 0;
}

uint32_t btf_pointee(const struct btf *btf, uint32_t id)
{
	id = btf_resolve(btf, id);
	return btf_kind(btf, id) == BTF_K_PTR ? btf_ref(btf, id) : 0;
}

int64_t btf_size(const struct btf *btf, uint32_t id)
{
	int64_t mult = 1;
	int depth;

	for (depth = 0; depth <= BTF_MAX_DEPTH; depth++) {
		struct btf_rec r;

		id = btf_resolve(btf, id);
		r = rec_of(btf, id);
		switch (info_kind(r.info)) {
		case BTF_K_INT: case BTF_K_STRUCT: case BTF_K_UNION:
		case BTF_K_ENUM: case BTF_K_ENUM64: case BTF_K_FLOAT:
		case BTF_K_DATASEC:
			return mult * (int64_t)r.size_or_type;
		case BTF_K_PTR:
			return mult * btf->ptr_size;
		case BTF_K_ARRAY: {
			uint32_t nelems = rd32(btf->types[id] + sizeof(r) + 8);

			mult *= nelems;
			if (mult > ((int64_t)1 << 40))
				return -1;
			id = btf_ref(btf, id);
			break;
		}
		default:
			return -1;
		}
	}
	return -1;
}

int btf_int_info(const struct btf *btf, uint32_t id, struct btf_int_info *out)
{
	uint32_t v;

	if (btf_kind(btf, id) != BTF_K_INT)
		return -1;
	v = rd32(btf->types[id] + sizeof(struct btf_rec));
	out->encoding = (v >> 24) & 0xf;
	out->bit_offset = (v >> 16) & 0xff;
	out->bits = v & 0xff;
	return 0;
}

int btf_array_info(const struct btf *btf, uint32_t id, struct btf_array_info *out)
{
	const uint8_t *t;

	if (btf_kind(btf, id) != BTF_K_ARRAY)
		return -1;
	t = btf->types[id] + sizeof(struct btf_rec);
	out->elem_type = rd32(t);
	out->index_type = rd32(t + 4);
	out->nelems = rd32(t + 8);
	return 0;
}

int btf_member_at(const struct btf *btf, uint32_t id, uint32_t index,
		  struct btf_member_info *out)
{
	struct btf_rec r = rec_of(btf, id);
	const uint8_t *m;
	uint32_t off;

	if ((info_kind(r.info) != BTF_K_STRUCT && info_kind(r.info) != BTF_K_UNION) ||
	    index >= info_vlen(r.info))
		return -1;
	m = btf->types[id] + sizeof(r) + 12 * index;
	out->name = str_at(btf, rd32(m));
	out->type = rd32(m + 4);
	off = rd32(m + 8);
	/* With kind_flag set the offset word holds a bit-field size too. */
	if (info_kflag(r.info)) {
		out->bit_offset = off & 0xffffff;
		out->bitfield_size = off >> 24;
	} else {
		out->bit_offset = off;
		out->bitfield_size = 0;
	}
	out->size = btf_size(btf, out->type);
	return 0;
}

static int member_find(const struct btf *btf, uint32_t id, const char *name,
		       struct btf_member_info *out, int depth, long *budget)
{
	uint32_t i, n;

	if (depth > BTF_MAX_DEPTH)
		return -1;
	id = btf_resolve(btf, id);
	n = btf_vlen(btf, id);
	for (i = 0; i < n; i++) {
		struct btf_member_info m;

		if (--*budget < 0 || btf_member_at(btf, id, i, &m) < 0)
			return -1;
		if (strcmp(m.name, name) == 0) {
			*out = m;
			return 0;
		}
		if (!*m.name && member_find(btf, m.type, name, out, depth + 1, budget) == 0) {
			out->bit_offset += m.bit_offset;
			return 0;
		}
	}
	return -1;
}

int btf_member_find(const struct btf *btf, uint32_t id, const char *name,
		    struct btf_member_info *out)
{
	long budget = BTF_MEMBER_BUDGET;

	if (!*name)
		return -1;
	return member_find(btf, id, name, out, 0, &budget);
}

int btf_enum_at(const struct btf *btf, uint32_t id, uint32_t index,
		const char **name, int64_t *value)
{
	struct btf_rec r = rec_of(btf, id);
	const uint8_t *e;

	if (index >= info_vlen(r.info))
		return -1;
	if (info_kind(r.info) == BTF_K_ENUM) {
		e = btf->types[id] + sizeof(r) + 8 * index;
		*name = str_at(btf, rd32(e));
		/* kind_flag marks a signed enum. */
		*value = info_kflag(r.info) ? (int64_t)(int32_t)rd32(e + 4) : (int64_t)rd32(e + 4);
		return 0;
	}
	if (info_kind(r.info) == BTF_K_ENUM64) {
		e = btf->types[id] + sizeof(r) + 12 * index;
		*name = str_at(btf, rd32(e));
		*value = (int64_t)(((uint64_t)rd32(e + 8) << 32) | rd32(e + 4));
		return 0;
	}
	return -1;
}

int btf_param_at(const struct btf *btf, uint32_t id, uint32_t index,
		 const char **name, uint32_t *type)
{
	const uint8_t *p;

	if (btf_kind(btf, id) == BTF_K_FUNC)
		id = btf_ref(btf, id);
	if (btf_kind(btf, id) != BTF_K_FUNC_PROTO || index >= btf_vlen(btf, id))
		return -1;
	p = btf->types[id] + sizeof(struct btf_rec) + 8 * index;
	*name = str_at(btf, rd32(p));
	*type = rd32(p + 4);
	return 0;
}

/* ------------------------------------------------------- C type names */

/* A growing string; on allocation failure it is marked broken and
 * stays so. */
struct sbuf {
	char *s;
	size_t len, cap;
	bool broken;
};

static void sb_add(struct sbuf *b, const char *text)
{
	size_t n = strlen(text);

	if (b->broken)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *grown = realloc(b->s, cap);

		if (!grown) {
			b->broken = true;
			return;
		}
		b->s = grown;
		b->cap = cap;
	}
	memcpy(b->s + b->len, text, n + 1);
	b->len += n;
}

static char *sb_take(struct sbuf *b)
{
	if (b->broken || !b->s) {
		free(b->s);
		return b->broken ? NULL : strdup("");
	}
	return b->s;
}

/* The name a base type is written with: "int", "struct task_struct". */
static bool base_name(const struct btf *btf, uint32_t id, struct sbuf *out)
{
	const char *name = btf_name(btf, id);
	struct btf_rec r = rec_of(btf, id);

	switch (btf_kind(btf, id)) {
	case BTF_K_UNKN:
		sb_add(out, "void");
		return true;
	case BTF_K_INT: case BTF_K_FLOAT: case BTF_K_TYPEDEF:
		sb_add(out, name);
		return true;
	case BTF_K_STRUCT:
		sb_add(out, "struct ");
		break;
	case BTF_K_UNION:
		sb_add(out, "union ");
		break;
	case BTF_K_ENUM: case BTF_K_ENUM64:
		sb_add(out, "enum ");
		break;
	case BTF_K_FWD:
		sb_add(out, info_kflag(r.info) ? "union " : "struct ");
		break;
	default:
		return false;
	}
	sb_add(out, *name ? name : "{...}");
	return true;
}

/* C declaration of ID around the declarator INNER (may be ""). */
static char *decl(const struct btf *btf, uint32_t id, const char *inner, int *budget);

static char *join3(const char *a, const char *b, const char *c)
{
	struct sbuf sb = { 0 };

	sb_add(&sb, a);
	sb_add(&sb, b);
	sb_add(&sb, c);
	return sb_take(&sb);
}

static char *decl_proto(const struct btf *btf, uint32_t id, const char *inner, int *budget)
{
	struct sbuf sb = { 0 };
	uint32_t i, n = btf_vlen(btf, id);
	char *res;

	sb_add(&sb, inner);
	sb_add(&sb, "(");
	for (i = 0; i < n; i++) {
		const char *pname;
		uint32_t ptype;
		char *p;

		btf_param_at(btf, id, i, &pname, &ptype);
		if (i)
			sb_add(&sb, ", ");
		if (ptype == 0 && i == n - 1) {
			sb_add(&sb, "...");
			continue;
		}
		p = decl(btf, ptype, pname, budget);
		if (!p) {
			free(sb_take(&sb));
			return NULL;
		}
		sb_add(&sb, p);
		free(p);
	}
	sb_add(&sb, n ? ")" : "void)");
	res = sb_take(&sb);
	if (!res)
		return NULL;
	{
		char *full = decl(btf, btf_ref(btf, id), res, budget);

		free(res);
		return full;
	}
}

static char *decl(const struct btf *btf, uint32_t id, const char *inner, int *budget)
{
	enum btf_kind k = btf_kind(btf, id);
	char *wrapped, *res;

	/* Bounds the work on hostile input, such as a function type among
	 * its own parameters' types. */
	if (--*budget < 0)
		return NULL;
	switch (k) {
	case BTF_K_PTR: {
		enum btf_kind to = btf_kind(btf, btf_skip_qualifiers(btf, btf_ref(btf, id)));
		bool paren = to == BTF_K_ARRAY || to == BTF_K_FUNC_PROTO;

		wrapped = join3(paren ? "(*" : "*", inner, paren ? ")" : "");
		break;
	}
	case BTF_K_CONST: case BTF_K_VOLATILE: case BTF_K_RESTRICT: {
		const char *q = k == BTF_K_CONST ? "const" : k == BTF_K_VOLATILE ?
			"volatile" : "restrict";
		struct sbuf base = { 0 };
		uint32_t to = btf_ref(btf, id);

		if (base_name(btf, to, &base)) {
			/* "int const x": after its base type, as SystemTap
			 * names DWARF types ("char const*"). */
			char *b = sb_take(&base);

			if (!b)
				return NULL;
			res = join3(b, " ", q);
			free(b);
			if (res && *inner) {
				char *full = join3(res, " ", inner);

				free(res);
				res = full;
			}
			return res;
		}
		free(base.s);
		wrapped = join3(q, *inner ? " " : "", inner);
		break;
	}
	case BTF_K_TYPE_TAG:
		return decl(btf, btf_ref(btf, id), inner, budget);
	case BTF_K_ARRAY: {
		char dim[24];
		struct btf_array_info a = { 0, 0, 0 };

		btf_array_info(btf, id, &a);
		snprintf(dim, sizeof(dim), "[%u]", a.nelems);
		wrapped = join3(inner, dim, "");
		break;
	}
	case BTF_K_FUNC_PROTO:
		return decl_proto(btf, id, inner, budget);
	case BTF_K_FUNC:
		return decl_proto(btf, btf_ref(btf, id), *inner ? inner : btf_name(btf, id),
				  budget);
	default: {
		struct sbuf sb = { 0 };

		if (!base_name(btf, id, &sb)) {
			free(sb.s);
			return NULL;
		}
		if (*inner) {
			sb_add(&sb, " ");
			sb_add(&sb, inner);
		}
		return sb_take(&sb);
	}
	}
	if (!wrapped)
		return NULL;
	res = decl(btf, btf_ref(btf, id), wrapped, budget);
	free(wrapped);
	return res;
}

int btf_type_str(const struct btf *btf, uint32_t id, const char *var,
		 char *buf, size_t len)
{
	int budget = BTF_PRINT_BUDGET;
	char *s;
	int n;

	if (id > btf->ntypes)
		return -1;
	s = decl(btf, id, var ? var : "", &budget);
	if (!s)
		return -1;
	n = snprintf(buf, len, "%s", s);
	free(s);
	return n;
}
