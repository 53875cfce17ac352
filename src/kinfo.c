/* The target kernel's symbols, BTF and tracepoints (see kinfo.h). */
#include "kinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <dirent.h>
#include <unistd.h>

#include "btf.h"
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

static bool is_file(const char *path)
{
	struct stat st;

	return path && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_running_kernel(const char *release)
{
	struct utsname u;

	return release && uname(&u) == 0 && strcmp(u.release, release) == 0;
}

/* Whether PATH is ours alone: of TYPE (S_IFDIR, S_IFREG), not a symlink,
 * owned by us and writable by nobody else. */
static bool is_private(const char *path, mode_t type, struct stat *st)
{
	return lstat(path, st) == 0 && (st->st_mode & S_IFMT) == type &&
	       st->st_uid == geteuid() && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/* Whether nobody but root and us can replace what is inside DIR (a real
 * path): every directory from DIR up is owned by root or us, and
 * writable by others only when sticky (as /tmp is). */
static bool safe_parents(const char *dir)
{
	char *p = xstrdup(dir), *slash;
	bool safe = true;

	for (;;) {
		struct stat st;

		if (lstat(p[0] ? p : "/", &st) != 0 ||
		    (st.st_uid != 0 && st.st_uid != geteuid()) ||
		    ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))) {
			safe = false;
			break;
		}
		slash = strrchr(p, '/');
		if (!slash || !p[0])
			break;
		*slash = '\0';
	}
	free(p);
	return safe;
}

/* tapc-vm's cache of boot files, when it is ours alone (as tapc-vm checks
 * it): it may sit in an inherited $HOME (sudo -E), and a planted kallsyms
 * or vmlinux must not be read. */
static char *vm_cache_dir(void)
{
	const char *env = getenv("TAPC_VM_CACHE"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char *dir = env ? xstrdup(env) : xdg ? xasprintf("%s/tapc-vm", xdg) :
		home ? xasprintf("%s/.cache/tapc-vm", home) : NULL;
	char *real = dir ? realpath(dir, NULL) : NULL;
	struct stat st;
	bool ok = real && is_private(dir, S_IFDIR, &st) && safe_parents(real);

	free(dir);
	if (!ok) {
		free(real);
		return NULL;
	}
	return real;
}

/* FILE in tapc-vm's cache of boot files for RELEASE: CACHE/RELEASE-HASH/
 * of a complete (ok) entry holds the extracted vmlinux and, once a guest of
 * that kernel has booted, a copy of its kallsyms.  Entries with other
 * hashes (older tapc-vm versions) may remain: the newest FILE wins.  Only
 * entries and files of our own count. */
static char *vm_cache_file(const char *release, const char *file)
{
	char *dir = vm_cache_dir();
	size_t rlen = strlen(release);
	char *found = NULL;
	time_t found_mtime = 0;
	struct dirent *de;
	DIR *d;

	if (!dir)
		return NULL;
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		char *entry, *ok, *path;
		struct stat st;

		if (strncmp(de->d_name, release, rlen) != 0 || de->d_name[rlen] != '-')
			continue;
		entry = xasprintf("%s/%s", dir, de->d_name);
		ok = xasprintf("%s/ok", entry);
		path = xasprintf("%s/%s", entry, file);
		if (is_private(entry, S_IFDIR, &st) && is_private(ok, S_IFREG, &st) &&
		    is_private(path, S_IFREG, &st) && (!found || st.st_mtime > found_mtime)) {
			free(found);
			found = path;
			found_mtime = st.st_mtime;
			path = NULL;
		}
		free(entry);
		free(ok);
		free(path);
	}
	if (d)
		closedir(d);
	free(dir);
	return found;
}

/* The best kernel image of the target that carries .BTF, or NULL. */
static char *find_image(const char *release)
{
	const char *env = getenv("TAPC_VMLINUX");
	char *p;

	if (env && *env)
		return xstrdup(env);
	if (is_running_kernel(release) && is_file("/sys/kernel/btf/vmlinux"))
		return xstrdup("/sys/kernel/btf/vmlinux");
	p = vm_cache_file(release, "vmlinux");
	if (p)
		return p;
	p = xasprintf("/usr/lib/debug/boot/vmlinux-%s", release);
	if (is_file(p))
		return p;
	free(p);
	p = xasprintf("/boot/vmlinuz-%s", release);
	if (is_file(p))
		return p;
	free(p);
	return NULL;
}

const struct btf *kinfo_btf(const char **err)
{
	const char *release = K.target ? K.target->release : NULL;

	if (!K.btf_tried) {
		K.btf_tried = true;
		K.image = release ? find_image(release) : NULL;
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
		btf = is_running_kernel(release) ? NULL : kinfo_btf(NULL);
		image = K.image && strcmp(K.image, "/sys/kernel/btf/vmlinux") ? K.image : NULL;
		saved = env && *env ? xstrdup(env) :
			release ? vm_cache_file(release, "kallsyms") : NULL;
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
