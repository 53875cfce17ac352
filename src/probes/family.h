/* Probe families: one struct probe_family per family, one file each.
 *
 * A family is everything tapc knows about one kind of probe point, both
 * passes together: pass 2 matches probe points against its patterns and
 * asks it to expand a point into concrete ones (globs over symbols or
 * tracepoints, errors with suggestions) and to type its $target
 * expressions; pass 3 asks it for the fields of the probe's tap_probes[]
 * entry and the C of its target expressions.  Each derived probe names
 * its family (dp->family), so no pass ever searches for it.
 *
 * The families are listed once, in families.c; a family's runtime half,
 * if it has one of its own, is a struct tap_family of runtime/linux/
 * (doc/ARCHITECTURE.md lists the steps to add a family).
 */
#ifndef TAPC_PROBES_FAMILY_H
#define TAPC_PROBES_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "elaborate.h"

struct tr;

struct probe_family {
	const char *name;		/* for messages: "kprobe" */
	const struct pattern_row *rows;	/* its points (see elaborate.h) */
	size_t n_rows;
	/* Its probes are checked by pass 2 but never run (never): pass 3
	 * emits nothing for them. */
	bool never_runs;
	/* The runtime may leave its probes unregistered while their
	 * condition is false (armed conditions, translate_arm.c). */
	bool armable;
	/* The family's points are written only by tapsets' aliases
	 * (__syscall(N)?): their "?" is the alias's, and the derived point
	 * (derived_point) does not carry it. */
	bool internal_points;
	/* -p2 prints its probes' derivation as the point they matched,
	 * before derived_point names them, whatever aliases came between
	 * (SystemTap's perf and kernel.data probes:
	 * "perf.type(1).config(0).sample(1000000) <- perf.type(1).config(0)");
	 * print_point may still name the point and the chain. */
	bool chain_is_matched;
	/* SystemTap's probe for all the points one alias derives is one
	 * (a system call's numbers, native and 32-bit, share one tracepoint
	 * probe): -p2 prints such twins once. */
	bool one_probe_per_alias;

	/* ---- pass 2 ---- */

	/*
	 * The concrete points of pp, which matched pattern pat: push
	 * struct family_point * (malloc'd) onto out and return how many (0:
	 * none, e.g. a glob without matches), or return -1 with *err filled.
	 */
	int (*expand)(const struct point_pattern *pat, const struct probe_point *pp,
		      struct vec *out, struct family_error *err);
	/*
	 * The type (SEM_LONG or SEM_STRING) of the target expression e
	 * ($name with its ->field/[index] steps, or $$parms ...) in a probe
	 * of the family; write is true for an assignment to it.  On error
	 * return SEM_UNKNOWN with *err filled.  A family whose values pass 3
	 * reads the same way for all (tvar.h) sets *access to e's access
	 * path (malloc'd); one that writes the C of its targets itself
	 * (target_c) leaves it NULL.  Asked once per expression as read
	 * (sem_target.h).  NULL: the family has none.
	 */
	enum sem_type (*target_type)(const struct derived_probe *dp, const struct expr *e,
				     bool write, struct family_error *err,
				     struct tvar **access);
	/*
	 * Optional, for a family whose targets depend on how they are used
	 * (procfs's $value is only read in a write probe, only stored into
	 * with "=" or ".=" in a read probe): NULL when the target e (typed
	 * by target_type) may be used so, else the error.  op is 0 for a
	 * read, else the token of the assignment or ++/-- storing into e.
	 */
	const char *(*target_use)(const struct derived_probe *dp, const struct expr *e,
				  int op);
	/*
	 * -L: push the target variables dp offers onto out, each a malloc'd
	 * "$name:TYPE" with the C type as SystemTap prints it (for example
	 * "$prev:struct task_struct*"), in SystemTap's order (-L keeps it).
	 * NULL: the family has none.
	 */
	void (*list_targets)(const struct derived_probe *dp, struct vec *out);
	/*
	 * -p2: text printed right after the concrete point: SystemTap's
	 * probe signature comment, such as the name a kprobe resolves to;
	 * malloc'd, or NULL for nothing.  NULL: the family prints none.
	 */
	char *(*print_sig)(const struct derived_probe *dp);
	/*
	 * -p2, for a family SystemTap resolves through DWARF or ELF
	 * (kernel.function, process(...).function, .plt, .mark): such a
	 * probe is printed by the point it is registered as and, for its
	 * whole derivation, by the well-formed point the user's resolved
	 * to (derived_probe.wellformed), whatever aliases came between.
	 * Sets *point to the registered point's components where they are
	 * not dp->loc's (a .label is left out, a marker is the
	 * statement(ADDR) it is placed at), *chain where the derivation is
	 * not dp->wellformed; malloc'd, or left NULL.  The marks and the
	 * condition follow both.  NULL: the point and its alias chain.
	 */
	void (*print_point)(const struct derived_probe *dp, char **point, char **chain);
	/*
	 * The point SystemTap names the derived probe by, in pp() and -p2,
	 * when that is not the matched point (perf adds its default
	 * ".sample(N)"): a new probe_point without condition, or NULL to
	 * keep dp->loc.  -l and -L keep the matched point.  NULL: the
	 * family's points name themselves.
	 */
	struct probe_point *(*derived_point)(const struct derived_probe *dp);
	/*
	 * The point -l, -L, pn() and -p2's derivation name the probe by,
	 * when not the one derived_point gives (SystemTap names a
	 * function(ADDR) probe by where the function it found begins): a
	 * new probe_point without condition, or NULL.  Called with dp->loc
	 * the matched point with what it resolved.
	 */
	struct probe_point *(*listed_point)(const struct derived_probe *dp);
	/*
	 * Where an @cast in dp's body that names no module looks its type
	 * up: SystemTap's DWARF probes read it from what they probe (a
	 * module's name, a user binary's path).  NULL: the kernel, as for
	 * every other probe and for functions.
	 */
	const char *(*cast_module)(const struct derived_probe *dp);
	/*
	 * Whether users of --privilege=stapusr may use the points of pattern
	 * pat (SystemTap's: only those that can be limited to the user's own
	 * processes, and begin, end, error, never and timers).  NULL: none of
	 * the family's points; every family is open to stapsys and stapdev.
	 */
	bool (*unprivileged)(const struct point_pattern *pat);
	/*
	 * Whether dp is a .return probe whose runtime runs an entry half
	 * (struct tap_probe.entry), so that @entry(EXPR) may be used in it.
	 * NULL: none of the family's probes.
	 */
	bool (*saves_entry)(const struct derived_probe *dp);
	/*
	 * The kernel module whose DWARF dp sits in (its name as the kernel
	 * knows it), where @var("name") without a module looks, as
	 * SystemTap's module("M") probes do; NULL: the kernel.  NULL hook:
	 * the family's probes have no DWARF context, where such an @var is
	 * unresolved, as in SystemTap (begin, timer, kernel.trace ...).
	 */
	const char *(*debug_module)(const struct derived_probe *dp);
	/*
	 * Free the payload a concrete point holds (struct family_point's
	 * data, never NULL here) with what it owns.  NULL: the payload is
	 * one malloc'd block, freed with free().
	 */
	void (*free_data)(void *data);

	/* ---- pass 3 ---- */

	/* Write ".kind = ..., ..." (designated initialisers, each followed
	 * by ", ") for dp's entry, row index of tap_probes[]: every field
	 * besides the handler, pp, loc, derivation and locks, which the
	 * translator fills in itself.  Called only for probes that run. */
	void (*emit_entry)(FILE *out, const struct derived_probe *dp, size_t index);
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

/* Component i of pp (a point that matched one of the family's patterns,
 * so it has that many). */
static inline const struct pp_comp *family_comp(const struct probe_point *pp, int i)
{
	return pp->comps.v[i];
}

/* The first component of pp called name, or NULL. */
static inline const struct pp_comp *family_comp_named(const struct probe_point *pp,
						      const char *name)
{
	for (size_t i = 0; i < pp->comps.n; i++) {
		const struct pp_comp *c = pp->comps.v[i];

		if (!strcmp(c->name, name))
			return c;
	}
	return NULL;
}

/* For expand hooks: fill *err (msg malloc'd) and return -1. */
static inline int family_fail(struct family_error *err, const struct srcpos *pos, char *msg)
{
	err->pos = *pos;
	err->msg = msg;
	err->kind = FAMILY_ERR_OTHER;
	return -1;
}

/* The same when the point found nothing: SystemTap's "no match ...". */
static inline int family_no_match(struct family_error *err, const struct srcpos *pos,
				  char *msg)
{
	family_fail(err, pos, msg);
	err->kind = FAMILY_ERR_NO_MATCH;
	return -1;
}

/* Every family, NULL-terminated, in the order pass 2 tries their
 * patterns (which is the order of the probes a point derives). */
extern const struct probe_family *const probe_families[];

/* Pattern i of fam, its rows expanded (see struct pattern_row), or NULL
 * past the last. */
const struct point_pattern *family_pattern(const struct probe_family *fam, size_t i);
size_t family_pattern_count(const struct probe_family *fam);

/* Free a family's payload (its free_data hook, or free()). */
void family_free_data(const struct probe_family *fam, void *data);

/* For the families whose every point is open to --privilege=stapusr. */
bool family_all_unprivileged(const struct point_pattern *pat);

#endif
