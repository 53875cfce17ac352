/* Small helpers shared by every part of tapc: checked allocation and a
 * growable string buffer. Allocation failure is fatal: tapc is a
 * short-lived compiler and has nothing useful to do without memory. */
#ifndef TAPC_UTIL_H
#define TAPC_UTIL_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct strbuf {
	char *buf;	/* NUL-terminated once anything was added */
	size_t len;
	size_t cap;
};
#define STRBUF_INIT { NULL, 0, 0 }

void strbuf_addn(struct strbuf *sb, const char *s, size_t n);
void strbuf_adds(struct strbuf *sb, const char *s);
void strbuf_addc(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Give the buffer away as a malloc'ed string (never NULL). */
char *strbuf_detach(struct strbuf *sb);
void strbuf_free(struct strbuf *sb);

/* A growable array of pointers (every pass holds its lists in one). */
struct vec {
	void **v;
	size_t n;
	size_t cap;
};

void vec_push(struct vec *vc, void *p);
void vec_free(struct vec *vc);	/* frees the array, not the elements */

#endif
