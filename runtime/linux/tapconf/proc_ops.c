/* struct proc_ops: procfs files' own operations (Linux 5.6; before, a
 * struct file_operations). */
#include <linux/proc_fs.h>

static __maybe_unused const struct proc_ops tapconf_ops = {
	.proc_read = NULL,
};
