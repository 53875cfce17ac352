/* Diagnostics: source files held in memory, positions, and error/warning
 * reports in the form
 *
 *   FILE:LINE:COL: KIND: MESSAGE
 *       <the source line>
 *       ^
 *
 * Every pass reports through here so that -w, -W and error counting work
 * the same way everywhere.
 */
#ifndef TAPC_DIAG_H
#define TAPC_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* One source text: a script file, a -e/-E argument, stdin or a tapset.
 * The text is owned and NUL-terminated; `len` excludes the NUL. */
struct srcfile {
	char *name;		/* as shown in messages: path, "<input>" */
	char *text;
	size_t len;
	bool privileged;	/* tapset or guru mode: embedded C allowed */
	struct srcfile *next;	/* all files of a session, for freeing */
	/* Where each line starts (byte offsets): built on first use by
	 * srcfile_line and srcfile_pos, which treat it as a cache. */
	size_t *line_starts;
	int nlines;
	struct srcpos_node *kept;	/* srcfile_keep_pos's, freed with the file */
};

/* A position in a source file. line and col are 1-based; col counts bytes.
 * A token that a macro's body gave has from: where that macro was used
 * (itself with a from when that use came out of another macro), so that
 * an error in the body says which use it came through. */
struct srcpos {
	const struct srcfile *file;
	int line;
	int col;
	const struct srcpos *from;
};

/* A position copied to live as long as a file (srcfile_keep_pos). */
struct srcpos_node {
	struct srcpos pos;
	struct srcpos_node *next;
};

/* A copy of pos that lives as long as f: a macro use that the positions
 * of its body's tokens name as their from, in the AST too. */
const struct srcpos *srcfile_keep_pos(struct srcfile *f, const struct srcpos *pos);

/* Errors shown before the rest are only counted (diag_init's default). */
#define DIAG_MAX_ERRORS 50
/* How many distinct errors are remembered so that one is shown once. */
#define DIAG_SEEN 512

/* --color: the SGR parameters ("01;31") of each part of a message, as
 * SystemTap's SYSTEMTAP_COLORS names them (src/color.c). */
struct diag_colors {
	char error[32], warning[32], source[32], caret[32], token[32];
};

struct diag {
	int errors;
	int shown_errors;	/* those not held back as similar ones */
	int parse_errors;	/* of kind "parse error" (stap's count) */
	int warnings;
	bool suppress_warnings;	/* -w */
	bool warnings_are_errors;	/* -W */
	int max_errors;		/* stop reporting after this many; 0 = no limit */
	void *stream;		/* FILE *; stderr by default */
	/* Hashes of the errors shown (an open-addressed set, 0 = empty):
	 * as SystemTap, an error is reported once, however many probes a
	 * wildcard derives from the body that has it. */
	unsigned long long seen[DIAG_SEEN];
	int nseen;
	/* As SystemTap, a warning whose text (without its place) was shown
	 * already is only counted, unless -v asks for all of them
	 * (show_similar); diag_summary tells how many were held back. */
	bool show_similar;
	int similar_suppressed;
	const struct diag_colors *colors;	/* NULL: plain text */
	unsigned long long warned[DIAG_SEEN];
	int nwarned;
	/* The same for errors: SystemTap shows the first error of each kind
	 * (the place in its own code that raised it) and counts the rest
	 * unless -v.  An error's kind here is its message template. */
	unsigned long long erred[DIAG_SEEN];
	int nerred;
	int similar_errors_suppressed;
	/* Inside diag_chain_begin/end: the chain's messages wait in
	 * chain_buf (a memory stream standing in for `stream`) until its
	 * kind, made of all its parts' kinds, is known. */
	void *chain_stream;
	void *chain_saved_stream;
	char *chain_buf;
	size_t chain_len;
	unsigned long long chain_kind;
	bool chain_keyed;	/* every part so far had a kind */
	bool chain_shown;	/* an error of the chain was written */
	int chain_nested;	/* begins inside the chain not yet ended */
	/* A message named candidates from the library's definitions (an
	 * unresolved function's or probe point's "similar:" list): a pass
	 * 2 over only the tapset files the script needs would word it
	 * differently from one over the whole library (elaborate_lazily
	 * in main.c). */
	bool library_named;
};

/* The most srcfile_read() reads of a script or tapset file: far above any
 * real one (SystemTap's whole tapset library is a few MiB), and what keeps
 * "tapc /dev/zero" from filling memory. */
#define SRCFILE_MAX_BYTES ((size_t)64 << 20)

struct srcfile *srcfile_new(const char *name, const char *text, size_t len);
/* The file at path ("-": standard input), or NULL with the reason in
 * errbuf: it cannot be opened or read, or holds more than
 * SRCFILE_MAX_BYTES. */
struct srcfile *srcfile_read(const char *path, char *errbuf, size_t errlen);
void srcfile_free(struct srcfile *f);
/* The start of line `line` (1-based) of f, or NULL when f has no such line. */
const char *srcfile_line(const struct srcfile *f, int line);
/* The position of byte offset off (at most f->len) of f. */
struct srcpos srcfile_pos(const struct srcfile *f, size_t off);

void diag_init(struct diag *d);
/* Start counting (and remembering shown errors) afresh, for a second
 * attempt whose messages replace the first one's. */
void diag_restart(struct diag *d);

/* Report at pos (pos may be NULL for a message without a location).
 * kind is e.g. "parse error", "semantic error". */
void diag_error(struct diag *d, const struct srcpos *pos, const char *kind,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void diag_verror(struct diag *d, const struct srcpos *pos, const char *kind,
		 const char *fmt, va_list ap);
/* diag_error for an error of kind key (its message template, such as
 * "unresolved function %s"): as SystemTap, a second error of a kind shown
 * already is counted, not shown, unless show_similar (-v). */
void diag_error_keyed(struct diag *d, const struct srcpos *pos, const char *kind,
		      const char *key, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void diag_verror_keyed(struct diag *d, const struct srcpos *pos, const char *kind,
		       const char *key, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));
/* A place an error refers to, shown after it as SystemTap shows a
 * related token ("identifier 'log' at .../logging.stp:24:10" and its
 * line), with no kind of its own; not counted. */
void diag_related(struct diag *d, const struct srcpos *pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The errors reported between these two calls are one chained error
 * (SystemTap's "while resolving probe point" and its cause): shown or
 * held back as a whole, its kind the sequence of its parts' kinds. */
void diag_chain_begin(struct diag *d);
void diag_chain_end(struct diag *d);
void diag_warning(struct diag *d, const struct srcpos *pos,
		  const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* diag_warning for a warning whose kind is key (its text without the
 * place it names): a second one of that kind is counted, not shown. */
void diag_warning_keyed(struct diag *d, const struct srcpos *pos, const char *key,
			const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* SystemTap's closing lines when similar errors or warnings were held back. */
void diag_summary(struct diag *d);

/* Print only the "    line\n    ^\n" context for pos. */
void diag_show_line(struct diag *d, const struct srcpos *pos);

#endif
