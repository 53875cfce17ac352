/* The points SystemTap's language has that need what Linux no longer
 * offers, with SystemTap's errors for them:
 *
 *   kernel.mark("NAME")[.format("F")]	 kernel markers, gone since
 *					 2.6.32: no match
 *   process("PATH"|PID).insn[.block]	 single-stepping through utrace,
 *					 which mainline never had
 *   process(PID).statement(ADDR).absolute[.return]
 *					 uprobes before they were placed by
 *					 inode and offset
 *
 * Pass 2 knows them, as stap does (--dump-probe-types lists them, a
 * script naming one is told why it cannot run, not that the point is
 * unknown); none ever reaches pass 3. */
#include "probes/family.h"
#include "util.h"

enum {
	UN_MARK = 0,
	UN_INSN = 1,
	UN_ABSOLUTE = 2,
	UN_KIND = 3,		/* the bits above */
	UN_SUFFIX = 4,		/* .format("F"), .block, .return */
};

static const struct pattern_row unavail_rows[] = {
	{ UN_MARK, { PAT_C("kernel", PA_NONE), PAT_C("mark", PA_STR),
		     PAT_OPT("format", PA_STR, UN_SUFFIX) } },
	{ UN_INSN, { PAT_C("process", PA_STRNUM), PAT_C("insn", PA_NONE),
		     PAT_OPT("block", PA_NONE, UN_SUFFIX) } },
	{ UN_ABSOLUTE, { PAT_C("process", PA_NUM), PAT_C("statement", PA_NUM),
			 PAT_C("absolute", PA_NONE), PAT_OPT("return", PA_NONE, UN_SUFFIX) } },
};

static int unavail_expand(const struct point_pattern *pat, const struct probe_point *pp,
			  struct vec *out, struct family_error *err)
{
	const struct pp_comp *c = family_comp(pp, 1);

	(void)out;
	switch (pat->variant & UN_KIND) {
	case UN_MARK:
		return family_no_match(err, &c->pos, xstrdup("no match"));
	case UN_INSN:
		return family_fail(err, &c->pos, xstrdup(
			"process probes not available without kernel CONFIG_UTRACE"));
	default:
		return family_fail(err, &family_comp(pp, 2)->pos, xstrdup(
			"absolute process probes not available [man error::inode-uprobes]"));
	}
}

const struct probe_family probe_family_unavail = {
	.name = "unavailable",
	.rows = unavail_rows,
	.n_rows = sizeof(unavail_rows) / sizeof(unavail_rows[0]),
	.expand = unavail_expand,
};
