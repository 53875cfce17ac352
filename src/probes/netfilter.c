/* netfilter hooks: a handler run on every packet at one hook of one
 * protocol family, as SystemTap's
 *
 *   netfilter.hook("HOOK").pf("PF")[.priority("PRIORITY")]
 *   netfilter.pf("PF").hook("HOOK")[.priority("PRIORITY")]
 *
 * Outside guru mode, as stap 4.8: PF is NFPROTO_IPV4, NFPROTO_IPV6,
 * NFPROTO_ARP or NFPROTO_BRIDGE; HOOK one of that family's hook names
 * (NF_INET_* or the older NF_IP_* for IPv4, NF_IP6_* for IPv6,
 * NF_ARP_IN/OUT/FORWARD, NF_BR_PRE_ROUTING ... NF_BR_POST_ROUTING);
 * PRIORITY a number written as a string ("-100") or, for IPv4 and IPv6,
 * a NF_IP_PRI_* / NF_IP6_PRI_* name, 0 when left out.  With -g anything
 * else is handed to the C compiler as written (a number, a kernel
 * header's name), as SystemTap does.
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
#include <ctype.h>
#include <errno.h>
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

/* The names SystemTap takes outside guru mode, by protocol family: the
 * families with their numbers (include/uapi/linux/netfilter.h), each
 * family's hooks and named priorities.  IPv6's hooks go by their
 * NF_IP6_* names only, and ARP and the bridge have numbered priorities
 * only, as stap 4.8 has them. */
static const struct nf_name nf_inet_hooks[] = {
	{ "NF_INET_PRE_ROUTING", 0 }, { "NF_INET_LOCAL_IN", 1 }, { "NF_INET_FORWARD", 2 },
	{ "NF_INET_LOCAL_OUT", 3 }, { "NF_INET_POST_ROUTING", 4 },
	{ "NF_IP_PRE_ROUTING", 0 }, { "NF_IP_LOCAL_IN", 1 }, { "NF_IP_FORWARD", 2 },
	{ "NF_IP_LOCAL_OUT", 3 }, { "NF_IP_POST_ROUTING", 4 },
	{ NULL, 0 }
};

static const struct nf_name nf_ip6_hooks[] = {
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
	{ "NF_BR_LOCAL_OUT", 3 }, { "NF_BR_POST_ROUTING", 4 },
	{ NULL, 0 }
};

/* include/uapi/linux/netfilter_ipv4.h and netfilter_ipv6.h */
static const struct nf_name nf_ip_priorities[] = {
	{ "NF_IP_PRI_FIRST", INT_MIN }, { "NF_IP_PRI_CONNTRACK_DEFRAG", -400 },
	{ "NF_IP_PRI_RAW", -300 }, { "NF_IP_PRI_SELINUX_FIRST", -225 },
	{ "NF_IP_PRI_CONNTRACK", -200 }, { "NF_IP_PRI_MANGLE", -150 },
	{ "NF_IP_PRI_NAT_DST", -100 }, { "NF_IP_PRI_FILTER", 0 },
	{ "NF_IP_PRI_SECURITY", 50 }, { "NF_IP_PRI_NAT_SRC", 100 },
	{ "NF_IP_PRI_SELINUX_LAST", 225 }, { "NF_IP_PRI_CONNTRACK_CONFIRM", INT_MAX },
	{ "NF_IP_PRI_LAST", INT_MAX },
	{ NULL, 0 }
};

static const struct nf_name nf_ip6_priorities[] = {
	{ "NF_IP6_PRI_FIRST", INT_MIN }, { "NF_IP6_PRI_CONNTRACK_DEFRAG", -400 },
	{ "NF_IP6_PRI_RAW", -300 }, { "NF_IP6_PRI_SELINUX_FIRST", -225 },
	{ "NF_IP6_PRI_CONNTRACK", -200 }, { "NF_IP6_PRI_MANGLE", -150 },
	{ "NF_IP6_PRI_NAT_DST", -100 }, { "NF_IP6_PRI_FILTER", 0 },
	{ "NF_IP6_PRI_SECURITY", 50 }, { "NF_IP6_PRI_NAT_SRC", 100 },
	{ "NF_IP6_PRI_SELINUX_LAST", 225 }, { "NF_IP6_PRI_LAST", INT_MAX },
	{ NULL, 0 }
};

static const struct nf_name nf_no_priorities[] = { { NULL, 0 } };

static const struct nf_family {
	const char *name;
	int value;
	const struct nf_name *hooks, *priorities;
} nf_families[] = {
	{ "NFPROTO_IPV4", 2, nf_inet_hooks, nf_ip_priorities },
	{ "NFPROTO_IPV6", 10, nf_ip6_hooks, nf_ip6_priorities },
	{ "NFPROTO_ARP", 3, nf_arp_hooks, nf_no_priorities },
	{ "NFPROTO_BRIDGE", 7, nf_bridge_hooks, nf_no_priorities },
	{ NULL, 0, NULL, NULL }
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

static const struct nf_family *nf_family_named(const char *name)
{
	for (const struct nf_family *f = nf_families; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

/* A priority written as a number: an int after optional white space and
 * sign, nothing after it (how SystemTap reads it, " 3" and "+3" too). */
static bool nf_number(const char *s, long long *value)
{
	char *end;
	long long v;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s) &&
	    !((*s == '-' || *s == '+') && isdigit((unsigned char)s[1])))
		return false;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end || errno || v < INT_MIN || v > INT_MAX)
		return false;
	*value = v;
	return true;
}

static int nf_fail(struct family_error *err, const struct pp_comp *c, char *msg)
{
	return family_fail(err, c->arg ? &c->arg->pos : &c->pos, msg);
}

/* Guru mode: a name not known here goes to the C compiler as written,
 * as SystemTap does ("NF_INET_INGRESS", "12"); what is known is a
 * number.  NULL members: known, in the family_point's numbers. */
struct nf_text {
	char *pf, *hook, *priority;
};

static void nf_free_text(void *data)
{
	struct nf_text *t = data;

	free(t->pf);
	free(t->hook);
	free(t->priority);
	free(t);
}

static bool nf_guru(const struct probe_point *pp)
{
	return pp->pos.file && pp->pos.file->privileged;
}

static int nf_expand(const struct point_pattern *pat, const struct probe_point *pp,
		     struct vec *out, struct family_error *err)
{
	const struct pp_comp *hook = family_comp_named(pp, "hook"), *pf = family_comp_named(pp, "pf");
	const struct pp_comp *prio = family_comp_named(pp, "priority");
	const struct nf_family *fam = nf_family_named(pf->arg->str);
	long long hooknum = 0, priority = 0;
	struct nf_text *text = NULL;
	struct family_point *fp;
	bool guru = nf_guru(pp);

	(void)pat;
	if (!fam && !guru)
		return nf_fail(err, pf, xasprintf("unsupported netfilter protocol family "
						  "\"%s\"; need stap -g", pf->arg->str));
	if (!fam)
		(text = xcalloc(1, sizeof(*text)))->pf = xstrdup(pf->arg->str);
	if (!fam || !nf_lookup(fam->hooks, hook->arg->str, &hooknum)) {
		if (!guru)
			return nf_fail(err, hook, xasprintf("unsupported netfilter hook \"%s\" "
							    "for protocol family \"%d\"; need stap -g",
							    hook->arg->str, fam->value));
		if (!text)
			text = xcalloc(1, sizeof(*text));
		text->hook = xstrdup(hook->arg->str);
	}
	if (prio && !nf_number(prio->arg->str, &priority) &&
	    (!fam || !nf_lookup(fam->priorities, prio->arg->str, &priority))) {
		if (!guru)
			return nf_fail(err, prio, xasprintf("unsupported netfilter priority \"%s\" "
							    "for protocol family \"%d\"; need stap -g",
							    prio->arg->str, fam->value));
		if (!text)
			text = xcalloc(1, sizeof(*text));
		text->priority = xstrdup(prio->arg->str);
	}
	fp = xcalloc(1, sizeof(*fp));
	fp->target_comp = -1;
	fp->num[0] = (fam ? fam->value : 0) * 16 + hooknum;
	fp->num[1] = priority;
	fp->data = text;
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
		/* stap's words (its netfilter probes name no alternatives) */
		err->msg = xstrdup("unsupported context variable");
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

/* Guru mode's names the C compiler resolves: the kernel's netfilter
 * headers, wherever a probe uses one. */
static void nf_emit_support(FILE *out, const struct derived_probe *dp, size_t index)
{
	(void)index;
	if (dp->fp.data)
		fputs("#include <linux/netfilter.h>\n#include <linux/netfilter_ipv4.h>\n"
		      "#include <linux/netfilter_ipv6.h>\n#include <linux/netfilter_arp.h>\n"
		      "#include <linux/netfilter_bridge.h>\n", out);
}

static void nf_emit(FILE *out, const struct derived_probe *dp, size_t index)
{
	const struct nf_text *t = dp->fp.data;

	(void)index;
	fputs(".kind = TAP_PROBE_NETFILTER, .arg = { ", out);
	if (t && t->pf)
		fprintf(out, "(%s), ", t->pf);
	else
		fprintf(out, "%" PRId64 "LL, ", dp->fp.num[0] / 16);
	if (t && t->hook)
		fprintf(out, "(%s) }, ", t->hook);
	else
		fprintf(out, "%" PRId64 "LL }, ", dp->fp.num[0] % 16);
	if (t && t->priority)
		fprintf(out, ".u.netfilter = { .priority = (%s) }, ", t->priority);
	else
		fprintf(out, ".u.netfilter = { .priority = %" PRId64 " }, ", dp->fp.num[1]);
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
	.free_data = nf_free_text,
	.emit_entry = nf_emit,
	.emit_support = nf_emit_support,
	.target_c = nf_target_c,
};
