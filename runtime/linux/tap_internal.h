/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarations shared by the files of runtime/linux/.  Not for generated
 * code, which sees only tapc_runtime.h.
 */
#ifndef TAPC_LINUX_INTERNAL_H
#define TAPC_LINUX_INTERNAL_H

#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include "tapc_runtime.h"
#include "stat.h"

/*
 * Session states.  tapc-run writes "start" (LOADED -> STARTING, begin
 * probes, -> RUNNING) and "stop" (-> STOPPING, end or error probes,
 * -> DONE).  exit(), too many errors or skipped probes move a STARTING or
 * RUNNING session to EXITING: no probe hit starts any more and tapc-run,
 * told through the control file, answers with "stop".
 */
enum tap_state {
	TAP_LOADED,
	TAP_STARTING,
	TAP_RUNNING,
	TAP_EXITING,
	TAP_STOPPING,
	TAP_DONE,
};

/* A bounded byte ring: writers never block; what does not fit is counted. */
struct tap_ring {
	char *buf;
	size_t size;
	u64 head;		/* bytes ever written */
	u64 tail;		/* bytes ever read */
	u64 dropped;		/* bytes that did not fit */
	atomic64_t nmi_dropped;	/* bytes dropped without the lock (NMI) */
	atomic64_t cut;		/* bytes of prints longer than a hit's buffer */
	bool overwrite;		/* flight recorder: the oldest lines make room */
	spinlock_t lock;
	wait_queue_head_t wq;
};

/* Bytes of one statistic with the largest histogram. */
#define TAP_STAT_MAX_SIZE						\
	(sizeof(struct tap_stat) + sizeof(s64) *			\
	 (TAP_HIST_MAX_BUCKETS > TAP_HIST_LOG_BUCKETS ?			\
	  TAP_HIST_MAX_BUCKETS : TAP_HIST_LOG_BUCKETS))

/* A string and a prefix: the per-CPU scratch of tapset helpers. */
#define TAP_SCRATCH_SIZE (MAXSTRINGLEN + 64)

/* Room for the text of the largest histogram print(@hist_*(s)) makes. */
#define TAP_HIST_TEXT_SIZE (24 * 1024)

/* The runtime's per-CPU state; tap_context.priv points here. */
struct tap_cpu {
	struct tap_context ctx;
	atomic_t busy;		/* a hit is running on this CPU */
	size_t len;		/* bytes in out */
	char out[TAP_PRINT_BUFSIZE];
	void *locals;		/* tap_locals_size bytes, or NULL */
	struct tap_stat *timing;	/* -t: one (no histogram) per probe */
	/* one statistic merged from all CPUs, for extractors */
	u64 stat_scratch[TAP_STAT_MAX_SIZE / sizeof(u64) + 1];
	char hist_text[TAP_HIST_TEXT_SIZE];
	/* a string-sized buffer for tapset helpers (tap_cpu_scratch()) */
	char scratch[TAP_SCRATCH_SIZE];
};

extern struct tap_ring tap_out_ring, tap_err_ring, tap_cmd_ring;
extern atomic_t tap_state;
extern atomic_t tap_error_count, tap_skipped_count, tap_suppressed_count;
extern atomic_t tap_state_gen;	/* bumped on every state change */

/* privilege.c: the level the module was built for and its user */
extern kuid_t tap_uid;		/* the real user that loaded the module */
extern kgid_t tap_gid;
void tap_privilege_init(void);	/* at load, in the loader's context */
/* The loader's task, whose namespaces ns_*() see; RCU held (privilege.c). */
struct task_struct *tap_ns_task(void);
bool tap_stapusr(void);		/* a --privilege=stapusr module */
struct task_struct;
bool tap_task_is_users(struct task_struct *t);	/* t's euid is tap_uid */

/* tapset_module.c: what the runtime allocated at load, for module_size():
 * per-CPU contexts and locals, the output channels, the rest */
enum tap_mem_kind { TAP_MEM_CTX, TAP_MEM_NET, TAP_MEM_ALLOC, TAP_MEM_KINDS };
void tap_mem_count(enum tap_mem_kind kind, size_t bytes);

/* transport.c */
int tap_transport_init(const char *modname);
void tap_transport_exit(void);
/* false when the piece was dropped (no room, or NMI and a busy lock) */
bool tap_ring_write(struct tap_ring *r, const char *s, size_t len);
/* The script's output: the out ring, or this CPU's in bulk mode. */
bool tap_out_write(const char *s, size_t len);
void tap_count_cut(u64 len);
void tap_notify(void);		/* wake readers; safe in any context */
__printf(1, 2) void tap_errmsg(const char *fmt, ...);
__printf(1, 2) void tap_outmsg(const char *fmt, ...);

/* maps.c: tap_globals[] statistics and arrays */
int tap_globals_init(void);
void tap_globals_exit(void);

/* locks.c: one rwlock per global, the probes' lock sets */
int tap_locks_init(void);
void tap_locks_exit(void);
int tap_check_locks(const struct tap_probe *p);
bool tap_lock_probe(const struct tap_probe *p);
void tap_unlock_probe(const struct tap_probe *p);
void tap_locks_report(void);

/* timing.c: -t */
int tap_timing_init(struct tap_cpu *pc);
void tap_timing_free(struct tap_cpu *pc);
u64 tap_timing_start(void);
void tap_timing_add(struct tap_cpu *pc, const struct tap_probe *p, u64 start);
void tap_timing_report(struct tap_cpu *const *cpus);

/*
 * A kernel event family (kprobes, tracepoints ...): the probes of tap_probes[]
 * of its kind are its to register.  init() runs at module load, in process
 * context, after the per-CPU state and globals exist; it registers the
 * probes (a hit before the session runs is dropped by tap_run_event) and
 * returns 0, or a negative errno after it has undone its own work.  stop()
 * runs once the session stops, before the end probes: it unregisters and
 * returns only when no hit of the family is still running.  Both may sleep.
 * A family with no probes in tap_probes[] must do nothing.
 */
struct tap_family {
	const char *name;
	int (*init)(void);
	void (*stop)(void);
	/* optional: the session is now running (after the begin probes);
	 * process context; stop() follows */
	void (*start)(void);
	/*
	 * optional, with kind: unregister (on false) or register again a
	 * probe of that kind whose armcond() changed (arming.c).  Process
	 * context, between init() and stop(), never concurrently with
	 * either; a probe whose registration failed stays as it is.
	 */
	int kind;
	void (*arm)(const struct tap_probe *p, bool on);
};

/* arming.c: probes unregistered while their condition is false */
int tap_arming_init(void);
void tap_arming_start(void);	/* the session runs: first evaluation */
void tap_arming_stop(void);	/* before the families stop */
void tap_arming_exit(void);

/* DWARF's x86-64 number of xmm0; xmm1-15 follow it. */
#define TAP_DWARF_XMM0 17
/* tapset_regs.c: DWARF register @regno (0-16) of @regs, the current
 * task's user xmm0-15 for 17-32 (user probes only), 0 past them. */
unsigned long tap_regs_dwarf(const struct pt_regs *regs, unsigned int regno);

/* families.c: every family the runtime has, in registration order. */
extern const struct tap_family *const tap_families[];

/*
 * tplookup.c: the kernel's (built-in) tracepoint called @name, or NULL.
 * Process context.
 */
struct tracepoint *tap_tracepoint_find(const char *name);

/*
 * ksymlookup.c: kernel symbols modules have no export for; process
 * context.  The entry of function @name, or NULL with *@err set (-ENOENT:
 * no such symbol); the address of any symbol @name, data included, or 0.
 */
void *tap_kernel_function(const char *name, int *err);
unsigned long tap_kernel_symbol(const char *name);
/* Whether module @name ('-' and '_' alike) is loaded and live. */
bool tap_module_live(const char *name);
int tap_modsyms_init(void);
void tap_modsyms_exit(void);
/* Where tap_modsyms[@k] is now, or 0 (its module is not loaded); any
 * context. */
unsigned long tap_modsym_addr(unsigned int k);
/* tapset_stack.c: up to @max kernel addresses of the hit's stack,
 * innermost (the pc) first; their number */
unsigned int tap_kstack(struct tap_context *c, unsigned long *pcs, unsigned int max);
/* callee.c: whether the stack holds the calls @k names */
bool tap_callers_match(struct tap_context *c, const struct tap_callers *k);

/* control.c (tap_run_event() is in tapc_runtime.h) */
void tap_count_skipped(void);
int tap_ctl_start(void);
int tap_ctl_stop(void);
void tap_set_state(int state);
bool tap_request_exit(void);

/* print.c */
void tap_flush(struct tap_cpu *pc);

/*
 * This CPU's TAP_SCRATCH_SIZE bytes for a tapset helper that needs a
 * string beside its result: MAXSTRINGLEN may be far more than a kernel
 * stack frame may hold.  Only during a hit (interrupts are off, so the
 * CPU cannot change), and only in a helper that calls no other user of
 * it.
 */
char *tap_cpu_scratch(void);
/* callers() and ucallers(): "0xA 0xB ..." of @pcs[0..@n] (tapset_stack.c) */
void tapset_hex_words(struct tap_context *c, char *out,
		      const unsigned long *pcs, unsigned int got, long long n);

/* uprobes.c: a TAP_PROBE_UPROBE hit's event (tap_context.event). */
struct tap_uprobe_event {
	unsigned long bias;	/* the binary's load address minus its
				 * link-time one (tap_uprobe_bias()) */
};

/* tapset_memory.c: a no-fault read of kernel memory at any address;
 * 0 or -EFAULT */
long tap_read_kernel(void *dst, unsigned long addr, size_t len);

/* entryexpr.c: how computing an entry value went */
enum tap_ev_status {
	TAP_EVS_OK,		/* *val is the value */
	TAP_EVS_FAULT,		/* a read fault at *val */
	TAP_EVS_CALLSITE,	/* the return address is no known call site */
	TAP_EVS_NOMOD,		/* a module symbol not loaded */
	TAP_EVS_DIV0,		/* a division by 0 */
	TAP_EVS_BAD,		/* a malformed table row */
};

/*
 * The value @ev->ops compute at a function's entry, with @regs the
 * registers there and @entry the entry's address (register 16); memory
 * is read without faulting, the task's own for a user binary's row.
 */
enum tap_ev_status tap_ev_compute(const struct tap_entryval *ev, const struct pt_regs *regs,
				  unsigned long entry, unsigned long *val);

#endif /* TAPC_LINUX_INTERNAL_H */
