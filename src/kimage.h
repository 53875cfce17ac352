/* The target kernel's image: where it is, and the vmlinux inside a
 * compressed one.
 *
 * The image is looked for in this order: $TAPC_VMLINUX; for the running
 * kernel, /sys/kernel/btf/vmlinux (BTF only); the ELF vmlinux that
 * tapc-vm extracted from /boot/vmlinuz-R into its cache; the debug
 * package's /usr/lib/debug/boot/vmlinux-R; /boot/vmlinuz-R itself (a
 * compressed image: reading it means decompressing it, which is slower).
 */
#ifndef TAPC_KIMAGE_H
#define TAPC_KIMAGE_H

#include <stdbool.h>
#include <stddef.h>

/* The best image of kernel RELEASE that carries .BTF (malloc'd), or NULL. */
char *kimage_find(const char *release);

/* The copy of the guest's /proc/kallsyms that tapc-vm saves beside the
 * vmlinux it extracted, once a guest of RELEASE has booted (malloc'd), or
 * NULL. */
char *kimage_saved_kallsyms(const char *release);

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

#endif
