/* The target kernel's entry in the debuginfo registry (see kinfo.h). */
#include "kinfo.h"

#include <stddef.h>

#include "debuginfo.h"

static struct debuginfo *kernel;
static struct debuginfo_registry *registry;

void kinfo_set_kernel(struct debuginfo *k)
{
	kernel = k;
}

void kinfo_set_registry(struct debuginfo_registry *r)
{
	registry = r;
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

const struct dwindex *kinfo_dwarf(const char **err)
{
	return kernel ? debuginfo_dwarf(kernel, err) : (no_kernel(err), NULL);
}

const struct dwindex *kinfo_module_dwarf(const char *name, const char **err)
{
	struct debuginfo *m = registry ? debuginfo_module(registry, name, err) : NULL;

	if (!registry)
		no_kernel(err);
	return m ? debuginfo_dwarf(m, err) : NULL;
}

const char *const *kinfo_module_names(void)
{
	return registry ? debuginfo_module_names(registry) : NULL;
}
