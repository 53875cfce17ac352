/* The target kernel's symbols, BTF and tracepoints (see kinfo.h). */
#include "kinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf.h"
#include "tpcatalog.h"
#include "kimage.h"
#include "ksyms.h"
#include "paths.h"
#include "target.h"
#include "util.h"

static struct {
	const struct target *target;
	bool btf_tried, ksyms_tried, tps_tried;
	struct btf *btf;
	struct ksyms *ksyms;
	struct btf_tracepoints *tps;
	char *image;			/* the kernel image BTF came from */
	char btf_err[512], ksyms_err[512], tps_err[512];
} K;

void kinfo_set_target(const struct target *t)
{
	K.target = t;
}

const struct btf *kinfo_btf(const char **err)
{
	const char *release = K.target ? K.target->release : NULL;

	if (!K.btf_tried) {
		K.btf_tried = true;
		K.image = release ? kimage_find(release) : NULL;
		if (!K.image)
			snprintf(K.btf_err, sizeof(K.btf_err),
				 "no kernel image with BTF found for kernel %s "
				 "(looked for /boot/vmlinuz-%s; set TAPC_VMLINUX)",
				 release ? release : "?", release ? release : "?");
		else
			K.btf = btf_load_file(K.image, K.btf_err, sizeof(K.btf_err));
	}
	if (!K.btf && err)
		*err = K.btf_err;
	return K.btf;
}

const struct ksyms *kinfo_ksyms(const char **err)
{
	const char *release = K.target ? K.target->release : NULL;

	if (!K.ksyms_tried) {
		const char *env = getenv("TAPC_KALLSYMS");
		const struct btf *btf;
		const char *image;
		char *saved;

		K.ksyms_tried = true;
		btf = kimage_is_running(release) ? NULL : kinfo_btf(NULL);
		image = K.image && strcmp(K.image, "/sys/kernel/btf/vmlinux") ? K.image : NULL;
		saved = env && *env ? xstrdup(env) :
			release ? kimage_saved_kallsyms(release) : NULL;
		K.ksyms = ksyms_load(release ? release : "", saved, image, btf, K.ksyms_err,
				     sizeof(K.ksyms_err));
		free(saved);
		if (!K.ksyms && !btf)
			snprintf(K.ksyms_err, sizeof(K.ksyms_err), "%s", K.btf_err);
	}
	if (!K.ksyms && err)
		*err = K.ksyms_err;
	return K.ksyms;
}

/* The headers tree that names tracepoint systems: Debian splits a
 * release's headers into -ARCH and -common trees. */
static char *headers_dir(void)
{
	const char *release = K.target ? K.target->release : NULL;
	const char *dash = release ? strrchr(release, '-') : NULL;
	char *p;

	if (dash) {
		p = xasprintf("/usr/src/linux-headers-%.*s-common", (int)(dash - release),
			      release);
		if (path_is_dir(p))
			return p;
		free(p);
	}
	if (K.target && K.target->build_dir)
		return xstrdup(K.target->build_dir);
	return NULL;
}

const struct btf_tracepoints *kinfo_tracepoints(const char **err)
{
	if (!K.tps_tried) {
		const char *berr = NULL;
		const struct btf *btf = kinfo_btf(&berr);

		K.tps_tried = true;
		if (btf) {
			char *hdr = headers_dir();

			K.tps = btf_tracepoints_load(btf, hdr, K.tps_err, sizeof(K.tps_err));
			free(hdr);
		} else {
			snprintf(K.tps_err, sizeof(K.tps_err), "%s", berr);
		}
	}
	if (!K.tps && err)
		*err = K.tps_err;
	return K.tps;
}

void kinfo_free(void)
{
	btf_tracepoints_free(K.tps);
	ksyms_free(K.ksyms);
	btf_free(K.btf);
	free(K.image);
	memset(&K, 0, sizeof(K));
}
