/* The target kernel's entry in the debuginfo registry (see kinfo.h). */
#include "kinfo.h"

#include <stddef.h>

#include "debuginfo.h"

static struct debuginfo *kernel;

void kinfo_set_kernel(struct debuginfo *k)
{
	kernel = k;
}

static const char *no_kernel(const char **err)
{
	if (err)
		*err = "no target kernel";
	return NULL;
}

const struct btf *kinfo_btf(const char **err)
{
	return kernel ? debuginfo_btf(kernel, err) : (no_kernel(err), NULL);
}

const struct ksyms *kinfo_ksyms(const char **err)
{
	return kernel ? debuginfo_ksyms(kernel, err) : (no_kernel(err), NULL);
}

const struct btf_tracepoints *kinfo_tracepoints(const char **err)
{
	return kernel ? debuginfo_tracepoints(kernel, err) : (no_kernel(err), NULL);
}
