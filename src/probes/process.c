/* Process lifetime probes:
 *
 *   process.begin, process("PATH").begin, process(PID).begin
 *	a process starts running a program: in the new process, when it
 *	first runs after a fork, and after each successful exec; and, as
 *	in SystemTap, in each process that already runs when the session
 *	starts (only the target with -c/-x);
 *   process.end, process("PATH").end, process(PID).end
 *	the last thread of a process exits, in its context;
 *   __tapc_kprocess.{start,exec,exec_complete,exit,release}
 *	the kernel's process events behind the kprocess.* aliases of
 *	tapsets/kprocess.stp, whose variables read the event through the
 *	functions of that tapset.  Their probes are named, in pp() and -p2,
 *	by the point SystemTap's alias resolves to (see kp_derived_point).
 *	(kprocess.create is an alias of the sched_process_fork tracepoint,
 *	as in SystemTap.)
 *
 * A PATH without '/' is looked up in $PATH, and every PATH is resolved to
 * the file it names (symbolic links followed), as SystemTap does; the
 * runtime matches the program's file.  The runtime half is
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
#include "util.h"

/* The events (the patterns' variants) are enum tap_process_event, which
 * the runtime shares. */
enum {
	PROC_BEGIN = TAP_PROC_BEGIN, PROC_END = TAP_PROC_END,
	KP_START = TAP_KP_START, KP_EXEC = TAP_KP_EXEC,
	KP_EXEC_COMPLETE = TAP_KP_EXEC_COMPLETE, KP_EXIT = TAP_KP_EXIT,
	KP_RELEASE = TAP_KP_RELEASE,
};

/* The event is the variant. */
#define EVENT(name, ev) PAT_OR(name, PA_NONE, ev)

static const struct pattern_row process_rows[] = {
	{ 0, { PAT_C("process", PA_OPTSTRNUM),
	       PAT_BIT("begin", PA_NONE, PROC_BEGIN), EVENT("end", PROC_END) } },
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

/* The file PATH names, with symbolic links resolved, or NULL. */
static char *resolve_program(const char *path)
{
	char *cand = strchr(path, '/') ? xstrdup(path) : search_path(path);
	char *real;

	if (!cand)
		return NULL;
	real = realpath(cand, NULL);
	free(cand);
	if (real && !is_executable(real)) {
		free(real);
		return NULL;
	}
	return real;
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
		fp->target = resolve_program(c0->arg->str);
		if (!fp->target) {
			err->pos = c0->pos;
			err->msg = xasprintf("cannot find executable '%s'", c0->arg->str);
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

/* --privilege=stapusr: process.begin/end, whose runtime half reports
 * only the user's own processes in such a module (as SystemTap's
 * process.*); the kprocess events are about every process. */
static bool process_unprivileged(const struct point_pattern *pat)
{
	return pat->variant == PROC_BEGIN || pat->variant == PROC_END;
}


static void process_emit(FILE *out, const struct derived_probe *dp, size_t index)
{
	const struct family_point *fp = &dp->fp;

	(void)index;
	fprintf(out, ".kind = TAP_PROBE_PROCESS, .arg = { %" PRId64 "LL, %" PRId64 "LL }, ",
		fp->num[0], fp->num[1]);
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
	.armable = true,
	.emit_entry = process_emit,
};
