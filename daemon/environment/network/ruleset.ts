// The nftables rules, as text for `nft -f -` (pure; unit-tested). One table per node (several
// nodes may share a machine: tests do), holding the rules for every Kiln interface:
// - inbound: a packet for one of the node's own addresses on a port a server published is sent
//   to that server (DNAT, from outside and from the node itself, 127.0.0.1 included); the reply
//   to a local client goes back through masquerade, as the server cannot answer a loopback address;
// - outbound: servers reach the internet through masquerade;
// - what is refused: a server opening a connection to the node itself (its API, SFTP, the panel,
//   on any of the node's addresses), to another server's address directly, to a cloud's metadata
//   service (link-local addresses and the few outside them), and anything from outside to a
//   server's address that is not a published port.
// Inside each server's namespace, a second small table lets the node (and only the node's end of
// the link) reach the server's network console on the server's own loopback.
import { INTERFACE_PREFIX } from "./addresses";
import type { ServerPorts } from "../../../core/definition/server-ports";

const KILN = `"${INTERFACE_PREFIX}*"`;
/**
 * Where a cloud's metadata service answers with the machine's credentials and start-up script,
 * which the node's forwarding would otherwise hand to any server: the link-local ranges
 * (169.254.169.254 and most clouds), Alibaba's 100.100.100.200 and AWS's fd00:ec2::254. Azure's
 * wire server (168.63.129.16) is also its DNS resolver: only its DNS port stays open.
 */
const METADATA_V4 = "{ 169.254.0.0/16, 100.100.100.200 }";
const METADATA_V6 = "{ fe80::/10, fd00:ec2::254 }";
const AZURE_WIRE_SERVER = "168.63.129.16";

/** The node's table, created afresh (an older one of the same name is replaced). */
export function nodeTable(table: string, owner: string): string {
  return `add table inet ${table}
delete table inet ${table}
table inet ${table} {
  comment "${owner}"
  map ports { type inet_proto . inet_service : ipv4_addr; }
  chain prerouting {
    type nat hook prerouting priority dstnat; policy accept;
    meta l4proto { tcp, udp } fib daddr type local dnat ip to meta l4proto . th dport map @ports
  }
  chain output {
    type nat hook output priority -100; policy accept;
    meta l4proto { tcp, udp } fib daddr type local dnat ip to meta l4proto . th dport map @ports
  }
  chain postrouting {
    type nat hook postrouting priority srcnat; policy accept;
    oifname ${KILN} ip saddr 127.0.0.0/8 masquerade
    iifname ${KILN} oifname ${KILN} ct status dnat masquerade
    iifname ${KILN} oifname != ${KILN} masquerade
  }
  chain input {
    type filter hook input priority filter; policy accept;
    iifname ${KILN} ct state established,related accept
    iifname ${KILN} reject with icmpx admin-prohibited
  }
  chain forward {
    type filter hook forward priority filter; policy accept;
    iifname ${KILN} ip daddr ${METADATA_V4} reject with icmpx admin-prohibited
    iifname ${KILN} ip6 daddr ${METADATA_V6} reject with icmpx admin-prohibited
    iifname ${KILN} ip daddr ${AZURE_WIRE_SERVER} meta l4proto { tcp, udp } th dport != 53 reject with icmpx admin-prohibited
    oifname ${KILN} ct state established,related accept
    oifname ${KILN} ct status dnat accept
    oifname ${KILN} reject with icmpx admin-prohibited
  }
}
`;
}

function elements(ports: ServerPorts, address?: string): string {
  const value = address ? ` : ${address}` : "";
  return [...ports.tcp.map((p) => `tcp . ${p}${value}`), ...ports.udp.map((p) => `udp . ${p}${value}`)].join(", ");
}

/** One transaction: the server's old ports out of the map, its new ones in. */
export function publishPorts(table: string, before: ServerPorts, after: ServerPorts, address: string): string {
  const lines: string[] = [];
  if (before.tcp.length + before.udp.length > 0) lines.push(`delete element inet ${table} ports { ${elements(before)} }`);
  if (after.tcp.length + after.udp.length > 0) lines.push(`add element inet ${table} ports { ${elements(after, address)} }`);
  return lines.join("\n") + "\n";
}

/** Inside the server's namespace: the node's end of the link reaches these TCP ports on its loopback. */
export function consoleTable(host: string, server: string, ports: number[]): string {
  const rules = ports.length === 0 ? "" : `\n    iifname "eth0" ip saddr ${host} ip daddr ${server} tcp dport { ${ports.join(", ")} } dnat to 127.0.0.1`;
  return `add table ip kiln
delete table ip kiln
table ip kiln {
  chain prerouting {
    type nat hook prerouting priority dstnat; policy accept;${rules}
  }
}
`;
}
