/* Pass-2 type names. */
#include "types.h"

const char *sem_type_name(enum sem_type t)
{
	switch (t) {
	case SEM_LONG: return "long";
	case SEM_STRING: return "string";
	case SEM_STATS: return "stats";
	default: return "unknown";
	}
}

enum sem_type sem_type_of_decl(enum value_type t)
{
	return t == TYPE_LONG ? SEM_LONG : t == TYPE_STRING ? SEM_STRING : SEM_UNKNOWN;
}
