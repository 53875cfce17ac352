/* --color: which colours diagnostics get (color.h). */
#include "color.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"

/* stap's defaults: error=01;31:warning=00;33:source=00;34:caret=01:token=01 */
static struct diag_colors colors = {
	.error = "01;31", .warning = "00;33", .source = "00;34",
	.caret = "01", .token = "01",
};

/* The field of key (len bytes), or NULL for a key stap does not know. */
static char *field(const char *key, size_t len)
{
	static const struct {
		const char *name;
		size_t off;
	} keys[] = {
		{ "error", offsetof(struct diag_colors, error) },
		{ "warning", offsetof(struct diag_colors, warning) },
		{ "source", offsetof(struct diag_colors, source) },
		{ "caret", offsetof(struct diag_colors, caret) },
		{ "token", offsetof(struct diag_colors, token) },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i].name) == len && !strncmp(keys[i].name, key, len))
			return (char *)&colors + keys[i].off;
	return NULL;
}

/* SYSTEMTAP_COLORS, "key=SGR:key=SGR...": the keys it names change, the
 * others keep stap's defaults.  False when empty or malformed (an
 * unknown key, an SGR of other than digits and ';'). */
static bool parse_colors(const char *spec)
{
	if (!*spec)
		return false;
	while (*spec) {
		size_t entry = strcspn(spec, ":"), key = strcspn(spec, "=:");
		const char *val = spec + key + 1;
		size_t val_len = entry - key - 1;
		char *f;

		if (key >= entry || !(f = field(spec, key)) || val_len == 0 ||
		    val_len >= sizeof(colors.error) || strspn(val, "0123456789;") < val_len)
			return false;
		memcpy(f, val, val_len);
		f[val_len] = '\0';
		spec += entry;
		if (*spec == ':')
			spec++;
	}
	return true;
}

const struct diag_colors *diag_colors_choose(int mode)
{
	const char *spec = getenv("SYSTEMTAP_COLORS");

	if (mode == COLOR_NEVER || (mode == COLOR_AUTO && !isatty(STDERR_FILENO)))
		return NULL;
	if (spec && !parse_colors(spec))
		return NULL;
	return &colors;
}
