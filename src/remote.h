/* --remote=vm: scripts are built for, and will run in, the test VM. */
#ifndef TAPC_REMOTE_H
#define TAPC_REMOTE_H

#include <stdbool.h>

/* The test VM's kernel as `tapc-vm debuginfo` describes it: its release,
 * and the copies of its vmlinux and /proc/kallsyms that tapc-vm keeps
 * (NULL when it has none yet), which it hands over so that tapc needs to
 * know nothing of tapc-vm's cache (debuginfo.h checks them before use). */
struct remote_vm_kernel {
	char *release;
	char *vmlinux;
	char *kallsyms;
};

/* Fill K from `tapc-vm debuginfo`; false after printing why not.  tapc-vm
 * is looked for next to tapc (installed), in the source tree's scripts/
 * (build tree), then on PATH. */
bool remote_vm_kernel(struct remote_vm_kernel *k);
void remote_vm_kernel_free(struct remote_vm_kernel *k);

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

/*
 * The program process PID runs in the test VM's persistent guest, as the
 * guest names it (/proc/PID/exe there): a process id given with
 * --remote=vm (-x PID, process(PID)) names a process of the machine the
 * module runs on, as in SystemTap.  The guest shares the host's root
 * read-only and the caller's directories at the same paths, so the name
 * is the file's on the host too.  Malloc'd, or NULL with *why set
 * (malloc'd): no persistent guest runs (a one-shot guest has no process
 * of the caller's), or no such process.
 */
char *remote_vm_pid_exe(long pid, char **why);

#endif
