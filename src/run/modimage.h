/* Kernel module images (ELF .ko files) as tapc-run needs them: the name
 * the module was built with, and a copy renamed so that a second instance
 * of the same cached module can be loaded beside the first, as staprun
 * renames stap's. */
#ifndef TAPC_RUN_MODIMAGE_H
#define TAPC_RUN_MODIMAGE_H

#include <stddef.h>

struct modimage {
	char *img;
	size_t size;
};

/* Read the module file open on fd; 0, or -1 with errno set. */
int modimage_read(int fd, struct modimage *m);
void modimage_free(struct modimage *m);

/* "name=" of the .modinfo section (what the kernel calls the module):
 * 0 with name set, -1 if there is none. */
int modimage_name(const struct modimage *m, char *name, size_t size);

/* Rename the module in the image to new_name, which must be as long as
 * its name: in .modinfo and in .gnu.linkonce.this_module (struct module's
 * name).  0, or -1 if either is not found. */
int modimage_rename(struct modimage *m, const char *new_name);

/* The level the module was built for (tapc --privilege): the PRIV_* bit
 * of its .tapc_privilege section, or -1 when it has none or one tapc does
 * not know (such a module needs the most privilege). */
int modimage_privilege(const struct modimage *m);

/* Whether the module declares the parameter name (name_len bytes), as
 * module_param() and friends record in .modinfo: "parmtype=NAME:TYPE". */
int modimage_has_param(const struct modimage *m, const char *name, size_t name_len);

#endif
