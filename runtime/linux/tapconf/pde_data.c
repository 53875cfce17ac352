/* pde_data(): a procfs file's data (Linux 5.17; before, PDE_DATA()). */
#include <linux/fs.h>
#include <linux/proc_fs.h>

static __maybe_unused void *tapconf_test(const struct inode *inode)
{
	return pde_data(inode);
}
