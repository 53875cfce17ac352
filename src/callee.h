/* .callee("PAT") and .callees[(N)] probes (kernel, module and process
 * functions): what a derived probe keeps of the calls that lead to its
 * callee, and how the runtime checks them (runtime/linux/callee.c).
 *
 * As SystemTap does, a probe on a callee reached by calls (not inlined
 * into its caller) runs only when the stack holds their return addresses,
 * innermost first from the probed function's caller (from its own frame
 * in a .return probe, where the return address is the pc): a call of the
 * callee from anywhere else does not run it.  -DSTAP_CALLEE_MATCHALL
 * turns the check off.
 */
#ifndef TAPC_CALLEE_H
#define TAPC_CALLEE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct derived_probe;
struct program;
struct tr;

struct callee_callers {
	size_t n;
	uint64_t *addr;		/* the return addresses, innermost first:
				 * link-time ones, or a module's offsets
				 * from modsym[i] */
	char **modsym;		/* a kernel module's: the "MOD:NAME" of a
				 * symbol each address is placed from; else
				 * NULL */
	uint64_t reloc_ref;	/* the kernel's: jiffies_64's link-time
				 * address (tap_kernel_reloc) */
	bool user;		/* a user binary's: relative to the probed
				 * binary's load bias */
	bool at_return;		/* a .return probe */
	bool tail_call;		/* the callee's own call is a tail call: its
				 * caller's frame is gone when it runs */
};

/* N return addresses (copied), innermost first; no modsyms yet. */
struct callee_callers *callee_callers_new(const uint64_t *addr, size_t n, bool user,
					  bool at_return);
void callee_callers_free(struct callee_callers *c);

/* Whether a probe of the program checks user stacks: then the user
 * binaries it probes bring their unwind rows into the module. */
bool callee_needs_ustack(const struct program *p);

/* Pass 3: the module symbols the probes' calls are placed from, into
 * T's tap_modsyms[] (before it is written); then DP's tap_callers (when it has calls to check), before
 * tap_probes[]; and ".callers = ..., " in its entry. */
void callee_add_modsyms(struct tr *T);
void callee_emit_support(struct tr *T, FILE *out, const struct derived_probe *dp, size_t index);
void callee_emit_field(FILE *out, const struct derived_probe *dp, size_t index);

#endif
