/* Wildcards in SystemTap's dialect (see glob.h). */
#include "glob.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

bool glob_is_pattern(const char *pat)
{
	return strpbrk(pat, "*?[{\\") != NULL;
}

size_t glob_literal_prefix(const char *pat)
{
	return strcspn(pat, "*?[{\\");
}

/* The '}' that closes the brace at open, or NULL; *comma is set when a
 * ',' separates alternatives at its level.  An escaped character is
 * not special. */
static const char *closing_brace(const char *open, bool *comma)
{
	int depth = 0;

	*comma = false;
	for (const char *p = open; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '{') {
			depth++;
		} else if (*p == '}') {
			if (--depth == 0)
				return p;
		} else if (*p == ',' && depth == 1) {
			*comma = true;
		}
	}
	return NULL;
}

/* The first '{' of pat that opens a closed group, or NULL. */
static const char *first_group(const char *pat, const char **close)
{
	bool comma;

	for (const char *p = pat; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p == '{' && (*close = closing_brace(p, &comma)))
			return p;
	}
	return NULL;
}

/* The end of the alternative of a group that starts at alt (its ',' or
 * the group's '}'). */
static const char *alternative_end(const char *alt, const char *close)
{
	int depth = 0;

	for (const char *p = alt; p < close; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '{')
			depth++;
		else if (*p == '}')
			depth--;
		else if (*p == ',' && depth == 0)
			return p;
	}
	return close;
}

/* The first sep of pat that is not escaped, or NULL. */
static const char *unescaped(const char *pat, char sep)
{
	for (const char *p = pat; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == sep)
			return p;
	}
	return NULL;
}

/* One expansion of a glob_match_pair pattern: braces are gone. */
static bool match_pair_flat(const char *pat, char sep, const char *first, const char *second)
{
	const char *split = unescaped(pat, sep);
	char *head;
	bool ok;

	if (!split)
		return glob_match(pat, second);
	if (!first)
		return false;
	head = xasprintf("%.*s", (int)(split - pat), pat);
	ok = glob_match(head, first) && glob_match(split + 1, second);
	free(head);
	return ok;
}

bool glob_match_pair(const char *pat, char sep, const char *first, const char *second)
{
	const char *open, *close = NULL;
	bool found = false;

	open = first_group(pat, &close);
	if (!open)
		return match_pair_flat(pat, sep, first, second);
	for (const char *alt = open + 1; !found; ) {
		const char *end = alternative_end(alt, close);
		char *one = xasprintf("%.*s%.*s%s", (int)(open - pat), pat,
				      (int)(end - alt), alt, close + 1);

		found = glob_match_pair(one, sep, first, second);
		free(one);
		if (end == close)
			break;
		alt = end + 1;
	}
	return found;
}

bool glob_match(const char *pat, const char *name)
{
	const char *open, *close = NULL;
	bool found = false;

	if (!strpbrk(pat, "*?[{\\"))
		return strcmp(pat, name) == 0;
	open = first_group(pat, &close);
	if (!open)
		return fnmatch(pat, name, 0) == 0;
	/* PREFIX{ALT,ALT...}SUFFIX: PREFIX ALT SUFFIX for each ALT */
	for (const char *alt = open + 1; !found; ) {
		const char *end = alternative_end(alt, close);
		char *one = xasprintf("%.*s%.*s%s", (int)(open - pat), pat,
				      (int)(end - alt), alt, close + 1);

		found = glob_match(one, name);
		free(one);
		if (end == close)
			break;
		alt = end + 1;
	}
	return found;
}

bool glob_match_path_tail(const char *pat, const char *path)
{
	if (!path)
		return false;
	if (glob_match(pat, path))	/* the whole path: "/abs/dir/f.c" */
		return true;
	for (const char *s = path; s; s = strchr(s, '/')) {
		if (*s == '/')
			s++;
		if (glob_match(pat, s))
			return true;
	}
	return false;
}
