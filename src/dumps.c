/* stap's three dump modes: --dump-functions, --dump-probe-types and
 * --dump-probe-aliases, each a sorted listing in stap 4.8's format. */
#define _GNU_SOURCE	/* open_memstream */
#include "dumps.h"

#include <stdlib.h>
#include <string.h>

#include "astwalk.h"
#include "probes/family.h"
#include "util.h"

/* One output line with the key it sorts by and a tie-breaker (the order
 * the library declares it in, for overloads). */
struct dump_line {
	char *key;
	char *text;
	size_t order;
};

static int line_cmp(const void *a, const void *b)
{
	const struct dump_line *x = *(struct dump_line *const *)a;
	const struct dump_line *y = *(struct dump_line *const *)b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Sort the lines, print each once (text), and free them. */
static void print_sorted(FILE *out, struct vec *lines)
{
	const char *last = NULL;

	if (lines->n)
		qsort(lines->v, lines->n, sizeof(void *), line_cmp);
	for (size_t i = 0; i < lines->n; i++) {
		struct dump_line *l = lines->v[i];

		if (!last || strcmp(last, l->text) != 0)
			fprintf(out, "%s\n", l->text);
		last = l->text;
	}
	for (size_t i = 0; i < lines->n; i++) {
		struct dump_line *l = lines->v[i];

		free(l->key);
		free(l->text);
		free(l);
	}
	vec_free(lines);
}

static void add_line(struct vec *lines, char *key, char *text)
{
	struct dump_line *l = xmalloc(sizeof(*l));

	l->key = key;
	l->text = text;
	l->order = lines->n;
	vec_push(lines, l);
}

static FILE *memfile(char **buf, size_t *len)
{
	FILE *m = open_memstream(buf, len);

	if (!m) {
		fputs("tapc: out of memory\n", stderr);
		exit(1);
	}
	return m;
}

/* ---- --dump-functions ---------------------------------------------- */

static const char *type_word(enum value_type t)
{
	return t == TYPE_LONG ? "long" : t == TYPE_STRING ? "string" : "unknown";
}

static void collect_embedded(void *ctx, const struct expr *e)
{
	if (e->kind == E_EMBEDDED)
		*(unsigned *)ctx |= embedded_pragmas(e->str);
}

/* The pragmas of f's C: its embedded body, or the %{ %} expressions of
 * its script body (stap marks callers() unprivileged for the one in
 * @MAXSTRINGLEN). */
static unsigned function_pragmas(const struct function *f)
{
	unsigned flags = f->pragmas;
	struct ast_visitor v = { .ctx = &flags, .expr = collect_embedded };

	if (f->body)
		ast_walk_stmt(f->body, &v);
	return flags;
}

/* stap names one privilege mark, the most permissive first. */
static const char *privilege_mark(unsigned pragmas)
{
	if (pragmas & PRAGMA_UNPRIVILEGED)
		return " /* unprivileged */";
	if (pragmas & PRAGMA_MYPROC_UNPRIVILEGED)
		return " /* myproc-unprivileged */";
	if (pragmas & PRAGMA_GURU)
		return " /* guru */";
	return "";
}

static char *function_line(const struct function *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = memfile(&buf, &len);

	fprintf(m, "%s:%s (", f->name, type_word(f->type));
	for (size_t i = 0; i < f->params.n; i++) {
		const struct param *p = f->params.v[i];

		fprintf(m, "%s%s:%s", i ? ", " : "", p->name, type_word(p->type));
	}
	fprintf(m, ")%s", privilege_mark(function_pragmas(f)));
	fclose(m);
	return buf;
}

/* Internal names start with '_'; stap leaves them out, and private ones. */
static bool public_name(const char *name)
{
	return name[0] != '_';
}

void dump_functions(FILE *out, struct script *const *lib, int n_lib)
{
	struct vec lines = { 0 };

	for (int i = 0; i < n_lib; i++) {
		for (size_t j = 0; j < lib[i]->functions.n; j++) {
			const struct function *f = lib[i]->functions.v[j];

			if (f->is_private || !public_name(f->name))
				continue;
			/* stap's order: by name, a ':' after it (so that
			 * "f2" comes before "f"), overloads as declared */
			add_line(&lines, xasprintf("%s:", f->name), function_line(f));
		}
	}
	print_sorted(out, &lines);
}

/* ---- --dump-probe-aliases ------------------------------------------ */

static char *point_text(const struct probe_point *pp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = memfile(&buf, &len);

	ast_print_probe_point(m, pp);
	fclose(m);
	return buf;
}

static char *alias_line(const char *name, const struct probe_alias *a)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = memfile(&buf, &len);

	fprintf(m, "%s %s ", name, a->epilogue ? "+=" : "=");
	for (size_t i = 0; i < a->points.n; i++) {
		char *p = point_text(a->points.v[i]);

		fprintf(m, "%s%s", i ? ", " : "", p);
		free(p);
	}
	fclose(m);
	return buf;
}

void dump_probe_aliases(FILE *out, struct script *const *lib, int n_lib)
{
	struct vec lines = { 0 };

	for (int i = 0; i < n_lib; i++) {
		for (size_t j = 0; j < lib[i]->aliases.n; j++) {
			const struct probe_alias *a = lib[i]->aliases.v[j];

			for (size_t k = 0; k < a->names.n; k++) {
				char *name = point_text(a->names.v[k]);
				char *text;

				if (!public_name(name)) {
					free(name);
					continue;
				}
				text = alias_line(name, a);
				add_line(&lines, xstrdup(text), text);
				free(name);
			}
		}
	}
	print_sorted(out, &lines);
}

/* ---- --dump-probe-types -------------------------------------------- */

/*
 * A pattern's text for each choice of its optional arguments: "(number)"
 * for a number, "(string)" for a string, nothing when it may be left out.
 * The sort key spells each component as its name, a rank for its
 * argument (none, number, string) and a separator below every name
 * character, so that stap's tree order comes out: a point before its
 * longer forms, "process" before "process(number)" before
 * "process(string)", components compared one by one.
 */
static const enum pat_arg arg_choices[][3] = {
	[PA_NONE] = { PA_NONE },
	[PA_NUM] = { PA_NUM },
	[PA_OPTNUM] = { PA_NONE, PA_NUM },
	[PA_STR] = { PA_STR },
	[PA_OPTSTR] = { PA_NONE, PA_STR },
	[PA_OPTSTRNUM] = { PA_NONE, PA_NUM, PA_STR },
	[PA_STRNUM] = { PA_NUM, PA_STR },
};

static int n_choices(enum pat_arg a)
{
	return a == PA_OPTSTRNUM ? 3 : (a == PA_OPTNUM || a == PA_OPTSTR || a == PA_STRNUM) ? 2 : 1;
}

static void add_type_lines(struct vec *lines, const struct point_pattern *p,
			   int i, const char *text, const char *key)
{
	const struct pat_comp *c;

	if (i == p->n) {
		add_line(lines, xstrdup(key), xstrdup(text));
		return;
	}
	c = &p->c[i];
	for (int k = 0; k < n_choices(c->arg); k++) {
		enum pat_arg a = arg_choices[c->arg][k];
		const char *arg = a == PA_NUM ? "(number)" : a == PA_STR ? "(string)" : "";
		char *t = xasprintf("%s%s%s%s", text, i ? "." : "", c->name, arg);
		char *kk = xasprintf("%s%s\001%c\001", key, c->name,
				     a == PA_NUM ? '1' : a == PA_STR ? '2' : '0');

		add_type_lines(lines, p, i + 1, t, kk);
		free(t);
		free(kk);
	}
}

void dump_probe_types(FILE *out)
{
	struct vec lines = { 0 };

	for (size_t f = 0; probe_families[f]; f++) {
		const struct probe_family *fam = probe_families[f];
		size_t n = family_pattern_count(fam);

		for (size_t i = 0; i < n; i++) {
			const struct point_pattern *p = family_pattern(fam, i);

			/* internal points (__syscall(N)) are the tapsets' own */
			if (p->n && public_name(p->c[0].name))
				add_type_lines(&lines, p, 0, "", "");
		}
	}
	print_sorted(out, &lines);
}
