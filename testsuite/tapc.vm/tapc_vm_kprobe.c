// SPDX-License-Identifier: GPL-2.0
/*
 * tapc.vm test module: a kprobe on the getpid() system call that counts
 * the calls made by one process, chosen by writing its pid to the
 * target_pid parameter.  The count is read back from the hits parameter.
 */
#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/sched.h>

static int target_pid = -1;
module_param(target_pid, int, 0644);
MODULE_PARM_DESC(target_pid, "count getpid() calls made by this process");

static atomic_long_t hits = ATOMIC_LONG_INIT(0);

static int hits_get(char *buf, const struct kernel_param *kp)
{
	return sprintf(buf, "%ld\n", atomic_long_read(&hits));
}

static const struct kernel_param_ops hits_ops = { .get = hits_get };
module_param_cb(hits, &hits_ops, NULL, 0444);
MODULE_PARM_DESC(hits, "getpid() calls counted so far");

static char *symbol = "__x64_sys_getpid";
module_param(symbol, charp, 0444);
MODULE_PARM_DESC(symbol, "function to probe");

static int pre(struct kprobe *p, struct pt_regs *regs)
{
	if (current->tgid == READ_ONCE(target_pid))
		atomic_long_inc(&hits);
	return 0;
}

static struct kprobe kp = { .pre_handler = pre };

static int __init kp_init(void)
{
	int err;

	kp.symbol_name = symbol;
	err = register_kprobe(&kp);
	if (err) {
		pr_err("tapc_vm_kprobe: cannot probe %s: %d\n", symbol, err);
		return err;
	}
	pr_info("tapc_vm_kprobe: probing %s at %px\n", symbol, kp.addr);
	return 0;
}

static void __exit kp_exit(void)
{
	unregister_kprobe(&kp);
	pr_info("tapc_vm_kprobe: %ld hits\n", atomic_long_read(&hits));
}

module_init(kp_init);
module_exit(kp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tapc test VM: kprobe that counts getpid() calls");
