/* The target kernel's entry in the debuginfo registry (see kinfo.h). */
#include "kinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf.h"
#include "debuginfo.h"
#include "kimage.h"
#include "modbtf.h"
#include "modtp.h"
#include "tpcatalog.h"
#include "util.h"

static struct debuginfo *kernel;
static struct debuginfo_registry *registry;

/* The modules' BTF asked for so far, or why each cannot be had. */
struct module_btf {
	char *name;
	struct btf *btf;
	char err[512];
	struct btf_tracepoints *tps;	/* its own events, once tried */
	bool tps_tried;
	char tps_err[512];
};
static struct modtp_index *module_events;	/* once read */
static struct module_btf **modules;	/* each its own allocation: *err
					 * points into one */
static size_t nmodules;

static void forget_modules(void)
{
	for (size_t i = 0; i < nmodules; i++) {
		free(modules[i]->name);
		btf_tracepoints_free(modules[i]->tps);
		btf_free(modules[i]->btf);
		free(modules[i]);
	}
	free(modules);
	modules = NULL;
	nmodules = 0;
	modtp_free(module_events);
	module_events = NULL;
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

/* The entry of module name, its BTF loaded (or why not) when new. */
static struct module_btf *module_entry(const char *name)
{
	struct module_btf *m;

	for (size_t i = 0; i < nmodules; i++)
		if (!strcmp(modules[i]->name, name))
			return modules[i];
	m = xcalloc(1, sizeof(*m));
	m->name = xstrdup(name);
	modules = xrealloc(modules, (nmodules + 1) * sizeof(*modules));
	modules[nmodules++] = m;
	load_module(m);
	return m;
}

const struct btf *kinfo_module_btf(const char *name, const char **err)
{
	struct module_btf *m = module_entry(name);

	if (!m->btf && err)
		*err = m->err;
	return m->btf;
}

/* A module's own events: the types past the kernel's in its split BTF. */
static void load_module_tracepoints(struct module_btf *m)
{
	const char *why = NULL;
	const struct btf *base = kinfo_btf(NULL);
	const struct btf_tracepoints *kernel_tps = kinfo_tracepoints(&why);

	m->tps_tried = true;
	if (!m->btf || !base || !kernel_tps) {
		snprintf(m->tps_err, sizeof(m->tps_err), "%s", m->btf ? why : m->err);
		return;
	}
	m->tps = btf_tracepoints_load_module(m->btf, btf_type_count(base) + 1, kernel_tps,
					     m->tps_err, sizeof(m->tps_err));
}

const struct btf_tracepoints *kinfo_module_tracepoints(const char *name, const char **err)
{
	struct module_btf *m = module_entry(name);

	if (!m->tps_tried)
		load_module_tracepoints(m);
	if (!m->tps && err)
		*err = m->tps_err;
	return m->tps;
}

const struct modtp_index *kinfo_module_events(void)
{
	if (!module_events && kernel && registry) {
		size_t n;
		const char *const *paths = debuginfo_module_paths(registry, &n);
		const char *const *names = debuginfo_module_names(registry);
		char *dir = xasprintf("/lib/modules/%s", debuginfo_name(kernel));

		module_events = modtp_scan(dir, names, paths, names ? n : 0);
		free(dir);
	}
	return module_events;
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

const struct kmodsyms *kinfo_module_symbols(const char *name, const char **err)
{
	struct debuginfo *m = registry ? debuginfo_module(registry, name, err) : NULL;

	if (!registry)
		no_kernel(err);
	return m ? debuginfo_module_symbols(m, err) : NULL;
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
