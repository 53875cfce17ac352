/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event of a syscall.* / syscall_any hit (tap_context.event): shared by
 * the family (syscalls.c) and the tapset's accessors (tapset_syscalls.c).
 */
#ifndef TAPC_LINUX_SYSCALL_H
#define TAPC_LINUX_SYSCALL_H

struct tap_syscall_event {
	/* The raw_syscalls tracepoint's arguments, first: target variables
	 * read them as a tracepoint's ($regs and $id, or $regs and $ret). */
	unsigned long tp_args[2];
	long nr;		/* the system call's number (x86-64 table, or
				 * i386's when compat) */
	long ret;		/* its return value (return probes only) */
	int is_return;		/* 1 in a .return probe */
	int compat;		/* 1: a 32-bit (ia32) call; its arguments are
				 * in bx cx dx si di bp */
	int subcall;		/* in the probes of a 32-bit multiplexer's
				 * sub-call: its table number, and its
				 * arguments in the call's own order */
	u32 subargs[6];
};

/* A 32-bit socketcall(SYS_x, args) also runs the probes on compat number
 * TAP_SC_SOCKETCALL + SYS_x (syscall_name()'s numbering of the sub-calls),
 * ipc(x, ...) those on TAP_SC_IPC + x (syscall_mux.c). */
#define TAP_SC_SOCKETCALL 500
#define TAP_SC_SOCKETCALL_NR 102
#define TAP_SC_IPC 600
#define TAP_SC_IPC_NR 117

bool tap_sc_subcall(const struct pt_regs *regs, struct tap_syscall_event *ev);

/* SystemTap's flag decoders (_stp_lookup_str, _stp_lookup_or_str): a
 * {value, name} list ending in a NULL name, shared by tapset_syscalls.c
 * and tapset_sockcall.c. */
struct tap_flag {
	unsigned long val;
	const char *name;
};

#define TAP_FLAG(f) { (f), #f }

/* The name of @val in @list, else @val in hex, appended to @out. */
void tap_flag_lookup(const struct tap_flag *list, unsigned long val, char *out);
/* The names of @val's bits joined by '|', unknown bits in hex ("0x0" for
 * 0 unless the list names it), appended to @out. */
void tap_flag_or(const struct tap_flag *list, unsigned long val, char *out);
/* The same, unknown values in signed decimal when @decimal (SystemTap's
 * lookups with base 10). */
void tap_flag_lookup_base(const struct tap_flag *list, unsigned long val,
			  bool decimal, char *out);
void tap_flag_or_base(const struct tap_flag *list, unsigned long val,
		      bool decimal, char *out);
/* One byte as string_quoted() escapes it into @dst (up to 5 bytes, not
 * NUL-terminated); returns its length. */
size_t tap_escape(char *dst, unsigned char ch);

#endif /* TAPC_LINUX_SYSCALL_H */
