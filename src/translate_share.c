/* Pass 3: probes whose handlers differ only in constants share one.
 *
 * A wildcard point derives many probes whose bodies are the same up to
 * literal constants (syscall.* sets name = "read", "write", ...; the
 * positions in error messages differ from alias to alias), and gcc's time
 * grows with the C it gets.  So after every handler is generated, each is
 * read back as C tokens: its shape is its text with its own names (probe_N,
 * probe_N_frame, its chunks) made neutral and each literal constant
 * (a run of string literals, or a number with an LL or ULL suffix)
 * replaced by a slot, followed by its frame.  Handlers of the same shape
 * are the same C but for those literals, so one of them, with each slot
 * whose literal differs among them turned into a read of the running
 * probe's row of a constants table (tap_probe.consts), does what each
 * of them did.  Equality of the generated C is the proof: whatever the
 * handler depends on (family, target variables, locals and their types,
 * conditions, locks, next) shows in its C or stays in the probe's own
 * tap_probes row (pp, -t, locks, arming).
 *
 * Literals where C wants a constant expression stay part of the shape:
 * after "[", "case" or sizeof; a body with preprocessor lines (embedded C)
 * is never shared.  A probe that shares with no other keeps its C as is.
 */
#include <stdlib.h>
#include <string.h>

#include "lookup.h"
#include "translate_int.h"

/* One literal of a handler's C that may become a slot. */
struct lit {
	size_t off, len;	/* in the code */
	const char *ctype;	/* its C type in the constants struct */
};

/* What one handler's C reads as. */
struct shape {
	char *key;		/* the shape and the frame: equal keys share */
	struct lit *lits;
	size_t nlits;
	bool shareable;
};

static bool ident_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_';
}

/* The end of the string or character literal that starts at s[i]. */
static size_t quoted_end(const char *s, size_t i)
{
	char q = s[i++];

	while (s[i] && s[i] != q)
		i += s[i] == '\\' && s[i + 1] ? 2 : 1;
	return s[i] ? i + 1 : i;
}

static size_t skip_space(const char *s, size_t i)
{
	while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n')
		i++;
	return i;
}

/* The C type a number token stands for in a slot, or NULL to keep it. */
static const char *number_ctype(const char *s, size_t len)
{
	if (len > 3 && strncmp(s + len - 3, "ULL", 3) == 0)
		return "unsigned long long";
	if (len > 2 && strncmp(s + len - 2, "LL", 2) == 0 &&
	    s[len - 3] != 'U' && s[len - 3] != 'u')
		return "long long";
	return NULL;
}

/* Whether the identifier s[0..len) is the handler's own name or one
 * derived from it (its frame, its chunks). */
static bool own_name(const char *s, size_t len, const char *member)
{
	size_t m = strlen(member);

	return len >= m && strncmp(s, member, m) == 0 && (len == m || s[m] == '_');
}

static void add_lit(struct shape *sh, size_t off, size_t len, const char *ctype)
{
	if ((sh->nlits & (sh->nlits + 1)) == 0)	/* 0, 1, 3, 7, ... */
		sh->lits = xrealloc(sh->lits, (sh->nlits * 2 + 2) * sizeof(*sh->lits));
	sh->lits[sh->nlits].off = off;
	sh->lits[sh->nlits].len = len;
	sh->lits[sh->nlits].ctype = ctype;
	sh->nlits++;
}

/* Read a handler's C as tokens into its shape. */
static struct shape shape_of(const struct body_out *b)
{
	struct shape sh = { .shareable = true };
	struct strbuf key = STRBUF_INIT;
	const char *s = b->code;
	char prev[16] = "";	/* the last token, if short */
	char prev2[16] = "";
	bool line_start = true;
	size_t i = 0;

	while (s[i]) {
		size_t start = i, end;
		const char *ctype = NULL;
		bool fixed;

		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			line_start = line_start || s[i] == '\n';
			strbuf_addc(&key, s[i++]);
			continue;
		}
		if (line_start && s[i] == '#')
			sh.shareable = false;
		line_start = false;
		if (s[i] == '"') {
			/* a run of string literals is one constant */
			end = quoted_end(s, i);
			while (s[skip_space(s, end)] == '"')
				end = quoted_end(s, skip_space(s, end));
			ctype = "const char *";
		} else if (s[i] == '\'') {
			end = quoted_end(s, i);
		} else if (s[i] == '/' && s[i + 1] == '*') {
			const char *e = strstr(s + i + 2, "*/");

			end = e ? (size_t)(e - s) + 2 : strlen(s);
		} else if (ident_char(s[i])) {
			bool number = s[i] >= '0' && s[i] <= '9';

			end = i;
			while (ident_char(s[end]) || (number && s[end] == '.'))
				end++;
			if (number)
				ctype = number_ctype(s + i, end - i);
		} else {
			end = i + 1;
		}
		fixed = strcmp(prev, "[") == 0 || strcmp(prev, "case") == 0 ||
			strcmp(prev, "sizeof") == 0 ||
			(strcmp(prev, "(") == 0 && strcmp(prev2, "sizeof") == 0);
		if (ctype && !fixed) {
			add_lit(&sh, start, end - start, ctype);
			strbuf_addf(&key, "\001%s\001", ctype);
		} else if (ident_char(s[i]) && !(s[i] >= '0' && s[i] <= '9') &&
			   own_name(s + i, end - i, b->member)) {
			strbuf_addf(&key, "\002%.*s", (int)(end - i - strlen(b->member)),
				    s + i + strlen(b->member));
		} else {
			strbuf_addn(&key, s + i, end - i);
		}
		memcpy(prev2, prev, sizeof(prev));
		if (end - i < sizeof(prev)) {
			memcpy(prev, s + i, end - i);
			prev[end - i] = '\0';
		} else {
			strcpy(prev, "?");
		}
		i = end;
	}
	strbuf_adds(&key, "\003");
	strbuf_adds(&key, b->frame ? b->frame : "");
	sh.key = strbuf_detach(&key);
	return sh;
}

static bool same_lit(const struct body_out *a, const struct lit *x,
		     const struct body_out *b, const struct lit *y)
{
	return x->len == y->len && memcmp(a->code + x->off, b->code + y->off, x->len) == 0;
}

/* The constants struct of the group led by bodies[rep]: one field per
 * slot in which its members differ (differ[k] is the field's number + 1,
 * or 0), and each member's row of the table. */
static void emit_consts(struct strbuf *out, struct body_out *bodies, const struct vec *group,
			const struct shape *shapes, const int *differ)
{
	size_t rep = (size_t)group->v[0];
	const struct shape *rs = &shapes[rep];

	strbuf_addf(out, "struct %s_consts {\n", bodies[rep].member);
	for (size_t k = 0; k < rs->nlits; k++)
		if (differ[k])
			strbuf_addf(out, "\t%s%sk%d;\n", rs->lits[k].ctype,
				    strchr(rs->lits[k].ctype, '*') ? "" : " ", differ[k] - 1);
	strbuf_addf(out, "};\n/* the constants of the %zu probes that run %s */\n"
		    "static const struct %s_consts %s_consts[] = {\n", group->n,
		    bodies[rep].member, bodies[rep].member, bodies[rep].member);
	for (size_t m = 0; m < group->n; m++) {
		size_t i = (size_t)group->v[m];

		strbuf_adds(out, "\t{ ");
		for (size_t k = 0; k < rs->nlits; k++)
			if (differ[k])
				strbuf_addf(out, "%.*s, ", (int)shapes[i].lits[k].len,
					    bodies[i].code + shapes[i].lits[k].off);
		strbuf_addf(out, "}, /* %s */\n", bodies[i].member);
		bodies[i].consts = xasprintf("&%s_consts[%zu]", bodies[rep].member, m);
	}
	strbuf_adds(out, "};\n\n");
}

/* The leader's C with its differing slots read from the running probe's row. */
static char *shared_code(const struct body_out *b, const struct shape *sh, const int *differ)
{
	struct strbuf sb = STRBUF_INIT;
	size_t at = 0;

	for (size_t k = 0; k < sh->nlits; k++) {
		if (!differ[k])
			continue;
		strbuf_addn(&sb, b->code + at, sh->lits[k].off - at);
		strbuf_addf(&sb, "((const struct %s_consts *)c->probe->consts)->k%d",
			    b->member, differ[k] - 1);
		at = sh->lits[k].off + sh->lits[k].len;
	}
	strbuf_adds(&sb, b->code + at);
	return strbuf_detach(&sb);
}

/* Make one handler serve the group (its members' indexes, in order). */
static void share_group(struct strbuf *out, struct body_out *bodies, const struct vec *group,
			const struct shape *shapes)
{
	size_t rep = (size_t)group->v[0];
	const struct shape *rs = &shapes[rep];
	int *differ = xcalloc(rs->nlits + 1, sizeof(int));
	int nfields = 0;

	for (size_t k = 0; k < rs->nlits; k++)
		for (size_t m = 1; m < group->n && !differ[k]; m++) {
			size_t i = (size_t)group->v[m];

			if (!same_lit(&bodies[rep], &rs->lits[k], &bodies[i], &shapes[i].lits[k]))
				differ[k] = ++nfields;
		}
	if (nfields) {
		char *code = shared_code(&bodies[rep], rs, differ);

		emit_consts(out, bodies, group, shapes, differ);
		free(bodies[rep].code);
		bodies[rep].code = code;
	}
	for (size_t m = 1; m < group->n; m++) {
		struct body_out *b = &bodies[(size_t)group->v[m]];

		b->handler = rep;
		free(b->code);
		free(b->frame);
		b->code = b->frame = NULL;
	}
	free(differ);
}

void tr_share_handlers(struct body_out *bodies, size_t n, struct strbuf *out)
{
	struct shape *shapes = xcalloc(n + 1, sizeof(*shapes));
	struct namemap by_key = { 0 }, by_frame = { 0 };
	struct vec leaders = { 0 };

	/* equal frames first: a handler whose frame no other has shares
	 * with none, and its C need not be read */
	for (size_t i = 0; i < n; i++)
		if (bodies[i].code)
			namemap_add(&by_frame, bodies[i].frame, (void *)i);
	for (size_t i = 0; i < n; i++) {
		bodies[i].handler = i;
		if (!bodies[i].code || namemap_get(&by_frame, bodies[i].frame)->n < 2)
			continue;
		shapes[i] = shape_of(&bodies[i]);
		if (!shapes[i].shareable)
			continue;
		if (!namemap_get(&by_key, shapes[i].key))
			vec_push(&leaders, (void *)i);
		namemap_add(&by_key, shapes[i].key, (void *)i);
	}
	for (size_t g = 0; g < leaders.n; g++) {
		size_t rep = (size_t)leaders.v[g];
		const struct vec *group = namemap_get(&by_key, shapes[rep].key);

		if (group->n > 1)
			share_group(out, bodies, group, shapes);
	}
	for (size_t i = 0; i < n; i++) {
		free(shapes[i].key);
		free(shapes[i].lits);
	}
	free(shapes);
	namemap_free(&by_key);
	namemap_free(&by_frame);
	vec_free(&leaders);
}
