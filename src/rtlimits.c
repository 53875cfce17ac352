/* The runtime's limits that -D may set (see rtlimits.h). */
#include "rtlimits.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct limit {
	const char *name;
	long long min, max;
	long long def;		/* the runtime's default; -1: not a number */
};

static const struct limit limits[] = {
#define LIMIT(name, min, max, def) { #name, min, max, def },
#define MODULE_ONLY(name)
#include "rtlimits.def"
#undef LIMIT
#undef MODULE_ONLY
};

static const char *const module_only[] = {
#define LIMIT(name, min, max, def)
#define MODULE_ONLY(name) #name,
#include "rtlimits.def"
#undef LIMIT
#undef MODULE_ONLY
};

#define NLIMITS (sizeof(limits) / sizeof(limits[0]))

static int limit_index(const char *name, size_t len)
{
	for (size_t i = 0; i < NLIMITS; i++)
		if (strlen(limits[i].name) == len && !strncmp(limits[i].name, name, len))
			return (int)i;
	return -1;
}

/* s as a whole decimal number, "-" allowed; false when it is not one or
 * does not fit a long long. */
static bool decimal(const char *s, long long *v)
{
	char *end;

	if (!((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')))
		return false;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return errno == 0 && *end == '\0';
}

/* The value of one -D of a limit, or false after saying why. */
static bool limit_value(const char *def, const struct limit *l, long long *v)
{
	const char *eq = strchr(def, '=');

	if (!eq) {
		fprintf(stderr, "tapc: -D %s needs a value: a whole number from %lld to %lld "
			"(see LIMITS in tapc(1))\n", def, l->min, l->max);
		return false;
	}
	if (!decimal(eq + 1, v)) {
		fprintf(stderr, "tapc: invalid -D %s: %s must be a whole number from %lld to "
			"%lld (see LIMITS in tapc(1))\n", def, l->name, l->min, l->max);
		return false;
	}
	if (*v < l->min || *v > l->max) {
		fprintf(stderr, "tapc: -D %s is out of range: %s must be from %lld to %lld "
			"(see LIMITS in tapc(1))\n", def, l->name, l->min, l->max);
		return false;
	}
	return true;
}

static long long value_of(const long long *value, const char *name)
{
	return value[limit_index(name, strlen(name))];
}

/* The limits that depend on each other: a hit's output goes to the
 * output channel in one piece, and one error line to the error channel
 * (a piece that does not fit is always dropped). */
static bool limits_agree(const long long *value)
{
	long long print = value_of(value, "TAP_PRINT_BUFSIZE");
	long long out = value_of(value, "TAP_BUFFER_SIZE");
	long long msg = value_of(value, "TAP_ERRMSG_LEN");
	long long err = value_of(value, "TAP_ERRBUF_SIZE");

	if (print > out) {
		fprintf(stderr, "tapc: TAP_PRINT_BUFSIZE (%lld) must not be larger than "
			"TAP_BUFFER_SIZE (%lld): a hit's output goes out in one piece "
			"(see LIMITS in tapc(1))\n", print, out);
		return false;
	}
	if (msg + 256 > err) {
		fprintf(stderr, "tapc: TAP_ERRBUF_SIZE (%lld) must hold one error line, "
			"TAP_ERRMSG_LEN + 256 (%lld) bytes (see LIMITS in tapc(1))\n",
			err, msg + 256);
		return false;
	}
	return true;
}

bool limits_check(const struct strlist *defines)
{
	long long value[NLIMITS];

	for (size_t i = 0; i < NLIMITS; i++)
		value[i] = limits[i].def;
	for (int i = 0; i < defines->count; i++) {
		const char *def = defines->items[i];
		int k = limit_index(def, strcspn(def, "="));

		if (k >= 0 && !limit_value(def, &limits[k], &value[k]))
			return false;
	}
	return limits_agree(value);
}

bool limit_module_only(const char *def)
{
	size_t len = strcspn(def, "=");

	for (size_t i = 0; i < sizeof(module_only) / sizeof(module_only[0]); i++)
		if (strlen(module_only[i]) == len && !strncmp(module_only[i], def, len))
			return true;
	return false;
}
