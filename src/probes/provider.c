/* The lists of probe providers and kernel event families (see provider.h). */
#include "probes/provider.h"

static const struct probe_provider *const providers[] = {
	&probe_provider_begin_end,
	&probe_provider_timer,
};

/* Pass 2's kernel event families; each has its provider above. */
const struct point_family *const point_families[] = {
	NULL
};

const struct probe_provider *probe_provider_for(const struct derived_probe *dp)
{
	for (size_t i = 0; i < sizeof(providers) / sizeof(providers[0]); i++)
		if (providers[i]->handles(dp))
			return providers[i];
	return NULL;
}
