/* The kernel's tracepoints, catalogued from its BTF and its headers.
 *
 * The kernel's BTF has, for every tracepoint NAME, a
 * typedef btf_trace_NAME: pointer to a function (void *__data, ARGS),
 * where ARGS are the arguments as a probe handler receives them; its
 * prototype carries types but no names, since it is a function pointer.
 * Names come from the __bpf_trace_CLASS function that the event's class
 * (TRACE_EVENT / DECLARE_EVENT_CLASS) defines, whose parameters have the
 * same types in the same order.  The recorded fields are the struct
 * trace_event_raw_CLASS.
 *
 * BTF does not say which class an event of DEFINE_EVENT belongs to, nor
 * its system ("sched" in sched:sched_switch).  Both are read from the
 * kernel headers when given (include/trace/events and the x86 ones); an
 * event they do not cover takes the class of its own name, else the one
 * with the same argument types that shares the longest prefix with its
 * name, and when classes that name the arguments differently tie, the
 * names are left "" rather than guessed.  Its system is then its class's
 * in the headers, else unknown (NULL): events of headers that a headers
 * package does not ship (drivers', some arch ones) and bare tracepoints
 * (DECLARE_TRACE, which have no system). */
#ifndef TAPC_TPCATALOG_H
#define TAPC_TPCATALOG_H

#include <stddef.h>
#include <stdint.h>

struct btf;

struct btf_tp_arg {
	const char *name;	/* "" when unknown (see above) */
	uint32_t type;
};

struct btf_tracepoint {
	const char *name;	/* sched_switch */
	const char *system;	/* sched, or NULL when unknown */
	const char *class_name;	/* the template's name, NULL if not found */
	uint32_t nargs;
	struct btf_tp_arg *args;	/* without the leading void *__data */
	uint32_t raw_struct;	/* trace_event_raw_CLASS, 0 if not found */
};

struct btf_tracepoints;

/* Collect the tracepoints of BTF.  HEADERS_DIR, when not NULL, is a kernel
 * headers tree (e.g. /usr/src/linux-headers-R-common) whose
 * include/trace/events/ headers name each event's system and class; events
 * not found there keep system NULL.  NULL with ERR set on failure. */
struct btf_tracepoints *btf_tracepoints_load(const struct btf *btf,
					     const char *headers_dir,
					     char *err, size_t errlen);
/* The same of a module's split BTF: only its own types, FIRST_ID (the
 * kernel's type count + 1) and on, are the module's events and classes;
 * their systems and classes come from the headers KERNEL's catalogue
 * read (which must outlive this one). */
struct btf_tracepoints *btf_tracepoints_load_module(const struct btf *btf, uint32_t first_id,
						    const struct btf_tracepoints *kernel,
						    char *err, size_t errlen);
void btf_tracepoints_free(struct btf_tracepoints *tps);
/* The system the headers give EVENT (a module's too: the headers are the
 * whole kernel's), or NULL. */
const char *btf_tracepoints_header_system(const struct btf_tracepoints *tps,
					  const char *event);
size_t btf_tracepoints_count(const struct btf_tracepoints *tps);
/* Sorted by name. */
const struct btf_tracepoint *btf_tracepoint_at(const struct btf_tracepoints *tps,
					       size_t index);
const struct btf_tracepoint *btf_tracepoint_find(const struct btf_tracepoints *tps,
						 const char *name);
/* Call FN for each tracepoint matching the glob PATTERN: "NAME" globs the
 * event name, "SYSTEM:NAME" globs both (events of unknown system never
 * match that form).  Returns the number of matches. */
size_t btf_tracepoints_match(const struct btf_tracepoints *tps, const char *pattern,
			     void (*fn)(const struct btf_tracepoint *tp, void *arg),
			     void *arg);

#endif
