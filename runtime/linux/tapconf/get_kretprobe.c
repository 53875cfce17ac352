/* get_kretprobe(): a kretprobe instance's probe (Linux 5.11; before, ri->rp). */
#include <linux/kprobes.h>

static __maybe_unused struct kretprobe *tapconf_test(struct kretprobe_instance *ri)
{
	return get_kretprobe(ri);
}
