// SPDX-License-Identifier: GPL-2.0
/*
 * tapc.vm test module: a kernel worker oopses while it holds a mutex, and
 * the module's init then waits for that mutex for ever, in an
 * uninterruptible sleep that not even SIGKILL ends.  insmod never
 * returns: the suite checks that tapc-vm gives up on it and says why.
 */
#include <linux/completion.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>

static DEFINE_MUTEX(held);
static DECLARE_COMPLETION(locked);
static int *volatile nowhere;

static void die_holding(struct work_struct *work)
{
	mutex_lock(&held);
	complete(&locked);
	pr_info("tapc_vm_hang: oopsing with the mutex held\n");
	*nowhere = 1;
}

static DECLARE_WORK(worker, die_holding);

static int __init hang_init(void)
{
	schedule_work(&worker);
	wait_for_completion(&locked);
	mutex_lock(&held);	/* never returns */
	mutex_unlock(&held);
	return 0;
}

module_init(hang_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tapc test VM: a module whose load hangs after an oops");
