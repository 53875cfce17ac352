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
 *
 * and the handlers those entries point to.  The runtime provides the
 * module's init and exit, runs the probes, and provides the functions
 * declared below.
 */
#ifndef TAPC_RUNTIME_H
#define TAPC_RUNTIME_H

/* Limits; each can be overridden with -D (for the runtime and the script). */
#ifndef MAXERRORS
#define MAXERRORS 0		/* errors tolerated before the script stops */
#endif
#ifndef MAXSKIPPED
#define MAXSKIPPED 100		/* skipped probes tolerated */
#endif
#ifndef MAXACTION
#define MAXACTION 1000		/* statements per probe hit */
#endif
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
#ifndef TAP_ERRBUF_SIZE
#define TAP_ERRBUF_SIZE (16 * 1024)	/* ERROR/WARNING channel */
#endif
#ifndef TAP_ERRMSG_LEN
#define TAP_ERRMSG_LEN 128	/* bytes kept of one error message */
#endif

/* Kinds of probe the runtime itself provides. */
enum tap_probe_kind {
	TAP_PROBE_BEGIN = 1,
	TAP_PROBE_END = 2,
	TAP_PROBE_ERROR = 3,
	TAP_PROBE_TIMER = 4,	/* timer.ns/us/ms/s/hz: an hrtimer */
};

struct tap_context;
typedef void (*tap_handler_t)(struct tap_context *c);

/* One probe point, as the translator emits it. */
struct tap_probe {
	int kind;			/* enum tap_probe_kind */
	long long seq;			/* begin/end/error: sequence number */
	unsigned long long interval_ns;	/* timer: period in ns (> 0) */
	tap_handler_t handler;
	const char *pp;			/* probe point, e.g. "begin(10)" */
	const char *loc;		/* where it is declared: "FILE:LINE:COL" */
};

/* Defined by the generated code. */
extern const struct tap_probe tap_probes[];
extern const unsigned int tap_nprobes;

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
	int nesting;			/* function call depth */
	char error_buf[TAP_ERRMSG_LEN];	/* storage of a copied message */
	void *priv;			/* the runtime's per-CPU state */
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

/* Record what is being run, for error messages. */
#define TAP_STMT(c, where)	((c)->last_stmt = (where))

/*
 * Spend @n actions of the hit's MAXACTION budget; evaluates to nonzero
 * (and raises the error) when it is exhausted: "if (TAP_ACTIONS(c, 3))
 * return;".
 */
#define TAP_ACTIONS(c, n)						\
	(((c)->actionremaining -= (n)) < 0 &&				\
	 (tap_error((c), "MAXACTION exceeded"), 1))

/*
 * Function call depth: "if (TAP_NEST_ENTER(c)) return;" before the body of
 * a script function, TAP_NEST_LEAVE(c) on every way out after that.
 */
#define TAP_NEST_ENTER(c)						\
	(++(c)->nesting > MAXNESTING &&					\
	 ((c)->nesting--, tap_error((c), "MAXNESTING exceeded"), 1))
#define TAP_NEST_LEAVE(c)	((c)->nesting--)

#endif /* TAPC_RUNTIME_H */
