// SPDX-License-Identifier: GPL-2.0
/*
 * The sub-calls of the i386 multiplexers, socketcall(call, args) and
 * ipc(call, first, second, third, ptr, fifth): a 32-bit program's
 * socket and SysV IPC calls, which SystemTap's aliases of those calls
 * (syscall.socket ..., syscall.semop ..., syscall.compat_sys_msgctl ...)
 * also cover.  syscalls.c runs, after the probes on the multiplexer's
 * own number, those on compat number TAP_SC_SOCKETCALL + SYS_x or
 * TAP_SC_IPC + x, with the sub-call's arguments in the order of the call
 * itself (the accessors of tapset_syscalls.c read them from the event).
 */
#include <linux/kernel.h>
#include <linux/compat.h>
#include <linux/ipc.h>
#include <linux/uaccess.h>
#include "tap_internal.h"
#include "tap_syscall.h"

/* socketcall's sub-calls and how many arguments each takes (the
 * kernel's own table, net/socket.c). */
static const unsigned char tap_sockcall_nargs[] = {
	0, 3, 3, 3, 2, 3, 3, 3, 4, 4, 4, 6, 6, 2, 5, 5, 3, 3, 4, 5, 4,
};

static bool tap_mux_socketcall(const struct pt_regs *regs, struct tap_syscall_event *ev)
{
	u32 call = (u32)regs->bx;

	if (call == 0 || call >= ARRAY_SIZE(tap_sockcall_nargs))
		return false;
	ev->subcall = TAP_SC_SOCKETCALL + call;
	return ev->is_return ||
	       !copy_from_user_nofault(ev->subargs, compat_ptr((u32)regs->cx),
				       tap_sockcall_nargs[call] * sizeof(u32));
}

/* ipc(call, first, second, third, ptr, fifth): each sub-call's arguments
 * in its own order (ipc/syscall.c); msgrcv's version 0 passes msgp and
 * msgtyp in a structure at ptr. */
static bool tap_mux_ipc(const struct pt_regs *regs, struct tap_syscall_event *ev)
{
	u32 call = (u32)regs->bx & 0xffff, version = (u32)regs->bx >> 16;
	u32 first = regs->cx, second = regs->dx, third = regs->si;
	u32 ptr = regs->di, fifth = regs->bp;
	u32 *a = ev->subargs;
	struct { u32 msgp; s32 msgtyp; } kludge;

	switch (call) {
	case SEMOP:	a[0] = first; a[1] = ptr; a[2] = second; break;
	case SEMGET:	a[0] = first; a[1] = second; a[2] = third; break;
	case SEMCTL:	a[0] = first; a[1] = second; a[2] = third; a[3] = ptr; break;
	case SEMTIMEDOP: a[0] = first; a[1] = ptr; a[2] = second; a[3] = fifth; break;
	case MSGSND:	a[0] = first; a[1] = ptr; a[2] = second; a[3] = third; break;
	case MSGRCV:
		a[0] = first; a[2] = second; a[4] = third;
		if (version == 0 && !ev->is_return) {
			if (copy_from_user_nofault(&kludge, compat_ptr(ptr), sizeof(kludge)))
				return false;
			a[1] = kludge.msgp;
			a[3] = kludge.msgtyp;
		} else {
			a[1] = ptr;
			a[3] = fifth;
		}
		break;
	case MSGGET:	a[0] = first; a[1] = second; break;
	case MSGCTL:	a[0] = first; a[1] = second; a[2] = ptr; break;
	case SHMAT:	a[0] = first; a[1] = ptr; a[2] = second; break;
	case SHMDT:	a[0] = ptr; break;
	case SHMGET:	a[0] = first; a[1] = second; a[2] = third; break;
	case SHMCTL:	a[0] = first; a[1] = second; a[2] = ptr; break;
	default:
		return false;
	}
	ev->subcall = TAP_SC_IPC + call;
	return true;
}

/* A 32-bit multiplexer call's sub-call: sets ev->subcall (its table
 * number past the compat base) and ev->subargs; false if there is none,
 * or its arguments cannot be read without faulting. */
bool tap_sc_subcall(const struct pt_regs *regs, struct tap_syscall_event *ev)
{
	if (!ev->compat)
		return false;
	if (ev->nr == TAP_SC_SOCKETCALL_NR)
		return tap_mux_socketcall(regs, ev);
	if (ev->nr == TAP_SC_IPC_NR)
		return tap_mux_ipc(regs, ev);
	return false;
}
