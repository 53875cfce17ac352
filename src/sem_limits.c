/* Pass 2: the runtime's limits on arrays and histograms.
 *
 * The module refuses to load (EINVAL) a map the runtime cannot keep, and
 * generated code could not even index an array with more keys than the
 * runtime's key tuples hold.  So pass 2 asks the runtime's own code
 * (runtime/core/map.c and stat.c are compiled into tapc too) what it
 * would refuse, and says so with a position:
 *
 *  - an array has at most TAP_MAP_MAX_KEYS index keys;
 *  - an array's elements, its declared size of them or MAXMAPENTRIES,
 *    take at most TAP_MAP_MAX_SLAB bytes together, an element's size
 *    being what tap_map_stride() computes from its key and value types,
 *    MAXSTRINGLEN and its histogram (the -D values of both when given);
 *  - @hist_linear(s, low, high, width) needs a positive width, high not
 *    below low, and at most TAP_HIST_MAX_BUCKETS - 2 buckets from low
 *    to high, as tap_hist_init_linear() does.
 *
 * SystemTap's own bound on declared sizes, 1..INT_MAX, is the parser's.
 */
#include "sem_limits.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "astwalk.h"
#include "map.h"
#include "stat.h"
#include "util.h"
/* only for the runtime's default MAXSTRINGLEN and MAXMAPENTRIES */
#include "../runtime/tapc_runtime.h"

struct limits {
	const struct program *P;
	const struct elab_options *o;
	struct diag *d;
	int *buckets;		/* per global: its largest valid histogram */
};

static int global_index(const struct limits *L, const struct vardecl *v)
{
	for (size_t i = 0; i < L->P->globals.n; i++)
		if (L->P->globals.v[i] == v)
			return (int)i;
	return -1;
}

/* An error about a number literal: "MESSAGE: number 'N' at ...". */
__attribute__((format(printf, 3, 4)))
static void number_error(struct diag *d, const struct expr *num, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	char what[64];
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	snprintf(what, sizeof(what), "number '%" PRId64 "'", num->num);
	sem_report(d, &num->pos, what, "%s", sb.buf);
	strbuf_free(&sb);
}

/* The buckets of @hist_linear e, or 0 after reporting why the runtime
 * would refuse them. */
static int linear_buckets(struct diag *d, const struct expr *e)
{
	const struct expr *low = e->args.v[0], *high = e->args.v[1], *width = e->args.v[2];
	struct tap_hist h;

	switch (tap_hist_init_linear(&h, low->num, high->num, width->num, 0)) {
	case 0:
		return h.buckets;
	case TAP_STAT_EINTERVAL:
		number_error(d, width, "histogram interval must be greater than 0");
		return 0;
	default:
		if (high->num < low->num)
			number_error(d, high, "histogram range is reversed: high %" PRId64
				     " is below low %" PRId64, high->num, low->num);
		else
			number_error(d, high, "too many histogram buckets: (%" PRId64
				     " - %" PRId64 ") / %" PRId64 " + 1 is more than %d",
				     high->num, low->num, width->num,
				     TAP_HIST_MAX_BUCKETS - 2);
		return 0;
	}
}

/* The histogram a statistic keeps is the one its @hist_* uses ask for:
 * record it on v for pass 3, and refuse a second, different one, as
 * SystemTap does in its pass 2. */
static void note_hist(struct limits *L, struct vardecl *v, const struct expr *e)
{
	int64_t args[3] = { 0, 0, 0 };

	for (size_t i = 0; i < 3 && i < e->args.n; i++) {
		const struct expr *x = e->args.v[i];

		args[i] = x ? x->num : 0;
	}
	if (!v->hist) {
		v->hist = e->op;
		memcpy(v->hist_args, args, sizeof(args));
		return;
	}
	if (v->hist != e->op ||
	    (e->op == HIST_LINEAR && memcmp(v->hist_args, args, sizeof(args))))
		diag_error(L->d, &e->pos, "semantic error",
			   "multiple histogram types declared on '%s'", v->name);
}

/* Every @hist_*: check a linear one, the statistic's histogram, and
 * remember each statistic's largest histogram for the size of its
 * elements. */
static void visit_hist(void *ctx, const struct expr *e)
{
	struct limits *L = ctx;
	const struct expr *stat;
	const struct sem_ref *r;
	int buckets, g;

	if (e->kind != E_HIST)
		return;
	buckets = e->op == HIST_LINEAR ? linear_buckets(L->d, e) : TAP_HIST_LOG_BUCKETS;
	stat = e->a->kind == E_INDEX ? e->a->a : e->a;
	r = program_ref(L->P, stat);
	if (r && r->var && r->var->global)
		note_hist(L, r->var, e);
	g = r && r->var ? global_index(L, r->var) : -1;
	if (g >= 0 && buckets > L->buckets[g])
		L->buckets[g] = buckets;
}

static void check_keys(const struct limits *L, const struct vardecl *v)
{
	char what[300];

	if (v->arity <= TAP_MAP_MAX_KEYS)
		return;
	snprintf(what, sizeof(what), "identifier '%s'", v->name);
	sem_report(L->d, &v->arity_pos, what,
		   "array '%s' has %d index keys, more than the %d the runtime supports",
		   v->name, v->arity, TAP_MAP_MAX_KEYS);
}

/* The runtime's map spec of array v, one element of it. */
static void spec_of(const struct limits *L, const struct vardecl *v, int64_t strlen_max,
		    struct tap_map_spec *spec)
{
	int g = global_index(L, v);

	memset(spec, 0, sizeof(*spec));
	spec->max_entries = 1;
	spec->nkeys = v->arity;
	for (int k = 0; k < v->arity; k++)
		spec->key_types[k] = v->index_types[k] == SEM_STRING ? TAP_KEY_STR : TAP_KEY_LONG;
	spec->key_strlen = spec->val_strlen = (u32)(strlen_max - 1);
	spec->val_type = v->type == SEM_STATS ? TAP_VAL_STAT :
			 v->type == SEM_STRING ? TAP_VAL_STR : TAP_VAL_LONG;
	spec->hist.buckets = g >= 0 ? L->buckets[g] : 0;
}

static void check_size(const struct limits *L, const struct vardecl *v)
{
	int64_t strlen_max = L->o->maxstringlen ? L->o->maxstringlen : MAXSTRINGLEN;
	int64_t entries = v->maxsize ? v->maxsize :
			  L->o->maxmapentries ? L->o->maxmapentries : MAXMAPENTRIES;
	struct tap_map_spec spec;
	uint64_t stride;
	char what[300];

	/* out-of-range -D values are the option checks' business */
	if (strlen_max < 1 || strlen_max > 65536 || entries < 1 ||
	    entries > (int64_t)TAP_MAP_MAX_ENTRIES)
		return;
	spec_of(L, v, strlen_max, &spec);
	stride = tap_map_stride(&spec);
	if (!stride || stride * (uint64_t)entries <= TAP_MAP_MAX_SLAB)
		return;
	snprintf(what, sizeof(what), "identifier '%s'", v->name);
	sem_report(L->d, &v->pos, what,
		   "array '%s' is too large: %" PRId64 " elements of %" PRIu64
		   " bytes need more than the %llu bytes the runtime allows an array",
		   v->name, entries, stride, (unsigned long long)TAP_MAP_MAX_SLAB);
}

void sem_check_limits(const struct program *p, const struct elab_options *o,
		      struct diag *d)
{
	struct limits L = { .P = p, .o = o, .d = d };
	struct ast_visitor hist = { .ctx = &L, .expr = visit_hist };
	int errors = d->errors;

	L.buckets = xcalloc(p->globals.n + 1, sizeof(*L.buckets));
	for (size_t i = 0; i < p->functions.n; i++)
		ast_walk_stmt(((const struct sem_function *)p->functions.v[i])->decl->body, &hist);
	for (size_t i = 0; i < p->probes.n; i++) {
		const struct derived_probe *dp = p->probes.v[i];

		ast_walk_stmt(dp->body, &hist);
		ast_walk_expr(dp->cond, &hist);
	}
	for (size_t i = 0; i < p->globals.n; i++) {
		const struct vardecl *v = p->globals.v[i];

		if (v->arity <= 0)
			continue;
		check_keys(&L, v);
		/* sizes once the keys and histograms are known to be good */
		if (d->errors == errors)
			check_size(&L, v);
	}
	free(L.buckets);
}
