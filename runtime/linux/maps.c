// SPDX-License-Identifier: GPL-2.0
/*
 * Script arrays and statistics (tap_globals[]) on runtime/core/map.c.
 *
 * Every TAP_GLOBAL_MAP and TAP_GLOBAL_STAT is created at module load and
 * destroyed at unload.  A plain array is one core map.  A statistic (a
 * TAP_GLOBAL_STAT is a map without keys) is, as in SystemTap, one map
 * per CPU that "<<<" writes without contention, plus an aggregate map
 * that reads merge the CPUs' data into: the pointer generated code holds
 * is the aggregate's, and its owner field leads to the rest.
 *
 * Locking is the probes' business (locks.c): "<<<" only touches this
 * CPU's map; reads of statistics merge and need the exclusive lock.
 * foreach keeps its sorted index per CPU, so that loops over one array on
 * several CPUs under shared locks do not share it.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/overflow.h>
#include <linux/smp.h>
#include <linux/cpumask.h>
#include <linux/stddef.h>
#include <linux/build_bug.h>
#include "tap_internal.h"
#include "map.h"

struct tap_gmap {
	const struct tap_global *g;
	struct tap_map *map;		/* the map, or the stats' aggregate */
	struct tap_map **pcpu;		/* stats: nr_cpu_ids maps, else NULL */
	const struct tap_stat **parts;	/* scalar stats: merge workspace */
	u32 **order, **scratch;		/* per CPU: foreach's sorted index */
};

static struct tap_gmap *tap_gmaps;

static struct tap_gmap *gmap_of(struct tap_map *m)
{
	return m->owner;
}

static bool gmap_is_stat(const struct tap_gmap *gm)
{
	return gm->pcpu != NULL;
}

/* union tap_idx is what generated code fills; union tap_key what the core reads. */
static const union tap_key *keys_of(const union tap_idx *k)
{
	BUILD_BUG_ON(sizeof(union tap_idx) != sizeof(union tap_key));
	BUILD_BUG_ON(offsetof(union tap_idx, l) != offsetof(union tap_key, l));
	BUILD_BUG_ON(offsetof(union tap_idx, s) != offsetof(union tap_key, s));
	BUILD_BUG_ON(sizeof(((union tap_idx *)0)->l) !=
		     sizeof(((union tap_key *)0)->l));
	BUILD_BUG_ON(TAP_MAX_KEYS != TAP_MAP_MAX_KEYS);
	BUILD_BUG_ON((int)TAP_T_LONG != (int)TAP_KEY_LONG ||
		     (int)TAP_T_STR != (int)TAP_KEY_STR);
	BUILD_BUG_ON((int)TAP_T_LONG != (int)TAP_VAL_LONG ||
		     (int)TAP_T_STR != (int)TAP_VAL_STR ||
		     (int)TAP_T_STAT != (int)TAP_VAL_STAT);
	BUILD_BUG_ON((int)TAP_H_NONE != (int)TAP_HIST_NONE ||
		     (int)TAP_H_LOG != (int)TAP_HIST_LOG ||
		     (int)TAP_H_LINEAR != (int)TAP_HIST_LINEAR);
	return (const union tap_key *)k;
}

/* SystemTap's message for a write that finds the array full. */
static void tap_overflow(struct tap_context *c, struct tap_gmap *gm)
{
	if (gm->g->max_entries)
		tap_errorf(c, "Array overflow, check size limit (%u)",
			   gm->g->max_entries);
	else
		tap_error(c, "Array overflow, check MAXMAPENTRIES");
}

static int tap_map_result(struct tap_context *c, struct tap_map *m, int rc)
{
	if (rc == TAP_MAP_EFULL) {
		tap_overflow(c, gmap_of(m));
		return -1;
	}
	return rc < 0 ? -1 : 0;
}

/* ---- Reads and writes of plain arrays ---------------------------------- */

long long tap_map_get_long(struct tap_map *m, const union tap_idx *k)
{
	struct tap_map_entry *e = tap_map_lookup(m, keys_of(k));

	return e ? *tap_map_val_long(m, e) : 0;
}

void tap_map_get_str(struct tap_map *m, const union tap_idx *k, char *out)
{
	struct tap_map_entry *e = tap_map_lookup(m, keys_of(k));

	strscpy(out, e ? tap_map_val_str(m, e) : "", MAXSTRINGLEN);
}

int tap_map_set_long(struct tap_context *c, struct tap_map *m,
		     const union tap_idx *k, long long v)
{
	return tap_map_result(c, m, tap_map_put_long(m, keys_of(k), v));
}

int tap_map_set_str(struct tap_context *c, struct tap_map *m,
		    const union tap_idx *k, const char *v)
{
	return tap_map_result(c, m, tap_map_put_str(m, keys_of(k), v));
}

/* ---- Statistics: per-CPU collection, merged reads ---------------------- */

int tap_map_add_stat(struct tap_context *c, struct tap_map *m,
		     const union tap_idx *k, long long v)
{
	struct tap_gmap *gm = gmap_of(m);
	struct tap_map *mine = gm->pcpu[smp_processor_id()];
	int rc = tap_map_put_stat(mine, keys_of(k), v);

	if (rc == TAP_MAP_EFULL) {
		tap_overflow(c, gm);
		return -1;
	}
	return rc < 0 ? -1 : 0;
}

static struct tap_stat *tap_scratch_stat(struct tap_context *c)
{
	struct tap_cpu *pc = c->priv;

	BUILD_BUG_ON(sizeof(pc->stat_scratch) < TAP_STAT_MAX_SIZE);
	return (struct tap_stat *)pc->stat_scratch;
}

/*
 * Merge element @k of every CPU's map into the hit's scratch statistic,
 * as SystemTap does: scalars with its per-CPU aggregation, array elements
 * with its map merge.  Returns NULL if no CPU holds the element (arrays
 * only: a scalar statistic always exists, perhaps empty).
 */
static struct tap_stat *tap_merge_one(struct tap_context *c,
				      struct tap_gmap *gm,
				      const union tap_key *k)
{
	const struct tap_hist *h = &gm->map->hist;
	struct tap_stat *sd = tap_scratch_stat(c);
	struct tap_map_entry *e;
	unsigned int cpu;
	int n = 0;

	if (gm->g->nkeys == 0) {
		for_each_possible_cpu(cpu) {
			e = tap_map_lookup(gm->pcpu[cpu], NULL);
			if (e)
				gm->parts[n++] =
					tap_map_val_stat(gm->pcpu[cpu], e);
		}
		tap_stat_aggregate(h, sd, gm->parts, n);
		return sd;
	}
	tap_stat_clear(h, sd);
	for_each_possible_cpu(cpu) {
		e = tap_map_lookup(gm->pcpu[cpu], k);
		if (!e)
			continue;
		tap_stat_merge(h, sd, tap_map_val_stat(gm->pcpu[cpu], e));
		n++;
	}
	return n ? sd : NULL;
}

static int tap_extract(struct tap_context *c, const struct tap_hist *h,
		       const struct tap_stat *sd, int op, long long *out)
{
	s64 v = 0;
	int rc;

	*out = 0;
	if (op == TAP_STAT_OP_COUNT || op == TAP_STAT_OP_SUM) {
		if (sd)
			*out = op == TAP_STAT_OP_COUNT ? tap_stat_count(sd) :
							 tap_stat_sum(sd);
		return 0;
	}
	if (op < TAP_STAT_OP_MIN || op > TAP_STAT_OP_VARIANCE) {
		tap_error(c, "invalid statistics operator");
		return -1;
	}
	if (!sd) {
		rc = TAP_STAT_EEMPTY;
	} else if (op == TAP_STAT_OP_VARIANCE) {
		rc = tap_stat_variance(h, sd, &v);
	} else {
		/* enum tap_stat_op counts from 1, enum tap_stat_field from 0 */
		rc = tap_stat_extract(h, sd, op - 1, &v);
	}
	if (rc) {
		tap_error(c, "empty aggregate");
		return -1;
	}
	*out = v;
	return 0;
}

int tap_stat_get(struct tap_context *c, struct tap_map *m,
		 const union tap_idx *k, int op, int shift, long long *out)
{
	struct tap_gmap *gm = gmap_of(m);

	return tap_extract(c, &m->hist, tap_merge_one(c, gm, keys_of(k)), op,
			   out);
}

int tap_hist_get(struct tap_context *c, struct tap_map *m,
		 const union tap_idx *k, long long bucket, long long *out)
{
	struct tap_stat *sd = tap_merge_one(c, gmap_of(m), keys_of(k));
	s64 v;

	*out = 0;
	if (!sd) {
		tap_error(c, "aggregate element not found");
		return -1;
	}
	if (tap_hist_bucket(&m->hist, sd, bucket, &v)) {
		tap_error(c, "histogram index out of range");
		return -1;
	}
	*out = v;
	return 0;
}

int tap_hist_index(struct tap_context *c, struct tap_map *m,
		   const union tap_idx *k, long long bucket, long long *out)
{
	struct tap_stat *sd = tap_merge_one(c, gmap_of(m), keys_of(k));
	s64 v;

	/* SystemTap checks for data before the index, missing or not */
	*out = 0;
	if (!sd || !tap_stat_count(sd)) {
		tap_error(c, "empty aggregate");
		return -1;
	}
	if (tap_hist_bucket(&m->hist, sd, bucket, &v)) {
		tap_error(c, "histogram index out of range");
		return -1;
	}
	*out = v;
	return 0;
}

long long tap_hist_buckets(struct tap_context *c, struct tap_map *m,
			   const union tap_idx *k)
{
	if (m->hist.type == TAP_HIST_NONE) {
		tap_error(c, "histogram of a statistic declared without one");
		return -1;
	}
	if (!tap_merge_one(c, gmap_of(m), keys_of(k))) {
		tap_error(c, "aggregate element not found");
		return -1;
	}
	return m->hist.buckets;
}

static int tap_print_hist(struct tap_context *c, const struct tap_hist *h,
			  const struct tap_stat *sd)
{
	struct tap_cpu *pc = c->priv;
	int n;

	/* a missing element is an empty aggregate to SystemTap here */
	if (!sd) {
		tap_error(c, "empty aggregate");
		return -1;
	}
	n = tap_hist_format(h, sd, pc->hist_text, sizeof(pc->hist_text));
	if (n == TAP_STAT_EEMPTY) {
		/* as @min/@max/@avg: stap raises this for an empty histogram */
		tap_error(c, "empty aggregate");
		return -1;
	}
	if (n < 0) {
		tap_error(c, "histogram of a statistic declared without one");
		return -1;
	}
	tap_print_n(c, pc->hist_text,
		    min_t(size_t, n, sizeof(pc->hist_text) - 1));
	return 0;
}

int tap_hist_print(struct tap_context *c, struct tap_map *m,
		   const union tap_idx *k)
{
	return tap_print_hist(c, &m->hist,
			      tap_merge_one(c, gmap_of(m), keys_of(k)));
}

int tap_hist_sprint(struct tap_context *c, char *buf, struct tap_map *m,
		    const union tap_idx *k)
{
	const struct tap_stat *sd = tap_merge_one(c, gmap_of(m), keys_of(k));
	int n;

	buf[0] = '\0';
	if (!sd) {
		tap_error(c, "empty aggregate");
		return -1;
	}
	n = tap_hist_format(&m->hist, sd, buf, MAXSTRINGLEN);
	if (n == TAP_STAT_EEMPTY) {
		buf[0] = '\0';
		tap_error(c, "empty aggregate");
		return -1;
	}
	if (n < 0) {
		tap_error(c, "histogram of a statistic declared without one");
		return -1;
	}
	return 0;
}

/* ---- Membership and deletion ------------------------------------------ */

int tap_map_exists(struct tap_map *m, const union tap_idx *k,
		   unsigned int wild)
{
	struct tap_gmap *gm = gmap_of(m);
	unsigned int cpu;

	if (!gmap_is_stat(gm))
		return tap_map_has(m, keys_of(k), wild);
	for_each_possible_cpu(cpu)
		if (tap_map_has(gm->pcpu[cpu], keys_of(k), wild))
			return 1;
	return 0;
}

static void tap_delete_in(struct tap_map *m, const union tap_idx *k,
			  unsigned int wild)
{
	if (wild)
		tap_map_delete_slice(m, keys_of(k), wild);
	else
		tap_map_remove(m, keys_of(k));
}

void tap_map_delete(struct tap_map *m, const union tap_idx *k,
		    unsigned int wild)
{
	struct tap_gmap *gm = gmap_of(m);
	unsigned int cpu;

	tap_delete_in(m, k, wild);
	if (!gmap_is_stat(gm))
		return;
	for_each_possible_cpu(cpu)
		tap_delete_in(gm->pcpu[cpu], k, wild);
}

void tap_map_clear(struct tap_map *m)
{
	struct tap_gmap *gm = gmap_of(m);
	unsigned int cpu;

	tap_map_reset(m);
	if (!gmap_is_stat(gm))
		return;
	for_each_possible_cpu(cpu)
		tap_map_reset(gm->pcpu[cpu]);
}

/* ---- foreach ------------------------------------------------------------ */

/* Merge every CPU's statistics into the aggregate map, in CPU order. */
static int tap_merge_all(struct tap_context *c, struct tap_gmap *gm)
{
	struct tap_map *agg = gm->map;
	struct tap_map_entry *e;
	unsigned int cpu;

	tap_map_reset(agg);
	if (gm->g->nkeys == 0) {
		/* a scalar statistic merges as SystemTap's scalars do */
		if (tap_map_insert(agg, NULL, &e) < 0)
			goto overflow;
		memcpy(tap_map_val_stat(agg, e), tap_merge_one(c, gm, NULL),
		       tap_stat_size(&agg->hist));
		return 0;
	}
	for_each_possible_cpu(cpu)
		if (tap_map_merge_stats(agg, gm->pcpu[cpu]))
			goto overflow;
	return 0;
overflow:
	tap_errorf(c, "aggregation overflow in %s", gm->g->name);
	return -1;
}

long long tap_foreach_start(struct tap_context *c, struct tap_map *m,
			    int column, int dir, int stat_op, long long limit)
{
	struct tap_gmap *gm = gmap_of(m);
	struct tap_map_order ord = { .column = column, .dir = dir };
	int n;

	if (gmap_is_stat(gm)) {
		if (stat_op == 0)
			stat_op = TAP_STAT_OP_COUNT;
		ord.stat_field = stat_op - 1;
		if (tap_merge_all(c, gm))
			return -1;
	}
	n = tap_map_sort_to(m, &ord, limit, gm->order[smp_processor_id()],
			    gm->scratch[smp_processor_id()]);
	if (n < 0) {
		tap_error(c, "invalid foreach order");
		return -1;
	}
	return n;
}

struct tap_map_entry *tap_foreach_get(struct tap_map *m, long long i)
{
	if (i < 0 || i >= m->max_entries)
		return NULL;
	return tap_map_sorted_in(m, gmap_of(m)->order[smp_processor_id()], i);
}

long long tap_entry_key_long(struct tap_map *m, struct tap_map_entry *e,
			     int i)
{
	return tap_map_key_long(m, e, i);
}

const char *tap_entry_key_str(struct tap_map *m, struct tap_map_entry *e,
			      int i)
{
	return tap_map_key_str(m, e, i);
}

long long tap_entry_long(struct tap_map *m, struct tap_map_entry *e)
{
	return *tap_map_val_long(m, e);
}

const char *tap_entry_str(struct tap_map *m, struct tap_map_entry *e)
{
	return tap_map_val_str(m, e);
}

int tap_entry_stat(struct tap_context *c, struct tap_map *m,
		   struct tap_map_entry *e, int op, int shift,
		   long long *out)
{
	return tap_extract(c, &m->hist, tap_map_val_stat(m, e), op, out);
}

int tap_entry_hist_print(struct tap_context *c, struct tap_map *m,
			 struct tap_map_entry *e)
{
	return tap_print_hist(c, &m->hist, tap_map_val_stat(m, e));
}

/* ---- Creation and destruction ----------------------------------------- */

static int tap_hist_of(const struct tap_global *g, struct tap_hist *h)
{
	const struct tap_hist_decl *d = &g->hist;

	switch (d->type) {
	case TAP_H_NONE:
		return tap_hist_init_none(h, d->shift);
	case TAP_H_LOG:
		return tap_hist_init_log(h, d->shift);
	case TAP_H_LINEAR:
		return tap_hist_init_linear(h, d->start, d->stop, d->interval,
					    d->shift);
	}
	return TAP_STAT_EINTERVAL;
}

/* The core's spec of @g, or -EINVAL for a table pass 3 got wrong. */
static int tap_spec_of(const struct tap_global *g, struct tap_map_spec *sp)
{
	int i;

	memset(sp, 0, sizeof(*sp));
	sp->key_strlen = MAXSTRINGLEN - 1;
	sp->val_strlen = MAXSTRINGLEN - 1;
	if (g->kind == TAP_GLOBAL_STAT) {
		sp->max_entries = 1;
		sp->val_type = TAP_VAL_STAT;
		return g->nkeys == 0 && tap_hist_of(g, &sp->hist) == 0 ?
			0 : -EINVAL;
	}
	if (g->nkeys < 1 || g->nkeys > TAP_MAX_KEYS)
		return -EINVAL;
	sp->max_entries = g->max_entries ? g->max_entries : tap_limits.maxmapentries;
	sp->wrap = g->wrap;
	sp->nkeys = g->nkeys;
	for (i = 0; i < g->nkeys; i++) {
		if (g->key_types[i] != TAP_T_LONG &&
		    g->key_types[i] != TAP_T_STR)
			return -EINVAL;
		sp->key_types[i] = g->key_types[i];
	}
	switch (g->val_type) {
	case TAP_T_LONG:
	case TAP_T_STR:
		sp->val_type = g->val_type;
		return 0;
	case TAP_T_STAT:
		sp->val_type = TAP_VAL_STAT;
		return tap_hist_of(g, &sp->hist) ? -EINVAL : 0;
	}
	return -EINVAL;
}

static int tap_new_map(struct tap_map **m, const struct tap_map_spec *sp,
		       struct tap_gmap *gm)
{
	int rc = tap_map_create(m, sp);

	if (rc == TAP_MAP_ENOMEM)
		return -ENOMEM;
	if (rc)
		return -EINVAL;
	(*m)->owner = gm;
	/* what tap_map_create() allocated, for module_size() */
	tap_mem_count(TAP_MEM_ALLOC, sizeof(**m) +
		      (size_t)(*m)->stride * (*m)->max_entries +
		      ((size_t)(*m)->hash_mask + 1) * sizeof(u32) +
		      2 * (size_t)(*m)->max_entries * sizeof(u32));
	return 0;
}

/* foreach's index of each CPU: max_entries u32 and as many for sorting. */
static int tap_gmap_orders(struct tap_gmap *gm, u32 max)
{
	unsigned int cpu;

	gm->order = kcalloc(nr_cpu_ids, sizeof(*gm->order), GFP_KERNEL);
	gm->scratch = kcalloc(nr_cpu_ids, sizeof(*gm->scratch), GFP_KERNEL);
	if (!gm->order || !gm->scratch)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		gm->order[cpu] = vmalloc(array_size(max, sizeof(u32)));
		gm->scratch[cpu] = vmalloc(array_size(max, sizeof(u32)));
		if (!gm->order[cpu] || !gm->scratch[cpu])
			return -ENOMEM;
		tap_mem_count(TAP_MEM_ALLOC, 2 * array_size(max, sizeof(u32)));
	}
	return 0;
}

static int tap_gmap_create(struct tap_gmap *gm, const struct tap_global *g)
{
	struct tap_map_spec spec;
	unsigned int cpu;
	int rc;

	gm->g = g;
	rc = tap_spec_of(g, &spec);
	if (rc)
		return rc;
	rc = tap_new_map(&gm->map, &spec, gm);
	if (!rc)
		rc = tap_gmap_orders(gm, spec.max_entries);
	if (rc || spec.val_type != TAP_VAL_STAT)
		return rc;
	gm->pcpu = kcalloc(nr_cpu_ids, sizeof(*gm->pcpu), GFP_KERNEL);
	gm->parts = kcalloc(nr_cpu_ids, sizeof(*gm->parts), GFP_KERNEL);
	if (!gm->pcpu || !gm->parts)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		rc = tap_new_map(&gm->pcpu[cpu], &spec, gm);
		if (rc)
			return rc;
	}
	return 0;
}

static void tap_gmap_destroy(struct tap_gmap *gm)
{
	unsigned int cpu;

	if (gm->pcpu) {
		for (cpu = 0; cpu < nr_cpu_ids; cpu++)
			tap_map_destroy(gm->pcpu[cpu]);
		kfree(gm->pcpu);
	}
	kfree(gm->parts);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (gm->order)
			vfree(gm->order[cpu]);
		if (gm->scratch)
			vfree(gm->scratch[cpu]);
	}
	kfree(gm->order);
	kfree(gm->scratch);
	tap_map_destroy(gm->map);
}

int tap_globals_init(void)
{
	unsigned int i;
	int rc;

	tap_gmaps = kcalloc(tap_nglobals ? tap_nglobals : 1,
			    sizeof(*tap_gmaps), GFP_KERNEL);
	if (!tap_gmaps)
		return -ENOMEM;
	for (i = 0; i < tap_nglobals; i++) {
		const struct tap_global *g = &tap_globals[i];

		if (g->kind != TAP_GLOBAL_MAP && g->kind != TAP_GLOBAL_STAT)
			continue;
		rc = g->addr ? tap_gmap_create(&tap_gmaps[i], g) : -EINVAL;
		if (rc) {
			if (rc == -EINVAL)
				pr_err("%s: bad global %u (%s)\n",
				       THIS_MODULE->name, i,
				       g->name ? g->name : "?");
			else
				pr_err("%s: cannot allocate global %s (%u entries): out of memory\n",
				       THIS_MODULE->name, g->name ? g->name : "?",
				       g->max_entries ? g->max_entries : tap_limits.maxmapentries);
			tap_globals_exit();
			return rc;
		}
		*(struct tap_map **)g->addr = tap_gmaps[i].map;
	}
	return 0;
}

void tap_globals_exit(void)
{
	unsigned int i;

	if (!tap_gmaps)
		return;
	for (i = 0; i < tap_nglobals; i++) {
		const struct tap_global *g = &tap_globals[i];

		if (g->kind != TAP_GLOBAL_MAP && g->kind != TAP_GLOBAL_STAT)
			continue;
		tap_gmap_destroy(&tap_gmaps[i]);
		if (g->addr)
			*(struct tap_map **)g->addr = NULL;
	}
	kfree(tap_gmaps);
	tap_gmaps = NULL;
}
