/* --remote=vm: scripts are built for, and will run in, the test VM. */
#ifndef TAPC_REMOTE_H
#define TAPC_REMOTE_H

/* The kernel release the test VM boots, from `tapc-vm release`, or NULL
 * after printing why not. tapc-vm is looked for next to tapc (installed),
 * in the source tree's scripts/ (build tree), then on PATH. */
char *remote_vm_release(void);

/* The tapc-vm program to run (malloc'ed), found as above. */
char *remote_vm_program(void);

/* Whether the persistent guest of $TAPC_VM_STATE (or tapc-vm's default
 * state) runs: `tapc-vm status` exits 0 (it runs) or 3 (it does not).
 * Any other status is an error tapc-vm printed on stderr, such as a state
 * directory that is not the caller's alone: then no guest may be used. */
enum remote_vm_guest {
	REMOTE_VM_NO_GUEST,
	REMOTE_VM_GUEST,
	REMOTE_VM_ERROR,
};

enum remote_vm_guest remote_vm_guest(void);

#endif
