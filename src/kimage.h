/* The target kernel's image: where an installed package put it, and the
 * vmlinux inside a compressed one.  Which image is read, among these and
 * the files the user names or another tool hands over, is debuginfo.h's
 * choice.
 */
#ifndef TAPC_KIMAGE_H
#define TAPC_KIMAGE_H

#include <stdbool.h>
#include <stddef.h>

/* The image of kernel RELEASE an installed package provides (malloc'd),
 * or NULL: the debug package's /usr/lib/debug/boot/vmlinux-R, else
 * /boot/vmlinuz-R (compressed: reading it means decompressing it). */
char *kimage_find_installed(const char *release);

/* Whether PATH is a regular file (symlinks followed). */
bool kimage_is_file(const char *path);

/* Whether RELEASE is the kernel this machine runs. */
bool kimage_is_running(const char *release);

/* Whether the file on FD is a compressed x86 kernel image (bzImage). */
bool kimage_is_compressed(int fd);

/* The vmlinux inside the compressed image on FD (named PATH in messages):
 * its payload is found by its compressor's magic and decompressed with
 * the xz, zstd, gzip, lzop or bzip2 program into an unlinked temporary
 * file, which takes seconds.  Returns that file's descriptor, open for
 * reading, or -1 with a message in ERR. */
int kimage_decompress(int fd, const char *path, char *err, size_t errlen);

/* Whether the file on FD starts with the magic of a compressor above (a
 * module's .ko.xz, .ko.zst or .ko.gz). */
bool kimage_is_compressed_file(int fd);

/* The whole compressed file on FD (named PATH in messages), decompressed
 * as kimage_decompress() does into an anonymous file, which must be an
 * ELF file (a module): its descriptor, or -1 with a message in ERR. */
int kimage_decompress_file(int fd, const char *path, char *err, size_t errlen);

#endif
