/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tapc_runtime.h - the one interface between generated probe code and the
 * tapc runtime.  See doc/RUNTIME.md.
 *
 * Generated code includes this header and nothing else.  It is compiled at
 * any optimisation level, -O0 included, so this header includes no kernel
 * header and uses only the compiler's own types.  Everything that touches
 * the kernel lives in runtime/linux/ and is compiled once at -O2.
 *
 * The generated C file defines:
 *
 *	const struct tap_probe tap_probes[];
 *	const unsigned int tap_nprobes;
 *	const struct tap_global tap_globals[];	(at least one element)
 *	const unsigned int tap_nglobals;	(may be 0)
 *	const unsigned long tap_locals_size;
 *	const int tap_timing;
 *	const unsigned int tap_privilege;	(optional, see below)
 *
 * and the handlers those entries point to.  The runtime provides the
 * module's init and exit, runs the probes, and provides the functions
 * declared below.
 */
#ifndef TAPC_RUNTIME_H
#define TAPC_RUNTIME_H

#ifndef NULL
#define NULL ((void *)0)
#endif

/* Limits; each can be overridden with -D. */
#ifndef MAXERRORS
#define MAXERRORS 0		/* errors tolerated before the script stops */
#endif
#ifndef MAXSKIPPED
#define MAXSKIPPED 100		/* skipped probes tolerated */
#endif
#ifndef MAXACTION
#define MAXACTION 1000		/* statements per probe hit */
#endif
/*
 * SystemTap runs every handler "interruptible" unless built with
 * -DINTERRUPTIBLE=0, and an interruptible handler's budget is
 * MAXACTION_INTERRUPTIBLE (ten times MAXACTION unless set).
 */
#ifndef INTERRUPTIBLE
#define INTERRUPTIBLE 1
#endif
#ifndef MAXACTION_INTERRUPTIBLE
#define MAXACTION_INTERRUPTIBLE						\
	((MAXACTION) > 922337203685477580LL ? 9223372036854775807LL :	\
	 (MAXACTION) * 10LL)
#endif
/* the budget of one probe hit */
#define TAP_ACTION_BUDGET						\
	(INTERRUPTIBLE ? (long long)(MAXACTION_INTERRUPTIBLE) : (long long)(MAXACTION))
#ifndef MAXSTRINGLEN
#define MAXSTRINGLEN 512	/* bytes in a string value, NUL included */
#endif
#ifndef MAXMAPENTRIES
#define MAXMAPENTRIES 2048	/* default size of a global array */
#endif
#ifndef MAXNESTING
#define MAXNESTING 10		/* nested function calls */
#endif
#ifndef TAP_PRINT_BUFSIZE
#define TAP_PRINT_BUFSIZE 8192	/* per-CPU buffer of one probe hit's output */
#endif
#ifndef TAP_BUFFER_SIZE
#define TAP_BUFFER_SIZE (256 * 1024)	/* output channel read by tapc-run */
#endif
#ifndef TAP_BULK
#define TAP_BULK 0		/* -b: one output channel per CPU */
#endif
#ifndef TAP_ERRBUF_SIZE
#define TAP_ERRBUF_SIZE (16 * 1024)	/* ERROR/WARNING channel */
#endif
#ifndef TAP_CMDBUF_SIZE
#define TAP_CMDBUF_SIZE (16 * 1024)	/* system() commands not yet run */
#endif
#ifndef TAP_ERRMSG_LEN
#define TAP_ERRMSG_LEN 128	/* bytes kept of one error message */
#endif
#ifndef TRYLOCKDELAY
#define TRYLOCKDELAY 10		/* microseconds between tries of a global's lock */
#endif
#ifndef MAXTRYLOCK
#define MAXTRYLOCK 100		/* tries per hit before it is skipped */
#endif

/*
 * The runtime's own files (control.c, maps.c, locks.c, transport.c) read
 * the limits above that they need from tap_limits, which the generated
 * module defines (TAP_DEFINE_LIMITS) with the values it was compiled with.
 * So one compiled runtime serves every -D set that changes only these
 * limits (MODULE_ONLY in src/rtlimits.def): test-runtime-kbuild checks
 * that they leave the runtime's preprocessed sources as they were.
 */
struct tap_limits {
	long long action_budget;	/* TAP_ACTION_BUDGET */
	long long maxerrors;
	long long maxskipped;
	unsigned int maxmapentries;
	unsigned int maxtrylock;
	unsigned long trylockdelay;	/* microseconds */
	unsigned long buffer_size;	/* bytes (of each CPU's in bulk mode) */
	int bulk;			/* TAP_BULK */
	/*
	 * --suppress-handler-errors: a hit's error is counted but neither
	 * printed nor held against MAXERRORS, and MAXSKIPPED stops nothing.
	 */
	int suppress_handler_errors;
};
extern const struct tap_limits tap_limits;
#define TAP_DEFINE_LIMITS TAP_DEFINE_LIMITS_SUPPRESSING(0)
#define TAP_DEFINE_LIMITS_SUPPRESSING(suppress_errors)			\
	const struct tap_limits tap_limits = {				\
		.action_budget = TAP_ACTION_BUDGET,			\
		.maxerrors = MAXERRORS, .maxskipped = MAXSKIPPED,	\
		.maxmapentries = MAXMAPENTRIES,				\
		.maxtrylock = MAXTRYLOCK, .trylockdelay = TRYLOCKDELAY,	\
		.buffer_size = TAP_BUFFER_SIZE,				\
		.bulk = TAP_BULK,					\
		.suppress_handler_errors = (suppress_errors),		\
	}

/* Kinds of probe the runtime itself provides. */
enum tap_probe_kind {
	TAP_PROBE_BEGIN = 1,
	TAP_PROBE_END = 2,
	TAP_PROBE_ERROR = 3,
	TAP_PROBE_TIMER = 4,	/* timer.ns/us/ms/s/hz/jiffies: an hrtimer */
	/*
	 * Kernel event families: each is registered by its own file of
	 * runtime/linux/ (see struct tap_family in tap_internal.h) from the
	 * generic fields of struct tap_probe (target, module, arg, flags,
	 * callback).
	 */
	TAP_PROBE_KPROBE = 5,	/* kprobe.function(...) [.return] */
	TAP_PROBE_TRACEPOINT = 6,	/* kernel.trace("NAME") */
	TAP_PROBE_PERF = 7,	/* timer.profile, perf.sw.* ... */
	TAP_PROBE_SYSCALL = 8,	/* one system call (or all), entry or return */
	TAP_PROBE_PROCESS = 9,	/* process.begin/end, kprocess.* */
	TAP_PROBE_PROCFS = 10,	/* procfs("NAME").read/.write */
	TAP_PROBE_HWBKPT = 11,	/* kernel.data(...): a hardware watchpoint */
	TAP_PROBE_UPROBE = 12,	/* an instruction of a user binary: a uprobe */
	TAP_PROBE_NETFILTER = 13,	/* netfilter.hook(...).pf(...): a hook on
					 * init_net, .arg[0] the protocol family,
					 * .arg[1] the hook */
	TAP_PROBE_KIND_MAX = TAP_PROBE_NETFILTER,
};

/* struct tap_probe.flags (TAP_PF_RETURN ...) and the other numbers the
 * compiler's families share with the runtime's. */
#include "tapc_families.h"


/* Units of a timer's interval and randomize values. */
enum tap_timer_unit {
	TAP_TIMER_NS = 0,	/* interval and randomize are nanoseconds */
	TAP_TIMER_JIFFIES = 1,	/* timer.jiffies(N): both are jiffies */
};

#include "tapc_regex.h"

struct tap_context;
struct pt_regs;
typedef void (*tap_handler_t)(struct tap_context *c);

/*
 * One global the probe needs, in a probe's lock set.  The runtime takes
 * the locks of a probe's set, in table order (sorted by global), before it
 * runs the handler, and releases them after; a lock it cannot get within
 * its bounded wait (MAXTRYLOCK tries TRYLOCKDELAY us apart, for the whole
 * set) makes the hit a skipped probe.
 *
 * As in SystemTap, "s <<< v" (and "m[k] <<< v") needs only a shared lock:
 * statistics are collected per CPU.  Every read of a statistic (@count,
 * @hist_*, print of a histogram, foreach, "in", delete) merges the CPUs'
 * data and needs the exclusive lock.
 */
struct tap_lock_req {
	unsigned short global;		/* index into tap_globals[] */
	unsigned char write;		/* 1: exclusive, 0: shared */
};

struct tap_context;

/* Per-family data of a probe, in the member its kind names. */
union tap_probe_data {
	struct {			/* TAP_PROBE_PERF (not timer.profile) */
		unsigned int type;		/* perf_event_attr.type */
		unsigned long long config;	/* perf_event_attr.config */
		unsigned long long period;	/* events a sample, or samples a
						 * second with TAP_PERF_FREQ */
	} perf;
	struct {			/* TAP_PROBE_KPROBE */
		unsigned long addr;	/* kprobe.statement(ADDR).absolute, else 0 */
		unsigned long offset;	/* bytes past the symbol's start */
		int maxactive;		/* .return: instances, -1 for the default */
		int optional;		/* no warning when it does not register */
		int init_text;		/* in its module's init text, which is
					 * gone once the module is live */
	} kprobe;
	struct {			/* TAP_PROBE_HWBKPT */
		unsigned long addr;	/* kernel.data(ADDR); 0: .target names
					 * the symbol */
		int len;		/* bytes watched, 1 to 8 */
	} hwbkpt;
	struct {			/* TAP_PROBE_UPROBE (runtime/linux/uprobes.c) */
		unsigned long long offset;	/* the instruction's offset in
						 * the file .target names */
		unsigned long long ref_ctr;	/* file offset of a semaphore the
						 * kernel counts the probe in
						 * (SDT), or 0 */
		unsigned long long addr;	/* the instruction's link-time
						 * address (for the load bias) */
		unsigned long long entry_offset;	/* .return: where its entry
						 * half runs (past the prologue),
						 * or 0: at offset */
		unsigned long long entry_addr;	/* and its link-time address */
		int maxactive;		/* .return: calls whose entry values
					 * are kept at once; -1: the default */
	} uprobe;
	struct {			/* TAP_PROBE_NETFILTER */
		int priority;		/* struct nf_hook_ops.priority */
	} netfilter;
};

/* One probe point, as the translator emits it. */
/*
 * The calls that must lead to a .callee probe's hit (src/callee.h): n
 * return addresses, innermost first, at the stack's depths 1 to n (0 to
 * n - 1 in a .return probe, whose pc is the return address).  A user
 * binary's are link-time addresses, moved by the hit's load bias; a
 * kernel module's are offsets from the symbols tap_modsyms[modsym[i]];
 * the kernel's are link-time addresses, moved by
 * tap_kernel_reloc(reloc_ref).
 */
struct tap_callers {
	unsigned int n;
	int user, at_return;
	unsigned long reloc_ref;
	const unsigned long *addr;
	const unsigned int *modsym;	/* NULL but in a module */
};

struct tap_probe {
	int kind;			/* enum tap_probe_kind */
	long long seq;			/* begin/end/error: sequence number */
	unsigned long long interval_ns;	/* timer: period (> 0), see unit */
	unsigned long long randomize;	/* timer: +-random spread, or 0 */
	int unit;			/* timer: enum tap_timer_unit */
	tap_handler_t handler;
	/* Probes whose handlers differed only in constants run one handler,
	 * which reads them here (its own struct type); else NULL. */
	const void *consts;
	const char *pp;			/* probe point, e.g. "begin(10)" */
	/* pn(): the script-level point (an alias's name) when it is not pp;
	 * set only in modules that call pn() or pnlabel() */
	const char *pn;
	const char *loc;		/* where it is declared: "FILE:LINE:COL" */
	const char *derivation;		/* -t: printed as ", from: TEXT" */
	const struct tap_lock_req *locks;	/* sorted by global */
	unsigned int nlocks;
	/* Kernel event families (kind >= TAP_PROBE_KPROBE); their meaning
	 * is the family's, documented with its kind. */
	const char *target;		/* symbol, tracepoint, event, file */
	const char *module;		/* a kernel module's name, or NULL */
	long long arg[2];		/* e.g. a syscall number, a pid */
	int flags;			/* TAP_PF_* */
	void *callback;			/* generated code the family calls */
	union tap_probe_data u;		/* the member of the family's kind */
	/*
	 * A .return probe's values saved at entry (@entry(EXPR)): its family
	 * runs them through tap_run_entry() when the function is entered,
	 * with entry_size bytes of its own (a kretprobe instance's data) at
	 * c->saved for entry to fill, and the handler through
	 * tap_run_return() with the same bytes.  NULL: nothing is saved.
	 */
	tap_handler_t entry;
	unsigned int entry_size;
	/*
	 * Kernel event probes with a condition of numeric globals: the
	 * condition without side effects.  While it is false the runtime
	 * may unregister the probe (runtime/linux/arming.c); the handler
	 * checks the condition all the same.  NULL: always registered.
	 */
	int (*armcond)(void);
	/*
	 * A .callee probe reached by calls: the stack must hold their
	 * return addresses, or the hit does not run (runtime/linux/callee.c).
	 * NULL: no check.
	 */
	const struct tap_callers *callers;
};

/*
 * A handler that may have changed a global some armcond() reads calls
 * this at its end: the runtime re-evaluates the conditions soon, from
 * process context.  Safe in any context (it only sets a flag).
 */
void tap_arm_kick(void);

/* Defined by the generated code. */
extern const struct tap_probe tap_probes[];
extern const unsigned int tap_nprobes;

/*
 * Bytes of per-CPU scratch memory the handlers need for locals, function
 * frames and string temporaries (kernel stacks are too small for them).
 * The runtime allocates this much per CPU, zeroed, and points
 * tap_context.locals at the current CPU's area before each hit.
 */
extern const unsigned long tap_locals_size;

/* -t: nonzero makes the runtime time every hit and print the report. */
extern const int tap_timing;
/* "MOD:NAME" of each module symbol module statics are read from
 * (tap_module_symbol), NULL-terminated. */
extern const char *const tap_modsyms[];
extern const unsigned int tap_nmodsyms;
/*
 * Entry values read away from a function's entry (DW_OP_entry_value):
 * a companion kprobe at target + offset (the function's entry) saves
 * DWARF register reg of each task that enters the function, which
 * tap_entry_value(c, k) reads back for the current task
 * (runtime/linux/entryval.c); in a user binary (user), a companion
 * uprobe on the file target at offset.  Ends with a NULL target.
 */
/*
 * A value an entry probe computes rather than a register's (a parameter
 * a clone no longer receives, DW_OP_GNU_parameter_ref, read away from
 * the entry): single assignments, each defining value i from earlier
 * ones, the last the value saved.  Values are 64-bit, DWARF's generic
 * type; register 16 is the entry's own address.
 */
enum tap_ev_kind {
	TAP_EVOP_REG,		/* register a's value plus val */
	TAP_EVOP_CONST,		/* val */
	TAP_EVOP_DEREF,		/* size bytes at value a (zero-extended); with
				 * guard, 0 without a read when value
				 * guard - 1 is 0 */
	TAP_EVOP_BINARY,	/* value a op value b */
	TAP_EVOP_UNARY,		/* op value a */
	TAP_EVOP_CONVERT,	/* value a cut to size bytes, sign-extended if
				 * is_signed */
	TAP_EVOP_MODSYM,	/* tap_modsyms[a] where loaded, plus val */
	TAP_EVOP_CALLSITE,	/* value a if value b is not 0, else the
				 * error "unknown callsite" */
};

/* DWARF's arithmetic: division, modulo, the arithmetic right shift and
 * comparisons signed; a shift by 64 or more gives 0 (or the sign). */
enum tap_ev_arith {
	TAP_EVA_ADD, TAP_EVA_SUB, TAP_EVA_MUL, TAP_EVA_DIV, TAP_EVA_MOD,
	TAP_EVA_AND, TAP_EVA_OR, TAP_EVA_XOR, TAP_EVA_SHL, TAP_EVA_SHR, TAP_EVA_SHRA,
	TAP_EVA_EQ, TAP_EVA_NE, TAP_EVA_LT, TAP_EVA_GT, TAP_EVA_LE, TAP_EVA_GE,
	TAP_EVA_NEG, TAP_EVA_NOT, TAP_EVA_ABS,
};

struct tap_ev_op {
	unsigned char kind;		/* enum tap_ev_kind */
	unsigned char op;		/* enum tap_ev_arith */
	unsigned char size;		/* DEREF, CONVERT: bytes */
	unsigned char is_signed;	/* CONVERT */
	unsigned short a, b;		/* operands: value numbers (REG: the
					 * register, MODSYM: the symbol) */
	unsigned short guard;		/* DEREF: 0, or a value number + 1 */
	unsigned long long val;		/* REG, CONST, MODSYM */
};

/* The most values one computed entry value has (pass 2's limit). */
#define TAP_EV_MAX_OPS 64

struct tap_entryval {
	const char *target;		/* "NAME" or "MOD:NAME"; user: a path */
	unsigned long offset;		/* bytes past it (in the file) */
	unsigned int reg;		/* DWARF register number, 0-16 */
	int user;			/* a uprobe on a user binary */
	const struct tap_ev_op *ops;	/* NULL: register reg is saved; else the
					 * value these compute */
	unsigned int nops;
};
extern const struct tap_entryval tap_entryvals[];
extern const unsigned int tap_nentryvals;

/*
 * tapc --privilege: the level the module was built for, SystemTap's bits
 * (src/privilege.h has the same).  The generated file defines it in the
 * section .tapc_privilege, which tapc-run reads to decide who may load
 * the module; a module that does not define it gets the runtime's
 * default, TAP_PR_STAPDEV.  A stapusr module reports process events only
 * of the processes of the user who loaded it.
 */
#define TAP_PR_STAPUSR	0x2
#define TAP_PR_STAPSYS	0x4
#define TAP_PR_STAPDEV	0x8
extern const unsigned int tap_privilege;

/* ---- Globals --------------------------------------------------------- */

enum tap_global_kind {
	TAP_GLOBAL_LONG = 1,	/* addr: long long * */
	TAP_GLOBAL_STR = 2,	/* addr: char [MAXSTRINGLEN] */
	TAP_GLOBAL_STAT = 3,	/* addr: struct tap_map **: a map without keys */
	TAP_GLOBAL_MAP = 4,	/* addr: struct tap_map ** */
};

/* Key and value types; the numbers match runtime/core/map.h. */
enum tap_type {
	TAP_T_LONG = 1,
	TAP_T_STR = 2,
	TAP_T_STAT = 3,		/* values only */
};

/* Histogram shape of a statistic; the numbers match runtime/core/stat.h. */
enum tap_hist_type {
	TAP_H_NONE = 0,
	TAP_H_LOG = 1,
	TAP_H_LINEAR = 2,
};

#define TAP_MAX_KEYS 9

struct tap_hist_decl {
	int type;			/* enum tap_hist_type */
	long long start, stop, interval;	/* linear only */
	int shift;			/* @variance(s, N): N, 0..62 */
};

/*
 * One script global.  Scalars (long, string) are plain variables of the
 * generated file with their initial values; statistics and arrays are
 * created by the runtime at module load (before any probe runs) and
 * stored through addr, and destroyed at unload.  A scalar statistic is a
 * map with no keys, so every statistic goes through the same calls.
 */
struct tap_global {
	const char *name;		/* the script's name, for messages */
	int kind;			/* enum tap_global_kind */
	void *addr;
	unsigned int max_entries;	/* MAP: global a[N]; 0: MAXMAPENTRIES */
	int wrap;			/* MAP: global a% */
	int nkeys;			/* MAP: 1..TAP_MAX_KEYS; STAT: 0 */
	unsigned char key_types[TAP_MAX_KEYS];	/* enum tap_type */
	int val_type;			/* MAP: enum tap_type; STAT: TAP_T_STAT */
	struct tap_hist_decl hist;	/* statistics: the histogram kept */
};

extern const struct tap_global tap_globals[];
extern const unsigned int tap_nglobals;

/* ---- Arrays and statistics ------------------------------------------- */

struct tap_map;			/* opaque */
struct tap_map_entry;		/* opaque: one element */

/* One key field of an array access; an array of nkeys of them. */
union tap_idx {
	long long l;
	const char *s;
};

/*
 * Reads do not create elements: a missing element reads as 0 or "".
 * Writes that would need a new element in a full array raise "Array
 * overflow, check MAXMAPENTRIES" (or the declared size) unless the array
 * wraps, in which case the oldest element is replaced.  Every call that
 * returns int returns 0, or nonzero after raising an error in @c.
 */
long long tap_map_get_long(struct tap_map *m, const union tap_idx *k);
/* Copies the value (or "") into @out, MAXSTRINGLEN bytes. */
void tap_map_get_str(struct tap_map *m, const union tap_idx *k, char *out);
int tap_map_set_long(struct tap_context *c, struct tap_map *m,
		     const union tap_idx *k, long long v);
int tap_map_set_str(struct tap_context *c, struct tap_map *m,
		    const union tap_idx *k, const char *v);
/* m[k] <<< v, and s <<< v for a scalar statistic (k unused). */
int tap_map_add_stat(struct tap_context *c, struct tap_map *m,
		     const union tap_idx *k, long long v);
/*
 * [k] in m.  Bit i of @wild set: key field i is "*" and matches anything
 * (its k[i] is ignored).
 */
int tap_map_exists(struct tap_map *m, const union tap_idx *k,
		   unsigned int wild);
/* delete m[k] (with wildcards: every matching element); delete m. */
void tap_map_delete(struct tap_map *m, const union tap_idx *k,
		    unsigned int wild);
void tap_map_clear(struct tap_map *m);

/* Statistic extractors, for @count(s), @sum(s[k]) ... */
enum tap_stat_op {
	TAP_STAT_OP_COUNT = 1,
	TAP_STAT_OP_SUM,
	TAP_STAT_OP_MIN,
	TAP_STAT_OP_MAX,
	TAP_STAT_OP_AVG,
	TAP_STAT_OP_VARIANCE,
};

/*
 * @op(m[k]) into *out.  @count and @sum of a missing or empty statistic
 * are 0; the others raise "empty aggregate".  @variance uses the bit shift
 * the global was declared with (tap_hist_decl.shift): the data are kept
 * scaled by it; @shift is accepted for symmetry and not used.
 */
int tap_stat_get(struct tap_context *c, struct tap_map *m,
		 const union tap_idx *k, int op, int shift, long long *out);
/*
 * The count in one bucket of m[k]'s histogram, for a foreach over it:
 * "histogram index out of range"; a missing array element: "aggregate
 * element not found" (SystemTap would read through a NULL there).
 */
int tap_hist_get(struct tap_context *c, struct tap_map *m,
		 const union tap_idx *k, long long bucket, long long *out);
/*
 * @hist_*(m[k])[bucket] into *out: "empty aggregate" for a statistic
 * without data or a missing array element, then "histogram index out of
 * range", in SystemTap's order.
 */
int tap_hist_index(struct tap_context *c, struct tap_map *m,
		   const union tap_idx *k, long long bucket, long long *out);
/*
 * print(@hist_*(m[k])): SystemTap's ASCII histogram to the output; a
 * statistic without data or a missing array element raises "empty
 * aggregate".
 */
int tap_hist_print(struct tap_context *c, struct tap_map *m,
		   const union tap_idx *k);
/*
 * sprint(@hist_*(m[k])): the same text into @buf (MAXSTRINGLEN bytes,
 * truncated); the same errors as tap_hist_print().
 */
int tap_hist_sprint(struct tap_context *c, char *buf, struct tap_map *m,
		    const union tap_idx *k);

/*
 * foreach: tap_foreach_start() snapshots the order of iteration of @m
 * (sorted on @column: 0 the value, i the i-th key, 1-based; @dir -1, 0
 * unsorted in insertion order, +1; @stat_op: the extractor that orders
 * statistics values; at most @limit elements if @limit >= 0) and returns
 * how many elements there are, or -1 after raising an error.
 * tap_foreach_get() returns the i-th of them, or NULL if the body has
 * deleted it since (skip it).  Elements must not be added while the loop
 * runs (pass 2 forbids it).  The snapshot is per map and CPU: loops on
 * several CPUs do not disturb each other, but a foreach nested in another
 * over the same map is not supported.  For a statistics map the
 * elements are those of the merged (all-CPU) data, and @stat_op 0 sorts
 * on @count.
 */
long long tap_foreach_start(struct tap_context *c, struct tap_map *m,
			    int column, int dir, int stat_op, long long limit);
struct tap_map_entry *tap_foreach_get(struct tap_map *m, long long i);
/* Key field @i (0-based) and value of an element. */
long long tap_entry_key_long(struct tap_map *m, struct tap_map_entry *e,
			     int i);
const char *tap_entry_key_str(struct tap_map *m, struct tap_map_entry *e,
			      int i);
long long tap_entry_long(struct tap_map *m, struct tap_map_entry *e);
const char *tap_entry_str(struct tap_map *m, struct tap_map_entry *e);
/* As tap_stat_get() / tap_hist_print() for the element @e. */
int tap_entry_stat(struct tap_context *c, struct tap_map *m,
		   struct tap_map_entry *e, int op, int shift,
		   long long *out);
int tap_entry_hist_print(struct tap_context *c, struct tap_map *m,
			 struct tap_map_entry *e);

/*
 * The per-CPU context of one probe hit.  The runtime fills it in before it
 * calls a handler; generated code reads and writes the public fields below
 * and leaves the rest alone.
 */
struct tap_context {
	const struct tap_probe *probe;	/* the probe being run */
	/*
	 * What is being run, for error messages: "TOKEN at FILE:LINE:COL",
	 * e.g. "operator '/' at t.stp:3:12".  Set by TAP_STMT().
	 */
	const char *last_stmt;
	/* NULL, or the error raised in this hit: the handler must unwind. */
	const char *last_error;
	long long actionremaining;	/* MAXACTION budget left */
	int aborted;			/* abort(): unwinding, past any catch */
	int nesting;			/* function call depth */
	char error_buf[TAP_ERRMSG_LEN];	/* storage of a copied message */
	void *locals;			/* tap_locals_size bytes, this CPU's */
	struct tap_regmatch regmatch;	/* the last =~ match, for matched() */
	void *priv;			/* the runtime's per-CPU state */
	/*
	 * The event being handled: the registers at the probed point (NULL
	 * for begin/end/error/timer probes), whether they are a user
	 * space's (system call entry, a user-mode sample), and the family's
	 * own description of the event (e.g. a tracepoint's arguments).
	 */
	struct pt_regs *regs;
	int user_regs;
	const void *event;
	/* A .return probe's values saved at entry (struct tap_probe.entry),
	 * or NULL. */
	void *saved;
	/* set_returnval() (--compatible=4.0 and older): what returnval()
	 * gives for the rest of the hit, when returnval_set. */
	long long returnval_override;
	int returnval_set;
};

/*
 * One printf argument.  is_str selects str (a NUL-terminated string; NULL
 * prints "<NULL>") or num.  For %m and %M, num is the address to read.
 */
struct tap_parg {
	int is_str;
	long long num;
	const char *str;
};

#define TAP_PNUM(v)	((struct tap_parg){ .is_str = 0, .num = (v) })
#define TAP_PSTR(v)	((struct tap_parg){ .is_str = 1, .str = (v) })

/*
 * tap_error() - raise an error in the current hit: records a copy of @msg
 * (at most TAP_ERRMSG_LEN - 1 bytes) and c->last_stmt.  The first error of
 * a hit wins.  Generated code checks c->last_error after every call that
 * can fail and returns.  When the handler has returned, the runtime
 * prints "ERROR: MSG near TOKEN at FILE:LINE:COL" on the error channel and
 * counts the error; more than MAXERRORS errors stop the script (end probes
 * are skipped, error probes run).
 */
void tap_error(struct tap_context *c, const char *msg);

/*
 * tap_abort() - abort(): as exit(), and the current hit stops at once:
 * it unwinds as for an error (c->last_error is set) that try/catch does
 * not catch and that is not reported.
 */
void tap_abort(struct tap_context *c);

/*
 * tap_run_event() - run one hit of kernel event probe @p on this CPU, with
 * the event's @regs (a user space's registers if @user_regs) and the
 * family's description of the event (@event), unless the session is not
 * running (hits before the begin probes finish, or once it stops, are
 * dropped).  Any context a probe can fire in.  Called by the runtime's
 * families, and by generated callbacks (e.g. one with a tracepoint's own
 * signature).
 */
void tap_run_event(const struct tap_probe *p, struct pt_regs *regs,
		   int user_regs, const void *event);

/*
 * tap_run_entry() - run the entry half of .return probe @p (its ->entry)
 * at the function's entry (@regs a user space's if @user_regs, @event the
 * family's as for tap_run_event()), filling @saved (->entry_size bytes).  Return:
 * 0 when it ran without error, else nonzero: the values are not there, and
 * the family must not run the return half for this call (it is counted
 * as skipped, or its error reported, as for any hit).
 */
int tap_run_entry(const struct tap_probe *p, struct pt_regs *regs, int user_regs,
		  const void *event, void *saved);

/*
 * tap_run_return() - as tap_run_event() for .return probe @p, whose
 * handler reads the values tap_run_entry() saved in @saved.
 */
void tap_run_return(const struct tap_probe *p, struct pt_regs *regs, int user_regs,
		    const void *event, void *saved);

/* tap_print() - append a NUL-terminated string to the hit's output. */
void tap_print(struct tap_context *c, const char *s);

/* tap_print_n() - append @len bytes (NULs allowed) to the hit's output. */
void tap_print_n(struct tap_context *c, const char *s, unsigned long len);

/*
 * tap_printf() - SystemTap's printf (runtime/core/format.h) to the hit's
 * output.  A bad format or an unreadable %m address raises an error.
 * Return: bytes printed, or -1 after raising an error.
 */
int tap_printf(struct tap_context *c, const char *fmt, int nargs,
	       const struct tap_parg *args);

/*
 * tap_sprintf() - SystemTap's sprintf into @buf of @size bytes (usually
 * MAXSTRINGLEN); always NUL-terminated.  Return: as tap_printf().
 */
int tap_sprintf(struct tap_context *c, char *buf, unsigned long size,
		const char *fmt, int nargs, const struct tap_parg *args);

/*
 * tap_exit() - exit(): no further probe hits start (timers stop), then
 * tapc-run is told, the end probes run and the output drains.
 */
void tap_exit(struct tap_context *c);

/* tap_target() - target(): the pid given with -x or the -c command's, or 0. */
long long tap_target(void);

/*
 * is_myproc(): whether the current task belongs to the user who loaded the
 * module (its effective uid is theirs), as SystemTap's.
 */
int tap_is_myproc(void);

/*
 * Before C marked myproc-unprivileged runs in a stapusr module: nonzero,
 * with SystemTap's error raised in @c, when the current task is not the
 * user's ("if (tap_assert_myproc(c)) goto out;").
 */
int tap_assert_myproc(struct tap_context *c);

/* Record what is being run, for error messages. */
#define TAP_STMT(c, where)	((c)->last_stmt = (where))

/*
 * Spend @n actions of the hit's budget, as SystemTap's generated code
 * does where a run of statements ends: out of budget (nothing or less
 * left), raise "MAXACTION exceeded" at @where and leave for @label.  A
 * macro (not a function) so that gcc's -Wmisleading-indentation (in
 * kbuild's -Wall), which is quadratic in the lines of a file, skips it:
 * a script of 20,000 statements spent 13 s of its build there.
 */
#define TAP_SPEND_AT(c, n, where, label)				\
	do {								\
		if (((c)->actionremaining -= (n)) <= 0) {		\
			TAP_STMT((c), (where));				\
			tap_error((c), "MAXACTION exceeded");		\
			goto label;					\
		}							\
	} while (0)
/*
 * The same spending for hand-written C: nonzero, with the error raised,
 * when nothing is left ("if (TAP_ACTIONS(c, 3)) return;").
 */
#define TAP_ACTIONS(c, n)						\
	(((c)->actionremaining -= (n)) <= 0 &&				\
	 (tap_error((c), "MAXACTION exceeded"), 1))
/* Leave for @label when an error was raised. */
#define TAP_CHECK(c, label)						\
	do {								\
		if ((c)->last_error)					\
			goto label;					\
	} while (0)

/*
 * Function call depth: "if (TAP_NEST_ENTER(c)) return;" before the body of
 * a script function, TAP_NEST_LEAVE(c) on every way out after that.
 */
#define TAP_NEST_ENTER(c)						\
	(++(c)->nesting > MAXNESTING &&					\
	 ((c)->nesting--, tap_error((c), "MAXNESTING exceeded"), 1))
#define TAP_NEST_LEAVE(c)	((c)->nesting--)

/*
 * Generated code that stores many values in a row (the arguments of a
 * call with hundreds of them) puts this between groups of stores: gcc's
 * vectoriser and dead-store elimination are superlinear in the length of
 * such a run (gigabytes and minutes at -O2).  It emits no instruction.
 */
#define TAP_STORE_BREAK()	__asm__ __volatile__("" : : : "memory")

/* ---- Values and strings --------------------------------------------- */

/*
 * Arithmetic that can fail: "division by 0" is raised in @c (the result
 * is then 0).  LLONG_MIN / -1 gives LLONG_MIN and LLONG_MIN % -1 gives 0,
 * as SystemTap's 64-bit arithmetic does, without trapping.
 */
long long tap_div(struct tap_context *c, long long a, long long b);
long long tap_mod(struct tap_context *c, long long a, long long b);
/* A parameter's value at the call site the probed function was called
 * from: @value when @matched (the return address is a known call site),
 * else the error "unknown callsite" (DW_OP_GNU_parameter_ref). */
long long tap_callsite_value(struct tap_context *c, long long value, long long matched);

/* The C library's string basics, kernel-safe. */
unsigned long tap_strlen(const char *s);
/* Copy/append, always NUL-terminated within @size; returns strlen(src)
 * (tap_strlcpy) or the length tried (tap_strlcat), as BSD's do. */
unsigned long tap_strlcpy(char *dst, const char *src, unsigned long size);
unsigned long tap_strlcat(char *dst, const char *src, unsigned long size);
int tap_strcmp(const char *a, const char *b);
void *tap_memset(void *s, int ch, unsigned long n);
void *tap_memcpy(void *dst, const void *src, unsigned long n);

/* error() and STAP_ERROR(): format a message (kernel vsnprintf rules, at
 * most TAP_ERRMSG_LEN - 1 bytes) and raise it as tap_error() does. */
void tap_errorf(struct tap_context *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- Script functions written in C ------------------------------------ */

/*
 * Inside the body of a function written as %{ ... %} (in a tapset, or in
 * a script run with -g) the translator defines:
 *
 *	CONTEXT		the struct tap_context * of the hit
 *	STAP_ARG_name	the parameter: long long, or const char *
 *	STAP_RETVALUE	the result: a long long lvalue, or a char * to
 *			MAXSTRINGLEN bytes
 *	STAP_RETURN(v)	set the result and leave the function
 *	STAP_ERROR(fmt, ...)	raise an error and leave the function
 *	STAP_PRINTF(fmt, ...)	print to the script's output (printf
 *			rules of the kernel's vsnprintf)
 *	THIS		a pointer to a struct with the parameters by name and
 *			__retvalue: the older spelling of the above
 *
 * and the body may call every function this header declares, and those
 * of tapc_tapset.h.
 */
void tap_cprintf(struct tap_context *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The output and logging calls of SystemTap's runtime that embedded C
 * makes (_stp_log(), _stp_warn(), _stp_softerror(), _stp_error() and
 * _stp_print_flush(): tapc_embedded.h). */
enum tap_elog { TAP_ELOG_LINE, TAP_ELOG_WARN, TAP_ELOG_SOFTERROR, TAP_ELOG_ERROR };
void tap_embedded_log(struct tap_context *c, enum tap_elog kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tap_print_flush(struct tap_context *c);

#include "tapc_usym.h"
#include "tapc_tapset.h"


/* requested by the translator: */
/*
 * foreach over @hist_*(m[k]): the number of buckets of that histogram
 * (what tap_hist_get() accepts: 0 .. n-1), or -1 after raising an error.
 */
long long tap_hist_buckets(struct tap_context *c, struct tap_map *m,
			   const union tap_idx *k);

#endif /* TAPC_RUNTIME_H */
