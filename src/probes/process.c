/* Process lifetime and system call probes:
 *
 *   process.begin, process("PATH").begin, process(PID).begin
 *	a process starts running a program: in the new process, when it
 *	first runs after a fork, and after each successful exec; and, as
 *	in SystemTap, in each process that already runs when the session
 *	starts (only the target with -c/-x);
 *   process.end, process("PATH").end, process(PID).end
 *	the last thread of a process exits, in its context;
 *   process[("PATH")|(PID)].thread.begin, .thread.end
 *	the same for the other threads of a process (as SystemTap's, not
 *	its first thread, which begin and end report): in the new thread
 *	when it first runs, and in each such thread that already runs at
 *	the start; in the exiting thread when it is not the last one;
 *   process[("PATH")|(PID)].syscall, .syscall.return
 *	every system call of the process's threads, in the caller, at
 *	entry and on return: $syscall (the number), $arg1..$arg6 and
 *	$$parms at entry, $return on return (SystemTap's utrace probes);
 *   __tapc_kprocess.{start,exec,exec_complete,exit,release}
 *	the kernel's process events behind the kprocess.* aliases of
 *	tapsets/kprocess.stp, whose variables read the event through the
 *	functions of that tapset.  Their probes are named, in pp() and -p2,
 *	by the point SystemTap's alias resolves to (see kp_derived_point).
 *	(kprocess.create is an alias of the sched_process_fork tracepoint,
 *	as in SystemTap.)
 *
 * A PATH without '/' is looked up in $PATH, and every PATH is resolved to
 * the file it names (symbolic links followed), as SystemTap does; a "#!"
 * script is taken as itself (its processes run its interpreter, so they
 * never match it), and a PATH that names no file stays as written (as in
 * SystemTap, whose event probes do not check it); the runtime matches the
 * program's file.  A PATH with a wildcard ('*', '?',
 * '[') stays as written, as in SystemTap (pp() shows it), and the runtime
 * matches it, as a glob, against the path of the program a process runs.  The runtime half is
 * runtime/linux/process.c (TAP_PROBE_PROCESS): .arg[0] is the event
 * (TAP_PROC_* there), .arg[1] a process id to match (0: any), .target
 * the program's path (NULL: any).  In a module built with
 * --privilege=stapusr the runtime reports only the processes of the user
 * who loaded it, as SystemTap does.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../runtime/tapc_families.h"
#include "probes/family.h"
#include "translate_int.h"
#include "tvar.h"
#include "upath.h"
#include "util.h"

/* The events (the patterns' variants) are enum tap_process_event, which
 * the runtime shares. */
enum {
	PROC_BEGIN = TAP_PROC_BEGIN, PROC_END = TAP_PROC_END,
	KP_START = TAP_KP_START, KP_EXEC = TAP_KP_EXEC,
	KP_EXEC_COMPLETE = TAP_KP_EXEC_COMPLETE, KP_EXIT = TAP_KP_EXIT,
	KP_RELEASE = TAP_KP_RELEASE,
	THREAD_BEGIN = TAP_PROC_THREAD_BEGIN, THREAD_END = TAP_PROC_THREAD_END,
	SYSCALL = TAP_PROC_SYSCALL, SYSCALL_RETURN = TAP_PROC_SYSCALL_RETURN,
};

/* The event is the variant. */
#define EVENT(name, ev) PAT_OR(name, PA_NONE, ev)

static const struct pattern_row process_rows[] = {
	{ 0, { PAT_C("process", PA_OPTSTRNUM),
	       PAT_BIT("begin", PA_NONE, PROC_BEGIN), EVENT("end", PROC_END) } },
	{ THREAD_BEGIN, { PAT_C("process", PA_OPTSTRNUM), PAT_C("thread", PA_NONE),
			  PAT_C("begin", PA_NONE) } },
	{ THREAD_END, { PAT_C("process", PA_OPTSTRNUM), PAT_C("thread", PA_NONE),
			PAT_C("end", PA_NONE) } },
	{ SYSCALL, { PAT_C("process", PA_OPTSTRNUM), PAT_C("syscall", PA_NONE) } },
	{ SYSCALL_RETURN, { PAT_C("process", PA_OPTSTRNUM), PAT_C("syscall", PA_NONE),
			    PAT_C("return", PA_NONE) } },
	{ 0, { PAT_C("__tapc_kprocess", PA_NONE),
	       PAT_BIT("start", PA_NONE, KP_START), EVENT("exec", KP_EXEC),
	       EVENT("exec_complete", KP_EXEC_COMPLETE), EVENT("exit", KP_EXIT),
	       EVENT("release", KP_RELEASE) } },
};

static bool is_executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* NAME as execvp would find it in $PATH, malloc'd, or NULL. */
static char *search_path(const char *name)
{
	const char *dirs = getenv("PATH");
	char *found = NULL;

	if (!dirs || !*dirs)
		dirs = "/usr/local/bin:/usr/bin:/bin";
	while (!found && dirs) {
		const char *end = strchr(dirs, ':');
		size_t len = end ? (size_t)(end - dirs) : strlen(dirs);
		char *cand = xasprintf("%.*s/%s", (int)len, len ? dirs : ".", name);

		if (is_executable(cand))
			found = cand;
		else
			free(cand);
		dirs = end ? end + 1 : NULL;
	}
	return found;
}

/*
 * The program process("NAME") names, malloc'd: NAME, or without a '/' the
 * executable $PATH holds by that name; then the file that names, with
 * symbolic links resolved, when there is one.  As SystemTap's utrace
 * probes, nothing else is checked: a program that is not there (or not
 * a program) is kept as written, and no process ever runs it.
 */
static char *resolve_program(const char *name)
{
	char *cand = strchr(name, '/') ? NULL : search_path(name);
	char *real = realpath(cand ? cand : name, NULL);

	if (!real)
		real = xstrdup(cand ? cand : name);
	free(cand);
	return real;
}

/*
 * process("PATH") of an event probe into fp->target: as SystemTap's
 * utrace probes take it, a glob as written (the runtime matches it
 * against the path of the program a process runs; TAP_PROC_GLOB), else
 * resolve_program's file.  A script is kept as itself, not its
 * interpreter (as in SystemTap, whose processes run the interpreter and
 * so never match it).
 */
static bool process_target(const struct pp_comp *c0, struct family_point *fp,
			   struct family_error *err)
{
	const char *name = c0->arg->str;

	if (!*name) {
		err->pos = c0->pos;
		err->msg = xstrdup("empty module");
		return false;
	}
	if (upath_has_glob(name)) {
		fp->target = xstrdup(name);
		fp->flags |= TAP_PROC_GLOB;
		return true;
	}
	fp->target = resolve_program(name);
	return true;
}

static int process_expand(const struct point_pattern *pat, const struct probe_point *pp,
			  struct vec *out, struct family_error *err)
{
	const struct pp_comp *c0 = pp->comps.v[0];
	struct family_point *fp = xcalloc(1, sizeof(*fp));

	fp->flags = pat->variant;
	fp->target_comp = -1;
	if (c0->arg && c0->arg->kind == E_NUM) {
		if (c0->arg->num <= 0 || c0->arg->num > INT_MAX) {
			free(fp);
			err->pos = c0->arg->pos;
			err->msg = xasprintf("invalid process id %" PRId64, c0->arg->num);
			return -1;
		}
		fp->num[1] = c0->arg->num;
	} else if (c0->arg) {
		if (!process_target(c0, fp, err)) {
			free(fp);
			return -1;
		}
		fp->target_comp = 0;
	}
	fp->num[0] = pat->variant;
	vec_push(out, fp);
	return 1;
}

/*
 * What SystemTap's kprocess.* aliases resolve to, without kernel
 * debuginfo for the kernel.function() ones (it would add
 * "@FILE:LINE"), and kprocess.exec[_complete] being syscall.execve[.return]
 * on the raw_syscalls tracepoints.
 */
static const struct {
	int event;
	const char *comp, *arg;
} kp_points[] = {
	{ KP_START, "function", "schedule_tail" },
	{ KP_EXEC, "trace", "raw_syscalls:sys_enter" },
	{ KP_EXEC_COMPLETE, "trace", "raw_syscalls:sys_exit" },
	{ KP_EXIT, "function", "do_exit" },
	{ KP_RELEASE, "function", "release_task" },
};

static struct probe_point *kp_derived_point(const struct derived_probe *dp)
{
	const struct srcpos *pos = &dp->loc->pos;

	for (size_t i = 0; i < sizeof(kp_points) / sizeof(kp_points[0]); i++) {
		struct probe_point *named;
		struct expr *arg;

		if (kp_points[i].event != dp->variant)
			continue;
		named = probe_point_new(pos);
		arg = expr_new(E_STR, pos);
		arg->str = xstrdup(kp_points[i].arg);
		arg->len = strlen(arg->str);
		vec_push(&named->comps, pp_comp_new(xstrdup("kernel"), NULL, pos));
		vec_push(&named->comps, pp_comp_new(xstrdup(kp_points[i].comp), arg, pos));
		return named;
	}
	return NULL;
}

/* --privilege=stapusr: the process.* points, whose runtime half reports
 * only the user's own processes in such a module (as SystemTap's); the
 * kprocess events are about every process. */
static bool process_unprivileged(const struct point_pattern *pat)
{
	switch (pat->variant) {
	case PROC_BEGIN: case PROC_END: case THREAD_BEGIN: case THREAD_END:
	case SYSCALL: case SYSCALL_RETURN:
		return true;
	default:
		return false;
	}
}

/* ---- target variables of .syscall and .syscall.return ------------------- */

#define ONLY_SYSCALL "only \"process(PATH_OR_PID).syscall\""

/* A value of the event's slots, as a long. */
static struct tvar *slot_value(unsigned slot, const char *name, const struct srcpos *pos)
{
	struct tvar *tv = tvar_new(TVAR_BASE_SLOT, slot, name, pos);

	tv->leaf = TVAR_VALUE;
	return tv;
}

/* $$parms: SystemTap's "$arg1=%#x ... $arg6=%#x". */
static struct tvar *parms_access(const struct expr *e)
{
	struct tvar *tv = tvar_new(TVAR_BASE_NONE, 0, e->name, &e->pos);
	struct strbuf fmt = STRBUF_INIT;

	tv->leaf = TVAR_FORMAT;
	tv->type = SEM_STRING;
	for (unsigned i = 1; i <= 6; i++) {
		char *name = xasprintf("$arg%u", i);

		strbuf_addf(&fmt, "%s$arg%u=%%#x", i > 1 ? " " : "", i);
		tvar_add_arg(tv, slot_value(TAP_PROC_SLOT_ARG1 + i - 1, name, &e->pos));
		free(name);
	}
	tv->text = strbuf_detach(&fmt);
	return tv;
}

/* SystemTap's refusal of ->, [ ] and $ after a utrace variable. */
static bool no_components(const struct expr *e, struct family_error *err)
{
	const struct tcomp *c;

	if (!e->comps.n)
		return true;
	c = e->comps.v[0];
	err->pos = c->pos;
	if (c->kind == TC_INDEX)
		err->msg = xasprintf("utrace variable '%s' may not be used as array", e->name);
	else if (c->kind == TC_FIELD)
		err->msg = xasprintf("utrace variable '%s' may not be used as a structure",
				     e->name);
	else
		err->msg = xasprintf("invalid use of utrace variable '%s'", e->name);
	return false;
}

static bool is_number(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* N of "$argN" (1..6), or 0. */
static unsigned arg_number(const char *name)
{
	char *end;
	long n = strtol(name + 4, &end, 10);

	return name[4] && !*end && n >= 1 && n <= 6 ? (unsigned)n : 0;
}

static enum sem_type syscall_arg_type(int event, const struct expr *e, bool write,
				      struct family_error *err, struct tvar **access)
{
	unsigned n;

	if (event != SYSCALL) {
		err->msg = xstrdup(ONLY_SYSCALL " support $argN or $$parms.");
		return SEM_UNKNOWN;
	}
	if (!strcmp(e->name, "$$parms")) {
		if (!no_components(e, err))
			return SEM_UNKNOWN;
		if (write) {
			err->msg = xstrdup("utrace '$$parms' variable is read-only");
			return SEM_UNKNOWN;
		}
		*access = parms_access(e);
		return SEM_STRING;
	}
	/* a number (else SystemTap's conversion fails), then in range */
	if (!is_number(e->name + 4)) {
		err->msg = xstrdup("invalid syscall argument number (1-6)");
		return SEM_UNKNOWN;
	}
	if (!no_components(e, err))
		return SEM_UNKNOWN;
	n = arg_number(e->name);
	if (!n) {
		err->msg = xstrdup("invalid syscall argument number (1-6)");
		return SEM_UNKNOWN;
	}
	if (write) {
		err->msg = xstrdup("utrace '$argN' variable is read-only");
		return SEM_UNKNOWN;
	}
	*access = slot_value(TAP_PROC_SLOT_ARG1 + n - 1, e->name, &e->pos);
	return SEM_LONG;
}

/*
 * $syscall, $return, $argN and $$parms, with SystemTap's messages and in
 * its order of checks; the values are slots of the runtime's event
 * (enum tap_proc_syscall_slot).  $syscall on return is the number of the
 * call returning (SystemTap caches it at entry: the same value).
 */
static enum sem_type process_target_type(const struct derived_probe *dp, const struct expr *e,
					 bool write, struct family_error *err,
					 struct tvar **access)
{
	int event = (int)dp->fp.num[0];
	bool is_return = event == SYSCALL_RETURN;

	err->pos = e->pos;
	if (event == KP_START || event == KP_EXEC || event == KP_EXEC_COMPLETE ||
	    event == KP_EXIT || event == KP_RELEASE)
		return SEM_UNKNOWN;	/* "unresolved target-symbol expression" */
	if (event != SYSCALL && !is_return) {
		err->msg = xstrdup(ONLY_SYSCALL " and \"process(PATH_OR_PID).syscall.return\""
				   " probes support target symbols");
		return SEM_UNKNOWN;
	}
	if (e->addressof) {
		err->msg = xstrdup("cannot take address of utrace variable");
		return SEM_UNKNOWN;
	}
	if (!strncmp(e->name, "$arg", 4) || !strcmp(e->name, "$$parms"))
		return syscall_arg_type(event, e, write, err, access);
	if (strcmp(e->name, "$syscall") && strcmp(e->name, "$return")) {
		err->msg = xstrdup("invalid target symbol for utrace probe, "
				   "$syscall, $return, $argN or $$parms expected");
		return SEM_UNKNOWN;
	}
	if (!no_components(e, err))
		return SEM_UNKNOWN;
	if (write) {
		err->msg = xasprintf("utrace '%s' variable is read-only", e->name);
		return SEM_UNKNOWN;
	}
	if (!strcmp(e->name, "$return")) {
		if (!is_return) {
			err->msg = xstrdup("only \"process(PATH_OR_PID).syscall.return\""
					   " support $return.");
			return SEM_UNKNOWN;
		}
		*access = slot_value(TAP_PROC_SLOT_RETURN, e->name, &e->pos);
	} else {
		*access = slot_value(TAP_PROC_SLOT_NR, e->name, &e->pos);
	}
	return SEM_LONG;
}

/* -L: what each system call probe offers. */
static void process_list_targets(const struct derived_probe *dp, struct vec *out)
{
	int event = (int)dp->fp.num[0];

	if (event != SYSCALL && event != SYSCALL_RETURN)
		return;
	vec_push(out, xstrdup("$syscall:long"));
	if (event == SYSCALL_RETURN) {
		vec_push(out, xstrdup("$return:long"));
		return;
	}
	for (unsigned i = 1; i <= 6; i++)
		vec_push(out, xasprintf("$arg%u:long", i));
}


static void process_emit(FILE *out, const struct derived_probe *dp, size_t index)
{
	const struct family_point *fp = &dp->fp;

	(void)index;
	fprintf(out, ".kind = TAP_PROBE_PROCESS, .arg = { %" PRId64 "LL, %" PRId64 "LL }, ",
		fp->num[0], fp->num[1]);
	if (fp->flags & TAP_PROC_GLOB)
		fprintf(out, ".flags = TAP_PROC_GLOB, ");
	if (fp->target) {
		char *s = tr_cstr(fp->target, strlen(fp->target));

		fprintf(out, ".target = %s, ", s);
		free(s);
	}
}

const struct probe_family probe_family_process = {
	.name = "process",
	.rows = process_rows,
	.n_rows = sizeof(process_rows) / sizeof(process_rows[0]),
	.expand = process_expand,
	.derived_point = kp_derived_point,
	.unprivileged = process_unprivileged,
	.target_type = process_target_type,
	.list_targets = process_list_targets,
	.armable = true,
	.emit_entry = process_emit,
};
