/* DWARF locations -> where a walk starts (see dwloc.h).
 *
 * The expression picked for scope->pc is evaluated symbolically on a
 * small stack whose entries are a constant, a register's value plus a
 * constant, or a static (link-time) address plus a constant; a variable
 * in pieces (DW_OP_piece) is each piece evaluated so (a piece computed
 * at run time too), copied side by side by the runtime.  What only the running kernel knows (a memory read,
 * arithmetic on two registers, a shift of one, a typed conversion) turns
 * the entry into a value computed at run time: single assignments
 * (struct tvar_dwop) that pass 3 prints as C.  An entry value
 * (DW_OP_entry_value) is the register itself at the function's entry;
 * elsewhere, as SystemTap does, it is the value a companion kprobe (in a
 * user binary, uprobe) on the function's entry saved for the task
 * (TVAR_DW_ENTRY).  Whatever is left
 * is refused: SystemTap's "not accessible" error names the operation,
 * in SystemTap's words where it refuses it too (bit pieces: "unhandled
 * DW_OP operation"; branches: "conditional branches not supported").
 * DW_OP_GNU_parameter_ref, which SystemTap resolves by unwinding to the
 * caller and taking its call site's DW_AT_call_value, is resolved at the
 * function's entry (where the return address picks the call site and the
 * caller's frame is whole: its frame base comes from its CFI at the
 * call), in the kernel and in user binaries alike; away from the entry it
 * is that value as the companion probe on the entry computed and saved
 * it (TVAR_DW_ENTRY with an expression).
 */
#include "dwloc.h"

#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dwfentry.h"
#include "util.h"

/* DWARF's x86-64 numbering: 0-15 the general registers, 16 the return
 * address column (the runtime maps each to its pt_regs field), then
 * 17-32 xmm0-15, which hold a user function's floating-point values
 * (the runtime reads the task's; the kernel keeps none there). */
#define DW_X86_64_NREGS 17
#define DW_X86_64_XMM0 17
#define DW_X86_64_XMM15 32
#define STACK_MAX 16
/* Nesting of frame base -> CFA -> ... evaluations. */
#define MAX_NEST 4

/* Values computed at run time one location may take. */
#define DWOPS_MAX 64

enum elem_kind { E_CONST, E_REG, E_STATIC, E_NODE };

struct elem {
	enum elem_kind kind;
	unsigned reg;		/* E_REG */
	unsigned node;		/* E_NODE: the value number (ev->nodes) */
	uint64_t val;		/* the constant, or what is added */
};

struct eval {
	const struct dwarf_scope *scope;
	Dwarf_Attribute *attr;	/* the location's attribute (entry values) */
	struct elem stack[STACK_MAX];
	int n;
	bool is_value;		/* DW_OP_stack_value, a register, a constant */
	char *msg;		/* why not, malloc'd */
	bool msg_final;		/* msg is the whole message, not a reason */
	int nest;
	struct tvar_dwop *nodes;	/* values computed at run time */
	size_t nnodes;
};

/* The operations tapc cannot lower, by name (others by number). */
static const char *op_name(unsigned atom)
{
	static const struct {
		unsigned atom;
		const char *name;
	} names[] = {
		{ DW_OP_deref, "DW_OP_deref" }, { DW_OP_deref_size, "DW_OP_deref_size" },
		{ DW_OP_piece, "DW_OP_piece" }, { DW_OP_bit_piece, "DW_OP_bit_piece" },
		{ DW_OP_implicit_value, "DW_OP_implicit_value" },
		{ DW_OP_implicit_pointer, "DW_OP_implicit_pointer" },
		{ DW_OP_GNU_implicit_pointer, "DW_OP_GNU_implicit_pointer" },
		{ DW_OP_entry_value, "DW_OP_entry_value" },
		{ DW_OP_GNU_entry_value, "DW_OP_GNU_entry_value" },
		{ DW_OP_GNU_parameter_ref, "DW_OP_GNU_parameter_ref" },
		{ DW_OP_fbreg, "DW_OP_fbreg" }, { DW_OP_call_frame_cfa, "DW_OP_call_frame_cfa" },
		{ DW_OP_convert, "DW_OP_convert" }, { DW_OP_GNU_convert, "DW_OP_GNU_convert" },
		{ DW_OP_regval_type, "DW_OP_regval_type" },
		{ DW_OP_GNU_regval_type, "DW_OP_GNU_regval_type" },
		{ DW_OP_mul, "DW_OP_mul" }, { DW_OP_and, "DW_OP_and" }, { DW_OP_neg, "DW_OP_neg" },
		{ DW_OP_shl, "DW_OP_shl" }, { DW_OP_shr, "DW_OP_shr" }, { DW_OP_shra, "DW_OP_shra" },
		{ DW_OP_or, "DW_OP_or" }, { DW_OP_xor, "DW_OP_xor" }, { DW_OP_not, "DW_OP_not" },
		{ DW_OP_dup, "DW_OP_dup" }, { DW_OP_swap, "DW_OP_swap" },
		{ DW_OP_bra, "DW_OP_bra" }, { DW_OP_skip, "DW_OP_skip" },
	};
	static char buf[32];

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (names[i].atom == atom)
			return names[i].name;
	snprintf(buf, sizeof(buf), "DW_OP %#x", atom);
	return buf;
}

static bool refuse_plain(struct eval *ev, const char *reason)
{
	if (!ev->msg)
		ev->msg = xstrdup(reason);
	return false;
}

/* Why the location cannot be read: reason, with "%s" for op's name. */
static bool refuse(struct eval *ev, const char *reason, unsigned atom)
{
	if (!ev->msg)
		ev->msg = xasprintf(reason, op_name(atom));
	return false;
}

static bool push(struct eval *ev, struct elem e)
{
	if (ev->n >= STACK_MAX)
		return refuse_plain(ev, "location expression too deep");
	ev->stack[ev->n++] = e;
	return true;
}

static bool push_const(struct eval *ev, uint64_t v)
{
	return push(ev, (struct elem){ .kind = E_CONST, .val = v });
}

/* Register reg can be read where the probe hits. */
static bool readable_reg(const struct eval *ev, unsigned reg)
{
	return reg < DW_X86_64_NREGS ||
	       (ev->scope->user && reg >= DW_X86_64_XMM0 && reg <= DW_X86_64_XMM15);
}

static bool push_reg(struct eval *ev, unsigned reg, uint64_t off)
{
	if (!readable_reg(ev, reg))
		return refuse_plain(ev, "a register that is not one of pt_regs");
	return push(ev, (struct elem){ .kind = E_REG, .reg = reg, .val = off });
}

/* ---- values computed at run time */

/* A new value number for d, or false when there are too many. */
static bool add_node(struct eval *ev, struct tvar_dwop d, unsigned *idx)
{
	if (ev->nnodes >= DWOPS_MAX)
		return refuse_plain(ev, "location expression too long");
	ev->nodes = xrealloc(ev->nodes, (ev->nnodes + 1) * sizeof(*ev->nodes));
	ev->nodes[ev->nnodes] = d;
	*idx = (unsigned)ev->nnodes++;
	return true;
}

static bool is_module_scope(const struct eval *ev)
{
	return !ev->scope->user &&
	       strcmp(ev->scope->module ? ev->scope->module : "kernel", "kernel") != 0;
}

static bool module_holder(struct eval *ev, uint64_t addr, char **modsym, uint64_t *off);

/* A module's static address as a value: its symbol where the module is
 * loaded plus the offset into it. */
static bool module_static_node(struct eval *ev, uint64_t addr, unsigned *idx)
{
	char *modsym;
	uint64_t off;
	struct tvar_dwop d = { .kind = TVAR_DW_MODSYM };

	if (!module_holder(ev, addr, &modsym, &off))
		return false;
	d.sym = dwloc_intern(modsym);
	d.val = off;
	free(modsym);
	return add_node(ev, d, idx);
}

/* The value number holding e (added if e is symbolic). */
static bool materialize(struct eval *ev, struct elem e, unsigned *idx)
{
	unsigned off;

	switch (e.kind) {
	case E_CONST:
		return add_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_CONST, .val = e.val }, idx);
	case E_REG:
		return add_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_REG, .reg = e.reg,
							.val = e.val }, idx);
	case E_STATIC:
		/* a module's statics are found through its symbols */
		if (is_module_scope(ev))
			return module_static_node(ev, e.val, idx);
		return add_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_STATIC, .val = e.val }, idx);
	case E_NODE:
		if (!e.val) {
			*idx = e.node;
			return true;
		}
		if (!add_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_CONST, .val = e.val }, &off))
			return false;
		return add_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_BINARY, .op = TVAR_OP_ADD,
							.a = e.node, .b = off }, idx);
	}
	return false;
}

static bool push_node(struct eval *ev, struct tvar_dwop d)
{
	unsigned idx;

	return add_node(ev, d, &idx) &&
	       push(ev, (struct elem){ .kind = E_NODE, .node = idx });
}

/* DW_OP_deref, DW_OP_deref_size N: the memory at the top's value. */
static bool deref(struct eval *ev, unsigned atom, uint64_t size)
{
	unsigned a;

	if (!ev->n)
		return refuse(ev, "malformed location expression at %s", atom);
	if (size < 1 || size > 8)
		return refuse(ev, "%s of more than 8 bytes", atom);
	if (!materialize(ev, ev->stack[--ev->n], &a))
		return false;
	return push_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_DEREF, .a = a,
						  .size = (unsigned)size });
}

/* The size and signedness of the base type DW_OP_convert and the other
 * typed operations name (0: the generic type, 8 bytes unsigned). */
static bool typed(struct eval *ev, const Dwarf_Op *op, Dwarf_Word off, unsigned *size,
		  bool *is_signed)
{
	Dwarf_Die type;
	Dwarf_Attribute at;
	Dwarf_Word enc = 0, bytes = 0;

	*size = 8;
	*is_signed = false;
	if (!off)
		return true;
	if (dwarf_getlocation_die(ev->attr, op, &type) != 0 ||
	    dwarf_tag(&type) != DW_TAG_base_type ||
	    !dwarf_attr(&type, DW_AT_byte_size, &at) || dwarf_formudata(&at, &bytes) != 0 ||
	    !dwarf_attr(&type, DW_AT_encoding, &at) || dwarf_formudata(&at, &enc) != 0)
		return refuse(ev, "%s to a type that is not a base type", op->atom);
	if (bytes < 1 || bytes > 8)
		return refuse(ev, "%s to a type wider than 8 bytes", op->atom);
	*size = (unsigned)bytes;
	*is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
	return true;
}

/* The top converted to size bytes (a typed stack's value). */
static bool convert_top(struct eval *ev, unsigned size, bool is_signed)
{
	unsigned a;

	if (!ev->n)
		return refuse_plain(ev, "malformed location expression at a conversion");
	if (size >= 8)
		return true;
	if (ev->stack[ev->n - 1].kind == E_CONST) {
		uint64_t v = ev->stack[ev->n - 1].val, m = (1ULL << (size * 8)) - 1;

		v &= m;
		if (is_signed && (v >> (size * 8 - 1)))
			v |= ~m;
		ev->stack[ev->n - 1].val = v;
		return true;
	}
	if (!materialize(ev, ev->stack[--ev->n], &a))
		return false;
	return push_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_CONVERT, .a = a, .size = size,
						  .is_signed = is_signed });
}

/* DW_OP_convert, DW_OP_regval_type, DW_OP_deref_type. */
static bool typed_op(struct eval *ev, const Dwarf_Op *op)
{
	unsigned size;
	bool is_signed;

	switch (op->atom) {
	case DW_OP_convert: case DW_OP_GNU_convert:
		return typed(ev, op, op->number, &size, &is_signed) &&
		       convert_top(ev, size, is_signed);
	case DW_OP_regval_type: case DW_OP_GNU_regval_type:
		if (!readable_reg(ev, (unsigned)op->number))
			return refuse_plain(ev, "a register that is not one of pt_regs");
		return typed(ev, op, op->number2, &size, &is_signed) &&
		       push(ev, (struct elem){ .kind = E_REG, .reg = (unsigned)op->number }) &&
		       convert_top(ev, size, is_signed);
	default:	/* DW_OP_deref_type, DW_OP_GNU_deref_type */
		return typed(ev, op, op->number2, &size, &is_signed) &&
		       deref(ev, op->atom, op->number) && convert_top(ev, size, is_signed);
	}
}

/* DW_OP_dup, _drop, _over, _pick, _swap, _rot: the stack itself. */
static bool stack_op(struct eval *ev, const Dwarf_Op *op)
{
	struct elem *s = ev->stack, t;
	int n = ev->n;

	switch (op->atom) {
	case DW_OP_dup:
		return n >= 1 ? push(ev, s[n - 1]) : refuse(ev, "malformed location expression at %s",
							    op->atom);
	case DW_OP_drop:
		if (n < 1)
			return refuse(ev, "malformed location expression at %s", op->atom);
		ev->n--;
		return true;
	case DW_OP_over:
		return n >= 2 ? push(ev, s[n - 2]) : refuse(ev, "malformed location expression at %s",
							    op->atom);
	case DW_OP_pick:
		return op->number < (uint64_t)n ? push(ev, s[n - 1 - op->number]) :
		       refuse(ev, "malformed location expression at %s", op->atom);
	case DW_OP_swap:
		if (n < 2)
			return refuse(ev, "malformed location expression at %s", op->atom);
		t = s[n - 1], s[n - 1] = s[n - 2], s[n - 2] = t;
		return true;
	default:	/* DW_OP_rot: the top goes third */
		if (n < 3)
			return refuse(ev, "malformed location expression at %s", op->atom);
		t = s[n - 1], s[n - 1] = s[n - 2], s[n - 2] = s[n - 3], s[n - 3] = t;
		return true;
	}
}

static bool eval_ops(struct eval *ev, const Dwarf_Op *ops, size_t n);

/* The CFA rule at pc in cfi, evaluated onto the stack. */
static bool push_cfa_from(struct eval *ev, Dwarf_CFI *cfi)
{
	Dwarf_Frame *frame = NULL;
	Dwarf_Op *ops = NULL;
	size_t nops = 0;
	bool ok = false;

	if (!cfi || dwarf_cfi_addrframe(cfi, ev->scope->pc, &frame) != 0)
		return false;
	if (dwarf_frame_cfa(frame, &ops, &nops) == 0 && nops > 0)
		ok = eval_ops(ev, ops, nops);
	free(frame);
	return ok;
}

/* The CFA at scope->pc from the CFI: .debug_frame (the kernel's), else
 * .eh_frame of the DWARF's file, else (a user binary with separate
 * debuginfo) .eh_frame of the binary itself. */
static bool push_cfa(struct eval *ev)
{
	Dwarf *dbg = dwarf_cu_getdwarf(((Dwarf_Die *)&ev->scope->cu)->cu);
	Elf *elf = dwarf_getelf(dbg);
	const struct dwarf_scope *s = ev->scope;
	bool ok = push_cfa_from(ev, dwarf_getcfi(dbg));

	if (!ok && !ev->msg && elf) {
		Dwarf_CFI *eh = dwarf_getcfi_elf(elf);

		ok = push_cfa_from(ev, eh);
		if (eh)
			dwarf_cfi_end(eh);
	}
	if (!ok && !ev->msg && s->binary_cfi)
		ok = push_cfa_from(ev, s->binary_cfi(s->file_offset_ctx));
	if (!ok && !ev->msg)
		ev->msg = xasprintf("no call frame information at pc %#" PRIx64,
				    (uint64_t)ev->scope->pc);
	return ok;
}

/* The frame base of the function the scope is in (an inline instance's
 * is that of the function it was inlined into). */
static bool push_frame_base(struct eval *ev)
{
	Dwarf_Die *scopes = NULL;
	int n = dwarf_getscopes_die((Dwarf_Die *)&ev->scope->func, &scopes);
	bool ok = false, found = false, was_value;

	for (int i = 0; i < n && !found; i++) {
		Dwarf_Attribute fb;
		Dwarf_Op *ops;
		size_t nops;

		if (dwarf_tag(&scopes[i]) != DW_TAG_subprogram)
			continue;
		found = true;
		if (!dwarf_attr_integrate(&scopes[i], DW_AT_frame_base, &fb) ||
		    dwarf_getlocation_addr(&fb, ev->scope->pc, &ops, &nops, 1) != 1 || !nops)
			break;
		/* a register as frame base ("DW_OP_reg6") is its value: that
		 * makes the frame base, not the variable, a value */
		was_value = ev->is_value;
		ok = eval_ops(ev, ops, nops);
		ev->is_value = was_value;
	}
	free(scopes);
	if (!ok && !ev->msg)
		ev->msg = xstrdup("no frame base at this address");
	return ok;
}

/* The entry pc of the out-of-line function whose code holds scope->pc
 * (for an inline instance, the function it was inlined into): where the
 * registers still hold what the caller passed. */
static bool frame_function_entry(const struct eval *ev, Dwarf_Addr *entry)
{
	Dwarf_Die *func = (Dwarf_Die *)&ev->scope->func, *scopes = NULL;
	bool ok = false;
	int n;

	if (dwarf_tag(func) == DW_TAG_subprogram)
		return dwfentry_function_entry(func, entry);
	n = dwarf_getscopes_die(func, &scopes);
	for (int i = 0; i < n; i++) {
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
			ok = dwfentry_function_entry(&scopes[i], entry);
			break;
		}
	}
	free(scopes);
	return ok;
}

/* Where the kernel registers a kprobe at the function entry ENTRY: the
 * symbol ("NAME", or "MOD:NAME" in a module) and offset, as the probes
 * of kernel.function are placed (the family's symbol_at; a module's function
 * whose name is not unique from a neighbour, dwloc_anchor). */
static bool entry_symbol(struct eval *ev, Dwarf_Addr entry, const char **sym, uint64_t *off)
{
	Dwarf *dbg = dwarf_cu_getdwarf(((Dwarf_Die *)&ev->scope->cu)->cu);
	const char *name = NULL;
	unsigned long o = 0;
	char *full;

	if (ev->scope->symbol_at)
		name = ev->scope->symbol_at(ev->scope->ix, entry, &o);
	if (!name)
		name = dwloc_anchor(dbg, entry, &o);
	if (!name)
		return refuse_plain(ev, "no symbol to place the probe saving an entry value at");
	full = is_module_scope(ev) ? xasprintf("%s:%s", ev->scope->module, name) : xstrdup(name);
	*sym = dwloc_intern(full);
	*off = o;
	free(full);
	return true;
}

/* Where the companion uprobe at the function entry ENTRY of a user
 * binary goes: the binary's path and the entry's offset in it, as the
 * uprobe family places its probes (inode and offset). */
static bool user_entry_site(struct eval *ev, const Dwarf_Op *op, Dwarf_Addr entry,
			    const char **path, uint64_t *off)
{
	const struct dwarf_scope *s = ev->scope;

	if (!s->file_offset || !s->module)
		return refuse(ev, "%s away from the function's entry in a user-space probe",
			      op->atom);
	if (!s->file_offset(s->file_offset_ctx, entry, off))
		return refuse_plain(ev, "no loaded segment holds the function's entry, where "
				    "an entry value would be saved");
	*path = dwloc_intern(s->module);
	return true;
}

/* DW_OP_entry_value(DW_OP_regN) away from the entry: the register as a
 * companion probe on the function's entry (a kprobe, or in a user
 * binary a uprobe) saved it for the task, which is how SystemTap reads
 * it (its operand evaluated there, kept per thread). */
static bool saved_entry_value(struct eval *ev, const Dwarf_Op *op, const Dwarf_Op *ops,
			      size_t n, Dwarf_Addr entry)
{
	struct tvar_dwop d = { .kind = TVAR_DW_ENTRY, .user = ev->scope->user };

	if (n == 1 && ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31)
		d.reg = ops[0].atom - DW_OP_reg0;
	else if (n == 1 && ops[0].atom == DW_OP_regx)
		d.reg = (unsigned)ops[0].number;
	else
		return refuse(ev, "%s of a value other than a register, away from the "
			      "function's entry", op->atom);
	if (!readable_reg(ev, d.reg))
		return refuse_plain(ev, "a register that is not one of pt_regs");
	if (d.user ? !user_entry_site(ev, op, entry, &d.sym, &d.val)
		   : !entry_symbol(ev, entry, &d.sym, &d.val))
		return false;
	return push_node(ev, d);
}

/* DW_OP_entry_value(EXPR): at the entry of the function the registers
 * and memory still hold what the caller passed, so EXPR's value now is
 * the entry value (of a register location, DW_OP_regN, the register's);
 * elsewhere it is what was saved then. */
static bool push_entry_value(struct eval *ev, const Dwarf_Op *op)
{
	Dwarf_Attribute block;
	Dwarf_Op *ops;
	size_t n;
	Dwarf_Addr entry;
	bool was_value = ev->is_value, ok;

	if (dwarf_getlocation_attr(ev->attr, op, &block) != 0 ||
	    dwarf_getlocation(&block, &ops, &n) != 0 || n < 1)
		return refuse(ev, "%s of an expression libdw cannot read", op->atom);
	if (!frame_function_entry(ev, &entry))
		return refuse(ev, "%s in a function without an entry address", op->atom);
	if (entry != ev->scope->pc)
		return saved_entry_value(ev, op, ops, n, entry);
	if (n == 1 && ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31)
		return push_reg(ev, ops[0].atom - DW_OP_reg0, 0);
	if (n == 1 && ops[0].atom == DW_OP_regx)
		return push_reg(ev, (unsigned)ops[0].number, 0);
	ok = eval_ops(ev, ops, n);
	ev->is_value = was_value;
	return ok;
}

/* ---- DW_OP_GNU_parameter_ref */

#ifndef DW_AT_call_parameter
#define DW_AT_call_parameter 0x80
#endif

/* A tail call (a jump) leaves no return address of its own: the
 * function returns to its caller's caller, so such a call site is never
 * the one found at the entry. */
bool dwloc_tail_call(Dwarf_Die *site)
{
	Dwarf_Attribute a;
	bool flag = false;

	if (dwarf_attr(site, DW_AT_call_tail_call, &a) || dwarf_attr(site, DW_AT_GNU_tail_call, &a))
		dwarf_formflag(&a, &flag);
	return flag;
}

/* One call site passing the parameter: the address the call returns to,
 * and the DWARF expression of the value it passes. */
struct call_site {
	Dwarf_Addr return_pc;
	Dwarf_Attribute value;
	bool tail;		/* a tail call: never the one returned to */
	Dwarf_Die caller;	/* the subprogram making the call */
	bool has_caller;
};

/* The call sites under DIE (a compile unit; CALLER the subprogram DIE is
 * in, or NULL) that give a value for the parameter whose DIE is at
 * offset PARAM, appended to *sites. */
static void find_call_sites(Dwarf_Die *die, Dwarf_Die *caller, Dwarf_Off param,
			    struct call_site **sites, size_t *n)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Attribute a;
		Dwarf_Die origin;
		struct call_site site;

		if (tag == DW_TAG_call_site_parameter || tag == DW_TAG_GNU_call_site_parameter) {
			bool named = dwarf_attr(&child, DW_AT_call_parameter, &a) ||
				     dwarf_attr(&child, DW_AT_abstract_origin, &a);

			site.tail = dwloc_tail_call(die);
			site.has_caller = caller != NULL;
			if (caller)
				site.caller = *caller;
			if (!named || !dwarf_formref_die(&a, &origin) ||
			    dwarf_dieoffset(&origin) != param ||
			    !(dwarf_attr(&child, DW_AT_call_value, &site.value) ||
			      dwarf_attr(&child, DW_AT_GNU_call_site_value, &site.value)) ||
			    !(dwarf_attr(die, DW_AT_call_return_pc, &a) ||
			      dwarf_attr(die, DW_AT_low_pc, &a)) ||
			    dwarf_formaddr(&a, &site.return_pc) != 0)
				continue;
			*sites = xrealloc(*sites, (*n + 1) * sizeof(**sites));
			(*sites)[(*n)++] = site;
			continue;
		}
		find_call_sites(&child, tag == DW_TAG_subprogram ? &child : caller, param, sites, n);
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* Where the caller stood at the call of SITE: its own function, and
 * the call instruction (the byte before the return address), whose CFI
 * row gives the caller's CFA and so its frame base. */
static bool caller_scope(struct eval *ev, const struct call_site *site,
			 struct dwarf_scope *at_call)
{
	if (!site->has_caller)
		return refuse_plain(ev, "a call site value on the frame base of no function");
	*at_call = *ev->scope;
	at_call->func = site->caller;
	at_call->pc = site->return_pc - 1;
	return true;
}

/* What one call site passes, as value number *idx: its expression
 * evaluated at the function's entry, where every register still holds
 * what it held at the call, but the stack pointer, 8 bytes lower (the
 * return address); the caller's frame base (DW_OP_fbreg) and CFA are
 * its CFI's at the call over those registers.  Its memory reads happen
 * only when MATCHED (value number: the return address is this site's),
 * so that another site's registers are never dereferenced.  The
 * caller's own entry values and parameter references are not known
 * there: refused. */
static bool call_site_value(struct eval *ev, struct call_site *site, unsigned matched,
			    unsigned *idx)
{
	Dwarf_Op *ops;
	size_t n, first = ev->nnodes;
	Dwarf_Attribute *outer = ev->attr;
	const struct dwarf_scope *scope = ev->scope;
	struct dwarf_scope at_call;
	bool ok, frame = false;

	if (dwarf_getlocation(&site->value, &ops, &n) != 0 || n < 1)
		return refuse_plain(ev, "a call site value libdw cannot read");
	for (size_t i = 0; i < n; i++) {
		if (ops[i].atom == DW_OP_entry_value || ops[i].atom == DW_OP_GNU_entry_value ||
		    ops[i].atom == DW_OP_GNU_parameter_ref)
			return refuse(ev, "a call site value computed with %s (the caller's)",
				      ops[i].atom);
		frame |= ops[i].atom == DW_OP_fbreg || ops[i].atom == DW_OP_call_frame_cfa;
	}
	if (frame && !caller_scope(ev, site, &at_call))
		return false;
	ev->attr = &site->value;
	ev->n = 0;
	if (frame)
		ev->scope = &at_call;
	ok = eval_ops(ev, ops, n) && ev->n >= 1 && materialize(ev, ev->stack[ev->n - 1], idx);
	ev->scope = scope;
	ev->attr = outer;
	if (!ok)
		return ev->msg ? false : refuse_plain(ev, "an empty call site value");
	for (size_t i = first; i < ev->nnodes; i++) {
		if (ev->nodes[i].kind == TVAR_DW_REG && ev->nodes[i].reg == 7)
			ev->nodes[i].val += 8;	/* the caller's %rsp */
		if (ev->nodes[i].kind == TVAR_DW_DEREF && !ev->nodes[i].guard)
			ev->nodes[i].guard = matched + 1;
	}
	return true;
}

/* The values of DW_OP_GNU_parameter_ref at the function's entry, the
 * last one (*idx) the parameter: the sum over the call sites of (return
 * address == the site's) * the site's value, and "unknown callsite" when
 * no site matched (TVAR_DW_CALLSITE). */
static bool parameter_ref_nodes(struct eval *ev, struct call_site *sites, size_t nsites,
				unsigned *idx)
{
	unsigned node, ra, sum = 0, any;
	bool ok = true;

	if (!add_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_REG, .reg = 7 }, &node) ||
	    !add_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_DEREF, .a = node, .size = 8 }, &ra) ||
	    !add_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_CONST }, &sum))
		return false;
	any = sum;	/* with tail calls only: "unknown callsite" when it runs */
	for (size_t i = 0, used = 0; ok && i < nsites; i++) {
		unsigned pc, eq, value, term;

		if (sites[i].tail)
			continue;
		ok = materialize(ev, (struct elem){ .kind = E_STATIC, .val = sites[i].return_pc },
				 &pc) &&
		     add_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_BINARY, .op = TVAR_OP_EQ,
						      .a = ra, .b = pc }, &eq) &&
		     call_site_value(ev, &sites[i], eq, &value) &&
		     add_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_BINARY, .op = TVAR_OP_MUL,
						      .a = eq, .b = value }, &term);
		if (ok && used++ > 0)
			ok = add_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_BINARY,
							      .op = TVAR_OP_ADD, .a = sum, .b = term },
				      &sum) &&
			     add_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_BINARY,
							      .op = TVAR_OP_OR, .a = any, .b = eq },
				      &any);
		else if (ok) {
			sum = term;
			any = eq;
		}
	}
	return ok && add_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_CALLSITE, .a = sum,
						      .b = any }, idx);
}

/* The expression computed at the entry ENTRY by a companion probe: a
 * static address X there is the entry's own (register 16 of the entry
 * expression, where the function is loaded) plus X - ENTRY, which holds
 * in a user binary and in the kernel alike (a module's statics are its
 * symbols, TVAR_DW_MODSYM). */
static void entry_relative(struct tvar_dwop *ops, size_t n, Dwarf_Addr entry)
{
	for (size_t i = 0; i < n; i++)
		if (ops[i].kind == TVAR_DW_STATIC)
			ops[i] = (struct tvar_dwop){ .kind = TVAR_DW_REG, .reg = 16,
						     .val = ops[i].val - entry };
}

/* Away from the entry: the parameter as the companion probe on the
 * function's entry ENTRY computed it for the task (SystemTap unwinds to
 * the caller instead; at the entry the caller's frame is still whole). */
static bool saved_parameter_ref(struct eval *ev, const Dwarf_Op *op, struct call_site *sites,
				size_t nsites, Dwarf_Addr entry, unsigned *value)
{
	struct tvar_dwop *outer = ev->nodes, d = { .kind = TVAR_DW_ENTRY,
						   .user = ev->scope->user };
	size_t outer_n = ev->nnodes;
	unsigned idx;
	bool ok;

	ev->nodes = NULL;
	ev->nnodes = 0;
	ok = parameter_ref_nodes(ev, sites, nsites, &idx);
	if (ok) {
		entry_relative(ev->nodes, ev->nnodes, entry);
		d.expr = dwloc_intern_ops(ev->nodes, ev->nnodes);
		d.nexpr = (unsigned)ev->nnodes;
	}
	free(ev->nodes);
	ev->nodes = outer;
	ev->nnodes = outer_n;
	if (!ok)
		return false;
	if (d.user ? !user_entry_site(ev, op, entry, &d.sym, &d.val)
		   : !entry_symbol(ev, entry, &d.sym, &d.val))
		return false;
	return add_node(ev, d, value);
}

/* DW_OP_GNU_parameter_ref: a parameter a clone of the function no longer
 * receives, whose value each call site states (DW_AT_call_value).  As in
 * SystemTap, the call site is the one the function returns to; that
 * return address is read at the function's entry (the top of the stack),
 * and each call site's value is evaluated there; away from the entry it
 * is what was computed there. */
static bool push_parameter_ref(struct eval *ev, const Dwarf_Op *op)
{
	struct elem saved[STACK_MAX];
	int saved_n = ev->n;
	bool was_value = ev->is_value, ok;
	struct call_site *sites = NULL;
	size_t nsites = 0;
	Dwarf_Die param, cu;
	Dwarf_Addr entry;
	unsigned value;

	if (dwarf_getlocation_die(ev->attr, op, &param) != 0)
		return refuse(ev, "%s to a DIE libdw cannot read", op->atom);
	if (!frame_function_entry(ev, &entry))
		return refuse(ev, "%s in a function without an entry address", op->atom);
	cu = ev->scope->cu;
	find_call_sites(&cu, NULL, dwarf_dieoffset(&param), &sites, &nsites);
	if (!nsites)	/* SystemTap's words */
		return refuse(ev, "no DW_TAG_GNU_call_sites found (%s)", op->atom);
	memcpy(saved, ev->stack, sizeof(saved));
	if (entry != ev->scope->pc)
		ok = saved_parameter_ref(ev, op, sites, nsites, entry, &value);
	else
		ok = parameter_ref_nodes(ev, sites, nsites, &value);
	free(sites);
	memcpy(ev->stack, saved, sizeof(saved));
	ev->n = saved_n;
	ev->is_value = was_value;
	if (!ok)
		return false;
	return push(ev, (struct elem){ .kind = E_NODE, .node = value });
}

/* a OP b on DWARF's generic type (64 bits; division, modulo, right
 * arithmetic shift and comparisons signed); false for a division by 0. */
static bool fold(unsigned atom, uint64_t a, uint64_t b, uint64_t *r)
{
	int64_t sa = (int64_t)a, sb = (int64_t)b;

	switch (atom) {
	case DW_OP_plus: *r = a + b; return true;
	case DW_OP_minus: *r = a - b; return true;
	case DW_OP_mul: *r = a * b; return true;
	case DW_OP_and: *r = a & b; return true;
	case DW_OP_or: *r = a | b; return true;
	case DW_OP_xor: *r = a ^ b; return true;
	case DW_OP_shl: *r = b >= 64 ? 0 : a << b; return true;
	case DW_OP_shr: *r = b >= 64 ? 0 : a >> b; return true;
	case DW_OP_shra: *r = (uint64_t)(sa >> (b >= 63 ? 63 : b)); return true;
	case DW_OP_eq: *r = a == b; return true;
	case DW_OP_ne: *r = a != b; return true;
	case DW_OP_lt: *r = sa < sb; return true;
	case DW_OP_gt: *r = sa > sb; return true;
	case DW_OP_le: *r = sa <= sb; return true;
	case DW_OP_ge: *r = sa >= sb; return true;
	case DW_OP_div:
		if (!b)
			return false;
		*r = sb == -1 ? -a : (uint64_t)(sa / sb);
		return true;
	default:	/* DW_OP_mod */
		if (!b)
			return false;
		*r = sb == -1 ? 0 : (uint64_t)(sa % sb);
		return true;
	}
}

/* The run-time operation of a DWARF arithmetic atom. */
static enum tvar_dwarith arith_of(unsigned atom)
{
	static const struct {
		unsigned atom;
		enum tvar_dwarith op;
	} map[] = {
		{ DW_OP_plus, TVAR_OP_ADD }, { DW_OP_minus, TVAR_OP_SUB }, { DW_OP_mul, TVAR_OP_MUL },
		{ DW_OP_div, TVAR_OP_DIV }, { DW_OP_mod, TVAR_OP_MOD }, { DW_OP_and, TVAR_OP_AND },
		{ DW_OP_or, TVAR_OP_OR }, { DW_OP_xor, TVAR_OP_XOR }, { DW_OP_shl, TVAR_OP_SHL },
		{ DW_OP_shr, TVAR_OP_SHR }, { DW_OP_shra, TVAR_OP_SHRA }, { DW_OP_eq, TVAR_OP_EQ },
		{ DW_OP_ne, TVAR_OP_NE }, { DW_OP_lt, TVAR_OP_LT }, { DW_OP_gt, TVAR_OP_GT },
		{ DW_OP_le, TVAR_OP_LE }, { DW_OP_ge, TVAR_OP_GE }, { DW_OP_neg, TVAR_OP_NEG },
		{ DW_OP_not, TVAR_OP_NOT }, { DW_OP_abs, TVAR_OP_ABS },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(*map); i++)
		if (map[i].atom == atom)
			return map[i].op;
	/* binop() and unop() are reached only through the atoms above. */
	abort();
}

static bool binop(struct eval *ev, unsigned atom)
{
	struct elem b, a;
	unsigned x, y;

	if (ev->n < 2)
		return refuse(ev, "malformed location expression at %s", atom);
	b = ev->stack[--ev->n];
	a = ev->stack[--ev->n];
	if (atom == DW_OP_plus && a.kind == E_CONST && b.kind != E_CONST) {
		struct elem t = a;

		a = b;
		b = t;
	}
	/* a place plus or minus a constant stays that place */
	if (b.kind == E_CONST && (atom == DW_OP_plus || atom == DW_OP_minus)) {
		a.val = atom == DW_OP_plus ? a.val + b.val : a.val - b.val;
		return push(ev, a);
	}
	if (a.kind == E_CONST && b.kind == E_CONST) {
		if (!fold(atom, a.val, b.val, &a.val))
			return refuse(ev, "a division by zero (%s)", atom);
		return push(ev, a);
	}
	if (!materialize(ev, a, &x) || !materialize(ev, b, &y))
		return false;
	return push_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_BINARY, .op = arith_of(atom),
						  .a = x, .b = y });
}

/* DW_OP_neg, DW_OP_not, DW_OP_abs. */
static bool unop(struct eval *ev, unsigned atom)
{
	struct elem *top;
	unsigned a;

	if (!ev->n)
		return refuse(ev, "malformed location expression at %s", atom);
	top = &ev->stack[ev->n - 1];
	if (top->kind == E_CONST) {
		int64_t v = (int64_t)top->val;

		top->val = atom == DW_OP_neg ? -top->val : atom == DW_OP_not ? ~top->val :
			   v < 0 ? -top->val : top->val;
		return true;
	}
	if (!materialize(ev, ev->stack[--ev->n], &a))
		return false;
	return push_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_UNARY, .op = arith_of(atom),
						  .a = a });
}

/* A constant-pushing operation, or false when op is none. */
static bool const_op(const Dwarf_Op *op, uint64_t *v)
{
	if (op->atom >= DW_OP_lit0 && op->atom <= DW_OP_lit31) {
		*v = op->atom - DW_OP_lit0;
		return true;
	}
	switch (op->atom) {
	case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u: case DW_OP_const8u:
	case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s: case DW_OP_const8s:
	case DW_OP_constu: case DW_OP_consts:
		*v = op->number;
		return true;
	default:
		return false;
	}
}

/* The last operation: DW_OP_regN names the register itself. */
static bool register_location(struct eval *ev, const Dwarf_Op *ops, unsigned reg, size_t i,
			      size_t n)
{
	bool one_piece = i + 2 == n && ops[i + 1].atom == DW_OP_piece;

	if (i + 1 != n && !one_piece)
		return refuse_plain(ev, "a register location followed by more");
	ev->is_value = true;
	return push_reg(ev, reg, 0);
}

/* The executable's dynamic section says it is one (a PIE, DF_1_PIE), not
 * a shared library. */
static bool pie_flagged(Elf *elf)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t k = 0; sh.sh_entsize && k < sh.sh_size / sh.sh_entsize; k++) {
			GElf_Dyn dyn;

			if (gelf_getdyn(data, (int)k, &dyn) && dyn.d_tag == DT_FLAGS_1)
				return (dyn.d_un.d_val & DF_1_PIE) != 0;
		}
	}
	return false;
}

/*
 * Where a user binary's thread-local block is, for
 * DW_OP_form_tls_address.  x86-64's TLS variant II puts the
 * executable's block first below the thread pointer, at its size
 * rounded up to its alignment (keeping the block's first byte's
 * alignment within that).  A shared library's place is known only to
 * the dynamic linker, which writes it into the library's own GOT where a
 * TLS relocation asks: a TPOFF64 slot holds a variable's offset from the
 * thread pointer (a library in the static TLS, initial-exec model, as
 * libc is), a DTPMOD64 slot the module id that indexes the thread's DTV
 * (general- and local-dynamic models, dlopen()ed libraries too).
 */
enum tls_kind { TLS_EXE, TLS_TPOFF, TLS_DTV };

struct tls_block {
	enum tls_kind kind;
	uint64_t below;		/* TLS_EXE: below the thread pointer;
				 * TLS_TPOFF: the block offset of what the
				 * slot holds the address of, subtracted */
	uint64_t got;		/* TLS_TPOFF, TLS_DTV: the slot's link-time
				 * address */
};

static bool exe_tls_block(Elf *elf, struct tls_block *out)
{
	size_t nph = 0;

	if (elf_getphdrnum(elf, &nph) != 0)
		return false;
	for (size_t k = 0; k < nph; k++) {
		GElf_Phdr ph;
		uint64_t align, first;

		if (!gelf_getphdr(elf, (int)k, &ph) || ph.p_type != PT_TLS)
			continue;
		align = ph.p_align ? ph.p_align : 1;
		first = (0 - ph.p_vaddr) & (align - 1);
		out->kind = TLS_EXE;
		out->below = (ph.p_memsz - first + align - 1) / align * align + first;
		return true;
	}
	return false;
}

/*
 * How well a TLS relocation against symbol index locates the block of
 * the library it is in: 0 not at all (the symbol is undefined here, of
 * another module), 1 if another module could interpose a definition (a
 * global of default visibility), 2 surely (no symbol, a local, hidden or
 * protected one).  *value: the symbol's offset in the block.
 */
static int own_symbol_rank(Elf_Data *syms, size_t index, uint64_t *value)
{
	GElf_Sym sym;

	*value = 0;
	if (!index)
		return 2;
	if (!syms || !gelf_getsym(syms, (int)index, &sym) || sym.st_shndx == SHN_UNDEF)
		return 0;
	*value = sym.st_value;
	return GELF_ST_BIND(sym.st_info) == STB_LOCAL ||
	       GELF_ST_VISIBILITY(sym.st_other) != STV_DEFAULT ? 2 : 1;
}

/* A shared library's TLS relocations: the best-ranked slot of its own
 * block, a TPOFF64 one before a DTPMOD64 one of the same rank (one read
 * fewer, and no dynamic linker's structure). */
static bool lib_tls_block(Elf *elf, struct tls_block *out)
{
	Elf_Scn *scn = NULL;
	int best = 0;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		Elf_Data *syms;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		syms = elf_getdata(elf_getscn(elf, sh.sh_link), NULL);
		for (size_t k = 0; k < sh.sh_size / sh.sh_entsize; k++) {
			GElf_Rela r;
			uint64_t value;
			unsigned type;
			int rank;

			if (!gelf_getrela(data, (int)k, &r))
				continue;
			type = (unsigned)GELF_R_TYPE(r.r_info);
			if (type != R_X86_64_TPOFF64 && type != R_X86_64_DTPMOD64)
				continue;
			/* ranks 1, 2 become 2, 4, and a TPOFF64 slot one more */
			rank = 2 * own_symbol_rank(syms, GELF_R_SYM(r.r_info), &value);
			if (!rank || (rank += type == R_X86_64_TPOFF64) <= best)
				continue;
			best = rank;
			*out = type == R_X86_64_TPOFF64 ?
			       (struct tls_block){ TLS_TPOFF, value + (uint64_t)r.r_addend, r.r_offset } :
			       (struct tls_block){ TLS_DTV, 0, r.r_offset };
		}
	}
	return best > 0;
}

/* The thread-local block of the binary at path; false, with why. */
static bool find_tls_block(const char *path, struct tls_block *out, const char **why)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	GElf_Ehdr eh;
	bool found = false;

	*why = "the binary cannot be read";
	if (elf && gelf_getehdr(elf, &eh)) {
		if (eh.e_type == ET_EXEC || (eh.e_type == ET_DYN && pie_flagged(elf))) {
			*why = "no PT_TLS segment";
			found = exe_tls_block(elf, out);
		} else {
			*why = "thread-local storage of a shared library that no "
			       "TPOFF64 or DTPMOD64 relocation of its own locates";
			found = lib_tls_block(elf, out);
		}
	}
	elf_end(elf);
	if (fd >= 0)
		close(fd);
	return found;
}

/* DW_OP_form_tls_address: the top, an offset in the thread-local block,
 * as an address in the probed thread (a user binary's only). */
static bool push_tls_address(struct eval *ev, unsigned atom)
{
	const char *why = "thread-local storage outside a user program";
	struct tls_block b = { 0 };
	unsigned off, got, slot, sum;

	if (!ev->n)
		return refuse(ev, "malformed location expression at %s", atom);
	if (ev->nest > 1 || !ev->scope->user || !ev->scope->module ||
	    !find_tls_block(ev->scope->module, &b, &why))
		return refuse_plain(ev, why);
	if (!materialize(ev, ev->stack[--ev->n], &off))
		return false;
	if (b.kind == TLS_EXE)
		return push_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_TLS, .a = off,
							  .val = b.below });
	/* the slot is a static of the binary, its value what ld.so wrote */
	if (!add_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_STATIC, .val = b.got }, &got) ||
	    !add_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_DEREF, .a = got, .size = 8 }, &slot))
		return false;
	if (b.kind == TLS_DTV)
		return push_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_DTV, .a = slot, .b = off });
	return add_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_BINARY, .op = TVAR_OP_ADD,
						.a = slot, .b = off }, &sum) &&
	       push_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_TLS, .a = sum, .val = b.below });
}

static bool eval_op(struct eval *ev, const Dwarf_Op *ops, size_t i, size_t n)
{
	const Dwarf_Op *op = &ops[i];
	uint64_t v;

	if (op->atom >= DW_OP_reg0 && op->atom <= DW_OP_reg31)
		return register_location(ev, ops, op->atom - DW_OP_reg0, i, n);
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31)
		return push_reg(ev, op->atom - DW_OP_breg0, op->number);
	if (const_op(op, &v))
		return push_const(ev, v);
	switch (op->atom) {
	case DW_OP_regx:
		return register_location(ev, ops, (unsigned)op->number, i, n);
	case DW_OP_bregx:
		return push_reg(ev, (unsigned)op->number, op->number2);
	case DW_OP_addr:
		return push(ev, (struct elem){ .kind = E_STATIC, .val = op->number });
	case DW_OP_fbreg:
		if (!push_frame_base(ev))
			return false;
		ev->stack[ev->n - 1].val += op->number;
		return true;
	case DW_OP_call_frame_cfa:
		return push_cfa(ev);
	case DW_OP_plus_uconst:
		if (!ev->n)
			return refuse(ev, "malformed location expression at %s", op->atom);
		ev->stack[ev->n - 1].val += op->number;
		return true;
	case DW_OP_plus: case DW_OP_minus: case DW_OP_mul: case DW_OP_div: case DW_OP_mod:
	case DW_OP_and: case DW_OP_or: case DW_OP_xor: case DW_OP_shl: case DW_OP_shr:
	case DW_OP_shra: case DW_OP_eq: case DW_OP_ne: case DW_OP_lt: case DW_OP_gt:
	case DW_OP_le: case DW_OP_ge:
		return binop(ev, op->atom);
	case DW_OP_neg: case DW_OP_not: case DW_OP_abs:
		return unop(ev, op->atom);
	case DW_OP_deref:
		return deref(ev, op->atom, 8);
	case DW_OP_deref_size:
		return deref(ev, op->atom, op->number);
	case DW_OP_dup: case DW_OP_drop: case DW_OP_over: case DW_OP_pick: case DW_OP_swap:
	case DW_OP_rot:
		return stack_op(ev, op);
	case DW_OP_convert: case DW_OP_GNU_convert: case DW_OP_regval_type:
	case DW_OP_GNU_regval_type: case DW_OP_deref_type: case DW_OP_GNU_deref_type:
		return typed_op(ev, op);
	case DW_OP_nop:
		return true;
	case DW_OP_stack_value:
		ev->is_value = true;
		return true;
	case DW_OP_entry_value: case DW_OP_GNU_entry_value:
		return push_entry_value(ev, op);
	case DW_OP_GNU_parameter_ref:
		return push_parameter_ref(ev, op);
	case DW_OP_form_tls_address: case DW_OP_GNU_push_tls_address:
		return push_tls_address(ev, op->atom);
	case DW_OP_piece:
		/* one piece covering the variable is the variable */
		if (n == 2 && i == 1)
			return true;
		return refuse(ev, "a variable in pieces (%s)", op->atom);
	case DW_OP_implicit_value:
		return refuse(ev, "%s within an expression", op->atom);
	case DW_OP_bra:		/* SystemTap's words */
		return refuse(ev, "conditional branches not supported (%s)", op->atom);
	default:
		return refuse(ev, "%s", op->atom);
	}
}

static bool eval_ops(struct eval *ev, const Dwarf_Op *ops, size_t n)
{
	if (++ev->nest > MAX_NEST)
		return refuse_plain(ev, "location expression nested too deep");
	for (size_t i = 0; i < n; i++)
		if (!eval_op(ev, ops, i, n))
			return false;
	ev->nest--;
	return true;
}

/* DW_OP_implicit_value N DATA alone: the constant (up to 8 bytes). */
static bool implicit_value(struct eval *ev, const Dwarf_Op *ops, size_t n)
{
	Dwarf_Block blk;
	uint64_t v = 0;

	if (n != 1 || ops[0].atom != DW_OP_implicit_value)
		return false;
	if (dwarf_getlocation_implicit_value(ev->attr, &ops[0], &blk) != 0 || blk.length > 8)
		return refuse(ev, "%s wider than 8 bytes", ops[0].atom);
	for (size_t i = blk.length; i-- > 0;)
		v = v << 8 | blk.data[i];
	ev->is_value = true;
	return push_const(ev, v);
}

/* Each symbol of elf's symbol table, with its name, through fn. */
static void each_symbol(Elf *elf, void *ctx,
			void (*fn)(void *ctx, Elf *, const char *, const GElf_Sym *))
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !(data = elf_getdata(scn, NULL)) || !sh.sh_entsize)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *name;

			if (gelf_getsym(data, (int)i, &sym) &&
			    (name = elf_strptr(elf, sh.sh_link, sym.st_name)))
				fn(ctx, elf, name, &sym);
		}
	}
}

struct named_symbol {
	const char *name;
	uint64_t addr;
	bool found;
};

static void match_name(void *ctx, Elf *elf, const char *name, const GElf_Sym *sym)
{
	struct named_symbol *n = ctx;

	(void)elf;
	if (!n->found && sym->st_shndx != SHN_UNDEF && !strcmp(name, n->name)) {
		n->addr = sym->st_value;
		n->found = true;
	}
}

bool dwloc_symbol(Dwarf *dbg, const char *name, uint64_t *addr)
{
	Elf *elf = dwarf_getelf(dbg);
	struct named_symbol n = { .name = name };

	if (elf)
		each_symbol(elf, &n, match_name);
	if (n.found)
		*addr = n.addr;
	return n.found;
}

static bool sym_addr(Elf *elf, const GElf_Sym *sym, uint64_t *addr);

struct placed_symbol {
	const char *name;
	uint64_t addr;
	size_t shndx;
	bool found;
};

static void match_placed(void *ctx, Elf *elf, const char *name, const GElf_Sym *sym)
{
	struct placed_symbol *p = ctx;

	if (!p->found && !strcmp(name, p->name) && sym_addr(elf, sym, &p->addr)) {
		p->shndx = sym->st_shndx;
		p->found = true;
	}
}

bool dwloc_symbol_section(Dwarf *dbg, const char *name, uint64_t *addr, uint64_t *lo,
			  uint64_t *hi)
{
	Elf *elf = dwarf_getelf(dbg);
	struct placed_symbol p = { .name = name };
	GElf_Shdr sh;

	if (elf)
		each_symbol(elf, &p, match_placed);
	if (!p.found || !gelf_getshdr(elf_getscn(elf, p.shndx), &sh))
		return false;
	*addr = p.addr;
	*lo = sh.sh_addr;
	*hi = sh.sh_addr + sh.sh_size;
	return true;
}

/* jiffies_64's link-time address in the ELF the DWARF came with. */
static bool reloc_ref(Dwarf *dbg, uint64_t *addr)
{
	return dwloc_symbol(dbg, "jiffies_64", addr);
}

/* The address of sym, in the layout libdwfl gives a module's ET_REL
 * sections offline (its section headers carry the addresses it chose,
 * which its DWARF is relocated to; an ET_REL symbol's value is relative
 * to its section); in other files, its value. */
static bool sym_addr(Elf *elf, const GElf_Sym *sym, uint64_t *addr)
{
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *scn;

	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE ||
	    GELF_ST_TYPE(sym->st_info) == STT_SECTION || GELF_ST_TYPE(sym->st_info) == STT_FILE)
		return false;
	scn = elf_getscn(elf, sym->st_shndx);
	if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
		return false;
	*addr = gelf_getehdr(elf, &eh) && eh.e_type == ET_REL ? sh.sh_addr + sym->st_value :
								 sym->st_value;
	return true;
}

struct modsym_search {
	uint64_t addr;		/* the static address wanted */
	const char *best;	/* the symbol holding it */
	uint64_t best_addr;
	int best_rank;
	int same_name;		/* how many symbols are called best */
};

/* A symbol holding s->addr: an object's with a size first (the
 * variable's own), rather than an empty one at the same address (a
 * lockdep __key when lockdep is off) or a function's. */
static void consider(struct modsym_search *s, const char *name, const GElf_Sym *sym,
		     uint64_t at)
{
	int rank = (GELF_ST_TYPE(sym->st_info) == STT_OBJECT) * 2 + (sym->st_size > 0);

	if (!*name || s->addr < at || s->addr >= at + (sym->st_size ? sym->st_size : 1))
		return;
	if (!s->best || rank > s->best_rank) {
		s->best = name;
		s->best_addr = at;
		s->best_rank = rank;
	}
}

static void find_holder(void *ctx, Elf *elf, const char *name, const GElf_Sym *sym)
{
	struct modsym_search *s = ctx;
	uint64_t at;

	if (sym_addr(elf, sym, &at))
		consider(s, name, sym, at);
}

static void count_name(void *ctx, Elf *elf, const char *name, const GElf_Sym *sym)
{
	struct modsym_search *s = ctx;
	uint64_t at;

	if (!strcmp(name, s->best) && sym_addr(elf, sym, &at))
		s->same_name++;
}

struct anchor_search {
	Elf *elf;
	uint64_t addr;		/* the code address wanted */
	size_t shndx;		/* the section holding it */
	const char *best;	/* the nearest uniquely named symbol below it */
	uint64_t best_addr;
	const char *counting;	/* count_same: the name counted */
	int same;
};

static void count_same(void *ctx, Elf *elf, const char *name, const GElf_Sym *sym)
{
	struct anchor_search *s = ctx;
	uint64_t at;

	if (!strcmp(name, s->counting) && sym_addr(elf, sym, &at))
		s->same++;
}

static bool unique_name(struct anchor_search *s, const char *name)
{
	struct anchor_search c = { .counting = name };

	each_symbol(s->elf, &c, count_same);
	return c.same == 1;
}

static void find_anchor(void *ctx, Elf *elf, const char *name, const GElf_Sym *sym)
{
	struct anchor_search *s = ctx;
	uint64_t at;

	if (!*name || sym->st_shndx != s->shndx || !sym_addr(elf, sym, &at) || at > s->addr ||
	    (s->best && at <= s->best_addr) || GELF_ST_TYPE(sym->st_info) != STT_FUNC)
		return;
	if (unique_name(s, name)) {
		s->best = name;
		s->best_addr = at;
	}
}

/* The index of the allocated section of ELF that holds ADDR, 0 if none. */
static size_t section_holding(Elf *elf, uint64_t addr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) && sh.sh_type != SHT_NOBITS &&
		    addr >= sh.sh_addr && addr < sh.sh_addr + sh.sh_size)
			return elf_ndxscn(scn);
	}
	return 0;
}

const char *dwloc_anchor(Dwarf *dbg, uint64_t addr, unsigned long *offset)
{
	struct anchor_search s = { .elf = dwarf_getelf(dbg), .addr = addr };

	if (!s.elf || !(s.shndx = section_holding(s.elf, addr)))
		return NULL;
	each_symbol(s.elf, &s, find_anchor);
	if (!s.best)
		return NULL;
	*offset = addr - s.best_addr;
	return s.best;
}

/*
 * A static of a module: its sections are placed where the kernel loads
 * them, each on its own, so the address is kept as the symbol that holds
 * it (the variable's own, as a rule) plus an offset; the runtime finds
 * the symbol in the loaded module's symbol table by "MOD:NAME", which
 * names one symbol only if the module has one of that name.
 */
/* The symbol of the module that holds static address addr, as
 * "MOD:NAME" (malloc'd), and the offset into it; false with the
 * message set (final) when the runtime could not find it. */
static bool module_holder(struct eval *ev, uint64_t addr, char **modsym, uint64_t *off)
{
	Elf *elf = dwarf_getelf(dwarf_cu_getdwarf(((Dwarf_Die *)&ev->scope->cu)->cu));
	struct modsym_search s = { .addr = addr };

	if (elf)
		each_symbol(elf, &s, find_holder);
	free(ev->msg);
	ev->msg_final = true;
	if (!s.best) {
		ev->msg = xasprintf("no symbol of module '%s' holds static address %#" PRIx64,
				    ev->scope->module, addr);
		return false;
	}
	each_symbol(elf, &s, count_name);
	if (s.same_name != 1) {
		ev->msg = xasprintf("the static '%s' of module '%s' is one of %d symbols of that "
				    "name, which the module's symbol table cannot tell apart",
				    s.best, ev->scope->module, s.same_name);
		return false;
	}
	ev->msg = NULL;
	ev->msg_final = false;
	*modsym = xasprintf("%s:%s", ev->scope->module, s.best);
	*off = addr - s.best_addr;
	return true;
}

static int module_origin(struct eval *ev, uint64_t addr, struct tvar_origin *out)
{
	char *modsym;
	uint64_t off;

	if (!module_holder(ev, addr, &modsym, &off))
		return -1;
	out->base = TVAR_BASE_MODSYM;
	out->modsym = modsym;
	out->addr = off;
	return 0;
}

/* A location computed at run time: its values (the last is the
 * location), handed over to out. */
static int computed_origin(struct eval *ev, struct elem top, struct tvar_origin *out)
{
	unsigned idx;
	bool statics = false;

	if (!materialize(ev, top, &idx))
		return -1;
	if (idx + 1 != ev->nnodes &&	/* the result last: an identity */
	    !add_node(ev, (struct tvar_dwop){ .kind = TVAR_DW_CONVERT, .a = idx, .size = 8 }, &idx))
		return -1;
	for (size_t i = 0; i < ev->nnodes; i++)
		statics |= ev->nodes[i].kind == TVAR_DW_STATIC;
	if (statics && !ev->scope->user &&
	    !reloc_ref(dwarf_cu_getdwarf(((Dwarf_Die *)&ev->scope->cu)->cu), &out->reloc_ref)) {
		ev->msg = xstrdup("the kernel's symbol table (jiffies_64) is missing, so "
				  "static addresses cannot be relocated");
		ev->msg_final = true;
		return -1;
	}
	out->base = TVAR_BASE_DWEXPR;
	out->addr = 0;
	out->dwops = ev->nodes;
	out->ndwops = ev->nnodes;
	ev->nodes = NULL;
	ev->nnodes = 0;
	return 0;
}

/* The top of the stack as where the walk starts. */
static int to_origin(struct eval *ev, struct tvar_origin *out)
{
	struct elem top;

	if (ev->n < 1) {
		refuse_plain(ev, "empty location expression");
		return -1;
	}
	top = ev->stack[ev->n - 1];
	memset(out, 0, sizeof(*out));
	out->in_mem = !ev->is_value;
	out->addr = top.val;
	switch (top.kind) {
	case E_CONST:
		out->base = TVAR_BASE_CONST;
		return 0;
	case E_REG:
		out->base = TVAR_BASE_REG;
		out->slot = top.reg;
		return 0;
	case E_NODE:
		return computed_origin(ev, top, out);
	case E_STATIC:
		if (ev->scope->user) {	/* moved by the load bias at run time */
			out->base = TVAR_BASE_STATIC;
			return 0;
		}
		if (strcmp(ev->scope->module ? ev->scope->module : "kernel", "kernel")) {
			ev->msg_final = true;
			return module_origin(ev, top.val, out);
		}
		if (!reloc_ref(dwarf_cu_getdwarf(((Dwarf_Die *)&ev->scope->cu)->cu),
			       &out->reloc_ref)) {
			ev->msg = xstrdup("the kernel's symbol table (jiffies_64) is missing, so "
					  "static addresses cannot be relocated");
			ev->msg_final = true;
			return -1;
		}
		out->base = TVAR_BASE_STATIC;
		return 0;
	}
	return -1;
}

/* ---- DW_OP_piece */

/* The most bytes of pieces tapc assembles (the frame's scratch string
 * holds them; MAXSTRINGLEN is at least this). */
#define PIECES_MAX_BYTES 64

/* Whether the expression is in pieces: more than the one piece that is
 * the whole variable. */
static bool in_pieces(const Dwarf_Op *ops, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ops[i].atom == DW_OP_piece || ops[i].atom == DW_OP_bit_piece)
			return !(n == 2 && i == 1 && ops[i].atom == DW_OP_piece);
	return false;
}

/* The piece the n operations before a DW_OP_piece describe. */
static bool piece_of(struct eval *ev, const Dwarf_Op *ops, size_t n, struct tvar_piece *p,
		     struct tvar_dwop **dwops, size_t *ndwops)
{
	struct elem top;
	struct tvar_origin computed = { 0 };

	free(ev->nodes);	/* each piece numbers its own values */
	ev->nodes = NULL;
	ev->nnodes = 0;
	ev->n = 0;
	ev->is_value = false;
	ev->nest = 0;
	if (!implicit_value(ev, ops, n) && (ev->msg || !eval_ops(ev, ops, n)))
		return false;
	if (ev->n < 1)
		return refuse_plain(ev, "an empty piece");
	top = ev->stack[ev->n - 1];
	p->in_mem = !ev->is_value;
	p->addr = top.val;
	switch (top.kind) {
	case E_CONST:
		if (p->in_mem)
			return refuse_plain(ev, "a piece at a constant address");
		p->base = TVAR_BASE_CONST;
		break;
	case E_REG:
		p->base = TVAR_BASE_REG;
		p->slot = top.reg;
		break;
	case E_STATIC:
		if (strcmp(ev->scope->module ? ev->scope->module : "kernel", "kernel"))
			return refuse_plain(ev, "a piece in a module's static");
		if (!reloc_ref(dwarf_cu_getdwarf(((Dwarf_Die *)&ev->scope->cu)->cu),
			       &p->reloc_ref))
			return refuse_plain(ev, "a static piece without the kernel's symbol table");
		p->base = TVAR_BASE_STATIC;
		break;
	case E_NODE:
		/* computed when the probe hits, as a whole location is; its
		 * values go after the other pieces' in the variable's */
		if (computed_origin(ev, top, &computed) != 0)
			return false;
		p->base = TVAR_BASE_DWEXPR;
		p->addr = 0;
		p->reloc_ref = computed.reloc_ref;
		p->dwop_first = *ndwops;
		p->ndwops = computed.ndwops;
		*dwops = xrealloc(*dwops, (*ndwops + computed.ndwops) * sizeof(**dwops));
		memcpy(*dwops + *ndwops, computed.dwops, computed.ndwops * sizeof(**dwops));
		*ndwops += computed.ndwops;
		free(computed.dwops);
		break;
	}
	if (!p->in_mem && p->size > 8)
		return refuse_plain(ev, "a value piece wider than 8 bytes");
	return true;
}

/*
 * A variable in pieces (a struct in two registers, a value partly in a
 * register and partly on the stack): each piece is described as a place,
 * and the runtime copies them side by side into a scratch buffer that the
 * walk reads as the variable's memory.  A piece optimized out (no
 * operations) or a bit piece is refused, naming the operation.
 */
static int pieces_origin(struct eval *ev, const Dwarf_Op *ops, size_t n,
			 struct tvar_origin *out)
{
	struct tvar_piece *pieces = NULL;
	struct tvar_dwop *dwops = NULL;
	size_t np = 0, start = 0, total = 0, ndwops = 0;

	for (size_t i = 0; i < n; i++) {
		struct tvar_piece p = { 0 };

		if (ops[i].atom == DW_OP_bit_piece) {
			/* SystemTap's translator has no case for it either */
			refuse(ev, "unhandled DW_OP operation (%s)", ops[i].atom);
			goto fail;
		}
		if (ops[i].atom != DW_OP_piece)
			continue;
		p.size = (unsigned)ops[i].number;
		if (i == start) {
			refuse_plain(ev, "a piece of it is optimized out (DW_OP_piece alone)");
			goto fail;
		}
		if (!piece_of(ev, ops + start, i - start, &p, &dwops, &ndwops))
			goto fail;
		total += p.size;
		if (!p.size || total > PIECES_MAX_BYTES) {
			ev->msg = xasprintf("pieces of more than %d bytes", PIECES_MAX_BYTES);
			goto fail;
		}
		pieces = xrealloc(pieces, (np + 1) * sizeof(*pieces));
		pieces[np++] = p;
		start = i + 1;
	}
	if (start != n || !np) {
		refuse_plain(ev, "operations after the last DW_OP_piece");
		goto fail;
	}
	memset(out, 0, sizeof(*out));
	out->base = TVAR_BASE_PIECES;
	out->pieces = pieces;
	out->npieces = np;
	out->dwops = dwops;
	out->ndwops = ndwops;
	out->in_mem = true;
	return 0;
fail:
	free(pieces);
	free(dwops);
	return -1;
}

static int from_const_value(Dwarf_Attribute *cv, struct tvar_origin *out, char **msg)
{
	Dwarf_Sword s;
	Dwarf_Word u;
	Dwarf_Block blk;
	uint64_t v = 0;

	memset(out, 0, sizeof(*out));
	out->base = TVAR_BASE_CONST;
	if (dwarf_formsdata(cv, &s) == 0) {
		out->addr = (uint64_t)s;
	} else if (dwarf_formudata(cv, &u) == 0) {
		out->addr = u;
	} else if (dwarf_formblock(cv, &blk) == 0 && blk.length <= 8) {
		for (size_t i = blk.length; i-- > 0;)
			v = v << 8 | blk.data[i];
		out->addr = v;
	} else {
		*msg = xstrdup("a constant value that is not a number");
		return -1;
	}
	return 0;
}

/* How deep implicit pointers to implicit pointers are followed. */
#define IMPLICIT_MAX 4

/*
 * DW_OP_implicit_pointer DIE OFFSET alone: the variable is a pointer the
 * compiler optimized away, to variable DIE (plus OFFSET bytes), whose own
 * location is known: that place, if it is memory (or pieces, read as
 * memory), with the walk starting at the pointer's target type.
 */
static int implicit_pointer(const struct dwarf_scope *scope, Dwarf_Attribute *attr,
			    const Dwarf_Op *op, struct tvar_origin *out, char **msg)
{
	static int depth;
	Dwarf_Die target;
	const char *name;
	int r;

	if (dwarf_getlocation_die(attr, op, &target) != 0 || depth >= IMPLICIT_MAX) {
		*msg = xasprintf("not accessible at this address (pc: %#" PRIx64 ") "
				 "[man error::dwarf]: %s to an unknown variable",
				 (uint64_t)scope->pc, op_name(op->atom));
		return -1;
	}
	name = dwarf_diename(&target);
	depth++;
	r = dwloc_variable(scope, &target, out, msg);
	depth--;
	if (r == 0 && (!out->in_mem || (out->base == TVAR_BASE_PIECES && op->number2))) {
		free(out->modsym);
		free(out->pieces);
		free(out->dwops);
		*msg = xasprintf("not accessible at this address (pc: %#" PRIx64 ") "
				 "[man error::dwarf]: %s to '%s', which is not in memory",
				 (uint64_t)scope->pc, op_name(op->atom), name ? name : "?");
		return -1;
	}
	if (r == 0) {
		out->addr += op->number2;
		out->pointee = true;
	}
	return r;
}

/* SystemTap's lines under "not accessible at this address": which DIE
 * of which file, the function (and the source line at the pc), the ranges
 * where the variable does have a location, for a probe placed there. */
static void not_here_details(struct strbuf *sb, const struct dwarf_scope *scope, Dwarf_Die *die,
			     Dwarf_Attribute *attr)
{
	Dwarf_Die *func = (Dwarf_Die *)&scope->func, cu;
	Dwarf_Attribute name_attr;
	const char *fname = dwarf_formstring(dwarf_attr_integrate(func, DW_AT_name, &name_attr));
	Dwarf_Line *at = dwarf_diecu(func, &cu, NULL, NULL) ? dwarf_getsrc_die(&cu, scope->pc) : NULL;
	const char *file = at ? dwarf_linesrc(at, NULL, NULL) : NULL;
	Dwarf_Addr base, start, end;
	Dwarf_Op *ops;
	size_t n;
	ptrdiff_t off = 0;
	int line = 0, col = 0, ranges = 0;

	strbuf_addf(sb, "\n    dieoffset: %#" PRIx64, (uint64_t)dwarf_dieoffset(die));
	if (scope->debug_file)
		strbuf_addf(sb, " from %s", scope->debug_file);
	if (fname && file) {
		dwarf_lineno(at, &line);
		dwarf_linecol(at, &col);
		strbuf_addf(sb, "\n    function: %s at %s:%d:%d", fname, file, line, col);
	}
	while ((off = dwarf_getlocations(attr, off, &base, &start, &end, &ops, &n)) > 0) {
		if (start >= end)
			continue;
		strbuf_addf(sb, "%s[%#" PRIx64 ",%#" PRIx64 "]",
			    ranges++ ? ", " : "\n    alternative locations: ",
			    (uint64_t)start, (uint64_t)end);
	}
}

/*
 * A kernel global the CU only declares (extern: slab_caches in mm/'s
 * files): SystemTap finds its definition elsewhere; its address is that
 * of its symbol, relocated as the kernel's statics are.
 */
static bool declared_kernel_static(const struct dwarf_scope *scope, Dwarf_Die *die,
				   struct tvar_origin *out)
{
	Dwarf *dbg = dwarf_cu_getdwarf(((Dwarf_Die *)&scope->cu)->cu);
	Dwarf_Attribute decl;
	const char *name = dwarf_diename(die);

	if (scope->user || strcmp(scope->module ? scope->module : "kernel", "kernel") ||
	    !name || !dwarf_attr_integrate(die, DW_AT_declaration, &decl) || !dbg)
		return false;
	memset(out, 0, sizeof(*out));
	out->base = TVAR_BASE_STATIC;
	out->in_mem = true;
	return dwloc_symbol(dbg, name, &out->addr) && reloc_ref(dbg, &out->reloc_ref);
}

int dwloc_variable(const struct dwarf_scope *scope, Dwarf_Die *die, struct tvar_origin *out,
		   char **msg)
{
	Dwarf_Attribute attr, cv;
	struct eval ev = { .scope = scope, .attr = &attr };
	Dwarf_Addr looked_at;
	Dwarf_Op *ops;
	size_t n;
	const char *name = dwarf_diename(die);
	int r;

	*msg = NULL;
	if (!dwarf_attr_integrate(die, DW_AT_location, &attr)) {
		if (dwarf_attr_integrate(die, DW_AT_const_value, &cv))
			return from_const_value(&cv, out, msg);
		if (declared_kernel_static(scope, die, out))
			return 0;
		*msg = xasprintf("failed to retrieve location attribute for '%s' "
				 "[man error::dwarf]", name ? name : "?");
		return -1;
	}
	looked_at = scope->pc;
	r = dwfentry_getlocation((Dwarf_Die *)&scope->func, &attr, &looked_at, &ops, &n);
	if (r != 1 || n == 0) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "not accessible at this address (pc: %#" PRIx64 ") "
			    "[man error::dwarf]", (uint64_t)looked_at);
		not_here_details(&sb, scope, die, &attr);
		*msg = strbuf_detach(&sb);
		return -1;
	}
	if (n == 1 && (ops[0].atom == DW_OP_implicit_pointer ||
		       ops[0].atom == DW_OP_GNU_implicit_pointer))
		return implicit_pointer(scope, &attr, &ops[0], out, msg);
	if (in_pieces(ops, n)) {
		r = pieces_origin(&ev, ops, n, out);
	} else if (implicit_value(&ev, ops, n) || (!ev.msg && eval_ops(&ev, ops, n))) {
		r = to_origin(&ev, out);
	} else {
		r = -1;
	}
	free(ev.nodes);
	if (r == 0)
		return 0;
	if (ev.msg_final) {
		*msg = ev.msg;
		return -1;
	}
	*msg = xasprintf("not accessible at this address (pc: %#" PRIx64 ") [man error::dwarf]: "
			 "%s", (uint64_t)scope->pc, ev.msg ? ev.msg : "unknown location");
	free(ev.msg);
	return -1;
}

void dwloc_return_value(struct tvar_origin *out, bool in_xmm0)
{
	memset(out, 0, sizeof(*out));
	out->base = TVAR_BASE_REG;
	out->slot = in_xmm0 ? DW_X86_64_XMM0 : 0;	/* else rax */
}

ctype_id dwloc_type_of(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Die t;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &t))
		return 0;
	return dwarf_dieoffset(&t);
}

static struct vec interned;
static struct vec interned_ops;	/* struct interned_ops * */

struct interned_ops {
	struct tvar_dwop *ops;
	size_t n;
};

static bool same_ops(const struct tvar_dwop *a, const struct tvar_dwop *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].kind != b[i].kind || a[i].op != b[i].op || a[i].reg != b[i].reg ||
		    a[i].a != b[i].a || a[i].b != b[i].b || a[i].val != b[i].val ||
		    a[i].sym != b[i].sym || a[i].size != b[i].size ||
		    a[i].is_signed != b[i].is_signed || a[i].user != b[i].user ||
		    a[i].guard != b[i].guard || a[i].expr != b[i].expr ||
		    a[i].nexpr != b[i].nexpr)
			return false;
	return true;
}

const struct tvar_dwop *dwloc_intern_ops(const struct tvar_dwop *ops, size_t n)
{
	struct interned_ops *e;

	for (size_t i = 0; i < interned_ops.n; i++) {
		e = interned_ops.v[i];
		if (e->n == n && same_ops(e->ops, ops, n))
			return e->ops;
	}
	e = xmalloc(sizeof(*e));
	e->ops = xmalloc(n * sizeof(*ops));
	memcpy(e->ops, ops, n * sizeof(*ops));
	e->n = n;
	vec_push(&interned_ops, e);
	return e->ops;
}

const char *dwloc_intern(const char *s)
{
	for (size_t i = 0; i < interned.n; i++)
		if (!strcmp(interned.v[i], s))
			return interned.v[i];
	vec_push(&interned, xstrdup(s));
	return interned.v[interned.n - 1];
}
