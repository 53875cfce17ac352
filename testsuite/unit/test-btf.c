/* Unit tests of the BTF reader (src/btf.c) and the kernel symbol lists
 * (src/ksyms.c).
 *
 *   test-btf [VMLINUX [HEADERS]]
 *
 * VMLINUX may also be a compressed image, /boot/vmlinuz-R.
 *
 * A small BTF blob built here checks the format handling, and is then
 * truncated, corrupted and randomly mutated: every such input must be
 * loaded or rejected cleanly (the ASan build checks "cleanly").  With
 * VMLINUX (the test kernel's, an ELF with .BTF) it checks known facts of
 * that kernel, cross-checking offsets and sizes against the user-space
 * headers' compile-time layout of the same structures; HEADERS is the
 * kernel headers tree that names the tracepoints' systems.
 *
 * The debuginfo registry (src/debuginfo.c) is checked on files made here:
 * entries found by path and build-id, and the kernel's files handed over
 * by another tool, used only when they are the caller's alone.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* dl_iterate_phdr */
#endif
#include "check.h"
#include "btf.h"
#include "tpcatalog.h"
#include "tvar_resolve.h"
#include "ksyms.h"
#include "debuginfo.h"
#include "modbtf.h"
#include "suggest.h"
#include "util.h"

#include <elf.h>
#include <link.h>
#include <sys/stat.h>

#include <asm/ptrace.h>
#include <linux/ip.h>
#include <linux/time_types.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* CHECK() and check_summary(): check.h */

/* ------------------------------------------------ a BTF blob by hand */

struct blob {
	unsigned char types[4096], strs[1024];
	size_t tlen, slen;
	unsigned nids;
};

static void offer_name(const char *name, void *nr)
{
	nearest_offer(nr, name);
}

/* How many names are suggested for TARGET. */
static int nearest_count(const struct ksyms *ks, const char *target)
{
	struct nearest nr;

	nearest_init(&nr, target);
	ksyms_match(ks, "*", offer_name, &nr);
	return nr.n;
}

/* Whether the kernel symbol nearest to TARGET (SystemTap's first
 * suggestion) is WANT. */
static bool nearest_is(const struct ksyms *ks, const char *target, const char *want)
{
	struct nearest nr;

	nearest_init(&nr, target);
	ksyms_match(ks, "*", offer_name, &nr);
	return nr.n > 0 && strcmp(nr.name[0], want) == 0;
}

static void put32(struct blob *b, uint32_t v)
{
	memcpy(b->types + b->tlen, &v, 4);
	b->tlen += 4;
}

static uint32_t str(struct blob *b, const char *s)
{
	uint32_t off = (uint32_t)b->slen;

	memcpy(b->strs + b->slen, s, strlen(s) + 1);
	b->slen += strlen(s) + 1;
	return off;
}

static unsigned type(struct blob *b, const char *name, unsigned kind, unsigned vlen,
		     int kflag, uint32_t size_or_type)
{
	put32(b, name ? str(b, name) : 0);
	put32(b, (uint32_t)kflag << 31 | kind << 24 | vlen);
	put32(b, size_or_type);
	return ++b->nids;
}

static size_t finish(struct blob *b, unsigned char *out)
{
	uint16_t magic = 0xeB9F;
	uint32_t hdr[5] = { 24, 0, (uint32_t)b->tlen, (uint32_t)b->tlen, (uint32_t)b->slen };

	memcpy(out, &magic, 2);
	out[2] = 1;
	out[3] = 0;
	memcpy(out + 4, hdr, sizeof(hdr));
	memcpy(out + 24, b->types, b->tlen);
	memcpy(out + 24 + b->tlen, b->strs, b->slen);
	return 24 + b->tlen + b->slen;
}

/* Ids of the sample types. */
enum { T_INT = 1, T_CHAR, T_PTR_TASK, T_TASK, T_PIDT, T_CONST_CHAR, T_PTR_CC,
	T_ARR, T_ENUM, T_PROTO, T_PTR_PROTO, T_TRACE_TD, T_VOIDP, T_CLASS_PROTO,
	T_CLASS_FUNC, T_UNION, T_LONG };

/* A kernel in miniature: struct task { int pid; char comm[16]; union {
 * int a; long b; }; unsigned flag:3; }, a tracepoint "demo_event"
 * with (void *__data, struct task *p, const char *msg) and its class. */
static size_t sample(unsigned char *out)
{
	static struct blob b;
	unsigned u;

	memset(&b, 0, sizeof(b));
	b.slen = 1;		/* string 0 is "" */
	type(&b, "int", BTF_K_INT, 0, 0, 4);
	put32(&b, BTF_INT_SIGNED << 24 | 32);
	type(&b, "char", BTF_K_INT, 0, 0, 1);
	put32(&b, BTF_INT_CHAR << 24 | 8);
	type(&b, NULL, BTF_K_PTR, 0, 0, T_TASK);
	type(&b, "task", BTF_K_STRUCT, 4, 1, 32);
	put32(&b, str(&b, "pid")); put32(&b, T_PIDT); put32(&b, 0);
	put32(&b, str(&b, "comm")); put32(&b, T_ARR); put32(&b, 32);
	put32(&b, 0); put32(&b, T_UNION); put32(&b, 64 * 2);
	put32(&b, str(&b, "flag")); put32(&b, T_INT); put32(&b, 3u << 24 | 192);
	type(&b, "pid_t", BTF_K_TYPEDEF, 0, 0, T_INT);
	type(&b, NULL, BTF_K_CONST, 0, 0, T_CHAR);
	type(&b, NULL, BTF_K_PTR, 0, 0, T_CONST_CHAR);
	type(&b, NULL, BTF_K_ARRAY, 0, 0, 0);
	put32(&b, T_CHAR); put32(&b, T_INT); put32(&b, 16);
	type(&b, "color", BTF_K_ENUM, 2, 1, 4);
	put32(&b, str(&b, "RED")); put32(&b, (uint32_t)-1);
	put32(&b, str(&b, "BLUE")); put32(&b, 7);
	type(&b, NULL, BTF_K_FUNC_PROTO, 3, 0, 0);
	put32(&b, 0); put32(&b, T_VOIDP);
	put32(&b, 0); put32(&b, T_PTR_TASK);
	put32(&b, 0); put32(&b, T_PTR_CC);
	type(&b, NULL, BTF_K_PTR, 0, 0, T_PROTO);
	type(&b, "btf_trace_demo_event", BTF_K_TYPEDEF, 0, 0, T_PTR_PROTO);
	type(&b, NULL, BTF_K_PTR, 0, 0, 0);
	type(&b, NULL, BTF_K_FUNC_PROTO, 3, 0, 0);
	put32(&b, str(&b, "__data")); put32(&b, T_VOIDP);
	put32(&b, str(&b, "p")); put32(&b, T_PTR_TASK);
	put32(&b, str(&b, "msg")); put32(&b, T_PTR_CC);
	type(&b, "__bpf_trace_demo_class", BTF_K_FUNC, 0, 0, T_CLASS_PROTO);
	u = type(&b, NULL, BTF_K_UNION, 2, 0, 8);
	put32(&b, str(&b, "a")); put32(&b, T_INT); put32(&b, 0);
	put32(&b, str(&b, "b")); put32(&b, T_LONG); put32(&b, 0);
	type(&b, "long int", BTF_K_INT, 0, 0, 8);
	put32(&b, BTF_INT_SIGNED << 24 | 64);
	(void)u;
	return finish(&b, out);
}

static char typebuf[512];

static const char *tstr(const struct btf *btf, uint32_t id, const char *var)
{
	if (btf_type_str(btf, id, var, typebuf, sizeof(typebuf)) < 0)
		return "(error)";
	return typebuf;
}

/* A headers tree in DIR (a mkdtemp template) holding TEXT at
 * RELDIR/FILE, loaded with the sample BTF; NULL if it cannot be made.
 * headers_tree_done() removes it. */
static struct btf_tracepoints *headers_tree(const struct btf *btf, char *dir, const char *reldir,
					    const char *file, const char *text)
{
	char path[512], err[256];
	FILE *f;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return NULL;
	}
	snprintf(path, sizeof(path), "mkdir -p %s/%s", dir, reldir);
	CHECK(system(path) == 0, "mkdir");
	snprintf(path, sizeof(path), "%s/%s/%s", dir, reldir, file);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return btf_tracepoints_load(btf, dir, err, sizeof(err));
}

static void headers_tree_done(struct btf_tracepoints *tps, const char *dir)
{
	char cmd[128];

	btf_tracepoints_free(tps);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0, "cleanup");
}

/* A headers tree with one trace header that makes demo_event through a
 * wrapper macro, as arch/x86's irq_vectors.h does. */
static void test_sample_headers(const struct btf *btf)
{
	char dir[] = "/tmp/test-btf-headers-XXXXXX";
	struct btf_tracepoints *tps;
	const struct btf_tracepoint *tp;

	tps = headers_tree(btf, dir, "include/trace/events", "demo.h",
			   "#undef TRACE_SYSTEM\n#define TRACE_SYSTEM demosys\n"
			   "DECLARE_EVENT_CLASS(demo_class, TP_PROTO(struct task *p, const char *msg),\n"
			   "\tTP_ARGS(p, msg), TP_STRUCT__entry(), TP_fast_assign(), TP_printk(\"\"));\n"
			   "#define DEFINE_DEMO(name) \\\n"
			   "DEFINE_EVENT(demo_class, name##_event, TP_PROTO(struct task *p, const char *msg), \\\n"
			   "\tTP_ARGS(p, msg))\n"
			   "DEFINE_DEMO(demo);\n"
			   "TRACE_EVENT_PERF_PERM(demo_event, 0);\n");
	tp = tps ? btf_tracepoint_find(tps, "demo_event") : NULL;
	CHECK(tp && tp->system && strcmp(tp->system, "demosys") == 0 && tp->class_name &&
	      strcmp(tp->class_name, "demo_class") == 0, "demo_event's system from a wrapper macro");
	CHECK(tps && btf_tracepoints_match(tps, "demo*:demo_?vent", NULL, NULL) == 1,
	      "SYSTEM:NAME glob");
	headers_tree_done(tps, dir);
}

/* One header at RELDIR/FILE of a headers tree: demo_event's system is
 * WANT (NULL: none found). */
static void header_gives_system(const struct btf *btf, const char *reldir, const char *file,
				const char *text, const char *want)
{
	char dir[] = "/tmp/test-btf-headers-XXXXXX";
	struct btf_tracepoints *tps = headers_tree(btf, dir, reldir, file, text);
	const struct btf_tracepoint *tp = tps ? btf_tracepoint_find(tps, "demo_event") : NULL;

	CHECK(tp && (want ? tp->system && strcmp(tp->system, want) == 0 : !tp->system),
	      "%s/%s: demo_event's system %s, want %s", reldir, file,
	      tp && tp->system ? tp->system : "(none)", want ? want : "(none)");
	headers_tree_done(tps, dir);
}

/* Where SystemTap finds events besides include/trace/events: the RAS
 * headers, x86's asm *trace*.h, and bare tracepoints (DECLARE_TRACE, as
 * sched.h's pelt_cfs_tp). */
static void test_header_places(const struct btf *btf)
{
	static const char bare[] = "#undef TRACE_SYSTEM\n#define TRACE_SYSTEM rassys\n"
		"DECLARE_TRACE(demo_event, TP_PROTO(struct task *p, const char *msg),\n"
		"\tTP_ARGS(p, msg));\n";
	static const char event[] = "#undef TRACE_SYSTEM\n#define TRACE_SYSTEM msrsys\n"
		"TRACE_EVENT(demo_event, TP_PROTO(struct task *p, const char *msg),\n"
		"\tTP_ARGS(p, msg), TP_STRUCT__entry(), TP_fast_assign(), TP_printk(\"\"));\n";

	header_gives_system(btf, "include/ras", "demo_event.h", bare, "rassys");
	header_gives_system(btf, "include/trace/events", "demo.h", bare, "rassys");
	header_gives_system(btf, "arch/x86/include/asm", "demo-trace.h", event, "msrsys");
	/* an asm header without "trace" in its name is no trace header */
	header_gives_system(btf, "arch/x86/include/asm", "demo.h", event, NULL);
}

static void test_sample_paths(const struct btf *btf);
static void test_sample_casts(const struct btf *btf);

static void test_sample(void)
{
	unsigned char data[8192];
	size_t len = sample(data);
	char err[256];
	struct btf *btf = btf_load_mem(data, len, err, sizeof(err));
	struct btf_member_info m;
	struct btf_tracepoints *tps;
	const struct btf_tracepoint *tp;
	const char *name;
	int64_t val;
	uint32_t t;

	CHECK(btf != NULL, "sample loads: %s", err);
	if (!btf)
		return;
	CHECK(btf_type_count(btf) == T_LONG, "type count %u", btf_type_count(btf));
	CHECK(btf_find(btf, "task", BTF_K_STRUCT) == T_TASK, "find struct task");
	CHECK(btf_find(btf, "task", BTF_K_UNION) == 0, "no union task");
	CHECK(btf_find(btf, "nothing", -1) == 0, "no type 'nothing'");
	CHECK(btf_resolve(btf, T_PIDT) == T_INT, "pid_t resolves to int");
	CHECK(btf_size(btf, T_PIDT) == 4, "sizeof(pid_t)");
	CHECK(btf_size(btf, T_ARR) == 16, "sizeof(char[16])");
	CHECK(btf_size(btf, T_PTR_TASK) == 8, "pointer size from long");
	CHECK(btf_size(btf, T_TASK) == 32, "sizeof(struct task)");
	CHECK(btf_size(btf, T_PROTO) == -1, "a function has no size");
	CHECK(btf_size(btf, 0) == -1, "void has no size");
	CHECK(btf_member_find(btf, T_TASK, "comm", &m) == 0 && m.bit_offset == 32 &&
	      m.size == 16 && m.type == T_ARR, "comm at byte 4, 16 bytes");
	CHECK(btf_member_find(btf, T_PTR_TASK, "comm", &m) < 0,
	      "members are not looked up through pointers");
	CHECK(btf_pointee(btf, T_PTR_TASK) == T_TASK && btf_pointee(btf, T_TASK) == 0 &&
	      btf_pointee(btf, T_VOIDP) == 0, "btf_pointee");
	CHECK(btf_member_find(btf, T_TASK, "b", &m) == 0 && m.bit_offset == 128 &&
	      m.size == 8, "b found in the anonymous union at byte 16");
	CHECK(btf_member_find(btf, T_TASK, "flag", &m) == 0 && m.bit_offset == 192 &&
	      m.bitfield_size == 3, "bit field flag:3 at bit 192");
	CHECK(btf_member_find(btf, T_TASK, "", &m) < 0, "no member named \"\"");
	CHECK(btf_enum_at(btf, T_ENUM, 0, &name, &val) == 0 && strcmp(name, "RED") == 0 &&
	      val == -1, "signed enum value");
	CHECK(btf_enum_at(btf, T_ENUM, 2, &name, &val) < 0, "enum index out of range");
	CHECK(btf_param_at(btf, T_CLASS_FUNC, 1, &name, &t) == 0 && strcmp(name, "p") == 0 &&
	      t == T_PTR_TASK, "FUNC param 1");
	CHECK(strcmp(tstr(btf, T_PTR_TASK, ""), "struct task *") == 0, "%s", typebuf);
	CHECK(strcmp(tstr(btf, T_PTR_CC, "msg"), "char const *msg") == 0, "%s", typebuf);
	CHECK(strcmp(tstr(btf, T_ARR, "comm"), "char comm[16]") == 0, "%s", typebuf);
	CHECK(strcmp(tstr(btf, T_TRACE_TD, NULL), "btf_trace_demo_event") == 0, "%s", typebuf);
	CHECK(strcmp(tstr(btf, T_PTR_PROTO, "fn"),
		      "void (*fn)(void *, struct task *, char const *)") == 0, "%s", typebuf);
	CHECK(strcmp(tstr(btf, T_CLASS_FUNC, NULL),
		      "void __bpf_trace_demo_class(void *__data, struct task *p, char const *msg)") == 0,
	      "%s", typebuf);
	CHECK(strcmp(tstr(btf, T_ENUM, "c"), "enum color c") == 0, "%s", typebuf);
	CHECK(strcmp(tstr(btf, T_UNION, ""), "union {...}") == 0, "%s", typebuf);

	tps = btf_tracepoints_load(btf, NULL, err, sizeof(err));
	CHECK(tps && btf_tracepoints_count(tps) == 1, "one tracepoint in the sample");
	tp = tps ? btf_tracepoint_find(tps, "demo_event") : NULL;
	CHECK(tp && tp->nargs == 2 && strcmp(tp->args[0].name, "p") == 0 &&
	      strcmp(tp->args[1].name, "msg") == 0 && tp->args[1].type == T_PTR_CC &&
	      tp->class_name && strcmp(tp->class_name, "demo_class") == 0 && !tp->system,
	      "demo_event's arguments named from its class (matched by types)");
	CHECK(tps && btf_tracepoints_match(tps, "demo_*", NULL, NULL) == 1, "glob");
	CHECK(tps && btf_tracepoints_match(tps, "*:demo_event", NULL, NULL) == 0,
	      "unknown system never matches SYSTEM:NAME");
	btf_tracepoints_free(tps);
	test_sample_headers(btf);
	test_header_places(btf);
	test_sample_paths(btf);
	test_sample_casts(btf);
	btf_free(btf);
}

/* ------------------------------------------------- corrupted inputs */

/* Load DATA; if it loads, use every accessor on every type so that ASan
 * sees any read out of bounds. Returns whether it loaded. */
static int exercise(const unsigned char *data, size_t len)
{
	char err[256] = "";
	struct btf *btf = btf_load_mem(data, len, err, sizeof(err));
	struct btf_tracepoints *tps;
	uint32_t id, i;

	if (!btf) {
		CHECK(err[0] != '\0', "a rejected input says why");
		return 0;
	}
	for (id = 0; id <= btf_type_count(btf) + 1; id++) {
		struct btf_member_info m;
		const char *name;
		int64_t v;
		uint32_t t;

		btf_type_str(btf, id, "x", typebuf, sizeof(typebuf));
		btf_size(btf, id);
		btf_resolve(btf, id);
		btf_member_find(btf, id, "comm", &m);
		for (i = 0; i < btf_vlen(btf, id) + 1; i++) {
			btf_member_at(btf, id, i, &m);
			btf_enum_at(btf, id, i, &name, &v);
			btf_param_at(btf, id, i, &name, &t);
		}
	}
	tps = btf_tracepoints_load(btf, NULL, err, sizeof(err));
	if (tps)
		btf_tracepoints_match(tps, "*", NULL, NULL);
	btf_tracepoints_free(tps);
	btf_free(btf);
	return 1;
}

static void expect_reject(const unsigned char *data, size_t len, const char *what,
			  const char *msg_part)
{
	char err[256] = "";
	struct btf *btf = btf_load_mem(data, len, err, sizeof(err));

	CHECK(btf == NULL && strstr(err, msg_part) != NULL, "%s rejected (got \"%s\")", what, err);
	btf_free(btf);
}

/* Offset of type ID's record in a sample blob. */
static size_t rec_offset(const unsigned char *data, unsigned id)
{
	static const size_t sizes[] = { 0, 16, 16, 12, 60, 12, 12, 12, 24, 28, 36, 12, 12,
		12, 36, 12, 36, 16 };
	size_t off = 24;
	unsigned i;

	(void)data;
	for (i = 1; i < id; i++)
		off += sizes[i];
	return off;
}

static void patch32(unsigned char *data, size_t off, uint32_t v)
{
	memcpy(data + off, &v, 4);
}

/* Valid-looking shapes that would take exponential time if followed
 * naively: struct task made of two anonymous struct task members, and a
 * function type among its own parameters' types. */
static void test_hostile_shapes(const unsigned char *good, size_t len)
{
	unsigned char bad[8192];
	char err[256];
	struct btf *btf;
	struct btf_member_info m;
	size_t t = rec_offset(good, T_TASK) + 12;

	memcpy(bad, good, len);
	patch32(bad, t, 0);
	patch32(bad, t + 4, T_TASK);
	patch32(bad, t + 12, 0);
	patch32(bad, t + 16, T_TASK);
	patch32(bad, rec_offset(good, T_PROTO) + 12 + 8 + 4, T_PTR_PROTO);
	btf = btf_load_mem(bad, len, err, sizeof(err));
	CHECK(btf != NULL, "self-nested struct loads: %s", err);
	if (!btf)
		return;
	CHECK(btf_member_find(btf, T_TASK, "nothing", &m) < 0, "member lookup ends");
	CHECK(btf_type_str(btf, T_PTR_PROTO, "fn", typebuf, sizeof(typebuf)) < 0,
	      "printing a self-referring function type fails cleanly");
	btf_free(btf);
}

static void test_corrupt(void)
{
	unsigned char good[8192], bad[8192];
	size_t len = sample(good), n, i;
	unsigned loaded = 0;

	CHECK(rec_offset(good, T_LONG + 1) == 24 + (size_t)(good[12] | good[13] << 8),
	      "record size table matches the sample");
	for (n = 0; n < len; n++) {
		/* Every truncation: the header, then type or string section. */
		char err[256] = "";
		struct btf *btf = btf_load_mem(good, n, err, sizeof(err));

		CHECK(btf == NULL && err[0], "truncated to %zu bytes rejected", n);
		btf_free(btf);
	}
	memcpy(bad, good, len);
	bad[0] ^= 0xff;
	expect_reject(bad, len, "bad magic", "magic");
	memcpy(bad, good, len);
	bad[2] = 2;
	expect_reject(bad, len, "version 2", "version");
	memcpy(bad, good, len);
	patch32(bad, 4, 4096);
	expect_reject(bad, len, "header length past the end", "header length");
	memcpy(bad, good, len);
	patch32(bad, 16, 0xfffffff0u);
	expect_reject(bad, len, "string offset past the end", "past the end");
	memcpy(bad, good, len);
	patch32(bad, 12, 0xffffffffu);
	expect_reject(bad, len, "type length past the end (overflow)", "past the end");
	memcpy(bad, good, len);
	bad[len - 1] = 'x';
	expect_reject(bad, len, "strings not NUL-terminated", "NUL");
	memcpy(bad, good, len);
	patch32(bad, rec_offset(good, T_TASK), 0xffffff);
	expect_reject(bad, len, "name offset out of range", "string offset");
	memcpy(bad, good, len);
	patch32(bad, rec_offset(good, T_TASK) + 12 + 4, 999);
	expect_reject(bad, len, "member type id out of range", "type id");
	memcpy(bad, good, len);
	patch32(bad, rec_offset(good, T_PIDT) + 4, 31u << 24);
	expect_reject(bad, len, "unknown kind", "kind");
	memcpy(bad, good, len);
	patch32(bad, rec_offset(good, T_TASK) + 4, 1u << 31 | BTF_K_STRUCT << 24 | 0xffff);
	expect_reject(bad, len, "vlen past the end", "truncated");
	memcpy(bad, good, len);
	patch32(bad, rec_offset(good, T_PIDT) + 8, T_PIDT);
	expect_reject(bad, len, "typedef of itself", "looping");
	memcpy(bad, good, len);
	patch32(bad, rec_offset(good, T_CONST_CHAR) + 8, T_PTR_CC);
	expect_reject(bad, len, "const -> ptr -> const loop", "looping");
	memcpy(bad, good, len);
	patch32(bad, rec_offset(good, T_ARR) + 12, T_ARR);
	expect_reject(bad, len, "array of itself", "looping");
	memcpy(bad, good, len);
	patch32(bad, rec_offset(good, T_CLASS_FUNC) + 8, T_INT);
	expect_reject(bad, len, "FUNC of an int", "FUNC_PROTO");

	/* Random mutations: 1 to 4 bytes or words at a time. */
	srand(12345);
	for (i = 0; i < 3000; i++) {
		int k, edits = 1 + rand() % 4;

		memcpy(bad, good, len);
		for (k = 0; k < edits; k++) {
			size_t at = (size_t)rand() % len;

			if (rand() % 2 && at + 4 <= len)
				patch32(bad, at & ~(size_t)3, (uint32_t)rand() % 40);
			else
				bad[at] = (unsigned char)rand();
		}
		loaded += exercise(bad, len);
	}
	CHECK(loaded > 0 && loaded < 3000, "mutations: %u of 3000 loaded", loaded);
	test_hostile_shapes(good, len);
	printf("fuzz: %u of 3000 mutated inputs loaded, the rest rejected\n", loaded);
}

/* ------------------------------------------------- debuginfo registry */

/* This program's build-id as the loader maps it (its PT_NOTE segment),
 * in hex: a reading independent of debuginfo.c's section walk. */
static int own_build_id(struct dl_phdr_info *info, size_t size, void *arg)
{
	char *hex = arg;

	(void)size;
	if (info->dlpi_name && info->dlpi_name[0])
		return 0;	/* the main program comes first, unnamed */
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		const unsigned char *end = p + ph->p_memsz;

		while (ph->p_type == PT_NOTE && p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
			const unsigned char *name = p + sizeof(*nh);
			const unsigned char *desc = name + ((nh->n_namesz + 3) & ~3u);

			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(name, "GNU", 4)) {
				for (unsigned j = 0; j < nh->n_descsz && j < 64; j++)
					sprintf(hex + 2 * j, "%02x", desc[j]);
				return 1;
			}
			p = desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
	return 1;
}

static bool copy_file(const char *from, const char *to, mode_t mode)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	char buf[65536];
	size_t n;
	bool ok = in && out;

	while (ok && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		ok = fwrite(buf, 1, n, out) == n;
	if (in)
		fclose(in);
	if (out && fclose(out) != 0)
		ok = false;
	return ok && chmod(to, mode) == 0;
}

/* The kernel entry of a release nobody runs, with FILES handed over:
 * where its symbols came from ("" when it has none). */
static const char *handed_ksyms_origin(struct debuginfo_registry **r,
				       const struct debuginfo_handover *files)
{
	const struct ksyms *ks;
	const char *err = NULL;

	debuginfo_registry_free(*r);
	*r = debuginfo_registry_new();
	ks = debuginfo_ksyms(debuginfo_add_kernel(*r, "0.0-not-running", NULL, files), &err);
	return ks ? ksyms_origin(ks) : "";
}

static void test_debuginfo(void)
{
	char dir[] = "/tmp/test-btf-debuginfo-XXXXXX", self_id[129] = "", *ks, *exe, *link;
	struct debuginfo_registry *r = debuginfo_registry_new();
	struct debuginfo *kernel, *user, *mod;
	const char *err = NULL;
	FILE *f;

	unsetenv("TAPC_KALLSYMS");
	unsetenv("TAPC_VMLINUX");
	if (!mkdtemp(dir)) {
		CHECK(0, "temp dir");
		return;
	}
	ks = xasprintf("%s/kallsyms", dir);
	exe = xasprintf("%s/vmlinux", dir);
	link = xasprintf("%s/link", dir);
	f = fopen(ks, "w");
	if (f) {
		fputs("ffffffff81000000 T tapc_handed_fn\n", f);
		fclose(f);
	}
	chmod(ks, 0644);
	CHECK(copy_file("/proc/self/exe", exe, 0755), "copy of this program");
	dl_iterate_phdr(own_build_id, self_id);
	CHECK(self_id[0], "this program has a build-id");

	/* entries by path and by build-id */
	kernel = debuginfo_add_kernel(r, "0.0-not-running", NULL,
				      &(struct debuginfo_handover){ .vmlinux = exe });
	user = debuginfo_add(r, DEBUGINFO_USER, NULL, "/proc/self/exe");
	mod = debuginfo_add(r, DEBUGINFO_KMODULE, "nosuch", "/nonexistent/nosuch.ko");
	CHECK(debuginfo_kernel(r) == kernel && debuginfo_kind(kernel) == DEBUGINFO_KERNEL &&
	      !strcmp(debuginfo_name(kernel), "0.0-not-running"), "the kernel's entry");
	CHECK(debuginfo_path(kernel) && !strcmp(debuginfo_path(kernel), exe),
	      "the handed-over vmlinux is the kernel's image: %s",
	      debuginfo_path(kernel) ? debuginfo_path(kernel) : "none");
	CHECK(!strcmp(debuginfo_build_id(user), self_id), "build-id %s, expected %s",
	      debuginfo_build_id(user), self_id);
	CHECK(debuginfo_by_path(r, "/proc/self/exe") == user, "found by its path");
	CHECK(debuginfo_by_path(r, exe) == kernel, "the kernel found by its image's path");
	CHECK(debuginfo_by_build_id(r, self_id) == kernel,
	      "the first entry of a build-id: the kernel's copy of this program");
	CHECK(debuginfo_by_build_id(r, "00") == NULL && debuginfo_by_path(r, "/nonexistent") == NULL,
	      "unknown build-id and path");
	CHECK(!strcmp(debuginfo_build_id(mod), "") && debuginfo_kind(mod) == DEBUGINFO_KMODULE,
	      "a missing module has no build-id");
	CHECK(!debuginfo_btf(mod, &err) && err && strstr(err, "nosuch: no reader of types"),
	      "module types: %s", err ? err : "(no error)");

	/* the kernel's symbols from a handed-over kallsyms, only when it is
	 * ours alone */
	CHECK(!strcmp(handed_ksyms_origin(&r, &(struct debuginfo_handover){ .kallsyms = ks }), ks),
	      "a kallsyms of our own is read");
	chmod(ks, 0664);
	CHECK(!handed_ksyms_origin(&r, &(struct debuginfo_handover){ .kallsyms = ks })[0],
	      "a group-writable kallsyms is not");
	chmod(ks, 0644);
	CHECK(symlink(ks, link) == 0 &&
	      !handed_ksyms_origin(&r, &(struct debuginfo_handover){ .kallsyms = link })[0],
	      "a symlink is not followed");
	chmod(dir, 0770);
	CHECK(!handed_ksyms_origin(&r, &(struct debuginfo_handover){ .kallsyms = ks })[0],
	      "nor a kallsyms in a group-writable directory");
	chmod(dir, 0700);
	setenv("TAPC_KALLSYMS", link, 1);	/* the user's choice: followed */
	CHECK(!strcmp(handed_ksyms_origin(&r, &(struct debuginfo_handover){ .kallsyms = exe }),
		      link), "TAPC_KALLSYMS comes before what is handed over");
	unsetenv("TAPC_KALLSYMS");

	debuginfo_registry_free(r);
	unlink(link);
	unlink(ks);
	unlink(exe);
	rmdir(dir);
	free(ks);
	free(exe);
	free(link);
}

/* ---------------------------------------------------- kernel symbols */

static void test_ksyms_files(void)
{
	char path[] = "/tmp/test-btf-kallsyms-XXXXXX", err[256];
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct ksyms *ks;

	CHECK(f != NULL, "temp file");
	if (!f)
		return;
	fputs("ffffffff81000000 T _stext\n"
	      "ffffffff81001000 t do_one_initcall\n"
	      "ffffffff81002000 T vfs_read\n"
	      "ffffffff81002000 t helper\n"
	      "ffffffff81003000 t helper\n"
	      "ffffffff82000000 D jiffies\n"
	      "ffffffffc0000000 t ext4_readdir\t[ext4]\n"
	      "garbage\n", f);
	fclose(f);
	ks = ksyms_from_kallsyms(path, err, sizeof(err));
	CHECK(ks && ksyms_count(ks) == 4, "kallsyms: 4 kernel text symbols");
	if (ks) {
		CHECK(ksyms_source(ks) == KSYMS_KALLSYMS, "source");
		CHECK(ksyms_has(ks, "vfs_read") && ksyms_has(ks, "helper"), "text symbols");
		CHECK(!ksyms_has(ks, "jiffies"), "data symbols left out");
		CHECK(!ksyms_has(ks, "ext4_readdir"), "module symbols left out");
		CHECK(ksyms_match(ks, "*_*", NULL, NULL) == 3, "glob *_*");
		CHECK(nearest_is(ks, "vfs_raed", "vfs_read"), "did you mean vfs_read");
		CHECK(nearest_is(ks, "vfs_read", "vfs_read") && nearest_count(ks, "vfs_read") == 4,
		      "a name is its own first suggestion, each name once");
	}
	ksyms_free(ks);
	/* A saved copy of another kernel's kallsyms beats its .symtab. */
	ks = ksyms_load("0.0-not-running", path, "/proc/self/exe", NULL, err, sizeof(err));
	CHECK(ks && ksyms_source(ks) == KSYMS_KALLSYMS && ksyms_has(ks, "do_one_initcall"),
	      "ksyms_load prefers the saved kallsyms: %s", ks ? ksyms_origin(ks) : err);
	ksyms_free(ks);
	unlink(path);
	ks = ksyms_load("0.0-not-running", path, "/proc/self/exe", NULL, err, sizeof(err));
	CHECK(ks && ksyms_source(ks) == KSYMS_SYMTAB, "missing saved kallsyms: .symtab next");
	ksyms_free(ks);
	ks = ksyms_from_kallsyms("/nonexistent/kallsyms", err, sizeof(err));
	CHECK(!ks && strstr(err, "/nonexistent/kallsyms"), "missing file: %s", err);
	/* This test program is not stripped: its own symbol table. */
	ks = ksyms_from_elf("/proc/self/exe", err, sizeof(err));
	CHECK(ks && ksyms_has(ks, "test_ksyms_files") && ksyms_source(ks) == KSYMS_SYMTAB,
	      "ELF .symtab: %s", ks ? ksyms_origin(ks) : err);
	ksyms_free(ks);
}

/* ---------------------------------------------- the real kernel's BTF */

static double now_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static uint64_t offset_of(const struct btf *btf, const char *st, const char *member)
{
	struct btf_member_info m;
	uint32_t id = btf_find(btf, st, BTF_K_STRUCT);

	if (!id || btf_member_find(btf, id, member, &m) < 0)
		return (uint64_t)-1;
	return m.bit_offset;
}

/* The offset of MEMBER by a second path: walking the members in order and
 * checking that each lies after the previous one and inside the struct. */
static uint64_t offset_by_walk(const struct btf *btf, const char *st, const char *member)
{
	uint32_t id = btf_find(btf, st, BTF_K_STRUCT), i;
	uint64_t prev = 0, found = (uint64_t)-1;
	int64_t size = btf_size(btf, id);

	for (i = 0; i < btf_vlen(btf, id); i++) {
		struct btf_member_info m;

		if (btf_member_at(btf, id, i, &m) < 0 || m.bit_offset < prev ||
		    m.bit_offset / 8 + (m.size > 0 ? (uint64_t)m.size : 0) > (uint64_t)size)
			return (uint64_t)-2;
		prev = m.bit_offset;
		if (strcmp(m.name, member) == 0)
			found = m.bit_offset;
	}
	return found;
}

static void arg_is(const struct btf *btf, const struct btf_tracepoint *tp, uint32_t i,
		   const char *name, const char *type)
{
	CHECK(tp && i < tp->nargs && strcmp(tp->args[i].name, name) == 0 &&
	      strcmp(tstr(btf, tp->args[i].type, ""), type) == 0,
	      "%s arg %u is %s %s (got %s %s)", tp ? tp->name : "?", i, type, name,
	      tp && i < tp->nargs ? tp->args[i].name : "-", tp && i < tp->nargs ? typebuf : "-");
}

static void test_tracepoints(const struct btf *btf, const char *headers)
{
	char err[256];
	double t0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
	struct btf_tracepoints *tps = btf_tracepoints_load(btf, headers, err, sizeof(err));
	const struct btf_tracepoint *tp;
	size_t n, i;

	CHECK(tps != NULL, "tracepoints: %s", err);
	if (!tps)
		return;
	printf("tracepoints: %zu in %.1f ms CPU\n", btf_tracepoints_count(tps),
	       now_ms(CLOCK_PROCESS_CPUTIME_ID) - t0);
	CHECK(btf_tracepoints_count(tps) > 300, "hundreds of tracepoints");
	tp = btf_tracepoint_find(tps, "sched_switch");
	CHECK(tp && tp->nargs == 4, "sched_switch has 4 arguments");
	arg_is(btf, tp, 0, "preempt", "bool");
	arg_is(btf, tp, 1, "prev", "struct task_struct *");
	arg_is(btf, tp, 2, "next", "struct task_struct *");
	arg_is(btf, tp, 3, "prev_state", "unsigned int");
	{
		/* $prev->comm: the argument's pointee, then the member. */
		struct btf_member_info comm;

		CHECK(tp && tp->nargs == 4 &&
		      btf_member_find(btf, btf_pointee(btf, tp->args[1].type), "comm", &comm) == 0 &&
		      comm.size == 16 && comm.bit_offset == offset_of(btf, "task_struct", "comm"),
		      "$prev->comm");
	}
	CHECK(tp && tp->raw_struct &&
	      strcmp(btf_name(btf, tp->raw_struct), "trace_event_raw_sched_switch") == 0,
	      "sched_switch records trace_event_raw_sched_switch");
	tp = btf_tracepoint_find(tps, "sys_enter");
	CHECK(tp && tp->nargs == 2, "sys_enter has 2 arguments");
	arg_is(btf, tp, 0, "regs", "struct pt_regs *");
	arg_is(btf, tp, 1, "id", "long int");
	tp = btf_tracepoint_find(tps, "sched_wakeup");
	CHECK(tp && tp->class_name && strcmp(tp->class_name, "sched_wakeup_template") == 0,
	      "sched_wakeup belongs to sched_wakeup_template");
	arg_is(btf, tp, 0, "p", "struct task_struct *");
	CHECK(btf_tracepoint_find(tps, "no_such_event") == NULL, "no_such_event");
	for (i = 0, n = 0; i < btf_tracepoints_count(tps); i++) {
		const struct btf_tracepoint *t = btf_tracepoint_at(tps, i);
		uint32_t a;

		for (a = 0; a < t->nargs; a++)
			n += !*t->args[a].name;
	}
	/* Without the headers, events whose class cannot be told apart from
	 * others with the same argument types keep unnamed arguments. */
	CHECK(n == 0 || !headers, "every tracepoint argument is named (%zu are not)", n);
	printf("tracepoint arguments without a name: %zu\n", n);
	n = btf_tracepoints_match(tps, "sched_*", NULL, NULL);
	CHECK(n >= 20, "sched_* matches %zu", n);
	if (headers) {
		tp = btf_tracepoint_find(tps, "sched_switch");
		CHECK(tp && tp->system && strcmp(tp->system, "sched") == 0, "sched_switch's system");
		tp = btf_tracepoint_find(tps, "sys_enter");
		CHECK(tp && tp->system && strcmp(tp->system, "raw_syscalls") == 0,
		      "sys_enter's system");
		tp = btf_tracepoint_find(tps, "local_timer_entry");
		CHECK(tp && tp->system && strcmp(tp->system, "irq_vectors") == 0 &&
		      tp->class_name && strcmp(tp->class_name, "x86_irq_vector") == 0,
		      "local_timer_entry, made by a wrapper macro, is irq_vectors' x86_irq_vector");
		arg_is(btf, tp, 0, "vector", "int");
		tp = btf_tracepoint_find(tps, "sched_stat_wait");
		CHECK(tp && tp->system && strcmp(tp->system, "sched") == 0, "sched_stat_wait's system");
		CHECK(btf_tracepoints_match(tps, "raw_syscalls:*", NULL, NULL) == 2,
		      "raw_syscalls:* is sys_enter and sys_exit");
		/* sched's events and its bare tracepoints (DECLARE_TRACE:
		 * pelt_cfs_tp and the other _tp points) */
		n = btf_tracepoints_match(tps, "sched:*", NULL, NULL);
		CHECK(n >= 20 && n >= btf_tracepoints_match(tps, "sched:sched_*", NULL, NULL) +
				       btf_tracepoints_match(tps, "sched:pelt_*", NULL, NULL),
		      "sched:* matches %zu", n);
		CHECK(btf_tracepoints_match(tps, "sched:pelt_*_tp", NULL, NULL) >= 1,
		      "sched:pelt_*_tp, bare tracepoints, have their system");
		for (i = 0, n = 0; i < btf_tracepoints_count(tps); i++)
			n += btf_tracepoint_at(tps, i)->system != NULL;
		printf("tracepoints with a system from the headers: %zu of %zu\n", n,
		       btf_tracepoints_count(tps));
	}
	btf_tracepoints_free(tps);
}

static void test_structs(const struct btf *btf)
{
	uint32_t task = btf_find(btf, "task_struct", BTF_K_STRUCT);
	struct btf_member_info m;

	CHECK(task != 0, "struct task_struct");
	CHECK(btf_member_find(btf, task, "pid", &m) == 0 && m.size == 4 &&
	      strcmp(tstr(btf, m.type, "pid"), "pid_t pid") == 0, "task_struct.pid is pid_t");
	CHECK(offset_of(btf, "task_struct", "pid") == offset_by_walk(btf, "task_struct", "pid"),
	      "task_struct.pid offset, two ways");
	/* TASK_COMM_LEN is 16 in the kernel headers. */
	CHECK(btf_member_find(btf, task, "comm", &m) == 0 && m.size == 16 &&
	      strcmp(tstr(btf, m.type, "comm"), "char comm[16]") == 0, "task_struct.comm");
	CHECK(offset_of(btf, "task_struct", "comm") == offset_by_walk(btf, "task_struct", "comm"),
	      "task_struct.comm offset, two ways");
	CHECK(offset_of(btf, "task_struct", "comm") % 8 == 0, "comm byte aligned");
	/* The recorded fields of sched_switch, as its tracefs format file
	 * gives them: prev_comm at 8, prev_pid at 24, prev_state at 32, ... */
	CHECK(offset_of(btf, "trace_event_raw_sched_switch", "prev_comm") == 8 * 8 &&
	      offset_of(btf, "trace_event_raw_sched_switch", "prev_pid") == 24 * 8 &&
	      offset_of(btf, "trace_event_raw_sched_switch", "prev_state") == 32 * 8 &&
	      offset_of(btf, "trace_event_raw_sched_switch", "next_pid") == 56 * 8,
	      "sched_switch's record layout");
	/* Against the user-space headers' layout of the same structures. */
	CHECK(btf_size(btf, btf_find(btf, "pt_regs", BTF_K_STRUCT)) == sizeof(struct pt_regs),
	      "sizeof(struct pt_regs)");
	CHECK(offset_of(btf, "pt_regs", "di") == 8 * offsetof(struct pt_regs, rdi) &&
	      offset_of(btf, "pt_regs", "orig_ax") == 8 * offsetof(struct pt_regs, orig_rax) &&
	      offset_of(btf, "pt_regs", "sp") == 8 * offsetof(struct pt_regs, rsp),
	      "pt_regs offsets");
	CHECK(btf_size(btf, btf_find(btf, "iphdr", BTF_K_STRUCT)) == sizeof(struct iphdr) &&
	      offset_of(btf, "iphdr", "ttl") == 8 * offsetof(struct iphdr, ttl) &&
	      offset_of(btf, "iphdr", "saddr") == 8 * offsetof(struct iphdr, saddr),
	      "iphdr offsets (saddr in an anonymous union)");
	{
		/* Where the compiler puts the bit field version:4. */
		struct iphdr h;
		unsigned bit = 0;

		memset(&h, 0, sizeof(h));
		h.version = 1;
		while (bit < 8 && !(((unsigned char *)&h)[0] & (1u << bit)))
			bit++;
		CHECK(btf_member_find(btf, btf_find(btf, "iphdr", BTF_K_STRUCT), "version", &m) == 0 &&
		      m.bit_offset == bit && m.bitfield_size == 4, "iphdr.version:4 at bit %u", bit);
	}
	CHECK(btf_size(btf, btf_find(btf, "__kernel_timespec", BTF_K_STRUCT)) ==
	      sizeof(struct __kernel_timespec) &&
	      offset_of(btf, "__kernel_timespec", "tv_nsec") ==
	      8 * offsetof(struct __kernel_timespec, tv_nsec), "__kernel_timespec");
	CHECK(strcmp(tstr(btf, btf_find(btf, "vfs_read", BTF_K_FUNC), NULL),
		     "ssize_t vfs_read(struct file *file, char *buf, size_t count, loff_t *pos)") == 0,
	      "vfs_read: %s", typebuf);
	CHECK(btf_member_find(btf, btf_find(btf, "file_operations", BTF_K_STRUCT), "read", &m) == 0 &&
	      strcmp(tstr(btf, m.type, "read"),
		     "ssize_t (*read)(struct file *, char *, size_t, loff_t *)") == 0,
	      "file_operations.read: %s", typebuf);
}

static void test_kernel_ksyms(const struct btf *btf, const char *vmlinux)
{
	char err[256];
	struct ksyms *ks = ksyms_from_elf(vmlinux, err, sizeof(err));

	/* Debian's vmlinux is stripped; if this one is not, both work. */
	if (!ks)
		CHECK(strstr(err, "stripped") || strstr(err, "not an ELF"),
		      "stripped vmlinux or compressed image: %s", err);
	ksyms_free(ks);
	ks = ksyms_load("0.0-not-running", NULL, vmlinux, btf, err, sizeof(err));
	CHECK(ks != NULL, "ksyms_load: %s", err);
	if (!ks)
		return;
	printf("kernel functions: %zu from %s\n", ksyms_count(ks), ksyms_origin(ks));
	CHECK(ksyms_source(ks) != KSYMS_KALLSYMS, "not the running kernel: no kallsyms");
	CHECK(ksyms_has(ks, "vfs_read") && ksyms_has(ks, "schedule"), "vfs_read, schedule");
	CHECK(!ksyms_has(ks, "no_such_function_xyz"), "no_such_function_xyz");
	CHECK(ksyms_match(ks, "vfs_rea*", NULL, NULL) >= 2, "vfs_rea* matches");
	CHECK(nearest_is(ks, "vfs_reed", "vfs_read"), "did you mean vfs_read");
	ksyms_free(ks);
}

/* A module's split BTF over the kernel's, when the image's name gives its
 * release (vmlinux-R, vmlinuz-R) and /lib/modules/R has the module:
 * struct p9_qid of 9pnet, whose layout C fixes (u8 type, u32 version,
 * u64 path). */
static void test_kernel_module(const struct btf *kernel, const char *vmlinux)
{
	const char *base = strrchr(vmlinux, '/') ? strrchr(vmlinux, '/') + 1 : vmlinux;
	char err[512];
	struct btf *mod;
	struct btf_member_info m;
	uint32_t qid;

	if (strncmp(base, "vmlinux-", 8) && strncmp(base, "vmlinuz-", 8)) {
		printf("SKIP module BTF: no release in %s\n", vmlinux);
		return;
	}
	mod = modbtf_load(base + 8, false, "9pnet", kernel, err, sizeof(err));
	if (!mod && strstr(err, "no module")) {
		printf("SKIP module BTF: %s\n", err);
		return;
	}
	CHECK(mod != NULL, "9pnet's BTF: %s", err);
	if (!mod)
		return;
	qid = btf_find(mod, "p9_qid", BTF_K_STRUCT);
	CHECK(qid > btf_type_count(kernel) && btf_find(kernel, "p9_qid", BTF_K_STRUCT) == 0,
	      "struct p9_qid is the module's");
	CHECK(btf_size(mod, qid) == 16 && btf_member_find(mod, qid, "version", &m) == 0 &&
	      m.bit_offset == 32 && btf_member_find(mod, qid, "path", &m) == 0 &&
	      m.bit_offset == 64 && m.size == 8, "struct p9_qid's layout");
	CHECK(btf_find(mod, "task_struct", BTF_K_STRUCT) ==
	      btf_find(kernel, "task_struct", BTF_K_STRUCT), "the kernel's types through it");
	btf_free(mod);
}

static void test_kernel(const char *vmlinux, const char *headers)
{
	char err[512];
	double w0 = now_ms(CLOCK_MONOTONIC), c0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
	struct btf *btf = btf_load_file(vmlinux, err, sizeof(err));
	double w1 = now_ms(CLOCK_MONOTONIC), c1 = now_ms(CLOCK_PROCESS_CPUTIME_ID);

	CHECK(btf != NULL, "load %s: %s", vmlinux, err);
	if (!btf)
		return;
	printf("vmlinux BTF: %u types, load and index %.1f ms CPU (%.1f ms wall)\n",
	       btf_type_count(btf), c1 - c0, w1 - w0);
	CHECK(btf_type_count(btf) > 50000, "a kernel's worth of types");
	test_tracepoints(btf, headers);
	test_structs(btf);
	test_kernel_ksyms(btf, vmlinux);
	test_kernel_module(btf, vmlinux);
	btf_free(btf);
	btf = btf_load_file("/nonexistent/vmlinux", err, sizeof(err));
	CHECK(!btf && strstr(err, "/nonexistent/vmlinux"), "missing file: %s", err);
	btf = btf_load_file("/proc/self/exe", err, sizeof(err));
	CHECK(!btf && strstr(err, "no .BTF section"), "ELF without BTF: %s", err);
	btf_free(btf);
}

/* ---- target variables over the type interface ----------------------- */

/* $p followed by comps (TC_FIELD names, or "[" for an index, "$" for
 * pretty-printing) resolved from slot 1 of struct task *; NULL with the
 * message in err when it does not resolve. */
static struct tvar *path_of(const struct ctypes *ct, bool addressof, const char *const *comps,
			    size_t n, struct family_error *err)
{
	static struct expr index = { .kind = E_NUM };
	struct tcomp tcs[8];
	void *v[8];
	struct expr e = { .kind = E_TARGET, .name = (char *)"$p", .addressof = addressof };

	for (size_t i = 0; i < n && i < 8; i++) {
		tcs[i] = (struct tcomp){ .kind = !strcmp(comps[i], "[") ? TC_INDEX :
					 !strcmp(comps[i], "$") ? TC_PPRINT : TC_FIELD,
					 .name = (char *)comps[i], .index = &index };
		v[i] = &tcs[i];
	}
	e.comps.v = v;
	e.comps.n = n;
	return tvar_resolve(ct, T_PTR_TASK, TVAR_BASE_SLOT, 1, &e, "tracepoint", err);
}

static bool steps_are(const struct tvar *tv, const char *want)
{
	char got[256] = "";
	size_t len = 0;

	for (size_t i = 0; tv && i < tv->nsteps && len < sizeof(got) - 32; i++) {
		const struct tvar_step *s = &tv->steps[i];

		len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%s", i ? " " : "",
					s->kind == TVAR_LOAD ? "load" : s->kind == TVAR_ADD ?
					"add" : s->load_first ? "load-index" : "index");
		if (s->kind != TVAR_LOAD)
			len += (size_t)snprintf(got + len, sizeof(got) - len, "%" PRIu64, s->bytes);
	}
	if (strcmp(got, want))
		printf("steps: got \"%s\", want \"%s\"\n", got, want);
	return !strcmp(got, want);
}

static void test_sample_paths(const struct btf *btf)
{
	struct ctypes ct = ctypes_btf(btf);
	struct family_error err = { 0 };
	struct tvar *tv;

	CHECK(tvar_fits_register(&ct, T_PTR_TASK) && tvar_fits_register(&ct, T_ENUM) &&
	      !tvar_fits_register(&ct, T_TASK), "what a register holds");
	tv = path_of(&ct, false, (const char *[]){ "flag" }, 1, &err);
	CHECK(tv && tv->base == TVAR_BASE_SLOT && tv->slot == 1 && steps_are(tv, "add0 add24") &&
	      tv->leaf == TVAR_READ && tv->size == 4 && tv->is_signed && tv->bits == 3 &&
	      tv->bitpos == 0 && tv->type == SEM_LONG, "$p->flag: a bit field in memory");
	tvar_free(tv);
	tv = path_of(&ct, false, (const char *[]){ "b" }, 1, &err);
	CHECK(tv && steps_are(tv, "add0 add16") && tv->leaf == TVAR_READ && tv->size == 8,
	      "$p->b: a member of an anonymous union");
	tvar_free(tv);
	tv = path_of(&ct, false, (const char *[]){ "comm" }, 1, &err);
	CHECK(tv && steps_are(tv, "add0 add4") && tv->leaf == TVAR_ADDRESS &&
	      tv->type == SEM_LONG, "$p->comm: a char array is its address, a long");
	tvar_free(tv);
	tv = path_of(&ct, false, (const char *[]){ "[", "comm", "[" }, 3, &err);
	CHECK(tv && steps_are(tv, "index32 add4 index1") && tv->leaf == TVAR_READ &&
	      tv->size == 1, "$p[i]->comm[j]: indexes with the element sizes");
	tvar_free(tv);
	tv = path_of(&ct, true, (const char *[]){ "comm" }, 1, &err);
	CHECK(tv && tv->leaf == TVAR_ADDRESS && tv->type == SEM_LONG, "&$p->comm");
	tvar_free(tv);
	tv = path_of(&ct, false, (const char *[]){ "$" }, 1, &err);
	CHECK(tv && tv->leaf == TVAR_PRETTY && steps_are(tv, "") && tv->pretty_nsteps == 1 &&
	      !strcmp(tv->text, "{.pid=%i, .comm=[...], <union>={...}, .flag=%i}") &&
	      tv->nargs == 2 && steps_are(tv->args[1], "add24") && tv->args[1]->bits == 3,
	      "$p$: %s", tv ? tv->text : err.msg);
	tvar_free(tv);
	tv = path_of(&ct, false, (const char *[]){ "pid", "x" }, 2, &err);
	CHECK(!tv && err.msg && !strcmp(err.msg, "invalid access '->x' vs. int") &&
	      err.what && !strcmp(err.what, "operator '->'"), "->x on an int: %s", err.msg);
	free(err.msg);
	free(err.what);
	err = (struct family_error){ 0 };
	tv = path_of(&ct, false, (const char *[]){ "nosuch" }, 1, &err);
	CHECK(!tv && err.msg && !strcmp(err.msg, "unable to find member 'nosuch' for struct task "
					"(alternatives: a, b, pid, comm, flag)"),
	      "unknown member: %s", err.msg);
	free(err.msg);
	free(err.what);
}

/* @cast(ptr, "struct task") followed by comps (as path_of's), or NULL
 * with err. */
static struct tvar *cast_path_of(const struct ctypes *ct, bool addressof,
				 const char *const *comps, size_t n, struct family_error *err)
{
	static struct expr index = { .kind = E_NUM }, ptr = { .kind = E_NUM, .num = 4096 };
	struct tcomp tcs[8];
	void *v[8];
	struct expr e = { .kind = E_CAST, .a = &ptr, .str = (char *)"struct task",
			  .addressof = addressof };

	for (size_t i = 0; i < n && i < 8; i++) {
		tcs[i] = (struct tcomp){ .kind = !strcmp(comps[i], "[") ? TC_INDEX :
					 !strcmp(comps[i], "$") ? TC_PPRINT : TC_FIELD,
					 .name = (char *)comps[i], .index = &index };
		v[i] = &tcs[i];
	}
	e.comps.v = v;
	e.comps.n = n;
	return tvar_resolve_cast(ct, ctype_find(ct, e.str), &e, err);
}

static void test_sample_casts(const struct btf *btf)
{
	struct ctypes ct = ctypes_btf(btf);
	struct family_error err = { 0 };
	struct tvar *tv;

	CHECK(ctype_find(&ct, "struct task") == T_TASK && ctype_find(&ct, "task") == T_TASK &&
	      ctype_find(&ct, "struct \t task") == T_TASK, "find struct task");
	CHECK(ctype_find(&ct, "union task") == 0 && ctype_find(&ct, "enum task") == 0 &&
	      ctype_find(&ct, "structtask") == 0 && ctype_find(&ct, "nothing") == 0 &&
	      ctype_find(&ct, "") == 0, "names that name nothing");
	CHECK(ctype_find(&ct, "pid_t") == T_PIDT && ctype_find(&ct, "enum color") == T_ENUM &&
	      ctype_find(&ct, "color") == T_ENUM && ctype_find(&ct, "int") == T_INT,
	      "a typedef, an enum, a base type");
	tv = cast_path_of(&ct, false, (const char *[]){ "pid" }, 1, &err);
	CHECK(tv && tv->base == TVAR_BASE_EXPR && tv->base_expr && tv->base_expr->num == 4096 &&
	      steps_are(tv, "add0") && tv->leaf == TVAR_READ && tv->size == 4 && tv->is_signed &&
	      tv->type == SEM_LONG, "@cast(p, \"struct task\")->pid: read at p");
	tvar_free(tv);
	tv = cast_path_of(&ct, false, (const char *[]){ "[", "comm" }, 2, &err);
	CHECK(tv && steps_are(tv, "index32 add4") && tv->leaf == TVAR_ADDRESS,
	      "@cast(p, ...)[i]->comm: whole objects from p, a char array's address");
	tvar_free(tv);
	tv = cast_path_of(&ct, true, (const char *[]){ "[" }, 1, &err);
	CHECK(tv && steps_are(tv, "index32") && tv->leaf == TVAR_ADDRESS,
	      "&@cast(p, ...)[i]: the i-th object's address (sizes)");
	tvar_free(tv);
	tv = cast_path_of(&ct, false, (const char *[]){ "$" }, 1, &err);
	CHECK(tv && tv->leaf == TVAR_PRETTY && tv->pretty_nsteps == 0 &&
	      !strcmp(tv->text, "{.pid=%i, .comm=[...], <union>={...}, .flag=%i}"),
	      "@cast(p, ...)$: the object at p");
	tvar_free(tv);
	tv = cast_path_of(&ct, false, NULL, 0, &err);
	/* BTF has no source coordinates; the member suggested is the least
	 * name, the anonymous union's "a" among them */
	CHECK(!tv && err.msg && !strcmp(err.msg, "'struct task' is being accessed instead of a "
					"member such as '->a'"), "a whole struct: %s", err.msg);
	free(err.msg);
	free(err.what);
}

/* ---- split BTF: a module's types over the kernel's ------------------ */

/* A module in miniature over the sample: struct modthing { int x; struct
 * task *t; } and typedef modthing_t, its strings numbered on from the
 * base's BASE_STRS bytes. */
static size_t split_sample(unsigned char *out, uint32_t base_strs, uint32_t bad_ref)
{
	static struct blob b;

	memset(&b, 0, sizeof(b));
	put32(&b, base_strs + str(&b, "modthing"));
	put32(&b, BTF_K_STRUCT << 24 | 2);
	put32(&b, 16);
	put32(&b, base_strs + str(&b, "x")); put32(&b, T_INT); put32(&b, 0);
	put32(&b, base_strs + str(&b, "t")); put32(&b, bad_ref ? bad_ref : T_PTR_TASK);
	put32(&b, 64);
	put32(&b, base_strs + str(&b, "modthing_t"));
	put32(&b, BTF_K_TYPEDEF << 24);
	put32(&b, T_LONG + 1);
	return finish(&b, out);
}

static void test_split(void)
{
	unsigned char data[8192], mod[1024];
	size_t len = sample(data), mlen;
	char err[256];
	struct btf *base = btf_load_mem(data, len, err, sizeof(err)), *split;
	struct btf_member_info m;
	uint32_t base_strs;
	struct ctypes ct;

	if (!base)
		return;
	memcpy(&base_strs, data + 20, 4);
	mlen = split_sample(mod, base_strs, 0);
	split = btf_load_split_mem(mod, mlen, base, err, sizeof(err));
	CHECK(split != NULL, "split BTF loads over its base: %s", err);
	if (split) {
		CHECK(btf_type_count(split) == T_LONG + 2, "ids go on from the base's");
		CHECK(btf_find(split, "modthing", BTF_K_STRUCT) == T_LONG + 1 &&
		      btf_find(split, "task", BTF_K_STRUCT) == T_TASK &&
		      !strcmp(btf_name(split, T_TASK), "task"),
		      "the module's types and the base's, by name");
		CHECK(btf_member_find(split, T_LONG + 1, "t", &m) == 0 && m.bit_offset == 64 &&
		      m.type == T_PTR_TASK && !strcmp(m.name, "t") && m.size == 8,
		      "a member of a base type, its name among the module's strings");
		CHECK(!strcmp(tstr(split, T_LONG + 2, "v"), "modthing_t v") &&
		      btf_size(split, T_LONG + 2) == 16, "a typedef of the module");
		ct = ctypes_btf(split);
		CHECK(ctype_find(&ct, "modthing_t") == T_LONG + 2 &&
		      ctype_find(&ct, "struct task") == T_TASK, "ctypes over split BTF");
		btf_free(split);
	}
	mlen = split_sample(mod, base_strs, T_LONG + 9);
	split = btf_load_split_mem(mod, mlen, base, err, sizeof(err));
	CHECK(!split && strstr(err, "out of range"), "a reference past the types: %s", err);
	btf_free(split);
	mlen = split_sample(mod, base_strs + 4096, 0);
	split = btf_load_split_mem(mod, mlen, base, err, sizeof(err));
	CHECK(!split && strstr(err, "string offset out of range"), "a name past the strings: %s",
	      err);
	btf_free(split);
	btf_free(base);
}

/* An empty file at path (a failure to make it is reported). */
static void touch(const char *path)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL, "create %s", path);
	if (f)
		fclose(f);
}

/* Module files are found by name under a modules tree, '-' and '_'
 * alike, compressed or not, never through a symlink. */
static void test_modbtf_find(void)
{
	char dir[] = "/tmp/test-btf-modules.XXXXXX", *p;
	char path[256];

	/* mkdtemp makes a new directory only we can use, never one another
	 * user prepared; failing to is a failure, not a skip */
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp %s", dir);
		return;
	}
	snprintf(path, sizeof(path), "%s/kernel", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/kernel/fs", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/kernel/fs/foo-bar.ko.xz", dir);
	touch(path);
	snprintf(path, sizeof(path), "%s/kernel/fs/foo.ko.bak", dir);
	touch(path);
	snprintf(path, sizeof(path), "%s/build", dir);
	CHECK(symlink("/lib/modules", path) == 0, "symlink");
	p = modbtf_find(dir, "foo_bar");
	CHECK(p && strstr(p, "/kernel/fs/foo-bar.ko.xz"), "foo_bar is foo-bar.ko.xz: %s",
	      p ? p : "none");
	free(p);
	p = modbtf_find(dir, "foo");
	CHECK(!p, "foo.ko.bak is no module");
	free(p);
	p = modbtf_find(dir, "ext4");
	CHECK(!p, "nothing through the build symlink");
	free(p);
	p = modbtf_find(dir, "../fs/foo-bar");
	CHECK(!p, "a name with a slash");
	free(p);
	snprintf(path, sizeof(path), "%s/kernel/fs/foo-bar.ko.xz", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/kernel/fs/foo.ko.bak", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/build", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/kernel/fs", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/kernel", dir);
	rmdir(path);
	rmdir(dir);
}

int main(int argc, char **argv)
{
	const char *vmlinux = argc > 1 && *argv[1] ? argv[1] : NULL;
	const char *headers = argc > 2 && *argv[2] ? argv[2] : NULL;

	test_sample();
	test_split();
	test_modbtf_find();
	test_corrupt();
	test_ksyms_files();
	test_debuginfo();
	if (vmlinux && access(vmlinux, R_OK) == 0)
		test_kernel(vmlinux, headers);
	else
		printf("SKIP kernel BTF tests: no test-kernel vmlinux or /boot/vmlinuz image "
		       "(%s)\n", vmlinux ? vmlinux : "none given");
	return check_summary(NULL);
}
