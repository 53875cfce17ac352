/* errbuf_set(): format a message into a caller's optional error buffer
 * (NULL or size 0: the message is dropped), for loaders that report
 * errors as text rather than through struct diag. */
#ifndef TAPC_ERRBUF_H
#define TAPC_ERRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

static inline void errbuf_set(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline void errbuf_set(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

#endif
