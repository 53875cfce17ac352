// SPDX-License-Identifier: GPL-2.0
/*
 * tapc.vm test module: dereferences a NULL pointer when loaded, so the
 * suite can check that the guest kernel log check catches the oops.
 */
#include <linux/module.h>

static int *volatile nowhere;

static int __init oops_init(void)
{
	pr_info("tapc_vm_oops: about to dereference NULL\n");
	return *nowhere;
}

module_init(oops_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tapc test VM: a module that oopses on load");
