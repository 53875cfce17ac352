/* Access paths of target variables: building and freeing (see tvar.h). */
#include "tvar.h"

#include <stdlib.h>

#include "util.h"

struct tvar *tvar_new(enum tvar_base base, unsigned slot, const char *name,
		      const struct srcpos *pos)
{
	struct tvar *tv = xcalloc(1, sizeof(*tv));

	tv->base = base;
	tv->slot = slot;
	tv->name = xstrdup(name);
	tv->pos = *pos;
	tv->type = SEM_LONG;
	return tv;
}

void tvar_push_step(struct tvar_step **steps, size_t *n, struct tvar_step step)
{
	*steps = xrealloc(*steps, (*n + 1) * sizeof(**steps));
	(*steps)[(*n)++] = step;
}

void tvar_add_arg(struct tvar *tv, struct tvar *arg)
{
	tv->args = xrealloc(tv->args, (tv->nargs + 1) * sizeof(*tv->args));
	tv->args[tv->nargs++] = arg;
}

void tvar_free(struct tvar *tv)
{
	if (!tv)
		return;
	for (size_t i = 0; i < tv->nargs; i++)
		tvar_free(tv->args[i]);
	free(tv->args);
	free(tv->steps);
	free(tv->pretty_steps);
	free(tv->text);
	free(tv->name);
	free(tv);
}
