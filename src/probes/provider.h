/* Probe providers: one file per probe family.
 *
 * Pass 3 asks the provider of each derived probe how the runtime runs it:
 * the fields of its tap_probes[] entry besides the handler, pp, loc,
 * derivation and locks, which the translator fills in itself.  A family
 * the runtime can run returns true; one whose probes never fire (never)
 * returns false and the translator emits nothing for it.
 *
 * A kernel event family (kprobes, tracepoints ...) is one file here that
 * defines both halves: its struct point_family (pass 2: the probe points
 * it takes, how a point expands, the types of its $target variables; see
 * elaborate.h) and its struct probe_provider (pass 3), and is listed in
 * provider.c.  Its runtime half is a struct tap_family of runtime/linux/.
 */
#ifndef TAPC_PROBES_PROVIDER_H
#define TAPC_PROBES_PROVIDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "elaborate.h"

struct tr;

struct probe_provider {
	const char *family;	/* for messages: "begin/end/error", "timer" */
	bool (*handles)(const struct derived_probe *dp);
	/* Write ".kind = ..., ..." (designated initialisers, each followed
	 * by ", ") for dp's entry, row index of tap_probes[]; false when dp
	 * never runs. */
	bool (*emit_entry)(FILE *out, const struct derived_probe *dp, size_t index);
	/* Optional: file-scope C that dp's entry refers to (for example a
	 * callback with the tracepoint's own signature), written before
	 * tap_probes[] for each probe that runs. */
	void (*emit_support)(FILE *out, const struct derived_probe *dp, size_t index);
	/* Optional: the C for target expression e (pass 2 typed it through
	 * the family's target_type): a long long expression, or a
	 * const char * for a string.  May use the translator's helpers of
	 * translate_int.h (temporaries, error unwinding). */
	char *(*target_c)(struct tr *T, const struct derived_probe *dp, const struct expr *e);
	/* Optional: the assignment e (E_ASSIGN: e->op, e->a a target
	 * expression pass 2 let be written) of the value val (the C of
	 * e->b, already evaluated): emit the store and return the C of
	 * the assignment's value.  NULL: the family's target expressions
	 * cannot be written. */
	char *(*target_assign_c)(struct tr *T, const struct derived_probe *dp,
				 const struct expr *e, const char *val);
};

extern const struct probe_provider probe_provider_begin_end;
extern const struct probe_provider probe_provider_timer;
extern const struct probe_provider probe_provider_perf;
extern const struct point_family point_family_perf;
extern const struct probe_provider probe_provider_process;
extern const struct point_family point_family_process;
extern const struct probe_provider probe_provider_kprobe;
extern const struct point_family point_family_kprobe;
extern const struct probe_provider probe_provider_syscall;
extern const struct point_family point_family_syscall;
extern const struct probe_provider probe_provider_trace;
extern const struct point_family point_family_trace;
extern const struct probe_provider probe_provider_procfs;
extern const struct point_family point_family_procfs;

/* The provider of dp's family, or NULL. */
const struct probe_provider *probe_provider_for(const struct derived_probe *dp);

#endif
