/* get_kretprobe_retaddr(): a kretprobe instance's return address (Linux
 * 5.19; before, ri->ret_addr). */
#include <linux/kprobes.h>

static __maybe_unused unsigned long tapconf_test(struct kretprobe_instance *ri)
{
	return get_kretprobe_retaddr(ri);
}
