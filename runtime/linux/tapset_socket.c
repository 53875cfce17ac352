// SPDX-License-Identifier: GPL-2.0
/*
 * The socket tapset's names of numbers, as SystemTap spells them:
 * protocols (as /etc/protocols names them), protocol families, socket
 * states and types (without their PF_, SS_, SOCK_ prefixes), and the
 * socket and message flag sets ("NOSPACE|PASSCRED", "PEEK|DONTWAIT"),
 * and the tcp tapset's TCP states and TCP and IPv6 socket options.
 */
#include <linux/kernel.h>
#include <linux/net.h>
#include <linux/socket.h>
#include <linux/string.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/tcp.h>
#include <net/tcp_states.h>
#include "tap_internal.h"

struct tapset_name {
	int num;
	const char *name;
};

/* /etc/protocols: the IP protocol numbers with names, 0 .. 137 */
static const struct tapset_name prot_names[] = {
	{ 0, "IP" }, { 1, "ICMP" }, { 2, "IGMP" }, { 3, "GGP" },
	{ 4, "IPENCAP" }, { 5, "ST" }, { 6, "TCP" }, { 7, "CBT" },
	{ 8, "EGP" }, { 9, "IGP" }, { 10, "BBN-RCC" }, { 11, "NVP" },
	{ 12, "PUP" }, { 13, "ARGUS" }, { 14, "EMCON" }, { 15, "XNET" },
	{ 16, "CHAOS" }, { 17, "UDP" }, { 18, "MUX" }, { 19, "DCN" },
	{ 20, "HMP" }, { 21, "PRM" }, { 22, "XNS-IDP" }, { 23, "TRUNK-1" },
	{ 24, "TRUNK-2" }, { 25, "LEAF-1" }, { 26, "LEAF-2" }, { 27, "RDP" },
	{ 28, "IRTP" }, { 29, "ISO-TP4" }, { 30, "NETBLT" },
	{ 31, "MFE-NSP" }, { 32, "MERIT-INP" }, { 33, "SEP" }, { 34, "3PC" },
	{ 35, "IDPR" }, { 36, "XTP" }, { 37, "DDP" }, { 38, "IDPR-CMTP" },
	{ 39, "TP++" }, { 40, "IL" }, { 41, "IPV6" }, { 42, "SDRP" },
	{ 43, "IPV6-ROUTE" }, { 44, "IPV6-FRAG" }, { 45, "IDRP" },
	{ 46, "RSVP" }, { 47, "GRE" }, { 48, "MHRP" }, { 49, "BNA" },
	{ 50, "IPV6-CRYPT" }, { 51, "IPV6-AUTH" }, { 52, "I-NLSP" },
	{ 53, "SWIPE" }, { 54, "NARP" }, { 55, "MOBILE" }, { 56, "TLSP" },
	{ 57, "SKIP" }, { 58, "IPV6-ICMP" }, { 59, "IPV6-NONXT" },
	{ 60, "IPV6-OPTS" }, { 62, "CFTP" }, { 64, "SAT-EXPAK" },
	{ 65, "KRYPTOLAN" }, { 66, "RVD" }, { 67, "IPPC" }, { 69, "SAT-MON" },
	{ 70, "VISA" }, { 71, "IPCV" }, { 72, "CPNX" }, { 73, "CPHB" },
	{ 74, "WSN" }, { 75, "PVP" }, { 76, "BR-SAT-MON" }, { 77, "SUN-ND" },
	{ 78, "WB-MON" }, { 79, "WB-EXPAK" }, { 80, "ISO-IP" }, { 81, "VMTP" },
	{ 82, "SECURE-VMTP" }, { 83, "VINES" }, { 84, "TTP" },
	{ 85, "NSFNET-IGP" }, { 86, "DGP" }, { 87, "TCF" }, { 88, "EIGRP" },
	{ 89, "OSPF" }, { 90, "SPRITE-RPC" }, { 91, "LARP" }, { 92, "MTP" },
	{ 93, "AX.25" }, { 94, "IPIP" }, { 95, "MICP" }, { 96, "SCC-SP" },
	{ 97, "ETHERIP" }, { 98, "ENCAP" }, { 100, "GMTP" }, { 101, "IFMP" },
	{ 102, "PNNI" }, { 103, "PIM" }, { 104, "ARIS" }, { 105, "SCPS" },
	{ 106, "QNX" }, { 107, "A/N" }, { 108, "IPCOMP" }, { 109, "SNP" },
	{ 110, "COMPAQ-PEER" }, { 111, "IPX-IN-IP" }, { 112, "VRRP" },
	{ 113, "PGM" }, { 115, "L2TP" }, { 116, "DDX" }, { 117, "IATP" },
	{ 118, "STP" }, { 119, "SRP" }, { 120, "UTI" }, { 121, "SMP" },
	{ 122, "SM" }, { 123, "PTP" }, { 124, "ISIS" }, { 125, "FIRE" },
	{ 126, "CRTP" }, { 127, "CRDUP" }, { 128, "SSCOPMCE" },
	{ 129, "IPLT" }, { 130, "SPS" }, { 131, "PIPE" }, { 132, "SCTP" },
	{ 133, "FC" }, { 134, "RSVP-E2E-IGNORE" }, { 135, "Mobility-Header" },
	{ 136, "UDPLite" }, { 137, "MPLS-IN-IP" },
};

/* the families SystemTap names (include/linux/socket.h), 0 .. 33 */
static const struct tapset_name fam_names[] = {
	{ 0, "UNSPEC" }, { 1, "LOCAL" }, { 2, "INET" }, { 3, "AX25" },
	{ 4, "IPX" }, { 5, "APPLETALK" }, { 6, "NETROM" }, { 7, "BRIDGE" },
	{ 8, "ATMPVC" }, { 9, "X25" }, { 10, "INET6" }, { 11, "ROSE" },
	{ 12, "DECNET" }, { 13, "NETBEUI" }, { 14, "SECURITY" }, { 15, "KEY" },
	{ 16, "NETLINK" }, { 17, "PACKET" }, { 18, "ASH" }, { 19, "ECONET" },
	{ 20, "ATMSVC" }, { 22, "SNA" }, { 23, "IRDA" }, { 24, "PPPOX" },
	{ 25, "WANPIPE" }, { 26, "LLC" }, { 30, "TIPC" }, { 31, "BLUETOOTH" },
	{ 32, "IUCV" }, { 33, "RXRPC" },
};

/* socket_state (include/uapi/linux/net.h) */
static const struct tapset_name state_names[] = {
	{ SS_FREE, "FREE" }, { SS_UNCONNECTED, "UNCONNECTED" },
	{ SS_CONNECTING, "CONNECTING" }, { SS_CONNECTED, "CONNECTED" },
	{ SS_DISCONNECTING, "DISCONNECTING" },
};

/* sock_type (include/linux/net.h) */
static const struct tapset_name type_names[] = {
	{ SOCK_STREAM, "STREAM" }, { SOCK_DGRAM, "DGRAM" }, { SOCK_RAW, "RAW" },
	{ SOCK_RDM, "RDM" }, { SOCK_SEQPACKET, "SEQPACKET" },
	{ SOCK_DCCP, "DCCP" }, { SOCK_PACKET, "PACKET" },
};

/* TCP states (include/net/tcp_states.h), with their TCP_ prefix */
static const struct tapset_name tcp_state_names[] = {
	{ TCP_ESTABLISHED, "TCP_ESTABLISHED" }, { TCP_SYN_SENT, "TCP_SYN_SENT" },
	{ TCP_SYN_RECV, "TCP_SYN_RECV" }, { TCP_FIN_WAIT1, "TCP_FIN_WAIT1" },
	{ TCP_FIN_WAIT2, "TCP_FIN_WAIT2" }, { TCP_TIME_WAIT, "TCP_TIME_WAIT" },
	{ TCP_CLOSE, "TCP_CLOSE" }, { TCP_CLOSE_WAIT, "TCP_CLOSE_WAIT" },
	{ TCP_LAST_ACK, "TCP_LAST_ACK" }, { TCP_LISTEN, "TCP_LISTEN" },
	{ TCP_CLOSING, "TCP_CLOSING" }, { 12, "TCP_MAX_STATES" },
};

#define SOCKOPT_NAME(opt) { opt, #opt }

/* the TCP-level options SystemTap names (include/uapi/linux/tcp.h) */
static const struct tapset_name tcp_sockopt_names[] = {
	SOCKOPT_NAME(TCP_NODELAY), SOCKOPT_NAME(TCP_MAXSEG),
	SOCKOPT_NAME(TCP_CORK), SOCKOPT_NAME(TCP_KEEPIDLE),
	SOCKOPT_NAME(TCP_KEEPINTVL), SOCKOPT_NAME(TCP_KEEPCNT),
	SOCKOPT_NAME(TCP_SYNCNT), SOCKOPT_NAME(TCP_LINGER2),
	SOCKOPT_NAME(TCP_DEFER_ACCEPT), SOCKOPT_NAME(TCP_WINDOW_CLAMP),
	SOCKOPT_NAME(TCP_INFO), SOCKOPT_NAME(TCP_QUICKACK),
	SOCKOPT_NAME(TCP_CONGESTION), SOCKOPT_NAME(TCP_MD5SIG),
	SOCKOPT_NAME(TCP_THIN_LINEAR_TIMEOUTS), SOCKOPT_NAME(TCP_THIN_DUPACK),
	SOCKOPT_NAME(TCP_USER_TIMEOUT),
};

/* the IPv6-level options SystemTap names (include/uapi/linux/in6.h, in.h) */
static const struct tapset_name ipv6_sockopt_names[] = {
	SOCKOPT_NAME(IPV6_ADDRFORM), SOCKOPT_NAME(IPV6_2292PKTINFO),
	SOCKOPT_NAME(IPV6_2292HOPOPTS), SOCKOPT_NAME(IPV6_2292DSTOPTS),
	SOCKOPT_NAME(IPV6_2292RTHDR), SOCKOPT_NAME(IPV6_2292PKTOPTIONS),
	SOCKOPT_NAME(IPV6_CHECKSUM), SOCKOPT_NAME(IPV6_2292HOPLIMIT),
	SOCKOPT_NAME(IPV6_NEXTHOP), SOCKOPT_NAME(IPV6_AUTHHDR),
	SOCKOPT_NAME(IPV6_FLOWINFO), SOCKOPT_NAME(IPV6_UNICAST_HOPS),
	SOCKOPT_NAME(IPV6_MULTICAST_IF), SOCKOPT_NAME(IPV6_MULTICAST_HOPS),
	SOCKOPT_NAME(IPV6_MULTICAST_LOOP), SOCKOPT_NAME(IPV6_ADD_MEMBERSHIP),
	SOCKOPT_NAME(IPV6_DROP_MEMBERSHIP), SOCKOPT_NAME(IPV6_ROUTER_ALERT),
	SOCKOPT_NAME(IPV6_MTU_DISCOVER), SOCKOPT_NAME(IPV6_MTU),
	SOCKOPT_NAME(IPV6_RECVERR), SOCKOPT_NAME(IPV6_V6ONLY),
	SOCKOPT_NAME(IPV6_JOIN_ANYCAST), SOCKOPT_NAME(IPV6_LEAVE_ANYCAST),
	SOCKOPT_NAME(IPV6_FLOWLABEL_MGR), SOCKOPT_NAME(IPV6_FLOWINFO_SEND),
	SOCKOPT_NAME(IPV6_IPSEC_POLICY), SOCKOPT_NAME(IPV6_XFRM_POLICY),
	SOCKOPT_NAME(MCAST_JOIN_GROUP), SOCKOPT_NAME(MCAST_BLOCK_SOURCE),
	SOCKOPT_NAME(MCAST_UNBLOCK_SOURCE), SOCKOPT_NAME(MCAST_LEAVE_GROUP),
	SOCKOPT_NAME(MCAST_JOIN_SOURCE_GROUP),
	SOCKOPT_NAME(MCAST_LEAVE_SOURCE_GROUP), SOCKOPT_NAME(MCAST_MSFILTER),
	SOCKOPT_NAME(IPV6_RECVPKTINFO), SOCKOPT_NAME(IPV6_PKTINFO),
	SOCKOPT_NAME(IPV6_RECVHOPLIMIT), SOCKOPT_NAME(IPV6_HOPLIMIT),
	SOCKOPT_NAME(IPV6_RECVHOPOPTS), SOCKOPT_NAME(IPV6_HOPOPTS),
	SOCKOPT_NAME(IPV6_RTHDRDSTOPTS), SOCKOPT_NAME(IPV6_RECVRTHDR),
	SOCKOPT_NAME(IPV6_RTHDR), SOCKOPT_NAME(IPV6_RECVDSTOPTS),
	SOCKOPT_NAME(IPV6_DSTOPTS), SOCKOPT_NAME(IPV6_RECVPATHMTU),
	SOCKOPT_NAME(IPV6_PATHMTU), SOCKOPT_NAME(IPV6_DONTFRAG),
	SOCKOPT_NAME(IPV6_RECVTCLASS), SOCKOPT_NAME(IPV6_TCLASS),
	SOCKOPT_NAME(IPV6_ADDR_PREFERENCES), SOCKOPT_NAME(IPV6_MINHOPCOUNT),
	SOCKOPT_NAME(IPV6_RECVORIGDSTADDR), SOCKOPT_NAME(IPV6_TRANSPARENT),
};

static const struct {
	const struct tapset_name *names;
	size_t count;
} name_tables[] = {
	[TAPSET_SOCK_PROT] = { prot_names, ARRAY_SIZE(prot_names) },
	[TAPSET_SOCK_FAM] = { fam_names, ARRAY_SIZE(fam_names) },
	[TAPSET_SOCK_STATE] = { state_names, ARRAY_SIZE(state_names) },
	[TAPSET_SOCK_TYPE] = { type_names, ARRAY_SIZE(type_names) },
	[TAPSET_TCP_STATE] = { tcp_state_names, ARRAY_SIZE(tcp_state_names) },
	[TAPSET_TCP_SOCKOPT] = { tcp_sockopt_names,
				 ARRAY_SIZE(tcp_sockopt_names) },
	[TAPSET_IPV6_SOCKOPT] = { ipv6_sockopt_names,
				  ARRAY_SIZE(ipv6_sockopt_names) },
};

void tapset_sock_num2str(char *out, int table, long long num)
{
	size_t i;

	for (i = 0; i < name_tables[table].count; i++) {
		if (name_tables[table].names[i].num == num) {
			strscpy(out, name_tables[table].names[i].name,
				MAXSTRINGLEN);
			return;
		}
	}
	if (table == TAPSET_TCP_SOCKOPT || table == TAPSET_IPV6_SOCKOPT)
		snprintf(out, MAXSTRINGLEN, "UNDEF_SOCKOPT(%lld)", num);
	else
		strscpy(out, "UNDEF", MAXSTRINGLEN);
}

long long tapset_sock_str2num(int table, const char *name)
{
	size_t i;

	for (i = 0; i < name_tables[table].count; i++)
		if (strcmp(name_tables[table].names[i].name, name) == 0)
			return name_tables[table].names[i].num;
	return -1;
}

/* sock->flags bit numbers (include/linux/net.h), in SystemTap's order */
static const struct tapset_name sock_flag_bits[] = {
	{ SOCKWQ_ASYNC_NOSPACE, "ASYNC_NOSPACE" },
	{ SOCKWQ_ASYNC_WAITDATA, "ASYNC_WAITDATA" },
	{ SOCK_NOSPACE, "NOSPACE" },
	{ SOCK_PASSCRED, "PASSCRED" },
	{ SOCK_PASSSEC, "PASSSEC" },
};

void tapset_sock_flags_str(char *out, long long flags)
{
	size_t i;

	out[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(sock_flag_bits); i++) {
		if (!(flags & (1ULL << sock_flag_bits[i].num)))
			continue;
		if (out[0])
			strlcat(out, "|", MAXSTRINGLEN);
		strlcat(out, sock_flag_bits[i].name, MAXSTRINGLEN);
	}
}

/*
 * MSG_* flags (include/linux/socket.h), in SystemTap's order;
 * MSG_TRYHARD is MSG_DONTROUTE, so that bit gives both names.
 */
static const struct tapset_name msg_flag_masks[] = {
	{ MSG_OOB, "OOB" }, { MSG_PEEK, "PEEK" },
	{ MSG_DONTROUTE, "DONTROUTE" }, { MSG_TRYHARD, "TRYHARD" },
	{ MSG_CTRUNC, "CTRUNC" }, { MSG_PROBE, "PROBE" },
	{ MSG_TRUNC, "TRUNC" }, { MSG_DONTWAIT, "DONTWAIT" },
	{ MSG_EOR, "EOR" }, { MSG_WAITALL, "WAITALL" }, { MSG_FIN, "FIN" },
	{ MSG_SYN, "SYN" }, { MSG_CONFIRM, "CONFIRM" }, { MSG_RST, "RST" },
	{ MSG_ERRQUEUE, "ERRQUEUE" }, { MSG_NOSIGNAL, "NOSIGNAL" },
	{ MSG_MORE, "MORE" },
};

void tapset_msg_flags_str(char *out, long long flags)
{
	size_t i;

	out[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(msg_flag_masks); i++) {
		if (!(flags & msg_flag_masks[i].num))
			continue;
		if (out[0])
			strlcat(out, "|", MAXSTRINGLEN);
		strlcat(out, msg_flag_masks[i].name, MAXSTRINGLEN);
	}
}
