/* .callee probes' calls to check (callee.h): kept by pass 2, written
 * as the runtime's struct tap_callers by pass 3. */
#include "callee.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "elaborate.h"
#include "translate_int.h"
#include "util.h"

struct callee_callers *callee_callers_new(const uint64_t *addr, size_t n, bool user,
					  bool at_return)
{
	struct callee_callers *c = xcalloc(1, sizeof(*c));

	c->n = n;
	c->addr = xmalloc((n ? n : 1) * sizeof(*c->addr));
	if (n)
		memcpy(c->addr, addr, n * sizeof(*addr));
	c->user = user;
	c->at_return = at_return;
	return c;
}

void callee_callers_free(struct callee_callers *c)
{
	if (!c)
		return;
	for (size_t i = 0; c->modsym && i < c->n; i++)
		free(c->modsym[i]);
	free(c->modsym);
	free(c->addr);
	free(c);
}

bool callee_needs_ustack(const struct program *p)
{
	for (size_t i = 0; i < p->probes.n; i++) {
		const struct derived_probe *dp = p->probes.v[i];

		if (dp->runs && dp->fp.callers && dp->fp.callers->user)
			return true;
	}
	return false;
}

void callee_add_modsyms(struct tr *T)
{
	for (size_t i = 0; i < T->p->probes.n; i++) {
		const struct derived_probe *dp = T->p->probes.v[i];
		const struct callee_callers *c = dp->fp.callers;

		for (size_t j = 0; dp->runs && c && c->modsym && j < c->n; j++)
			tr_modsym_index(T, c->modsym[j]);
	}
}

void callee_emit_support(struct tr *T, FILE *out, const struct derived_probe *dp, size_t index)
{
	const struct callee_callers *c = dp->fp.callers;

	if (!c)
		return;
	fprintf(out, "static const unsigned long tap_callers_%zu_addr[] = {", index);
	for (size_t i = 0; i < c->n; i++)
		fprintf(out, " %#" PRIx64 "UL,", c->addr[i]);
	fputs(" 0 };\n", out);
	if (c->modsym) {
		fprintf(out, "static const unsigned int tap_callers_%zu_modsym[] = {", index);
		for (size_t i = 0; i < c->n; i++)
			fprintf(out, " %u,", tr_modsym_index(T, c->modsym[i]));
		fputs(" 0 };\n", out);
	}
	fprintf(out, "static const struct tap_callers tap_callers_%zu = { .n = %zu, "
		".user = %d, .at_return = %d, .reloc_ref = %#" PRIx64 "UL, "
		".addr = tap_callers_%zu_addr, ", index, c->n, c->user, c->at_return,
		c->reloc_ref, index);
	if (c->modsym)
		fprintf(out, ".modsym = tap_callers_%zu_modsym };\n", index);
	else
		fputs(".modsym = NULL };\n", out);
}

void callee_emit_field(FILE *out, const struct derived_probe *dp, size_t index)
{
	if (dp->fp.callers)
		fprintf(out, ".callers = &tap_callers_%zu, ", index);
}
