/* Hardware watchpoints on kernel data, as SystemTap has them:
 *
 *   kernel.data(ADDRESS).write
 *   kernel.data(ADDRESS).rw
 *   kernel.data(ADDRESS).length(LEN).write
 *   kernel.data(ADDRESS).length(LEN).rw
 *   kernel.data("SYMBOL").write
 *   kernel.data("SYMBOL").rw
 *
 * .write fires after each write to the watched bytes, .rw after each read
 * or write (x86 has no read-only watchpoint).  As in SystemTap, .length
 * goes with an address only and defaults to 1; x86-64 watches 1, 2, 4 or
 * 8 bytes, and a length the hardware does not have is rounded up to the
 * next one (3 to 4; 5, 6 and 7 to 8).  SystemTap quietly watches 8 bytes for
 * any longer (or zero) length; tapc refuses a length outside 1 to 8 here,
 * which is what SystemTap's manual promises ("an error message is flagged
 * and probe registration fails").
 *
 * No debuginfo is needed: SYMBOL is looked up in the running kernel's
 * kallsyms when the module starts, as SystemTap does; a symbol that is not
 * there, or a watchpoint the CPU has no debug register left for (x86 has
 * four), is SystemTap's warning and the script runs without that probe.
 *
 * SystemTap names the probe (pp(), -p2) with the length made explicit and
 * the address in hex: kernel.data(0xffffffff82a5b6c0).length(1).write,
 * kernel.data("jiffies").length(1).rw.
 *
 * The runtime half is runtime/linux/hwbkpt.c (TAP_PROBE_HWBKPT): target =
 * the symbol (NULL for an address), .u.hwbkpt = { addr, len }, flags
 * TAP_HWBKPT_RW for .rw.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/tapc_families.h"
#include "pptext.h"
#include "probes/family.h"
#include "translate_int.h"
#include "util.h"

/* Variant bits of the patterns. */
enum {
	KD_SYMBOL = 1,		/* kernel.data("SYMBOL") */
	KD_LENGTH = 2,		/* .length(LEN) */
	KD_WRITE = 4,		/* .write */
	KD_RW = 8,		/* .rw */
};

static const struct pattern_row kdata_rows[] = {
	{ 0, { PAT_C("kernel", PA_NONE), PAT_C("data", PA_NUM),
	       PAT_OPT("length", PA_NUM, KD_LENGTH),
	       PAT_BIT("write", PA_NONE, KD_WRITE), PAT_OR("rw", PA_NONE, KD_RW) } },
	{ KD_SYMBOL, { PAT_C("kernel", PA_NONE), PAT_C("data", PA_STR),
		       PAT_BIT("write", PA_NONE, KD_WRITE), PAT_OR("rw", PA_NONE, KD_RW) } },
};

/* SystemTap's length when none is given, and x86-64's longest watchpoint. */
#define KDATA_DEFAULT_LENGTH 1
#define KDATA_MAX_LENGTH 8

/* fp.num[] of a point. */
enum { KD_NUM_ADDR, KD_NUM_LENGTH };

static int kdata_expand(const struct point_pattern *pat, const struct probe_point *pp,
			struct vec *out, struct family_error *err)
{
	const struct pp_comp *data = family_comp(pp, 1);
	struct family_point *fp;
	int64_t length = KDATA_DEFAULT_LENGTH;

	if (pat->variant & KD_LENGTH) {
		const struct pp_comp *len = family_comp(pp, 2);

		length = len->arg->num;
		if (length < 1 || length > KDATA_MAX_LENGTH) {
			err->pos = len->arg->pos;
			err->msg = xasprintf("hardware breakpoint length %" PRId64
					     " out of range [1,%d]", length,
					     KDATA_MAX_LENGTH);
			return -1;
		}
	}
	fp = xcalloc(1, sizeof(*fp));
	if (pat->variant & KD_SYMBOL)
		fp->target = xstrdup(data->arg->str);
	else
		fp->num[KD_NUM_ADDR] = data->arg->num;
	fp->num[KD_NUM_LENGTH] = length;
	fp->flags = (pat->variant & KD_RW) ? TAP_HWBKPT_RW : 0;
	fp->target_comp = -1;
	vec_push(out, fp);
	return 1;
}

/* SystemTap's name of the probe: the address in hex, the length given or
 * its default, then .write or .rw. */
static struct probe_point *kdata_derived_point(const struct derived_probe *dp)
{
	const struct srcpos *pos = &dp->loc->pos;
	struct probe_point *named = probe_point_new(pos);
	struct expr *where, *length = expr_new(E_NUM, pos);

	if (dp->fp.target) {
		where = expr_new(E_STR, pos);
		where->str = xstrdup(dp->fp.target);
		where->len = strlen(where->str);
	} else {
		where = expr_new(E_NUM, pos);
		where->num = dp->fp.num[KD_NUM_ADDR];
		where->op = PP_NUM_HEX;
	}
	length->num = dp->fp.num[KD_NUM_LENGTH];
	vec_push(&named->comps, pp_comp_new(xstrdup("kernel"), NULL, pos));
	vec_push(&named->comps, pp_comp_new(xstrdup("data"), where, pos));
	vec_push(&named->comps, pp_comp_new(xstrdup("length"), length, pos));
	vec_push(&named->comps, pp_comp_new(xstrdup(dp->fp.flags & TAP_HWBKPT_RW ? "rw"
									       : "write"),
					    NULL, pos));
	return named;
}


/* ---- pass 3 ---------------------------------------------------------- */

static void kdata_emit(FILE *out, const struct derived_probe *dp, size_t index)
{
	(void)index;
	fputs(".kind = TAP_PROBE_HWBKPT, ", out);
	if (dp->fp.target) {
		char *lit = tr_cstr(dp->fp.target, strlen(dp->fp.target));

		fprintf(out, ".target = %s, ", lit);
		free(lit);
	}
	fprintf(out, ".flags = %s, ", dp->fp.flags & TAP_HWBKPT_RW ? "TAP_HWBKPT_RW" : "0");
	/* a kernel address is above 2^63: unsigned */
	fprintf(out, ".u.hwbkpt = { .addr = %" PRIu64 "UL, .len = %d }, ",
		(uint64_t)dp->fp.num[KD_NUM_ADDR], (int)dp->fp.num[KD_NUM_LENGTH]);
}

const struct probe_family probe_family_kdata = {
	.name = "kernel.data",
	.rows = kdata_rows,
	.n_rows = sizeof(kdata_rows) / sizeof(kdata_rows[0]),
	.expand = kdata_expand,
	.derived_point = kdata_derived_point,
	.chain_is_matched = true,
	.emit_entry = kdata_emit,
};
