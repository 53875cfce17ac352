/* netfilter hooks: a handler run on every packet at one hook of one
 * protocol family, as SystemTap's
 *
 *   netfilter.hook("HOOK").pf("PF")[.priority("PRIORITY")]
 *   netfilter.pf("PF").hook("HOOK")[.priority("PRIORITY")]
 *
 * HOOK is a hook's name (NF_INET_PRE_ROUTING ... NF_INET_POST_ROUTING,
 * the older NF_IP_* and NF_IP6_* names, NF_ARP_IN/OUT/FORWARD,
 * NF_BR_PRE_ROUTING ... NF_BR_BROUTING) or its number; PF a family's
 * (NFPROTO_IPV4, NFPROTO_IPV6, NFPROTO_ARP, NFPROTO_BRIDGE ...) or its
 * number; PRIORITY a NF_IP_PRI_* or NF_IP6_PRI_* name or a number,
 * 0 when left out.  Numbers are written as strings ("0", "-100"), as
 * SystemTap takes them.
 *
 * Target variables: $hooknum, $skb, $in, $out (and $indev, $outdev,
 * the same devices), $okfn, typed as the kernel's BTF has them (so
 * $skb->len and $in->name work), $indev_name and $outdev_name (the
 * devices' names, "" without one), and $verdict, NF_ACCEPT unless the
 * handler changes it, which only guru mode (-g) may do.
 *
 * The runtime half is runtime/linux/netfilter.c (TAP_PROBE_NETFILTER):
 * .arg[0] the family, .arg[1] the hook, .u.netfilter.priority; the event
 * it runs the handler with is the slots of enum tap_nf_slot
 * (tapc_families.h).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/tapc_families.h"
#include "btf.h"
#include "ctypes.h"
#include "kinfo.h"
#include "probes/family.h"
#include "translate_int.h"
#include "tvar.h"
#include "tvar_resolve.h"
#include "util.h"

enum {
	PV_PF_FIRST = 1,	/* netfilter.pf(...).hook(...) */
	PV_PRIORITY = 2,
};

static const struct pattern_row nf_rows[] = {
	{ 0, { PAT_C("netfilter", PA_NONE), PAT_C("hook", PA_STR), PAT_C("pf", PA_STR),
	       PAT_OPT("priority", PA_STR, PV_PRIORITY) } },
	{ PV_PF_FIRST, { PAT_C("netfilter", PA_NONE), PAT_C("pf", PA_STR), PAT_C("hook", PA_STR),
			 PAT_OPT("priority", PA_STR, PV_PRIORITY) } },
};

struct nf_name {
	const char *name;
	long long value;
};

/* The protocol families (include/uapi/linux/netfilter.h). */
static const struct nf_name nf_pfs[] = {
	{ "NFPROTO_UNSPEC", 0 }, { "NFPROTO_INET", 1 }, { "NFPROTO_IPV4", 2 },
	{ "NFPROTO_ARP", 3 }, { "NFPROTO_NETDEV", 5 }, { "NFPROTO_BRIDGE", 7 },
	{ "NFPROTO_IPV6", 10 }, { "NFPROTO_DECNET", 12 },
	{ NULL, 0 }
};

/* The hooks by family: IPv4 and IPv6 share NF_INET_*. */
static const struct nf_name nf_inet_hooks[] = {
	{ "NF_INET_PRE_ROUTING", 0 }, { "NF_INET_LOCAL_IN", 1 }, { "NF_INET_FORWARD", 2 },
	{ "NF_INET_LOCAL_OUT", 3 }, { "NF_INET_POST_ROUTING", 4 },
	{ "NF_IP_PRE_ROUTING", 0 }, { "NF_IP_LOCAL_IN", 1 }, { "NF_IP_FORWARD", 2 },
	{ "NF_IP_LOCAL_OUT", 3 }, { "NF_IP_POST_ROUTING", 4 },
	{ "NF_IP6_PRE_ROUTING", 0 }, { "NF_IP6_LOCAL_IN", 1 }, { "NF_IP6_FORWARD", 2 },
	{ "NF_IP6_LOCAL_OUT", 3 }, { "NF_IP6_POST_ROUTING", 4 },
	{ NULL, 0 }
};

static const struct nf_name nf_arp_hooks[] = {
	{ "NF_ARP_IN", 0 }, { "NF_ARP_OUT", 1 }, { "NF_ARP_FORWARD", 2 },
	{ NULL, 0 }
};

static const struct nf_name nf_bridge_hooks[] = {
	{ "NF_BR_PRE_ROUTING", 0 }, { "NF_BR_LOCAL_IN", 1 }, { "NF_BR_FORWARD", 2 },
	{ "NF_BR_LOCAL_OUT", 3 }, { "NF_BR_POST_ROUTING", 4 }, { "NF_BR_BROUTING", 5 },
	{ NULL, 0 }
};

/* Hooks a family has in the kernel (NF_MAX_HOOKS is 8: numbers past a
 * family's last are refused by nf_register_net_hook). */
static const struct nf_name nf_hook_counts[] = {
	{ "NFPROTO_INET", 5 }, { "NFPROTO_IPV4", 5 }, { "NFPROTO_IPV6", 5 },
	{ "NFPROTO_ARP", 3 }, { "NFPROTO_BRIDGE", 6 },
	{ NULL, 0 }
};

/* include/uapi/linux/netfilter_ipv4.h and netfilter_ipv6.h */
static const struct nf_name nf_priorities[] = {
	{ "NF_IP_PRI_FIRST", INT_MIN }, { "NF_IP_PRI_RAW_BEFORE_DEFRAG", -450 },
	{ "NF_IP_PRI_CONNTRACK_DEFRAG", -400 }, { "NF_IP_PRI_RAW", -300 },
	{ "NF_IP_PRI_SELINUX_FIRST", -225 }, { "NF_IP_PRI_CONNTRACK", -200 },
	{ "NF_IP_PRI_MANGLE", -150 }, { "NF_IP_PRI_NAT_DST", -100 },
	{ "NF_IP_PRI_FILTER", 0 }, { "NF_IP_PRI_SECURITY", 50 },
	{ "NF_IP_PRI_NAT_SRC", 100 }, { "NF_IP_PRI_SELINUX_LAST", 225 },
	{ "NF_IP_PRI_CONNTRACK_HELPER", 300 }, { "NF_IP_PRI_CONNTRACK_CONFIRM", INT_MAX },
	{ "NF_IP_PRI_LAST", INT_MAX },
	{ "NF_IP6_PRI_FIRST", INT_MIN }, { "NF_IP6_PRI_RAW_BEFORE_DEFRAG", -450 },
	{ "NF_IP6_PRI_CONNTRACK_DEFRAG", -400 }, { "NF_IP6_PRI_RAW", -300 },
	{ "NF_IP6_PRI_SELINUX_FIRST", -225 }, { "NF_IP6_PRI_CONNTRACK", -200 },
	{ "NF_IP6_PRI_MANGLE", -150 }, { "NF_IP6_PRI_NAT_DST", -100 },
	{ "NF_IP6_PRI_FILTER", 0 }, { "NF_IP6_PRI_SECURITY", 50 },
	{ "NF_IP6_PRI_NAT_SRC", 100 }, { "NF_IP6_PRI_SELINUX_LAST", 225 },
	{ "NF_IP6_PRI_CONNTRACK_HELPER", 300 }, { "NF_IP6_PRI_LAST", INT_MAX },
	{ NULL, 0 }
};

static bool nf_lookup(const struct nf_name *t, const char *name, long long *value)
{
	for (; t->name; t++)
		if (!strcmp(t->name, name)) {
			*value = t->value;
			return true;
		}
	return false;
}

/* A decimal number written as a string ("2", "-100"), within int. */
static bool nf_number(const char *s, long long *value)
{
	char *end;
	long long v;

	if (!*s)
		return false;
	v = strtoll(s, &end, 10);
	if (*end || v < INT_MIN || v > INT_MAX)
		return false;
	*value = v;
	return true;
}

static int nf_fail(struct family_error *err, const struct pp_comp *c, char *msg)
{
	return family_fail(err, c->arg ? &c->arg->pos : &c->pos, msg);
}

/* The number of hook (a name or a number) within family pf. */
static bool nf_hook_number(long long pf, const char *hook, long long *value)
{
	if (nf_number(hook, value))
		return true;
	if (pf == 2 || pf == 10 || pf == 1)
		return nf_lookup(nf_inet_hooks, hook, value);
	if (pf == 3)
		return nf_lookup(nf_arp_hooks, hook, value);
	if (pf == 7)
		return nf_lookup(nf_bridge_hooks, hook, value);
	return false;
}

/* How many hooks family pf has: 0 for one netfilter hooks cannot be
 * registered on here (NFPROTO_NETDEV needs a device). */
static long long nf_nhooks(long long pf)
{
	for (const struct nf_name *t = nf_pfs; t->name; t++)
		if (t->value == pf) {
			long long n;

			return nf_lookup(nf_hook_counts, t->name, &n) ? n : 0;
		}
	return 0;
}

static int nf_expand(const struct point_pattern *pat, const struct probe_point *pp,
		     struct vec *out, struct family_error *err)
{
	const struct pp_comp *hook = family_comp_named(pp, "hook"), *pf = family_comp_named(pp, "pf");
	const struct pp_comp *prio = family_comp_named(pp, "priority");
	long long pfnum, hooknum, priority = 0;
	struct family_point *fp;

	(void)pat;
	if (!nf_lookup(nf_pfs, pf->arg->str, &pfnum) && !nf_number(pf->arg->str, &pfnum))
		return nf_fail(err, pf, xasprintf("unknown netfilter protocol family \"%s\"",
						  pf->arg->str));
	if (nf_nhooks(pfnum) == 0)
		return nf_fail(err, pf, xasprintf("netfilter protocol family \"%s\" has no "
						  "hooks to probe", pf->arg->str));
	if (!nf_hook_number(pfnum, hook->arg->str, &hooknum) || hooknum < 0 ||
	    hooknum >= nf_nhooks(pfnum))
		return nf_fail(err, hook, xasprintf("unknown netfilter hook \"%s\" for "
						    "protocol family \"%s\"",
						    hook->arg->str, pf->arg->str));
	if (prio && !nf_lookup(nf_priorities, prio->arg->str, &priority) &&
	    !nf_number(prio->arg->str, &priority))
		return nf_fail(err, prio, xasprintf("unknown netfilter priority \"%s\"",
						    prio->arg->str));
	fp = xcalloc(1, sizeof(*fp));
	fp->target_comp = -1;
	fp->num[0] = pfnum * 16 + hooknum;
	fp->num[1] = priority;
	vec_push(out, fp);
	return 1;
}

/* ---- target variables --------------------------------------------------- */

struct nf_var {
	const char *name;
	int slot;		/* enum tap_nf_slot */
	const char *type;	/* where its BTF type is found: "STRUCT.MEMBER" */
};

static const struct nf_var nf_vars[] = {
	{ "$hooknum", TAP_NF_SLOT_HOOKNUM, "nf_hook_state.hook" },
	{ "$skb", TAP_NF_SLOT_SKB, "sk_buff.next" },
	{ "$in", TAP_NF_SLOT_IN, "nf_hook_state.in" },
	{ "$out", TAP_NF_SLOT_OUT, "nf_hook_state.out" },
	{ "$indev", TAP_NF_SLOT_IN, "nf_hook_state.in" },
	{ "$outdev", TAP_NF_SLOT_OUT, "nf_hook_state.out" },
	{ "$okfn", TAP_NF_SLOT_OKFN, "nf_hook_state.okfn" },
	{ "$verdict", TAP_NF_SLOT_VERDICT, NULL },
	{ "$indev_name", TAP_NF_SLOT_IN, NULL },
	{ "$outdev_name", TAP_NF_SLOT_OUT, NULL },
};

static const struct nf_var *nf_var_named(const char *name)
{
	for (size_t i = 0; i < sizeof(nf_vars) / sizeof(nf_vars[0]); i++)
		if (!strcmp(nf_vars[i].name, name))
			return &nf_vars[i];
	return NULL;
}

static bool nf_is_name_var(const struct nf_var *v)
{
	return !v->type && v->slot != TAP_NF_SLOT_VERDICT;
}

/* The BTF type of member "STRUCT.MEMBER", or 0 with *err filled. */
static ctype_id nf_member_type(const struct ctypes *ct, const char *where,
			       struct family_error *err)
{
	const char *dot = strchr(where, '.');
	char *sname = xasprintf("struct %.*s", (int)(dot - where), where);
	ctype_id s = ctype_find(ct, sname);
	struct ctype_member m;

	free(sname);
	if (s && ctype_member_find(ct, ctype_resolve(ct, s), dot + 1, &m) == 0)
		return m.type;
	err->msg = xasprintf("the kernel's BTF has no %s", where);
	return 0;
}

/* $verdict: the slot holds the address of the hook's 32-bit verdict, so
 * that reading and (guru mode) storing both go through memory. */
static struct tvar *nf_verdict_access(const struct expr *e)
{
	struct tvar *tv = tvar_new(TVAR_BASE_SLOT, TAP_NF_SLOT_VERDICT, e->name, &e->pos);

	tv->leaf = TVAR_READ;
	tv->type = SEM_LONG;
	tv->size = 4;
	tv->is_signed = false;
	return tv;
}

static enum sem_type nf_target_type(const struct derived_probe *dp, const struct expr *e,
				    bool write, struct family_error *err, struct tvar **access)
{
	const struct nf_var *v = nf_var_named(e->name);
	const struct btf *btf;
	struct ctypes ct;
	ctype_id type;

	(void)dp;
	err->pos = e->pos;
	if (!v) {
		err->msg = xasprintf("unable to find netfilter variable '%s' (alternatives: "
				     "$hooknum $skb $in $out $indev $outdev $okfn $verdict "
				     "$indev_name $outdev_name)", e->name);
		return SEM_UNKNOWN;
	}
	if (write && v->slot != TAP_NF_SLOT_VERDICT) {
		err->msg = xasprintf("write to netfilter parameter '%s' not permitted", e->name);
		return SEM_UNKNOWN;
	}
	if (!v->type) {
		if (e->comps.n > 0 || e->addressof) {
			err->msg = xasprintf("'%s' takes no '->', '[' or '&'", e->name);
			return SEM_UNKNOWN;
		}
		if (nf_is_name_var(v))
			return SEM_STRING;	/* nf_target_c */
		*access = nf_verdict_access(e);
		return SEM_LONG;
	}
	btf = kinfo_btf(NULL);
	if (!btf) {
		err->msg = xasprintf("netfilter variable '%s' needs the kernel's BTF", e->name);
		return SEM_UNKNOWN;
	}
	ct = ctypes_btf(btf);
	type = nf_member_type(&ct, v->type, err);
	if (!type)
		return SEM_UNKNOWN;
	*access = tvar_resolve(&ct, type, TVAR_BASE_SLOT, (unsigned)v->slot, e, "netfilter", err);
	return *access ? (*access)->type : SEM_UNKNOWN;
}

static void nf_list_targets(const struct derived_probe *dp, struct vec *out)
{
	const struct btf *btf = kinfo_btf(NULL);
	struct ctypes ct = { 0 };

	(void)dp;
	if (btf)
		ct = ctypes_btf(btf);
	for (size_t i = 0; i < sizeof(nf_vars) / sizeof(nf_vars[0]); i++) {
		const struct nf_var *v = &nf_vars[i];
		struct family_error err = { 0 };
		ctype_id type = v->type && btf ? nf_member_type(&ct, v->type, &err) : 0;
		char *tn;

		free(err.msg);
		if (type)
			tn = tvar_type_name(&ct, type);
		else
			tn = xstrdup(nf_is_name_var(v) ? "string" : "unsigned int");
		vec_push(out, xasprintf("%s:%s", v->name, tn));
		free(tn);
	}
}

/* ---- pass 3 ------------------------------------------------------------- */

static void nf_emit(FILE *out, const struct derived_probe *dp, size_t index)
{
	(void)index;
	fprintf(out, ".kind = TAP_PROBE_NETFILTER, .arg = { %" PRId64 "LL, %" PRId64 "LL }, "
		".u.netfilter = { .priority = %" PRId64 " }, ",
		dp->fp.num[0] / 16, dp->fp.num[0] % 16, dp->fp.num[1]);
}

/* $indev_name, $outdev_name: the device's name, "" without one. */
static char *nf_target_c(struct tr *T, const struct derived_probe *dp, const struct expr *e)
{
	const struct nf_var *v = nf_var_named(e->name);

	(void)T;
	(void)dp;
	return xasprintf("tap_netfilter_devname(c, %d)", v ? v->slot : TAP_NF_SLOT_IN);
}

const struct probe_family probe_family_netfilter = {
	.name = "netfilter",
	.rows = nf_rows,
	.n_rows = sizeof(nf_rows) / sizeof(nf_rows[0]),
	.expand = nf_expand,
	.target_type = nf_target_type,
	.list_targets = nf_list_targets,
	.emit_entry = nf_emit,
	.target_c = nf_target_c,
};
