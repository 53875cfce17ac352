/* The target kernel's entry in the debuginfo registry (see kinfo.h). */
#include "kinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf.h"
#include "debuginfo.h"
#include "kimage.h"
#include "modbtf.h"
#include "util.h"

static struct debuginfo *kernel;
static struct debuginfo_registry *registry;

/* The modules' BTF asked for so far, or why each cannot be had. */
struct module_btf {
	char *name;
	struct btf *btf;
	char err[512];
};
static struct module_btf **modules;	/* each its own allocation: *err
					 * points into one */
static size_t nmodules;

static void forget_modules(void)
{
	for (size_t i = 0; i < nmodules; i++) {
		free(modules[i]->name);
		btf_free(modules[i]->btf);
		free(modules[i]);
	}
	free(modules);
	modules = NULL;
	nmodules = 0;
}

void kinfo_set_kernel(struct debuginfo *k)
{
	if (k != kernel)
		forget_modules();
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

static void load_module(struct module_btf *m)
{
	const char *why = NULL;
	const struct btf *base = kinfo_btf(&why);
	const char *release;

	if (!base) {
		snprintf(m->err, sizeof(m->err), "%s", why);
		return;
	}
	release = debuginfo_name(kernel);
	m->btf = modbtf_load(release, kimage_is_running(release), m->name, base, m->err,
			     sizeof(m->err));
}

const struct btf *kinfo_module_btf(const char *name, const char **err)
{
	struct module_btf *m = NULL;

	for (size_t i = 0; i < nmodules && !m; i++)
		if (!strcmp(modules[i]->name, name))
			m = modules[i];
	if (!m) {
		m = xcalloc(1, sizeof(*m));
		m->name = xstrdup(name);
		modules = xrealloc(modules, (nmodules + 1) * sizeof(*modules));
		modules[nmodules++] = m;
		load_module(m);
	}
	if (!m->btf && err)
		*err = m->err;
	return m->btf;
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

const char *kinfo_module_name(const char *spec, const char **err)
{
	struct debuginfo *m = registry ? debuginfo_module(registry, spec, err) : NULL;

	if (!registry)
		no_kernel(err);
	return m ? debuginfo_name(m) : NULL;
}

const char *const *kinfo_module_names(void)
{
	return registry ? debuginfo_module_names(registry) : NULL;
}

const char *kinfo_build_dir(void)
{
	return kernel ? debuginfo_build_dir(kernel) : NULL;
}
