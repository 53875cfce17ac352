/* procfs("PATH").read / .write: files under /proc/systemtap/MODULE/.
 *
 *   procfs[("PATH")][.umask(M)].read[.maxsize(N)]
 *   procfs[("PATH")][.umask(M)].write
 *
 * PATH defaults to "command" and may hold subdirectories ("a/b").  Reading
 * the file runs the read probe, which fills the file by assigning $value
 * ("=" and ".="); writing to it runs the write probes with the written
 * data in $value.  A read and the write probes of one PATH share a file,
 * whose mode is 0444 for a reader and 0222 for a writer, less the umask
 * of each (default 0044 for the reader, 0022 for the writer; the first
 * write probe's counts).  The read buffer holds N bytes with .maxsize(N),
 * else MAXSTRINGLEN, the terminating NUL included.
 *
 * Pass 2 checks PATH and N and that a PATH has only one read probe.  The
 * runtime half is runtime/linux/procfs.c (TAP_PROBE_PROCFS): .target is
 * PATH, .arg[0] the read buffer's size (0: MAXSTRINGLEN), .arg[1] the
 * umask, .flags TAP_PROCFS_WRITE (tapc_families.h) for a write probe.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/tapc_families.h"
#include "probes/family.h"
#include "token.h"
#include "translate_int.h"
#include "util.h"

/* Pattern variants: which optional parts the point has. */
enum {
	PV_WRITE = 1,
	PV_UMASK = 2,
	PV_MAXSIZE = 4,
};


static const struct pattern_row procfs_rows[] = {
	{ 0, { PAT_C("procfs", PA_OPTSTR), PAT_OPT("umask", PA_NUM, PV_UMASK),
	       PAT_C("read", PA_NONE), PAT_OPT("maxsize", PA_NUM, PV_MAXSIZE) } },
	{ PV_WRITE, { PAT_C("procfs", PA_OPTSTR), PAT_OPT("umask", PA_NUM, PV_UMASK),
		      PAT_C("write", PA_NONE) } },
};

/* ---- pass 2: the points ------------------------------------------------- */

/*
 * The read probes and paths seen so far, to refuse a second read probe
 * of a path and a path that is both a file and a directory.  A point is
 * known by where it is written: an alias's points are copies made for
 * each use, and pass 2 may run twice over the same scripts (once more
 * with the whole tapset library), which must not see its own points as
 * duplicates.
 */
struct seen_path {
	char *path;
	struct srcpos pos;
	bool read;
};

static struct vec seen_paths;

static bool same_pos(const struct srcpos *a, const struct srcpos *b)
{
	return a->file == b->file && a->line == b->line && a->col == b->col;
}

/* Whether a names a directory that b lies in. */
static bool is_dir_of(const char *a, const char *b)
{
	size_t n = strlen(a);

	return !strncmp(a, b, n) && b[n] == '/';
}

static char *file_and_dir(const char *file, const char *inside)
{
	return xasprintf("procfs path \"%s\" is both a file and a directory "
			 "(procfs path \"%s\")", file, inside);
}

static char *check_seen(const char *path, const struct srcpos *pos, bool read)
{
	struct seen_path *s;

	for (size_t i = 0; i < seen_paths.n; i++) {
		s = seen_paths.v[i];
		if (same_pos(&s->pos, pos))
			return NULL;
	}
	for (size_t i = 0; i < seen_paths.n; i++) {
		s = seen_paths.v[i];
		if (read && s->read && !strcmp(s->path, path))
			return xasprintf("only one read procfs probe can exist for procfs path \"%s\"",
					 path);
		if (is_dir_of(s->path, path))
			return file_and_dir(s->path, path);
		if (is_dir_of(path, s->path))
			return file_and_dir(path, s->path);
	}
	s = xcalloc(1, sizeof(*s));
	s->path = xstrdup(path);
	s->pos = *pos;
	s->read = read;
	vec_push(&seen_paths, s);
	return NULL;
}

/* SystemTap's rules for PATH: relative, no empty, "." or ".." component. */
static const char *bad_path(const char *path)
{
	const char *p = path;

	if (*p == '/')
		return "procfs path cannot start with a '/'";
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);

		if (len == 0)
			return slash ? "procfs path component cannot be empty"
				     : "procfs path cannot end with a '/'";
		if ((len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
			return "procfs path cannot be relative (and contain '.' or '..')";
		if (!slash)
			return NULL;
		p = slash + 1;
	}
}

static int procfs_expand(const struct point_pattern *pat, const struct probe_point *pp,
			 struct vec *out, struct family_error *err)
{
	const struct pp_comp *c0 = pp->comps.v[0];
	const char *path = c0->arg ? c0->arg->str : "command";
	bool write = pat->variant & PV_WRITE;
	struct family_point *fp;
	const char *why;
	char *msg;

	err->pos = c0->pos;
	if ((why = bad_path(path))) {
		err->msg = xstrdup(why);
		return -1;
	}
	fp = xcalloc(1, sizeof(*fp));
	fp->target = xstrdup(path);
	fp->target_comp = -1;
	fp->flags = write ? TAP_PROCFS_WRITE : 0;
	fp->num[1] = write ? 0022 : 0044;
	if (pat->variant & PV_UMASK)
		fp->num[1] = family_comp_named(pp, "umask")->arg->num;
	if (pat->variant & PV_MAXSIZE) {
		const struct pp_comp *m = family_comp_named(pp, "maxsize");

		if (m->arg->num <= 0 || m->arg->num > INT32_MAX) {
			err->pos = m->arg->pos;
			err->msg = xstrdup(m->arg->num <= 0 ? "maxsize must be greater than 0"
					   : "maxsize must be less than 2147483648");
			free(fp->target);
			free(fp);
			return -1;
		}
		fp->num[0] = m->arg->num;
	}
	msg = check_seen(path, &c0->pos, !write);
	if (msg) {
		err->msg = msg;
		family_point_free(NULL, fp);	/* no payload yet */
		return -1;
	}
	vec_push(out, fp);
	return 1;
}

/* ---- $value ------------------------------------------------------------- */

static bool is_write_probe(const struct derived_probe *dp)
{
	return dp->fp.flags & TAP_PROCFS_WRITE;
}

/*
 * $value is a string.  In a read probe it is only assigned to ("=" and
 * ".=", the other assignments are type errors of a string); in a write
 * probe only read (procfs_target_use says which use is refused).
 */
static enum sem_type procfs_target_type(const struct derived_probe *dp, const struct expr *e,
					bool write, struct family_error *err,
					struct tvar **access)
{
	(void)access;	/* pass 3 writes $value itself (procfs_target_c) */
	err->pos = e->pos;
	if (strcmp(e->name, "$value")) {
		err->msg = xstrdup("invalid target symbol for procfs probe, $value expected");
		return SEM_UNKNOWN;
	}
	if (e->comps.n > 0) {
		const struct tcomp *t = e->comps.v[0];

		err->pos = t->pos;
		if (t->kind == TC_INDEX) {
			err->what = xstrdup("operator '['");
			err->msg = xstrdup("procfs variable '$value' may not be used as array");
		} else if (t->kind == TC_FIELD) {
			err->what = xstrdup("operator '->'");
			err->msg = xstrdup("procfs variable '$value' may not be used as a structure");
		} else {
			err->msg = xstrdup("invalid use of procfs variable '$value'");
		}
		return SEM_UNKNOWN;
	}
	if (e->addressof) {
		err->msg = xstrdup("cannot take address of procfs variable");
		return SEM_UNKNOWN;
	}
	(void)dp;	/* which uses are allowed: procfs_target_use */
	(void)write;
	return SEM_STRING;
}

/* How $value may be used, as SystemTap checks when it expands it: read
 * in a write probe, stored into with "=" or ".=" in a read probe. */
static const char *procfs_target_use(const struct derived_probe *dp, const struct expr *e,
				     int op)
{
	(void)e;
	if (is_write_probe(dp))
		return op ? "procfs $value variable is read-only in a procfs write probe" : NULL;
	if (!op)
		return "procfs $value variable cannot be read in a procfs read probe";
	if (op != TK_ASSIGN && op != TK_CAT_ASSIGN)
		return "Only the following assign operators are implemented "
		       "on procfs read target variables: '=', '.='";
	return NULL;
}

/* ---- pass 3 ------------------------------------------------------------- */

static void procfs_emit(FILE *out, const struct derived_probe *dp, size_t index)
{
	char *path = tr_cstr(dp->fp.target, strlen(dp->fp.target));

	(void)index;
	fprintf(out, ".kind = TAP_PROBE_PROCFS, .target = %s, "
		".arg = { %" PRId64 "LL, %" PRId64 "LL }, .flags = %d, ",
		path, dp->fp.num[0], dp->fp.num[1], dp->fp.flags);
	free(path);
}

/* "identifier '$value' at FILE:LINE:COL": what an error of $value is near. */
static void set_value_where(struct tr *T, const struct expr *target)
{
	char *what = xasprintf("identifier '%s'", target->name);
	char *where = tr_where_at(what, &target->pos);

	tr_line(T, "TAP_STMT(c, %s);", where);
	free(where);
	free(what);
}

/* $value in a write probe: the data written. */
static char *procfs_target_c(struct tr *T, const struct derived_probe *dp, const struct expr *e)
{
	if (!is_write_probe(dp)) {
		tr_error(T, &e->pos, "procfs $value variable cannot be read in a procfs read probe");
		return xstrdup("\"\"");
	}
	return xstrdup("tap_procfs_value(c)");
}

/* $value = val, $value .= val in a read probe: into the file's buffer,
 * which raises "buffer size exceeded" when val does not fit. */
static char *procfs_target_assign_c(struct tr *T, const struct derived_probe *dp,
				    const struct expr *e, const char *val)
{
	const char *fn = e->op == TK_CAT_ASSIGN ? "tap_procfs_append" : "tap_procfs_set";

	if (is_write_probe(dp)) {
		tr_error(T, &e->a->pos, "procfs $value variable is read-only in a procfs write probe");
		return xstrdup("\"\"");
	}
	if (e->op != TK_ASSIGN && e->op != TK_CAT_ASSIGN) {
		tr_error(T, &e->a->pos, "Only the following assign operators are implemented "
			 "on procfs read target variables: '=', '.='");
		return xstrdup("\"\"");
	}
	set_value_where(T, e->a);
	tr_line(T, "if (%s(c, %s))", fn, val);
	tr_line(T, "\tgoto %s;", T->err_label);
	return xstrdup(val);
}


const struct probe_family probe_family_procfs = {
	.name = "procfs",
	.rows = procfs_rows,
	.n_rows = sizeof(procfs_rows) / sizeof(procfs_rows[0]),
	.expand = procfs_expand,
	.target_type = procfs_target_type,
	.target_use = procfs_target_use,
	.armable = true,
	.emit_entry = procfs_emit,
	.target_c = procfs_target_c,
	.target_assign_c = procfs_target_assign_c,
};
