/* Version strings. PACKAGE_VERSION comes from configure. */
#ifndef TAPC_VERSION_H
#define TAPC_VERSION_H

#include "config.h"

#define TAPC_VERSION PACKAGE_VERSION
/* The SystemTap language version tapc follows; systemtap_v in %( %)
 * conditionals compares against it unless --compatible says otherwise. */
#define TAPC_COMPAT_VERSION "4.8"

#endif
