// SPDX-License-Identifier: GPL-2.0
/*
 * The decoders of the socket system calls' argstr (socket, bind, connect,
 * sendto, setsockopt ...), as SystemTap's aux_syscalls tapset prints
 * them: message, socket type and socket flag sets, protocol families,
 * shutdown modes, socket option levels and names, and a user-space
 * struct sockaddr ("{AF_INET, 127.0.0.1, 8080}").
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/kernel.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/if_packet.h>
#include <linux/socket.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "tap_internal.h"
#include "tap_syscall.h"

static const struct tap_flag tap_msg_flags[] = {
	TAP_FLAG(MSG_OOB), TAP_FLAG(MSG_PEEK), TAP_FLAG(MSG_DONTROUTE),
	TAP_FLAG(MSG_CTRUNC), TAP_FLAG(MSG_PROBE), TAP_FLAG(MSG_TRUNC),
	TAP_FLAG(MSG_DONTWAIT), TAP_FLAG(MSG_EOR), TAP_FLAG(MSG_WAITALL),
	TAP_FLAG(MSG_FIN), TAP_FLAG(MSG_SYN), TAP_FLAG(MSG_CONFIRM),
	TAP_FLAG(MSG_RST), TAP_FLAG(MSG_ERRQUEUE), TAP_FLAG(MSG_NOSIGNAL),
	TAP_FLAG(MSG_MORE), TAP_FLAG(MSG_WAITFORONE),
#ifdef MSG_SENDPAGE_NOTLAST
	TAP_FLAG(MSG_SENDPAGE_NOTLAST),
#endif
	TAP_FLAG(MSG_FASTOPEN), TAP_FLAG(MSG_CMSG_CLOEXEC),
	{ 0, NULL }
};

/* _msg_flags_str(): the kernel's own MSG_CMSG_COMPAT bit is not shown. */
void tapset_sc_msg_flags_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(tap_msg_flags, (unsigned long)(flags & ~(long long)MSG_CMSG_COMPAT),
		    out);
}

/* The first name of a number wins: PF_LOCAL (not PF_UNIX), PF_NETLINK
 * (not PF_ROUTE). */
static const struct tap_flag tap_sock_families[] = {
	TAP_FLAG(PF_UNSPEC), TAP_FLAG(PF_LOCAL), TAP_FLAG(PF_INET),
	TAP_FLAG(PF_AX25), TAP_FLAG(PF_IPX), TAP_FLAG(PF_APPLETALK),
	TAP_FLAG(PF_NETROM), TAP_FLAG(PF_BRIDGE), TAP_FLAG(PF_ATMPVC),
	TAP_FLAG(PF_X25), TAP_FLAG(PF_INET6), TAP_FLAG(PF_ROSE),
	TAP_FLAG(PF_DECnet), TAP_FLAG(PF_NETBEUI), TAP_FLAG(PF_SECURITY),
	TAP_FLAG(PF_KEY), TAP_FLAG(PF_NETLINK), TAP_FLAG(PF_ROUTE),
	TAP_FLAG(PF_PACKET), TAP_FLAG(PF_ASH), TAP_FLAG(PF_ECONET),
	TAP_FLAG(PF_ATMSVC), TAP_FLAG(PF_RDS), TAP_FLAG(PF_SNA),
	TAP_FLAG(PF_IRDA), TAP_FLAG(PF_PPPOX), TAP_FLAG(PF_WANPIPE),
	TAP_FLAG(PF_LLC), TAP_FLAG(PF_IB), TAP_FLAG(PF_CAN),
	TAP_FLAG(PF_TIPC), TAP_FLAG(PF_BLUETOOTH), TAP_FLAG(PF_IUCV),
	TAP_FLAG(PF_RXRPC), TAP_FLAG(PF_ISDN), TAP_FLAG(PF_PHONET),
	TAP_FLAG(PF_IEEE802154), TAP_FLAG(PF_CAIF), TAP_FLAG(PF_ALG),
	TAP_FLAG(PF_NFC), TAP_FLAG(PF_VSOCK),
	{ 0, NULL }
};

void tapset_sc_sock_family_str(char *out, long long family)
{
	out[0] = '\0';
	tap_flag_lookup(tap_sock_families, (unsigned int)family, out);
}

static const struct tap_flag tap_sock_types[] = {
	TAP_FLAG(SOCK_STREAM), TAP_FLAG(SOCK_DGRAM), TAP_FLAG(SOCK_RAW),
	TAP_FLAG(SOCK_RDM), TAP_FLAG(SOCK_SEQPACKET), TAP_FLAG(SOCK_DCCP),
	TAP_FLAG(SOCK_PACKET), { 0, NULL }
};

static const struct tap_flag tap_sock_flags[] = {
	TAP_FLAG(SOCK_CLOEXEC), TAP_FLAG(SOCK_NONBLOCK), { 0, NULL }
};

/* _sock_type_str(): the type's name, then the flags set, '|'-joined, and
 * whatever bits neither names once at the end in hex
 * ("SOCK_STREAM|SOCK_CLOEXEC", "0x0" for nothing known). */
void tapset_sc_sock_type_str(char *out, long long type)
{
	unsigned int rest = (unsigned int)type;
	const struct tap_flag *f;

	out[0] = '\0';
	for (f = tap_sock_types; f->name; f++)
		if (f->val == (rest & SOCK_TYPE_MASK)) {
			strlcat(out, f->name, MAXSTRINGLEN);
			rest &= ~SOCK_TYPE_MASK;
			break;
		}
	for (f = tap_sock_flags; f->name; f++)
		if (rest & f->val) {
			if (out[0])
				strlcat(out, "|", MAXSTRINGLEN);
			strlcat(out, f->name, MAXSTRINGLEN);
			rest &= ~f->val;
		}
	if (rest || !out[0]) {
		size_t len;

		if (out[0])
			strlcat(out, "|", MAXSTRINGLEN);
		len = strlen(out);
		snprintf(out + len, MAXSTRINGLEN - len, "0x%x", rest);
	}
}

/* _sock_flags_str(): accept4's flags. */
void tapset_sc_sock_flags_str(char *out, long long flags)
{
	out[0] = '\0';
	tap_flag_or(tap_sock_flags, (unsigned int)flags, out);
}

static const struct tap_flag tap_ip_protocols[] = {
	TAP_FLAG(IPPROTO_IP), TAP_FLAG(IPPROTO_ICMP), TAP_FLAG(IPPROTO_IGMP),
	TAP_FLAG(IPPROTO_IPIP), TAP_FLAG(IPPROTO_TCP), TAP_FLAG(IPPROTO_EGP),
	TAP_FLAG(IPPROTO_PUP), TAP_FLAG(IPPROTO_UDP), TAP_FLAG(IPPROTO_IDP),
	TAP_FLAG(IPPROTO_TP), TAP_FLAG(IPPROTO_DCCP), TAP_FLAG(IPPROTO_IPV6),
	TAP_FLAG(IPPROTO_RSVP), TAP_FLAG(IPPROTO_GRE), TAP_FLAG(IPPROTO_ESP),
	TAP_FLAG(IPPROTO_AH), TAP_FLAG(IPPROTO_MTP), TAP_FLAG(IPPROTO_ENCAP),
	TAP_FLAG(IPPROTO_PIM), TAP_FLAG(IPPROTO_COMP), TAP_FLAG(IPPROTO_SCTP),
	TAP_FLAG(IPPROTO_UDPLITE), TAP_FLAG(IPPROTO_RAW), { 0, NULL }
};

/* _sock_protocol_str(): IPPROTO_ names for the IP families, the number in
 * decimal otherwise or when unknown. */
void tapset_sc_sock_protocol_str(char *out, long long family, long long protocol)
{
	const struct tap_flag *f;

	if (family == PF_INET || family == PF_INET6)
		for (f = tap_ip_protocols; f->name; f++)
			if ((long long)f->val == protocol) {
				strscpy(out, f->name, MAXSTRINGLEN);
				return;
			}
	snprintf(out, MAXSTRINGLEN, "%lld", protocol);
}

static const struct tap_flag tap_shutdown_hows[] = {
	TAP_FLAG(SHUT_RD), TAP_FLAG(SHUT_WR), TAP_FLAG(SHUT_RDWR), { 0, NULL }
};

void tapset_sc_shutdown_how_str(char *out, long long how)
{
	out[0] = '\0';
	tap_flag_lookup(tap_shutdown_hows, (unsigned int)how, out);
}

static const struct tap_flag tap_sockopt_levels[] = {
	TAP_FLAG(SOL_IP), TAP_FLAG(SOL_SOCKET), TAP_FLAG(SOL_TCP),
	TAP_FLAG(SOL_UDP), TAP_FLAG(SOL_IPV6), TAP_FLAG(SOL_ICMPV6),
	TAP_FLAG(SOL_SCTP), TAP_FLAG(SOL_UDPLITE), TAP_FLAG(SOL_RAW),
	TAP_FLAG(SOL_IPX), TAP_FLAG(SOL_AX25), TAP_FLAG(SOL_ATALK),
	TAP_FLAG(SOL_NETROM), TAP_FLAG(SOL_ROSE), TAP_FLAG(SOL_DECNET),
	TAP_FLAG(SOL_X25), TAP_FLAG(SOL_PACKET), TAP_FLAG(SOL_ATM),
	TAP_FLAG(SOL_AAL), TAP_FLAG(SOL_IRDA), TAP_FLAG(SOL_NETBEUI),
	TAP_FLAG(SOL_LLC), TAP_FLAG(SOL_DCCP), TAP_FLAG(SOL_NETLINK),
	TAP_FLAG(SOL_TIPC), TAP_FLAG(SOL_RXRPC), TAP_FLAG(SOL_PPPOL2TP),
	TAP_FLAG(SOL_BLUETOOTH), TAP_FLAG(SOL_PNPIPE), TAP_FLAG(SOL_RDS),
	TAP_FLAG(SOL_IUCV), TAP_FLAG(SOL_CAIF), TAP_FLAG(SOL_ALG),
	TAP_FLAG(SOL_NFC), { 0, NULL }
};

void tapset_sc_sockopt_level_str(char *out, long long level)
{
	out[0] = '\0';
	tap_flag_lookup(tap_sockopt_levels, (unsigned long)level, out);
}

/* The SOL_SOCKET options (asm-generic/socket.h), whatever the level. */
static const struct tap_flag tap_sockopt_names[] = {
	TAP_FLAG(SO_DEBUG), TAP_FLAG(SO_REUSEADDR), TAP_FLAG(SO_TYPE),
	TAP_FLAG(SO_ERROR), TAP_FLAG(SO_DONTROUTE), TAP_FLAG(SO_BROADCAST),
	TAP_FLAG(SO_SNDBUF), TAP_FLAG(SO_RCVBUF), TAP_FLAG(SO_SNDBUFFORCE),
	TAP_FLAG(SO_RCVBUFFORCE), TAP_FLAG(SO_KEEPALIVE), TAP_FLAG(SO_OOBINLINE),
	TAP_FLAG(SO_NO_CHECK), TAP_FLAG(SO_PRIORITY), TAP_FLAG(SO_LINGER),
	TAP_FLAG(SO_BSDCOMPAT), TAP_FLAG(SO_REUSEPORT), TAP_FLAG(SO_PASSCRED),
	TAP_FLAG(SO_PEERCRED), TAP_FLAG(SO_RCVLOWAT), TAP_FLAG(SO_SNDLOWAT),
	TAP_FLAG(SO_RCVTIMEO_OLD), TAP_FLAG(SO_SNDTIMEO_OLD),
	TAP_FLAG(SO_SECURITY_AUTHENTICATION),
	TAP_FLAG(SO_SECURITY_ENCRYPTION_TRANSPORT),
	TAP_FLAG(SO_SECURITY_ENCRYPTION_NETWORK), TAP_FLAG(SO_BINDTODEVICE),
	TAP_FLAG(SO_ATTACH_FILTER), TAP_FLAG(SO_DETACH_FILTER),
	TAP_FLAG(SO_PEERNAME), TAP_FLAG(SO_TIMESTAMP_OLD),
	TAP_FLAG(SO_ACCEPTCONN), TAP_FLAG(SO_PEERSEC), TAP_FLAG(SO_PASSSEC),
	TAP_FLAG(SO_TIMESTAMPNS_OLD), TAP_FLAG(SO_MARK),
	TAP_FLAG(SO_TIMESTAMPING_OLD), TAP_FLAG(SO_PROTOCOL),
	TAP_FLAG(SO_DOMAIN), TAP_FLAG(SO_RXQ_OVFL), TAP_FLAG(SO_WIFI_STATUS),
	TAP_FLAG(SO_PEEK_OFF), TAP_FLAG(SO_NOFCS), TAP_FLAG(SO_LOCK_FILTER),
	TAP_FLAG(SO_SELECT_ERR_QUEUE), TAP_FLAG(SO_BUSY_POLL),
	TAP_FLAG(SO_MAX_PACING_RATE), TAP_FLAG(SO_BPF_EXTENSIONS),
	TAP_FLAG(SO_INCOMING_CPU), TAP_FLAG(SO_ATTACH_BPF),
	TAP_FLAG(SO_ATTACH_REUSEPORT_CBPF), TAP_FLAG(SO_ATTACH_REUSEPORT_EBPF),
	TAP_FLAG(SO_CNX_ADVICE), TAP_FLAG(SCM_TIMESTAMPING_OPT_STATS),
	TAP_FLAG(SO_MEMINFO), TAP_FLAG(SO_INCOMING_NAPI_ID),
	TAP_FLAG(SO_COOKIE), TAP_FLAG(SCM_TIMESTAMPING_PKTINFO),
	TAP_FLAG(SO_PEERGROUPS), TAP_FLAG(SO_ZEROCOPY), TAP_FLAG(SO_TXTIME),
	TAP_FLAG(SO_BINDTOIFINDEX), TAP_FLAG(SO_TIMESTAMP_NEW),
	TAP_FLAG(SO_TIMESTAMPNS_NEW), TAP_FLAG(SO_TIMESTAMPING_NEW),
	TAP_FLAG(SO_RCVTIMEO_NEW), TAP_FLAG(SO_SNDTIMEO_NEW),
	{ 0, NULL }
};

/* The kernel spells some options through macros of the word size
 * (SO_RCVTIMEO is SO_RCVTIMEO_OLD on x86-64): SystemTap prints the
 * plain names for those. */
static const char *tap_sockopt_plain(unsigned long opt)
{
	switch (opt) {
	case SO_RCVTIMEO_OLD: return "SO_RCVTIMEO";
	case SO_SNDTIMEO_OLD: return "SO_SNDTIMEO";
	case SO_TIMESTAMP_OLD: return "SO_TIMESTAMP";
	case SO_TIMESTAMPNS_OLD: return "SO_TIMESTAMPNS";
	case SO_TIMESTAMPING_OLD: return "SO_TIMESTAMPING";
	default: return NULL;
	}
}

void tapset_sc_sockopt_optname_str(char *out, long long opt)
{
	const char *plain = tap_sockopt_plain((unsigned long)opt);

	out[0] = '\0';
	if (plain)
		strscpy(out, plain, MAXSTRINGLEN);
	else
		tap_flag_lookup(tap_sockopt_names, (unsigned long)opt, out);
}

/* ---- struct sockaddr in user memory ----------------------------------- */

/* What of the address tapset_sc_sockaddr_u() prints (SystemTap's
 * _struct_sockaddr_u_* family of functions). */
enum {
	TAP_SA_PRETTY = 1,	/* "{AF_INET, 10.0.0.1, 80}" */
	TAP_SA_IP_ADDR = 2,	/* "10.0.0.1" */
	TAP_SA_PORT = 4,	/* "80" */
	TAP_SA_FAMILY = 8,	/* "AF_INET" */
	TAP_SA_FLOWINFO = 16,	/* IPv6 flow information */
	TAP_SA_SCOPE_ID = 32,	/* IPv6 scope (SystemTap prints the flow
				 * information here too) */
};

#define TAP_SA_MAX 128	/* bytes of the address read, at most */

static void tap_sa_append(char *out, const char *fmt, ...) __printf(2, 3);

static void tap_sa_append(char *out, const char *fmt, ...)
{
	size_t len = strlen(out);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out + len, MAXSTRINGLEN - len, fmt, ap);
	va_end(ap);
}

static void tap_sa_inet(char *out, const struct sockaddr_in *sin, long long what)
{
	if (what & TAP_SA_PRETTY) {
		snprintf(out, MAXSTRINGLEN, "{AF_INET, %pI4, %d}",
			 &sin->sin_addr, be16_to_cpu(sin->sin_port));
		return;
	}
	if (what & TAP_SA_FAMILY)
		tap_sa_append(out, "AF_INET");
	if (what & TAP_SA_IP_ADDR)
		tap_sa_append(out, "%pI4", &sin->sin_addr);
	if (what & TAP_SA_PORT)
		tap_sa_append(out, "%d", be16_to_cpu(sin->sin_port));
}

static void tap_sa_inet6(char *out, const struct sockaddr_in6 *sin6,
			 long long what)
{
	if (what & TAP_SA_PRETTY) {
		snprintf(out, MAXSTRINGLEN, "{AF_INET6, %pI6, %d}",
			 &sin6->sin6_addr, be16_to_cpu(sin6->sin6_port));
		return;
	}
	if (what & TAP_SA_FAMILY)
		tap_sa_append(out, "AF_INET6");
	if (what & TAP_SA_IP_ADDR)
		tap_sa_append(out, "%pI6", &sin6->sin6_addr);
	if (what & TAP_SA_PORT)
		tap_sa_append(out, "%d", be16_to_cpu(sin6->sin6_port));
	if (what & TAP_SA_FLOWINFO)
		tap_sa_append(out, "%d", (int)sin6->sin6_flowinfo);
	if (what & TAP_SA_SCOPE_ID)
		tap_sa_append(out, "%d", (int)sin6->sin6_flowinfo);
}

/* A path (the buffer is zero-filled past the copied bytes, and its last
 * byte stays 0), or an abstract name: a NUL, then the bytes escaped,
 * NULs too; SystemTap shows len - 2 of them from the name's first, i.e.
 * one past its end (a \000 more), and so does this. */
static void tap_sa_unix(char *out, const char *buf, size_t len, long long what)
{
	const char *path = buf + sizeof(sa_family_t);
	size_t i, n = len - sizeof(sa_family_t);
	ssize_t at;
	char e[5];

	if (!(what & TAP_SA_PRETTY)) {
		strscpy(out, (what & TAP_SA_FAMILY) ? "AF_UNIX" : "", MAXSTRINGLEN);
		return;
	}
	if (path[0]) {
		snprintf(out, MAXSTRINGLEN, "{AF_UNIX, \"%s\"}", path);
		return;
	}
	at = strscpy(out, "{AF_UNIX, \"\\000", MAXSTRINGLEN);
	if (at < 0)
		return;
	for (i = 1; i <= n && sizeof(sa_family_t) + i < TAP_SA_MAX + 1; i++) {
		size_t el = tap_escape(e, (unsigned char)path[i]);

		if ((size_t)at + el + 3 > MAXSTRINGLEN)
			break;
		memcpy(out + at, e, el);
		at += el;
	}
	out[at] = '\0';
	strlcat(out, "\"}", MAXSTRINGLEN);
}

/* The other families SystemTap names: only in the pretty form. */
static bool tap_sa_other(char *out, const struct sockaddr *sa, size_t len,
			 long long what)
{
	const char *family;

	if (sa->sa_family == AF_NETLINK && len == sizeof(struct sockaddr_nl))
		family = "AF_NETLINK";
	else if (sa->sa_family == AF_PACKET && len == sizeof(struct sockaddr_ll))
		family = "AF_PACKET";
	else
		return false;
	if (!(what & TAP_SA_PRETTY)) {
		strscpy(out, (what & TAP_SA_FAMILY) ? family : "", MAXSTRINGLEN);
	} else if (sa->sa_family == AF_NETLINK) {
		const struct sockaddr_nl *nl = (const void *)sa;

		snprintf(out, MAXSTRINGLEN, "{AF_NETLINK, pid=%d, groups=%08x}",
			 (int)nl->nl_pid, nl->nl_groups);
	} else {
		const struct sockaddr_ll *ll = (const void *)sa;
		u64 addr;

		memcpy(&addr, ll->sll_addr, sizeof(addr));
		snprintf(out, MAXSTRINGLEN,
			 "{AF_PACKET, proto=%d, ind=%d, hatype=%d, pkttype=%d, halen=%d, addr=0x%llx}",
			 (int)ll->sll_protocol, ll->sll_ifindex, (int)ll->sll_hatype,
			 (int)ll->sll_pkttype, (int)ll->sll_halen,
			 (unsigned long long)addr);
	}
	return true;
}

/*
 * _struct_sockaddr_u(uaddr, len) and friends: the @len bytes (at most 128)
 * of a struct sockaddr at @uaddr in the current task: "NULL" for address
 * 0, "{...}" when unreadable, "{unknown sockaddr with sa=F, salen=L}" for
 * a family or length it does not know.  The IPv4 and IPv6 forms need the
 * exact structure length, as the kernel's own checks do.
 */
void tapset_sc_sockaddr_u(char *out, long long uaddr, long long ulen, long long what)
{
	size_t len = clamp_t(long long, ulen, 0, TAP_SA_MAX);
	/* zero past the copied bytes: a path ends inside the buffer */
	char buf[TAP_SA_MAX + 1] __aligned(sizeof(long)) = { 0 };
	struct sockaddr *sa = (struct sockaddr *)buf;

	out[0] = '\0';
	if (!uaddr) {
		strscpy(out, "NULL", MAXSTRINGLEN);
		return;
	}
	if (copy_from_user_nofault(buf, (const void __user *)(unsigned long)uaddr, len)) {
		strscpy(out, "{...}", MAXSTRINGLEN);
		return;
	}
	if (sa->sa_family == AF_INET && len == sizeof(struct sockaddr_in))
		tap_sa_inet(out, (struct sockaddr_in *)buf, what);
	else if (sa->sa_family == AF_UNIX
		 && len >= sizeof(sa_family_t) + 2)
		tap_sa_unix(out, buf, len, what);
	else if (sa->sa_family == AF_INET6 && len == sizeof(struct sockaddr_in6))
		tap_sa_inet6(out, (struct sockaddr_in6 *)buf, what);
	else if (tap_sa_other(out, sa, len, what))
		return;
	else if (len >= sizeof(sa_family_t))
		snprintf(out, MAXSTRINGLEN, "{unknown sockaddr with sa=%d, salen=%d}",
			 sa->sa_family, (int)len);
	else
		snprintf(out, MAXSTRINGLEN, "{unknown sockaddr with salen=%d}", (int)len);
}
