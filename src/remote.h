/* --remote=vm: scripts are built for, and will run in, the test VM. */
#ifndef TAPC_REMOTE_H
#define TAPC_REMOTE_H

/* The kernel release the test VM boots, from `tapc-vm release`, or NULL
 * after printing why not. tapc-vm is looked for next to tapc (installed),
 * in the source tree's scripts/ (build tree), then on PATH. */
char *remote_vm_release(void);

#endif
