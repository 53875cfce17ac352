/* Pass-2 value types: what elaboration infers for every variable,
 * function and expression. */
#ifndef TAPC_TYPES_H
#define TAPC_TYPES_H

#include <stdbool.h>

#include "ast.h"

enum sem_type { SEM_UNKNOWN = 0, SEM_LONG, SEM_STRING, SEM_STATS };

/* "unknown", "long", "string", "stats": SystemTap's spellings. */
const char *sem_type_name(enum sem_type t);

/* The declared type of a function or parameter (":long", ":string"). */
enum sem_type sem_type_of_decl(enum value_type t);

#endif
