// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel event families of the runtime.  Each lives in its own file
 * and registers only the probes of tap_probes[] of its kind.
 */
#include "tap_internal.h"

const struct tap_family *const tap_families[] = {
	NULL
};
