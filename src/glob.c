/* Wildcard matching of probe point names (see glob.h). */
#include "glob.h"

bool sem_wildcard_match(const char *pat, const char *name)
{
	if (*pat == '\0')
		return *name == '\0';
	if (*pat == '*') {
		for (const char *s = name;; s++) {
			if (sem_wildcard_match(pat + 1, s))
				return true;
			if (!*s)
				return false;
		}
	}
	return *pat == *name && sem_wildcard_match(pat + 1, name + 1);
}
