/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event of a syscall.* / syscall_any hit (tap_context.event): shared by
 * the family (syscalls.c) and the tapset's accessors (tapset_syscalls.c).
 */
#ifndef TAPC_LINUX_SYSCALL_H
#define TAPC_LINUX_SYSCALL_H

struct tap_syscall_event {
	long nr;		/* the system call's number (x86-64 table) */
	long ret;		/* its return value (return probes only) */
	int is_return;		/* 1 in a .return probe */
};

#endif /* TAPC_LINUX_SYSCALL_H */
