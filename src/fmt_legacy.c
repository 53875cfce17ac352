/*
 * %p as SystemTap wrote it before 1.3 (--compatible=1.2 and older).
 *
 * Since 1.3 %p is %#x; before, a %p without a width was as wide as a
 * pointer ("0x" and 16 digits), a width W asked for W - 2 digits (at most
 * 16 unless left-aligned) and any precision was ignored.  The digits
 * always fill the field but for the right-aligned W > 18, so each such
 * directive is rewritten here into literal spaces, a literal "0x" and a
 * plain "%.Nx", which the runtime's formatter prints as SystemTap did.
 * A directive with a '*' width or precision is left alone (the count of
 * its arguments must not change).
 */
#include <stdio.h>
#include <stdlib.h>

#include "fmt_legacy.h"
#include "format.h"
#include "util.h"

/* Pointer digits on the 64-bit targets tapc builds for. */
#define PTR_DIGITS 16

bool fmt_legacy_p_wanted(const char *compatible)
{
	unsigned major = 0, minor = 0;

	if (!compatible || sscanf(compatible, "%u.%u", &major, &minor) < 1)
		return false;
	return major < 1 || (major == 1 && minor < 3);
}

static void legacy_p(struct strbuf *out, const struct tap_fmt_dir *d)
{
	int width = d->width_type == TAP_FMT_STATIC ? d->width : 2 + PTR_DIGITS;
	int digits = width - 2;

	if (!(d->flags & TAP_FMT_LEFT) && digits > PTR_DIGITS) {
		for (int i = 0; i < digits - PTR_DIGITS; i++)
			strbuf_addc(out, ' ');
		digits = PTR_DIGITS;
	}
	if (digits > 0)
		strbuf_addf(out, "0x%%.%dx", digits);
	else
		strbuf_adds(out, "0x%x");
}

char *fmt_legacy_p(const char *fmt, size_t len, size_t *out_len)
{
	struct strbuf out = STRBUF_INIT;
	char *copy = xstrndup(fmt, len);	/* the parser wants a C string */
	const char *p, *start, *err = NULL;
	struct tap_fmt_dir d;

	for (p = start = copy; tap_fmt_next(&p, &d, &err) > 0; start = p) {
		if (d.conv == 'p' && d.width_type != TAP_FMT_DYNAMIC &&
		    d.prec_type != TAP_FMT_DYNAMIC)
			legacy_p(&out, &d);
		else
			strbuf_addn(&out, start, (size_t)(p - start));
	}
	/* what the parser stopped at (pass 2 checked it) stays as written */
	strbuf_adds(&out, start);
	free(copy);
	*out_len = out.len;
	return strbuf_detach(&out);
}
