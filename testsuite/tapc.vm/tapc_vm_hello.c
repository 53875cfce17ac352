// SPDX-License-Identifier: GPL-2.0
/*
 * tapc.vm test module: says hello in the kernel log and through
 * /proc/tapc_vm_hello, so the suite can see it load, work and unload.
 */
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/utsname.h>

static struct proc_dir_entry *entry;

static int hello_show(struct seq_file *m, void *v)
{
	seq_printf(m, "hello from tapc_vm_hello on %s\n", init_utsname()->release);
	return 0;
}

static int __init hello_init(void)
{
	entry = proc_create_single("tapc_vm_hello", 0444, NULL, hello_show);
	if (!entry)
		return -ENOMEM;
	pr_info("tapc_vm_hello: loaded\n");
	return 0;
}

static void __exit hello_exit(void)
{
	proc_remove(entry);
	pr_info("tapc_vm_hello: unloaded\n");
}

module_init(hello_init);
module_exit(hello_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tapc test VM: hello module");
