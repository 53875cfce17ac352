/* The target kernel's image (see kimage.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memmem */
#endif
#include "kimage.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "errbuf.h"
#include "util.h"

/* ---- where the image is */

bool kimage_is_file(const char *path)
{
	struct stat st;

	return path && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool kimage_is_running(const char *release)
{
	struct utsname u;

	return release && uname(&u) == 0 && strcmp(u.release, release) == 0;
}

/* The kernel image an installed package provides for RELEASE. */
char *kimage_find_installed(const char *release)
{
	char *p = xasprintf("/usr/lib/debug/boot/vmlinux-%s", release);

	if (kimage_is_file(p))
		return p;
	free(p);
	p = xasprintf("/boot/vmlinuz-%s", release);
	if (kimage_is_file(p))
		return p;
	free(p);
	return NULL;
}

/* ---- compressed images */

/* The compressors a bzImage's payload may use: the magic that starts the
 * compressed vmlinux, and the program that decompresses it from stdin. */
static const struct {
	const char *magic;
	size_t len;
	const char *argv[5];
} compressors[] = {
	{ "\xfd\x37\x7a\x58\x5a\x00", 6, { "xz", "-dc", "--single-stream", NULL } },
	{ "\x28\xb5\x2f\xfd", 4, { "zstd", "-dcq", NULL } },
	{ "\x1f\x8b\x08\x00", 4, { "gzip", "-dcq", NULL } },
	{ "\x89\x4c\x5a\x4f", 4, { "lzop", "-dcq", NULL } },
	{ "\x42\x5a\x68", 3, { "bzip2", "-dcq", NULL } },
	{ "\x5d\x00\x00\x00", 4, { "xz", "-dc", "--format=lzma", NULL } },
};

/* Run ARGV with stdin PATH from offset OFF and stdout OUT; whether the
 * output is an ELF file (decompressors may complain about the bytes that
 * follow the payload, so their status says little). */
static bool decompress_to(const char *path, off_t off, char *const argv[], int out)
{
	unsigned char head[4];
	pid_t pid;
	int status;

	if (ftruncate(out, 0) < 0)
		return false;
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		int in = open(path, O_RDONLY);
		int null = open("/dev/null", O_WRONLY);

		if (in < 0 || lseek(in, off, SEEK_SET) != off || dup2(in, 0) < 0 ||
		    dup2(out, 1) < 0 || (null >= 0 && dup2(null, 2) < 0) || lseek(out, 0, SEEK_SET) != 0)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return pread(out, head, 4, 0) == 4 && memcmp(head, "\177ELF", 4) == 0;
}

/* A bzImage (/boot/vmlinuz-R): find the compressed vmlinux in it by its
 * compressor's magic, decompress it into an anonymous memory file and
 * return it.  Takes a second or two. */
int kimage_decompress(int fd, const char *path, char *err, size_t errlen)
{
	struct stat st;
	unsigned char *img;
	bool found = false;
	size_t c;
	int out;

	if (fstat(fd, &st) < 0 || st.st_size <= 0 || st.st_size > (256 << 20) ||
	    !(img = malloc((size_t)st.st_size))) {
		errbuf_set(err, errlen, "%s: cannot read the kernel image", path);
		return -1;
	}
	if (pread(fd, img, (size_t)st.st_size, 0) != st.st_size) {
		errbuf_set(err, errlen, "%s: cannot read the kernel image", path);
		free(img);
		return -1;
	}
	/* an anonymous file: nothing in a shared directory to race for */
	out = memfd_create("tapc-vmlinux", MFD_CLOEXEC);
	if (out < 0) {
		errbuf_set(err, errlen, "memfd_create: %s", strerror(errno));
		free(img);
		return -1;
	}
	for (c = 0; !found && c < sizeof(compressors) / sizeof(compressors[0]); c++) {
		unsigned char *at = img, *end = img + st.st_size;
		int tries = 0;

		while (!found && tries < 4 &&
		       (at = memmem(at, (size_t)(end - at), compressors[c].magic, compressors[c].len))) {
			tries++;
			found = decompress_to(path, at - img, (char *const *)compressors[c].argv, out);
			at++;
		}
	}
	free(img);
	if (!found) {
		errbuf_set(err, errlen, "%s: no compressed vmlinux found that a decompressor here can read", path);
		close(out);
		return -1;
	}
	return out;
}

/* A bzImage has "HdrS" at 0x202 (the x86 boot protocol's header). */
bool kimage_is_compressed(int fd)
{
	char sig[4];

	return pread(fd, sig, 4, 0x202) == 4 && memcmp(sig, "HdrS", 4) == 0;
}

/* The compressor whose magic starts the file on FD, or -1. */
static int file_compressor(int fd)
{
	unsigned char head[8];
	ssize_t n = pread(fd, head, sizeof(head), 0);

	for (size_t c = 0; n > 0 && c < sizeof(compressors) / sizeof(compressors[0]); c++)
		if ((size_t)n >= compressors[c].len &&
		    memcmp(head, compressors[c].magic, compressors[c].len) == 0)
			return (int)c;
	return -1;
}

bool kimage_is_compressed_file(int fd)
{
	return file_compressor(fd) >= 0;
}

int kimage_decompress_file(int fd, const char *path, char *err, size_t errlen)
{
	int c = file_compressor(fd);
	int out;

	if (c < 0) {
		errbuf_set(err, errlen, "%s: not a compressed file", path);
		return -1;
	}
	out = memfd_create("tapc-module", MFD_CLOEXEC);
	if (out < 0) {
		errbuf_set(err, errlen, "memfd_create: %s", strerror(errno));
		return -1;
	}
	if (!decompress_to(path, 0, (char *const *)compressors[c].argv, out)) {
		errbuf_set(err, errlen, "%s: cannot decompress it with %s", path,
			   compressors[c].argv[0]);
		close(out);
		return -1;
	}
	return out;
}
