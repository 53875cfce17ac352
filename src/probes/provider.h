/* Probe providers: one file per probe family.
 *
 * Pass 3 asks the provider of each derived probe how the runtime runs it:
 * the fields of its tap_probes[] entry besides the handler, pp, loc,
 * derivation and locks, which the translator fills in itself.  A family
 * the runtime can run returns true; one whose probes never fire (never)
 * returns false and the translator emits nothing for it.  Kernel probe
 * families (kprobes, tracepoints ...) become more files here.
 */
#ifndef TAPC_PROBES_PROVIDER_H
#define TAPC_PROBES_PROVIDER_H

#include <stdbool.h>
#include <stdio.h>

#include "elaborate.h"

struct probe_provider {
	const char *family;	/* for messages: "begin/end/error", "timer" */
	bool (*handles)(const struct derived_probe *dp);
	/* Write ".kind = ..., ..." (designated initialisers, each followed
	 * by ", ") for dp's entry; false when dp never runs. */
	bool (*emit_entry)(FILE *out, const struct derived_probe *dp);
};

extern const struct probe_provider probe_provider_begin_end;
extern const struct probe_provider probe_provider_timer;

/* The provider of dp's family, or NULL. */
const struct probe_provider *probe_provider_for(const struct derived_probe *dp);

#endif
