/* struct module's core_layout (text_size, size) (before Linux 6.4; after,
 * the mem[] array of module_memory). */
#include <linux/module.h>

static __maybe_unused unsigned int tapconf_test(struct module *m)
{
	return m->core_layout.size - m->core_layout.text_size;
}
