/* The kernel's tracepoints, from its BTF and the TRACE_EVENT macros of
 * its headers (see tpcatalog.h). */
#include "tpcatalog.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf.h"
#include "glob.h"
#include "errbuf.h"
#include "util.h"

#define TP_TYPEDEF_PREFIX "btf_trace_"
#define TP_FUNC_PREFIX "__bpf_trace_"
#define TP_RAW_PREFIX "trace_event_raw_"

/* What the kernel headers say about one event. */
struct tp_header_info {
	char *event, *system, *class_name;
	/* DEFINE_EVENT's own TP_PROTO may name the class's arguments anew;
	 * SystemTap's names are those: nparams of them, or params NULL */
	char **params;
	uint32_t nparams;
};

struct btf_tracepoints {
	struct btf_tracepoint *tps;
	size_t count;
	struct btf_tp_arg *arg_pool;
	struct tp_header_info *hdr;
	size_t nhdr;
	bool hdr_borrowed;	/* hdr is another catalogue's */
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
	struct tp_header_info key = { .event = (char *)event };

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
	h->params = NULL;
	h->nparams = 0;
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

/* The names of a prototype's parameters, "TP_PROTO(struct a *x, int y)"
 * at *P (after blanks): each parameter's last identifier, into the last
 * header entry.  A parameter without one, or with parentheses (a function
 * pointer), leaves the entry without names (its class's are used). */
static int note_proto_names(struct btf_tracepoints *tps, const char *p)
{
	struct tp_header_info *h = &tps->hdr[tps->nhdr - 1];
	char word[128], last[128];
	char **names = NULL, **grown;
	uint32_t n = 0;
	int rc = 0;

	if (!read_ident(&p, word, sizeof(word)) || strcmp(word, "TP_PROTO") != 0 ||
	    !skip_char(&p, '('))
		return 0;
	for (;;) {
		/* one parameter: its last identifier before ',' or ')' */
		last[0] = '\0';
		while (*p && *p != ',' && *p != ')' && *p != '(') {
			if (ident_char(*p) && !ident_char(p[-1]))
				read_ident(&p, last, sizeof(last));
			else
				p++;
		}
		if (*p != ',' && *p != ')')
			goto unnamed;
		if (!last[0] || !strcmp(last, "void")) {
			if (*p == ')' && n == 0)
				break;	/* TP_PROTO(void) */
			goto unnamed;
		}
		grown = realloc(names, (n + 1) * sizeof(*names));
		if (!grown)
			goto oom;
		names = grown;
		if (!(names[n] = strdup(last)))
			goto oom;
		n++;
		if (*p++ == ')')
			break;
	}
	h->params = names;
	h->nparams = n;
	return 0;
oom:
	rc = -1;
unnamed:
	for (uint32_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
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
	/* DECLARE_TRACE: a bare tracepoint (sched's pelt_cfs_tp), no event */
	if (strncmp(name, "TRACE_EVENT", 11) == 0 || strncmp(name, "DECLARE_TRACE", 13) == 0)
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
			const char *proto = p;

			note_wrapper(&hs, p, a, b);
			if (add_hdr(tps, cap, b, hs.system, a) < 0)
				return -1;
			if (skip_char(&proto, ',') && note_proto_names(tps, proto) < 0)
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


/* The .h files of DIR; with only_trace, those with "trace" in their name
 * (arch/x86/include/asm/msr-trace.h among the other asm headers). */
static int scan_header_dir(struct btf_tracepoints *tps, size_t *cap, const char *dir,
			   bool only_trace)
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

		if (n < 3 || strcmp(e->d_name + n - 2, ".h") != 0 ||
		    (only_trace && !strstr(e->d_name, "trace")))
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
	/* where SystemTap finds the events of the kernel's headers: the
	 * trace directories, the RAS events, x86's msr-trace.h */
	static const struct {
		const char *dir;
		bool only_trace;
	} subdirs[] = {
		{ "include/trace/events", false },
		{ "arch/x86/include/asm/trace", false },
		{ "include/ras", false },
		{ "arch/x86/include/asm", true },
		{ NULL, false },
	};
	size_t cap = 0;
	int i;

	for (i = 0; subdirs[i].dir; i++) {
		char path[4096];

		if (snprintf(path, sizeof(path), "%s/%s", dir, subdirs[i].dir) >= (int)sizeof(path))
			continue;
		if (scan_header_dir(tps, &cap, path, subdirs[i].only_trace) < 0)
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

static struct tp_class *collect_classes(const struct btf *btf, uint32_t first_id,
				       size_t *count)
{
	size_t n = 0, cap = 0;
	struct tp_class *c = NULL;
	uint32_t id;

	for (id = first_id; id <= btf_type_count(btf); id++) {
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
	const struct tp_header_info *own = h;	/* the event's own entry */
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
		if (own && own->params && own->nparams == tp->nargs)
			args[i].name = own->params[i];
	}
	tp->raw_struct = 0;
	if (tp->class_name) {
		snprintf(raw, sizeof(raw), TP_RAW_PREFIX "%s", tp->class_name);
		tp->raw_struct = btf_find(btf, raw, BTF_K_STRUCT);
	}
}

static size_t count_events(const struct btf *btf, uint32_t first_id, size_t *nargs)
{
	size_t n = 0;
	uint32_t id;

	*nargs = 0;
	for (id = first_id; id <= btf_type_count(btf); id++) {
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

static struct btf_tracepoints *load(const struct btf *btf, uint32_t first_id,
				    const char *headers_dir,
				    const struct btf_tracepoints *headers_of,
				    char *err, size_t errlen);

struct btf_tracepoints *btf_tracepoints_load(const struct btf *btf,
					     const char *headers_dir,
					     char *err, size_t errlen)
{
	return load(btf, 1, headers_dir, NULL, err, errlen);
}

struct btf_tracepoints *btf_tracepoints_load_module(const struct btf *btf, uint32_t first_id,
						    const struct btf_tracepoints *kernel,
						    char *err, size_t errlen)
{
	return load(btf, first_id, NULL, kernel, err, errlen);
}

static struct btf_tracepoints *load(const struct btf *btf, uint32_t first_id,
				    const char *headers_dir,
				    const struct btf_tracepoints *headers_of,
				    char *err, size_t errlen)
{
	struct btf_tracepoints *tps = calloc(1, sizeof(*tps));
	struct tp_class *classes = NULL;
	size_t nclasses = 0, nargs, n = 0;
	uint32_t id;

	if (!tps)
		goto oom;
	if (headers_of) {
		tps->hdr = headers_of->hdr;
		tps->nhdr = headers_of->nhdr;
		tps->hdr_borrowed = true;
	} else if (headers_dir && load_headers(tps, headers_dir) < 0) {
		goto oom;
	}
	tps->count = count_events(btf, first_id, &nargs);
	tps->tps = calloc(tps->count + 1, sizeof(*tps->tps));
	tps->arg_pool = calloc(nargs + 1, sizeof(*tps->arg_pool));
	classes = collect_classes(btf, first_id, &nclasses);
	if (!tps->tps || !tps->arg_pool || !classes)
		goto oom;
	nargs = 0;
	for (id = first_id; id <= btf_type_count(btf); id++) {
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
	for (i = 0; i < tps->nhdr && !tps->hdr_borrowed; i++) {
		free(tps->hdr[i].event);
		free(tps->hdr[i].system);
		free(tps->hdr[i].class_name);
		for (uint32_t k = 0; k < tps->hdr[i].nparams; k++)
			free(tps->hdr[i].params[k]);
		free(tps->hdr[i].params);
	}
	if (!tps->hdr_borrowed)
		free(tps->hdr);
	free(tps->tps);
	free(tps->arg_pool);
	free(tps);
}

const char *btf_tracepoints_header_system(const struct btf_tracepoints *tps,
					  const char *event)
{
	const struct tp_header_info *h = hdr_lookup(tps, event);

	return h ? h->system : NULL;
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
	size_t i, n = 0;

	for (i = 0; i < tps->count; i++) {
		const struct btf_tracepoint *tp = &tps->tps[i];

		if (!glob_match_pair(pattern, ':', tp->system, tp->name))
			continue;
		n++;
		if (fn)
			fn(tp, arg);
	}
	return n;
}
