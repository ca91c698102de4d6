// Which connections count as coming from one place, for the SFTP connection caps: an IPv4 address,
// or an IPv6 /64 (one home or one cloud machine is handed a whole /64, so counting single IPv6
// addresses would let one host take every slot). IPv4 seen through an IPv6 socket is IPv4.
import { isIPv4, isIPv6 } from "node:net";

export function addressKey(address: string | undefined): string {
  if (!address) return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIPv4(address) || !isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(":")}::/64`;
}

/** The groups of an IPv6 address with "::" filled in and leading zeros dropped (a trailing IPv4 part stays one item). */
function expandIPv6(address: string): string[] {
  const bare = address.split("%")[0]!.toLowerCase();
  const [head, tail] = bare.includes("::") ? bare.split("::") : [bare, undefined];
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const left = groups(head);
  const right = groups(tail);
  // A trailing IPv4 part ("::ffff:1.2.3.4", "64:ff9b::1.2.3.4") stands for two groups.
  const width = (list: string[]) => list.reduce((n, group) => n + (group.includes(".") ? 2 : 1), 0);
  const middle = tail === undefined ? [] : Array<string>(8 - width(left) - width(right)).fill("0");
  return [...left, ...middle, ...right].map((group) => (group.includes(".") ? group : (parseInt(group, 16) || 0).toString(16)));
}
