/* Diagnostics: source files and located error reports. */
#include "diag.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct srcfile *srcfile_new(const char *name, const char *text, size_t len)
{
	struct srcfile *f = xcalloc(1, sizeof(*f));

	f->name = xstrdup(name);
	f->text = xmalloc(len + 1);
	memcpy(f->text, text, len);
	f->text[len] = '\0';
	f->len = len;
	return f;
}

struct srcfile *srcfile_read(const char *path, char *errbuf, size_t errlen)
{
	FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	struct strbuf sb = STRBUF_INIT;
	char chunk[65536];
	size_t n;
	struct srcfile *f;

	if (!fp) {
		snprintf(errbuf, errlen, "cannot open '%s': %s", path,
			 strerror(errno));
		return NULL;
	}
	while (sb.len <= SRCFILE_MAX_BYTES &&
	       (n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		strbuf_addn(&sb, chunk, n);
	if (ferror(fp) || sb.len > SRCFILE_MAX_BYTES) {
		if (sb.len > SRCFILE_MAX_BYTES)
			snprintf(errbuf, errlen, "cannot read '%s': larger than %zu MiB, "
				 "the limit for a script file", path,
				 SRCFILE_MAX_BYTES >> 20);
		else
			snprintf(errbuf, errlen, "cannot read '%s': %s", path,
				 strerror(errno));
		if (fp != stdin)
			fclose(fp);
		strbuf_free(&sb);
		return NULL;
	}
	if (fp != stdin)
		fclose(fp);
	f = srcfile_new(strcmp(path, "-") == 0 ? "<input>" : path,
			sb.buf ? sb.buf : "", sb.len);
	strbuf_free(&sb);
	return f;
}

const struct srcpos *srcfile_keep_pos(struct srcfile *f, const struct srcpos *pos)
{
	struct srcpos_node *n = xmalloc(sizeof(*n));

	n->pos = *pos;
	n->next = f->kept;
	f->kept = n;
	return &n->pos;
}

void srcfile_free(struct srcfile *f)
{
	struct srcpos_node *n;

	if (!f)
		return;
	while ((n = f->kept)) {
		f->kept = n->next;
		free(n);
	}
	free(f->name);
	free(f->text);
	free(f->line_starts);
	free(f);
}

void diag_init(struct diag *d)
{
	memset(d, 0, sizeof(*d));
	d->stream = stderr;
	d->max_errors = DIAG_MAX_ERRORS;
}

void diag_restart(struct diag *d)
{
	d->errors = 0;
	d->warnings = 0;
	memset(d->seen, 0, sizeof(d->seen));
	d->nseen = 0;
	memset(d->warned, 0, sizeof(d->warned));
	d->nwarned = 0;
	d->similar_suppressed = 0;
	d->shown_errors = 0;
	d->parse_errors = 0;
	memset(d->erred, 0, sizeof(d->erred));
	d->nerred = 0;
	d->similar_errors_suppressed = 0;
	d->library_named = false;
}

/* The line table of f, built on first use: each message and each
 * operator position of pass 3 would otherwise scan the file from its
 * start, which made thousands of them quadratic. */
static void line_table(const struct srcfile *f)
{
	struct srcfile *cache = (struct srcfile *)f;
	size_t cap = 64;
	size_t *starts;
	int n = 0;

	if (f->line_starts)
		return;
	starts = xmalloc(cap * sizeof(*starts));
	starts[n++] = 0;
	for (size_t i = 0; i < f->len; i++)
		if (f->text[i] == '\n') {
			if ((size_t)n == cap) {
				cap *= 2;
				starts = xrealloc(starts, cap * sizeof(*starts));
			}
			starts[n++] = i + 1;
		}
	cache->line_starts = starts;
	cache->nlines = n;
}

const char *srcfile_line(const struct srcfile *f, int line)
{
	line_table(f);
	if (line < 1 || line > f->nlines)
		return NULL;
	return f->text + f->line_starts[line - 1];
}

struct srcpos srcfile_pos(const struct srcfile *f, size_t off)
{
	struct srcpos p = { .file = f };
	int lo = 0, hi;

	line_table(f);
	/* the last line that starts at or before off */
	hi = f->nlines;
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;

		if (f->line_starts[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	p.line = lo + 1;
	p.col = (int)(off - f->line_starts[lo]) + 1;
	return p;
}

/* SystemTap's colouring: the SGR sequence, then erase-to-end-of-line (so
 * that the colour does not spill when the terminal scrolls), as grep's. */
static void color_on(struct strbuf *sb, const char *sgr)
{
	strbuf_adds(sb, "\033[");
	strbuf_adds(sb, sgr);
	strbuf_adds(sb, "m\033[K");
}

static void color_off(struct strbuf *sb)
{
	strbuf_adds(sb, "\033[m\033[K");
}

/* The length of the token at c (up to to): a word, or one character. */
static size_t token_len(const char *c, const char *to)
{
	const char *e = c;

	while (e < to && (isalnum((unsigned char)*e) || *e == '_' || *e == '$' || *e == '@'))
		e++;
	return e > c ? (size_t)(e - c) : c < to;
}

/* Source lines longer than this are shown as a window around the column. */
#define LINE_WINDOW 160

void diag_show_line(struct diag *d, const struct srcpos *pos)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *eol, *end, *from, *to;

	if (!pos || !pos->file || pos->line < 1)
		return;
	p = srcfile_line(pos->file, pos->line);
	if (!p)
		return;
	end = pos->file->text + pos->file->len;
	eol = memchr(p, '\n', (size_t)(end - p));
	if (!eol)
		eol = end;
	from = p;
	to = eol;
	if (to - from > LINE_WINDOW) {
		const char *at = p + pos->col - 1;

		if (at > eol)
			at = eol;
		from = at - LINE_WINDOW / 2 > p ? at - LINE_WINDOW / 2 : p;
		to = from + LINE_WINDOW < eol ? from + LINE_WINDOW : eol;
	}
	/* Built in memory and written at once: stderr is unbuffered, and a
	 * line written byte by byte costs a system call per byte. Tabs are
	 * kept so that the caret line lines up with them. */
	strbuf_adds(&sb, from > p ? "    ..." : "    ");
	for (const char *c = from, *tok = p + pos->col - 1, *tok_end = NULL; c < to; c++) {
		if (d->colors && c == tok) {
			tok_end = c + token_len(c, to);
			color_on(&sb, d->colors->token);
		}
		strbuf_addc(&sb, *c == '\r' ? ' ' : *c);
		if (tok_end && c + 1 == tok_end) {
			color_off(&sb);
			tok_end = NULL;
		}
	}
	strbuf_adds(&sb, to < eol ? "...\n    " : "\n    ");
	if (from > p)
		strbuf_adds(&sb, "   ");
	for (const char *c = from; c < p + pos->col - 1 && c < to; c++)
		strbuf_addc(&sb, *c == '\t' ? '\t' : ' ');
	if (d->colors)
		color_on(&sb, d->colors->caret);
	strbuf_adds(&sb, "^");
	if (d->colors)
		color_off(&sb);
	strbuf_adds(&sb, "\n");
	fwrite(sb.buf, 1, sb.len, d->stream);
	strbuf_free(&sb);
}

/* "FILE:LINE:COL: ", coloured as a source place, when pos has a file. */
static void show_place(FILE *out, const struct diag_colors *c, const struct srcpos *pos)
{
	if (!pos || !pos->file)
		return;
	if (c)
		fprintf(out, "\033[%sm\033[K%s:%d:%d:\033[m\033[K ", c->source,
			pos->file->name, pos->line, pos->col);
	else
		fprintf(out, "%s:%d:%d: ", pos->file->name, pos->line, pos->col);
}

static void report(struct diag *d, const struct srcpos *pos, const char *kind,
		   const char *fmt, va_list ap)
{
	FILE *out = d->stream;
	const struct diag_colors *c = d->colors;
	const char *kind_color = !c || !kind ? NULL :
				 strcmp(kind, "warning") == 0 ? c->warning : c->error;

	show_place(out, c, pos);
	if (!kind)
		;	/* a related place: no kind of its own */
	else if (c)
		fprintf(out, "\033[%sm\033[K%s:\033[m\033[K ", kind_color, kind);
	else
		fprintf(out, "%s: ", kind);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
	diag_show_line(d, pos);
	/* in a macro's body: the uses it came through, innermost first */
	for (const struct srcpos *use = pos ? pos->from : NULL; use; use = use->from) {
		show_place(out, c, use);
		fputs("note: in expansion of macro used here\n", out);
		diag_show_line(d, use);
	}
}

static unsigned long long text_hash(unsigned long long h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* Whether h is in the set (an open-addressed table of DIAG_SEEN hashes,
 * 0 = empty); if not, it is added (while there is room). */
static bool remembered(unsigned long long *set, int *n, unsigned long long h)
{
	size_t i;

	h += !h;
	for (i = h % DIAG_SEEN; set[i]; i = (i + 1) % DIAG_SEEN)
		if (set[i] == h)
			return true;
	if (*n < DIAG_SEEN / 2) {
		set[i] = h;
		(*n)++;
	}
	return false;
}

/* Whether the same error (place, kind, text) was shown before; if not,
 * it is remembered (while there is room). */
static bool seen_before(struct diag *d, const struct srcpos *pos, const char *kind,
			const char *text)
{
	char where[64] = "";
	unsigned long long h = 0xcbf29ce484222325ULL;

	if (pos && pos->file) {
		h = text_hash(h, pos->file->name);
		snprintf(where, sizeof(where), ":%d:%d:", pos->line, pos->col);
	}
	h = text_hash(text_hash(text_hash(h, where), kind), text);
	return remembered(d->seen, &d->nseen, h);
}

static char *format_text(const char *fmt, va_list ap)
{
	va_list again;
	int n;
	char *text;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (n < 0)
		n = 0;
	text = xmalloc((size_t)n + 1);
	vsnprintf(text, (size_t)n + 1, fmt, ap);
	return text;
}

static void show_error(struct diag *d, const struct srcpos *pos, const char *kind,
		       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(d, pos, kind, fmt, ap);
	va_end(ap);
}

/* Whether an error of kind key is to be held back as a similar one.
 * Inside a chain the key only adds to the chain's kind: the chain is
 * judged as a whole when it ends. */
static bool similar_error(struct diag *d, const char *key)
{
	unsigned long long h;

	if (d->chain_stream) {
		/* a part without a kind makes the whole chain one of a kind */
		if (!key)
			d->chain_keyed = false;
		else
			d->chain_kind = text_hash(d->chain_kind * 31 +
						  text_hash(0xcbf29ce484222325ULL, key), "|");
		return false;
	}
	if (!key)
		return false;
	h = text_hash(0xcbf29ce484222325ULL, key);
	if (d->show_similar || !remembered(d->erred, &d->nerred, h))
		return false;
	d->similar_errors_suppressed++;
	return true;
}

void diag_verror_keyed(struct diag *d, const struct srcpos *pos, const char *kind,
		       const char *key, const char *fmt, va_list ap)
{
	char *text = format_text(fmt, ap);

	/* a chain's parts are not repeats on their own: the chain as a
	 * whole is (diag_chain_end) */
	if (!d->chain_stream && seen_before(d, pos, kind, text)) {
		free(text);
		return;
	}
	d->errors++;
	if (!strcmp(kind, "parse error"))
		d->parse_errors++;
	if (similar_error(d, key)) {
		free(text);
		return;
	}
	d->shown_errors++;
	if (d->max_errors && d->shown_errors > d->max_errors) {
		if (d->shown_errors == d->max_errors + 1)
			fprintf(d->stream, "tapc: too many errors (more than "
				"%d); the rest are not shown\n", d->max_errors);
		free(text);
		return;
	}
	show_error(d, pos, kind, "%s", text);
	if (d->chain_stream)
		d->chain_shown = true;
	free(text);
}

void diag_verror(struct diag *d, const struct srcpos *pos, const char *kind,
		 const char *fmt, va_list ap)
{
	diag_verror_keyed(d, pos, kind, NULL, fmt, ap);
}

void diag_error_keyed(struct diag *d, const struct srcpos *pos, const char *kind,
		      const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_verror_keyed(d, pos, kind, key, fmt, ap);
	va_end(ap);
}

void diag_related(struct diag *d, const struct srcpos *pos, const char *fmt, ...)
{
	va_list ap;

	/* in a chain, only after an error that was shown (not a repeat) */
	if (d->chain_stream && !d->chain_shown)
		return;
	va_start(ap, fmt);
	report(d, pos, NULL, fmt, ap);
	va_end(ap);
}

void diag_chain_begin(struct diag *d)
{
	FILE *mem;

	if (d->chain_stream) {	/* nested: part of the outer chain */
		d->chain_nested++;
		return;
	}
	mem = open_memstream(&d->chain_buf, &d->chain_len);
	if (!mem)
		return;	/* then the parts are judged one by one */
	d->chain_saved_stream = d->stream;
	d->chain_stream = mem;
	d->stream = mem;
	d->chain_kind = 0xcbf29ce484222325ULL;
	d->chain_keyed = true;
	d->chain_shown = false;
}

void diag_chain_end(struct diag *d)
{
	bool hold;

	if (d->chain_nested) {
		d->chain_nested--;
		return;
	}
	if (!d->chain_stream)
		return;
	fclose(d->chain_stream);
	d->chain_stream = NULL;
	d->stream = d->chain_saved_stream;
	/* a chain shown word for word already is not shown again, as a
	 * lone error is not (seen_before) */
	if (d->chain_len && remembered(d->seen, &d->nseen,
				       text_hash(0xcbf29ce484222325ULL, d->chain_buf))) {
		hold = false;
	} else {
		hold = d->chain_len && d->chain_keyed && !d->show_similar &&
		       remembered(d->erred, &d->nerred, d->chain_kind);
		if (hold)
			d->similar_errors_suppressed++;
		else
			fwrite(d->chain_buf, 1, d->chain_len, d->stream);
	}
	free(d->chain_buf);
	d->chain_buf = NULL;
	d->chain_len = 0;
}

void diag_error(struct diag *d, const struct srcpos *pos, const char *kind,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_verror(d, pos, kind, fmt, ap);
	va_end(ap);
}

/* Whether a warning of this kind was shown before; if not, it is
 * remembered (while there is room). */
static bool warned_before(struct diag *d, const char *key)
{
	return remembered(d->warned, &d->nwarned,
			  text_hash(0xcbf29ce484222325ULL, key));
}

__attribute__((format(printf, 4, 0)))
static void vwarning(struct diag *d, const struct srcpos *pos, const char *key,
		     const char *fmt, va_list ap)
{
	if (d->warnings_are_errors) {
		diag_verror(d, pos, "error", fmt, ap);
		return;
	}
	if (d->suppress_warnings)
		return;
	if (key && !d->show_similar && warned_before(d, key)) {
		d->similar_suppressed++;
		return;
	}
	d->warnings++;
	report(d, pos, "warning", fmt, ap);
}

void diag_warning_keyed(struct diag *d, const struct srcpos *pos, const char *key,
			const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarning(d, pos, key, fmt, ap);
	va_end(ap);
}

void diag_warning(struct diag *d, const struct srcpos *pos, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	text = format_text(fmt, ap);
	va_end(ap);
	diag_warning_keyed(d, pos, text, "%s", text);
	free(text);
}

void diag_summary(struct diag *d)
{
	if (d->similar_errors_suppressed)
		fprintf(d->stream, "Number of similar error messages suppressed: %d.\n",
			d->similar_errors_suppressed);
	if (d->similar_suppressed)
		fprintf(d->stream, "Number of similar warning messages suppressed: %d.\n",
			d->similar_suppressed);
	if (d->similar_errors_suppressed || d->similar_suppressed)
		fprintf(d->stream, "Rerun with -v to see them.\n");
}
