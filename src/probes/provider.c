/* The lists of probe providers and kernel event families (see provider.h). */
#include "probes/provider.h"

static const struct probe_provider *const providers[] = {
	&probe_provider_begin_end,
	&probe_provider_timer,
	&probe_provider_perf,
	&probe_provider_process,
	&probe_provider_kprobe,
	&probe_provider_syscall,
	&probe_provider_trace,
	&probe_provider_procfs,
};

/* Pass 2's kernel event families; each has its provider above. */
const struct point_family *const point_families[] = {
	&point_family_perf,
	&point_family_process,
	&point_family_kprobe,
	&point_family_syscall,
	&point_family_trace,
	&point_family_procfs,
	NULL
};

const struct probe_provider *probe_provider_for(const struct derived_probe *dp)
{
	for (size_t i = 0; i < sizeof(providers) / sizeof(providers[0]); i++)
		if (providers[i]->handles(dp))
			return providers[i];
	return NULL;
}
