/* @perf("NAME"): the current task's value of the perf counter NAME
 * (perf.type(T).config(C)[.process("PATH")].counter("NAME"),
 * src/probes/perf.c).
 *
 * As in SystemTap, only the probes of the DWARF families have it:
 * process("PATH").function/.statement (reading a counter of PATH's or of
 * no program) and kernel.function/module(...) (a counter of no
 * program).  Pass 2 finds the counter there and gives the probe
 * SystemTap's local "__perf_read_NAME" (which -p2 lists); elsewhere the
 * operator passes pass 2 and pass 3 refuses it, as SystemTap's does.
 */
#include "sem_perf.h"

#include <stdlib.h>
#include <string.h>

#include "elab_int.h"
#include "probes/family.h"
#include "probes/perf.h"
#include "probes/uprobe.h"
#include "translate_int.h"
#include "util.h"

extern const struct probe_family probe_family_uprobe, probe_family_kfunc;

bool is_atperf(const struct expr *e)
{
	return e->kind == E_ATOP && e->name && !strcmp(e->name, "@perf") &&
	       e->args.n == 1 && ((const struct expr *)e->args.v[0])->kind == E_STR;
}

static const char *atperf_name(const struct expr *e)
{
	return ((const struct expr *)e->args.v[0])->str;
}

/* Whether dp may read counters; *program: the user program it probes
 * (NULL for the kernel). */
static bool reads_counters(const struct derived_probe *dp, const char **program)
{
	*program = NULL;
	if (!dp)
		return false;
	if (dp->family == &probe_family_uprobe) {
		const struct uprobe_data *ud = dp->fp.data;

		*program = ud ? ud->program : NULL;
		return true;
	}
	return dp->family == &probe_family_kfunc;
}

static int counter_of(const struct program *P, const struct derived_probe *dp,
		      const struct expr *e)
{
	const char *program;

	if (!reads_counters(dp, &program))
		return -1;
	return perf_counter_find(&P->probes, atperf_name(e), program);
}

void sem_perf_resolve(struct elab *E, const struct derived_probe *dp, struct vec *locals,
		      const struct expr *e)
{
	int id = counter_of(E->P, dp, e);
	struct vardecl *v;
	char *name;
	size_t at;

	if (id < 0)
		return;		/* pass 3 refuses it */
	if (id == 0) {
		sem_error(E, &e->pos, "operator '@perf'", "perf counter '%s' not defined",
			  atperf_name(e));
		return;
	}
	if (!locals)
		return;
	name = xasprintf("__perf_read_%s", atperf_name(e));
	/* SystemTap's: set in the probe's prologue, read by the operator;
	 * they come before the other locals, by name (-p2 lists them so) */
	for (at = 0; at < locals->n; at++) {
		const char *other = ((struct vardecl *)locals->v[at])->name;
		int cmp = strcmp(other, name);

		if (!cmp) {
			free(name);
			return;
		}
		if (strncmp(other, "__perf_read_", 12) || cmp > 0)
			break;
	}
	v = var_new(E, name, &e->pos);
	free(name);
	v->type = SEM_LONG;
	v->type_pos = e->pos;
	v->type_declared = true;
	v->arity = 0;
	v->reads = v->writes = 1;
	vec_push(locals, v);
	memmove(&locals->v[at + 1], &locals->v[at], (locals->n - 1 - at) * sizeof(locals->v[0]));
	locals->v[at] = v;
}

char *tr_perf(struct tr *T, const struct program *P, const struct derived_probe *dp,
	      const struct expr *e)
{
	int id = counter_of(P, dp, e);

	if (id <= 0) {
		tr_error(T, &e->pos,
			 "cannot translate general @perf expression: operator '@perf' at %s:%d:%d",
			 e->pos.file ? e->pos.file->name : "<input>", e->pos.line, e->pos.col);
		return xstrdup("0LL");
	}
	return xasprintf("tap_perf_read(c, %d)", id);
}
