/* The 128-bit content hash of the caches (see hash128.h). */
#include "hash128.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void hash_init(struct hash128 *h)
{
	h->a = 0xcbf29ce484222325ULL;		/* FNV-1a offset basis */
	h->b = 0x84222325cbf29ce4ULL;		/* a second, different lane */
}

void hash_add(struct hash128 *h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h->a = (h->a ^ p[i]) * 0x100000001b3ULL;
		h->b = (h->b ^ p[i]) * 0x100000001b3ULL;
		h->b ^= h->b >> 29;
	}
}

void hash_add_str(struct hash128 *h, const char *s)
{
	hash_add(h, s, strlen(s) + 1);
}

void hash_hex(const struct hash128 *h, char out[33])
{
	snprintf(out, 33, "%016llx%016llx", (unsigned long long)h->a,
		 (unsigned long long)h->b);
}

bool hash_fd(struct hash128 *h, int fd)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		hash_add(h, buf, (size_t)n);
	return n == 0;
}

/* Hash a file's contents; false when it cannot be read. */
bool hash_file(struct hash128 *h, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = hash_fd(h, fd);
	close(fd);
	return ok;
}
