/* BTF reader: loading, validation, indexing and type queries.
 * Written from the kernel's Documentation/bpf/btf.rst description of the
 * format: a header, a type section of variable-length records and a
 * string section.  The second half finds the kernel's tracepoints. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memmem */
#endif
#include "errbuf.h"
#include "btf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
	return off < btf->str_len;
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
	uint32_t off = 0, cap = sec_len / 16 + 16, n = 0;

	btf->types = malloc(cap * sizeof(*btf->types));
	if (!btf->types)
		goto oom;
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

static int parse(struct btf *btf, char *err, size_t errlen)
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
	if (str_len == 0 || btf->strs[0] != '\0' || btf->strs[str_len - 1] != '\0') {
		errbuf_set(err, errlen, "BTF string section is not a list of NUL-terminated strings");
		return -1;
	}
	if (scan_types(btf, d + hdr_len + type_off, type_len, err, errlen) < 0)
		return -1;
	for (id = 1; id <= btf->ntypes; id++)
		if (check_refs(btf, id, err, errlen) < 0)
			return -1;
	for (id = 1; id <= btf->ntypes; id++)
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
static struct btf *adopt(uint8_t *buf, size_t len, char *err, size_t errlen)
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
	if (parse(btf, err, errlen) < 0) {
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
	return adopt(buf, len, err, errlen);
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
				char *err, size_t errlen)
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
	btf = adopt(buf, sh.sh_size, err, errlen);
	if (!btf)
		prefix_path(path, err, errlen);
	return btf;
}

/* The .BTF section of the ELF file on FD, loaded. */
static struct btf *load_elf(int fd, const char *path, char *err, size_t errlen)
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
	btf = read_section(fd, scn, path, err, errlen);
out:
	if (elf)
		elf_end(elf);
	return btf;
}

static struct btf *load_raw(int fd, const char *path, char *err, size_t errlen)
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
	btf = adopt(buf, len, err, errlen);
	if (!btf)
		prefix_path(path, err, errlen);
	return btf;
}

/* ---- compressed kernel images */

/* The compressors a bzImage's payload may use: the magic that starts the
 * compressed vmlinux, and the program that decompresses it from stdin. */
static const struct {
	const char *magic;
	size_t len;
	const char *argv[5];
} compressors[] = {
	{ "\xfd\x37\x7a\x58\x5a\x00", 6, { "xz", "-dc", "--single-stream", NULL } },
	{ "\x28\xb5\x2f\xfd", 4, { "zstd", "-dcq", NULL } },
	{ "\x1f\x8b\x08\x00", 4, { "gzip", "-dcq", NULL } },
	{ "\x89\x4c\x5a\x4f", 4, { "lzop", "-dcq", NULL } },
	{ "\x42\x5a\x68", 3, { "bzip2", "-dcq", NULL } },
	{ "\x5d\x00\x00\x00", 4, { "xz", "-dc", "--format=lzma", NULL } },
};

/* Run ARGV with stdin PATH from offset OFF and stdout OUT; whether the
 * output is an ELF file (decompressors may complain about the bytes that
 * follow the payload, so their status says little). */
static bool decompress_to(const char *path, off_t off, char *const argv[], int out)
{
	unsigned char head[4];
	pid_t pid;
	int status;

	if (ftruncate(out, 0) < 0)
		return false;
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		int in = open(path, O_RDONLY);
		int null = open("/dev/null", O_WRONLY);

		if (in < 0 || lseek(in, off, SEEK_SET) != off || dup2(in, 0) < 0 ||
		    dup2(out, 1) < 0 || (null >= 0 && dup2(null, 2) < 0) || lseek(out, 0, SEEK_SET) != 0)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return pread(out, head, 4, 0) == 4 && memcmp(head, "\177ELF", 4) == 0;
}

/* A bzImage (/boot/vmlinuz-R): find the compressed vmlinux in it by its
 * compressor's magic, decompress it into an unlinked temporary file and
 * read the .BTF section of that.  Takes a second or two. */
static struct btf *load_bzimage(int fd, const char *path, char *err, size_t errlen)
{
	char tmp[4096];
	const char *dir = getenv("TMPDIR");
	struct stat st;
	unsigned char *img;
	struct btf *btf = NULL;
	size_t c;
	int out;

	if (fstat(fd, &st) < 0 || st.st_size <= 0 || st.st_size > (256 << 20) ||
	    !(img = malloc((size_t)st.st_size))) {
		errbuf_set(err, errlen, "%s: cannot read the kernel image", path);
		return NULL;
	}
	if (pread(fd, img, (size_t)st.st_size, 0) != st.st_size) {
		errbuf_set(err, errlen, "%s: cannot read the kernel image", path);
		free(img);
		return NULL;
	}
	snprintf(tmp, sizeof(tmp), "%s/tapc-vmlinux-XXXXXX", dir && *dir ? dir : "/tmp");
	out = mkstemp(tmp);
	if (out < 0) {
		errbuf_set(err, errlen, "%s: %s", tmp, strerror(errno));
		free(img);
		return NULL;
	}
	unlink(tmp);
	errbuf_set(err, errlen, "%s: no compressed vmlinux found that a decompressor here can read", path);
	for (c = 0; !btf && c < sizeof(compressors) / sizeof(compressors[0]); c++) {
		unsigned char *at = img, *end = img + st.st_size;
		int tries = 0;

		while (!btf && tries < 4 &&
		       (at = memmem(at, (size_t)(end - at), compressors[c].magic, compressors[c].len))) {
			tries++;
			if (decompress_to(path, at - img, (char *const *)compressors[c].argv, out)) {
				btf = load_elf(out, path, err, errlen);
				break;
			}
			at++;
		}
	}
	close(out);
	free(img);
	return btf;
}

/* A bzImage has "HdrS" at 0x202 (the x86 boot protocol's header). */
static bool is_bzimage(int fd)
{
	char sig[4];

	return pread(fd, sig, 4, 0x202) == 4 && memcmp(sig, "HdrS", 4) == 0;
}

struct btf *btf_load_file(const char *path, char *err, size_t errlen)
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
		btf = load_elf(fd, path, err, errlen);
	else if (is_bzimage(fd))
		btf = load_bzimage(fd, path, err, errlen);
	else
		btf = load_raw(fd, path, err, errlen);
	close(fd);
	return btf;
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
	return btf->strs + rec_of(btf, id).name_off;
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
	out->name = btf->strs + rd32(m);
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
		*name = btf->strs + rd32(e);
		/* kind_flag marks a signed enum. */
		*value = info_kflag(r.info) ? (int64_t)(int32_t)rd32(e + 4) : (int64_t)rd32(e + 4);
		return 0;
	}
	if (info_kind(r.info) == BTF_K_ENUM64) {
		e = btf->types[id] + sizeof(r) + 12 * index;
		*name = btf->strs + rd32(e);
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
	*name = btf->strs + rd32(p);
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
			/* "const int x": the qualifier goes first. */
			char *b = sb_take(&base);

			if (!b)
				return NULL;
			res = join3(q, " ", b);
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

/* -------------------------------------------------------- tracepoints */

#define TP_TYPEDEF_PREFIX "btf_trace_"
#define TP_FUNC_PREFIX "__bpf_trace_"
#define TP_RAW_PREFIX "trace_event_raw_"

/* What the kernel headers say about one event. */
struct tp_header_info {
	char *event, *system, *class_name;
};

struct btf_tracepoints {
	struct btf_tracepoint *tps;
	size_t count;
	struct btf_tp_arg *arg_pool;
	struct tp_header_info *hdr;
	size_t nhdr;
};

/* A class's __bpf_trace_ function: the names of an event's arguments. */
struct tp_class {
	const char *name;	/* without the prefix */
	uint32_t proto;
};

static int cmp_tp(const void *a, const void *b)
{
	return strcmp(((const struct btf_tracepoint *)a)->name,
		      ((const struct btf_tracepoint *)b)->name);
}

static int cmp_hdr(const void *a, const void *b)
{
	return strcmp(((const struct tp_header_info *)a)->event,
		      ((const struct tp_header_info *)b)->event);
}

/* Whether class proto CP takes the same argument types as event proto EP
 * (both with the leading void *__data). */
static bool same_params(const struct btf *btf, uint32_t ep, uint32_t cp)
{
	uint32_t i, n = btf_vlen(btf, ep);

	if (btf_vlen(btf, cp) != n)
		return false;
	for (i = 1; i < n; i++) {
		const char *en, *cn;
		uint32_t et, ct;

		btf_param_at(btf, ep, i, &en, &et);
		btf_param_at(btf, cp, i, &cn, &ct);
		if (et != ct)
			return false;
	}
	return true;
}

static size_t common_prefix(const char *a, const char *b)
{
	size_t n = 0;

	while (a[n] && a[n] == b[n])
		n++;
	return n;
}

/* Whether classes A and B name their parameters alike. */
static bool same_names(const struct btf *btf, uint32_t a, uint32_t b)
{
	uint32_t i, n = btf_vlen(btf, a);

	for (i = 1; i < n; i++) {
		const char *an, *bn;
		uint32_t at, bt;

		btf_param_at(btf, a, i, &an, &at);
		btf_param_at(btf, b, i, &bn, &bt);
		if (strcmp(an, bn) != 0)
			return false;
	}
	return true;
}

/* The class whose function gives EVENT's argument names: the one the
 * headers name, else the one of the event's own name (TRACE_EVENT), else
 * among the classes with the same argument types the one sharing the
 * longest prefix with the event's name (iomap_readpage_class for
 * iomap_readahead), when that is clear: NULL when classes that would name
 * the arguments differently are as close, so that no name is guessed. */
static const struct tp_class *pick_class(const struct btf *btf, const char *event,
					 const char *hdr_class, uint32_t proto,
					 const struct tp_class *classes, size_t nclasses)
{
	const struct tp_class *best = NULL;
	size_t i, best_len = 0, rival_len = 0;
	bool rival = false;	/* another candidate names them otherwise */

	for (i = 0; i < nclasses; i++) {
		const char *want = hdr_class ? hdr_class : event;

		if (strcmp(classes[i].name, want) == 0 &&
		    same_params(btf, proto, classes[i].proto))
			return &classes[i];
	}
	for (i = 0; i < nclasses; i++) {
		size_t len;

		if (!same_params(btf, proto, classes[i].proto))
			continue;
		len = common_prefix(event, classes[i].name);
		if (!best || len > best_len) {
			if (best && !same_names(btf, best->proto, classes[i].proto)) {
				rival = true;
				rival_len = best_len > rival_len ? best_len : rival_len;
			}
			best = &classes[i];
			best_len = len;
		} else if (!same_names(btf, best->proto, classes[i].proto)) {
			rival = true;
			rival_len = len > rival_len ? len : rival_len;
		}
	}
	if (best && rival && (best_len <= rival_len || best_len < 3))
		return NULL;
	return best;
}

static const struct tp_header_info *hdr_lookup(const struct btf_tracepoints *tps,
					       const char *event)
{
	struct tp_header_info key = { (char *)event, NULL, NULL };

	if (!tps->nhdr)
		return NULL;
	return bsearch(&key, tps->hdr, tps->nhdr, sizeof(key), cmp_hdr);
}

static const struct tp_header_info *hdr_of_class(const struct btf_tracepoints *tps,
						 const char *class_name)
{
	size_t i;

	for (i = 0; i < tps->nhdr; i++)
		if (strcmp(tps->hdr[i].class_name, class_name) == 0)
			return &tps->hdr[i];
	return NULL;
}

/* ---- the kernel headers: TRACE_SYSTEM and the event macros */

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Copy the identifier at *P (after blanks) into OUT; advance *P. */
static bool read_ident(const char **p, char *out, size_t len)
{
	const char *s = *p;
	size_t n = 0;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\\')
		s++;
	while (ident_char(s[n]) && n + 1 < len) {
		out[n] = s[n];
		n++;
	}
	out[n] = '\0';
	*p = s + n;
	return n > 0;
}

static bool skip_char(const char **p, char c)
{
	const char *s = *p;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\\')
		s++;
	if (*s != c)
		return false;
	*p = s + 1;
	return true;
}

static int add_hdr(struct btf_tracepoints *tps, size_t *cap, const char *event,
		   const char *system, const char *class_name)
{
	struct tp_header_info *h;

	if (tps->nhdr == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		struct tp_header_info *grown = realloc(tps->hdr, ncap * sizeof(*grown));

		if (!grown)
			return -1;
		tps->hdr = grown;
		*cap = ncap;
	}
	h = &tps->hdr[tps->nhdr];
	h->event = strdup(event);
	h->system = strdup(system);
	h->class_name = strdup(class_name);
	if (!h->event || !h->system || !h->class_name) {
		free(h->event);
		free(h->system);
		free(h->class_name);
		return -1;
	}
	tps->nhdr++;
	return 0;
}

/* The macros that define events, by their names' prefixes (headers wrap
 * them, as DEFINE_EVENT_SCHEDSTAT): 1 for those whose first argument is
 * the event, its own class (TRACE_EVENT, TRACE_EVENT_FN, ...); 2 for
 * (class, event) (DEFINE_EVENT, DEFINE_EVENT_PRINT, ...); 3 for a class
 * (DECLARE_EVENT_CLASS), recorded as an event of its own name so that
 * events declared otherwise find their class's system. */
static int event_macro(const char *name)
{
	if (strstr(name, "PERF_PERM"))	/* permissions of an event defined elsewhere */
		return 0;
	if (strncmp(name, "TRACE_EVENT", 11) == 0)
		return 1;
	if (strncmp(name, "DEFINE_EVENT", 12) == 0)
		return 2;
	if (strncmp(name, "DECLARE_EVENT_CLASS", 19) == 0)
		return 3;
	return 0;
}

/* A header's wrapper macro that makes events from its parameter, as
 *   #define DEFINE_IRQ_VECTOR_EVENT(name) DEFINE_EVENT_FN(x86_irq_vector,
 *   name##_entry, ...) ...
 * so that DEFINE_IRQ_VECTOR_EVENT(local_timer) makes local_timer_entry. */
struct event_wrapper {
	char macro[128], class_name[128], suffix[128];
};

#define MAX_WRAPPERS 32

/* Where the #define starting at P ends: the first newline not escaped. */
static const char *define_end(const char *p)
{
	for (; *p; p++)
		if (*p == '\\' && p[1] == '\n')
			p++;
		else if (*p == '\n')
			break;
	return p;
}

struct header_scan {
	char system[128];
	char macro[128], param[128];	/* the function-like #define we are in */
	const char *macro_end;
	struct event_wrapper wrappers[MAX_WRAPPERS];
	int nwrappers;
};

/* After "#define": note a function-like macro's name and parameter. */
static void note_define(struct header_scan *hs, const char *p)
{
	const char *q = p;
	char m[128], param[128];

	if (read_ident(&q, m, sizeof(m)) && *q == '(' && (q++, read_ident(&q, param, sizeof(param))) &&
	    skip_char(&q, ')')) {
		snprintf(hs->macro, sizeof(hs->macro), "%s", m);
		snprintf(hs->param, sizeof(hs->param), "%s", param);
		hs->macro_end = define_end(q);
	}
}

/* DEFINE_EVENT*(CLASS, EVENT: P is past EVENT.  Inside a wrapper whose
 * parameter EVENT is, with "## suffix" after it, remember the wrapper. */
static void note_wrapper(struct header_scan *hs, const char *p, const char *cls,
			 const char *event)
{
	char suffix[128];
	struct event_wrapper *w;

	if (!hs->macro_end || p > hs->macro_end || strcmp(event, hs->param) != 0 ||
	    !skip_char(&p, '#') || !skip_char(&p, '#') || !read_ident(&p, suffix, sizeof(suffix)) ||
	    hs->nwrappers == MAX_WRAPPERS)
		return;
	w = &hs->wrappers[hs->nwrappers++];
	snprintf(w->macro, sizeof(w->macro), "%s", hs->macro);
	snprintf(w->class_name, sizeof(w->class_name), "%s", cls);
	snprintf(w->suffix, sizeof(w->suffix), "%s", suffix);
}

/* WORD( ARG: the events of the wrappers named WORD. */
static int expand_wrappers(struct btf_tracepoints *tps, size_t *cap,
			   const struct header_scan *hs, const char *word, const char *arg)
{
	int i;

	for (i = 0; i < hs->nwrappers; i++) {
		char event[260];

		if (strcmp(hs->wrappers[i].macro, word) != 0)
			continue;
		snprintf(event, sizeof(event), "%s%s", arg, hs->wrappers[i].suffix);
		if (add_hdr(tps, cap, event, hs->system, hs->wrappers[i].class_name) < 0)
			return -1;
	}
	return 0;
}

static int scan_header_text(struct btf_tracepoints *tps, size_t *cap, const char *text)
{
	struct header_scan hs;
	char word[128], a[128], b[128];
	const char *p = text;
	bool after_define = false;

	memset(&hs, 0, sizeof(hs));
	while (*p) {
		const char *start = p;
		bool is_define;
		int form;

		if (!ident_char(*p) || (p > text && ident_char(p[-1]))) {
			p++;
			continue;
		}
		read_ident(&p, word, sizeof(word));
		is_define = strcmp(word, "define") == 0 && start > text && start[-1] == '#';
		if (is_define)
			note_define(&hs, p);
		if (after_define && strcmp(word, "TRACE_SYSTEM") == 0) {
			char sys[128];

			if (read_ident(&p, sys, sizeof(sys)))
				snprintf(hs.system, sizeof(hs.system), "%s", sys);
		}
		after_define = is_define;
		form = event_macro(word);
		if (!*hs.system || !skip_char(&p, '(') || !read_ident(&p, a, sizeof(a)))
			continue;
		if (!form) {
			if (hs.nwrappers && expand_wrappers(tps, cap, &hs, word, a) < 0)
				return -1;
		} else if (form == 1 || form == 3) {
			if (add_hdr(tps, cap, a, hs.system, a) < 0)
				return -1;
		} else if (skip_char(&p, ',') && read_ident(&p, b, sizeof(b))) {
			note_wrapper(&hs, p, a, b);
			if (add_hdr(tps, cap, b, hs.system, a) < 0)
				return -1;
		}
	}
	return 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (len + 4096 + 1 > cap) {
			char *grown = realloc(buf, cap = (len + 4096 + 1) * 2);

			if (!grown) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = grown;
		}
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n > 0);
	fclose(f);
	buf[len] = '\0';
	return buf;
}


static int scan_header_dir(struct btf_tracepoints *tps, size_t *cap, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return 0;
	while (rc == 0 && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char path[4096];
		char *text;

		if (n < 3 || strcmp(e->d_name + n - 2, ".h") != 0)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path))
			continue;
		text = slurp(path);
		if (text)
			rc = scan_header_text(tps, cap, text);
		free(text);
	}
	closedir(d);
	return rc;
}

static int load_headers(struct btf_tracepoints *tps, const char *dir)
{
	static const char *const subdirs[] = { "include/trace/events",
		"arch/x86/include/asm/trace", NULL };
	size_t cap = 0;
	int i;

	for (i = 0; subdirs[i]; i++) {
		char path[4096];

		if (snprintf(path, sizeof(path), "%s/%s", dir, subdirs[i]) >= (int)sizeof(path))
			continue;
		if (scan_header_dir(tps, &cap, path) < 0)
			return -1;
	}
	if (tps->nhdr)
		qsort(tps->hdr, tps->nhdr, sizeof(*tps->hdr), cmp_hdr);
	return 0;
}

/* ---- collecting */

/* The event prototype of typedef btf_trace_NAME: pointer to a function
 * whose first parameter is the void *__data; 0 if it is not that shape. */
static uint32_t event_proto(const struct btf *btf, uint32_t typedef_id)
{
	uint32_t ptr = btf_ref(btf, typedef_id), proto;

	if (btf_kind(btf, ptr) != BTF_K_PTR)
		return 0;
	proto = btf_ref(btf, ptr);
	if (btf_kind(btf, proto) != BTF_K_FUNC_PROTO || btf_vlen(btf, proto) < 1)
		return 0;
	return proto;
}

static struct tp_class *collect_classes(const struct btf *btf, size_t *count)
{
	size_t n = 0, cap = 0;
	struct tp_class *c = NULL;
	uint32_t id;

	for (id = 1; id <= btf->ntypes; id++) {
		const char *name = btf_name(btf, id);

		if (btf_kind(btf, id) != BTF_K_FUNC ||
		    strncmp(name, TP_FUNC_PREFIX, strlen(TP_FUNC_PREFIX)) != 0)
			continue;
		if (n == cap) {
			struct tp_class *grown = realloc(c, (cap = cap ? cap * 2 : 512) * sizeof(*c));

			if (!grown) {
				free(c);
				return NULL;
			}
			c = grown;
		}
		c[n].name = name + strlen(TP_FUNC_PREFIX);
		c[n].proto = btf_ref(btf, id);
		n++;
	}
	*count = n;
	return c ? c : calloc(1, sizeof(*c));
}

static void fill_event(const struct btf *btf, struct btf_tracepoints *tps,
		       struct btf_tracepoint *tp, uint32_t proto, struct btf_tp_arg *args,
		       const struct tp_class *classes, size_t nclasses)
{
	const struct tp_header_info *h = hdr_lookup(tps, tp->name);
	const struct tp_class *cls;
	uint32_t i;
	char raw[512];

	cls = pick_class(btf, tp->name, h ? h->class_name : NULL, proto, classes, nclasses);
	/* An event declared through a header's own wrapper macro is not seen
	 * by the scan; its class's other events tell the system. */
	if (!h && cls)
		h = hdr_of_class(tps, cls->name);
	tp->system = h ? h->system : NULL;
	tp->class_name = cls ? cls->name : h ? h->class_name : NULL;
	tp->nargs = btf_vlen(btf, proto) - 1;
	tp->args = args;
	for (i = 0; i < tp->nargs; i++) {
		const char *unused;

		btf_param_at(btf, proto, i + 1, &unused, &args[i].type);
		args[i].name = "";
		if (cls)
			btf_param_at(btf, cls->proto, i + 1, &args[i].name, &args[i].type);
	}
	tp->raw_struct = 0;
	if (tp->class_name) {
		snprintf(raw, sizeof(raw), TP_RAW_PREFIX "%s", tp->class_name);
		tp->raw_struct = btf_find(btf, raw, BTF_K_STRUCT);
	}
}

static size_t count_events(const struct btf *btf, size_t *nargs)
{
	size_t n = 0;
	uint32_t id;

	*nargs = 0;
	for (id = 1; id <= btf->ntypes; id++) {
		uint32_t proto;

		if (btf_kind(btf, id) != BTF_K_TYPEDEF ||
		    strncmp(btf_name(btf, id), TP_TYPEDEF_PREFIX, strlen(TP_TYPEDEF_PREFIX)) != 0 ||
		    !(proto = event_proto(btf, id)))
			continue;
		n++;
		*nargs += btf_vlen(btf, proto) - 1;
	}
	return n;
}

struct btf_tracepoints *btf_tracepoints_load(const struct btf *btf,
					     const char *headers_dir,
					     char *err, size_t errlen)
{
	struct btf_tracepoints *tps = calloc(1, sizeof(*tps));
	struct tp_class *classes = NULL;
	size_t nclasses = 0, nargs, n = 0;
	uint32_t id;

	if (!tps)
		goto oom;
	if (headers_dir && load_headers(tps, headers_dir) < 0)
		goto oom;
	tps->count = count_events(btf, &nargs);
	tps->tps = calloc(tps->count + 1, sizeof(*tps->tps));
	tps->arg_pool = calloc(nargs + 1, sizeof(*tps->arg_pool));
	classes = collect_classes(btf, &nclasses);
	if (!tps->tps || !tps->arg_pool || !classes)
		goto oom;
	nargs = 0;
	for (id = 1; id <= btf->ntypes; id++) {
		uint32_t proto;
		const char *name = btf_name(btf, id);

		if (btf_kind(btf, id) != BTF_K_TYPEDEF ||
		    strncmp(name, TP_TYPEDEF_PREFIX, strlen(TP_TYPEDEF_PREFIX)) != 0 ||
		    !(proto = event_proto(btf, id)))
			continue;
		tps->tps[n].name = name + strlen(TP_TYPEDEF_PREFIX);
		fill_event(btf, tps, &tps->tps[n], proto, tps->arg_pool + nargs, classes, nclasses);
		nargs += tps->tps[n].nargs;
		n++;
	}
	free(classes);
	qsort(tps->tps, tps->count, sizeof(*tps->tps), cmp_tp);
	return tps;
oom:
	free(classes);
	btf_tracepoints_free(tps);
	errbuf_set(err, errlen, "out of memory");
	return NULL;
}

void btf_tracepoints_free(struct btf_tracepoints *tps)
{
	size_t i;

	if (!tps)
		return;
	for (i = 0; i < tps->nhdr; i++) {
		free(tps->hdr[i].event);
		free(tps->hdr[i].system);
		free(tps->hdr[i].class_name);
	}
	free(tps->hdr);
	free(tps->tps);
	free(tps->arg_pool);
	free(tps);
}

size_t btf_tracepoints_count(const struct btf_tracepoints *tps)
{
	return tps->count;
}

const struct btf_tracepoint *btf_tracepoint_at(const struct btf_tracepoints *tps,
					       size_t index)
{
	return index < tps->count ? &tps->tps[index] : NULL;
}

const struct btf_tracepoint *btf_tracepoint_find(const struct btf_tracepoints *tps,
						 const char *name)
{
	struct btf_tracepoint key = { .name = name };

	return tps->count ? bsearch(&key, tps->tps, tps->count, sizeof(key), cmp_tp) : NULL;
}

size_t btf_tracepoints_match(const struct btf_tracepoints *tps, const char *pattern,
			     void (*fn)(const struct btf_tracepoint *tp, void *arg),
			     void *arg)
{
	const char *colon = strchr(pattern, ':');
	char system[256] = "";
	const char *event = pattern;
	size_t i, n = 0;

	if (colon) {
		snprintf(system, sizeof(system), "%.*s", (int)(colon - pattern), pattern);
		event = colon + 1;
	}
	for (i = 0; i < tps->count; i++) {
		const struct btf_tracepoint *tp = &tps->tps[i];

		if (colon && (!tp->system || fnmatch(system, tp->system, 0) != 0))
			continue;
		if (fnmatch(event, tp->name, 0) != 0)
			continue;
		n++;
		if (fn)
			fn(tp, arg);
	}
	return n;
}
