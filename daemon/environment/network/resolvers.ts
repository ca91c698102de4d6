// The node's upstream resolvers, for containers on Kiln's networks: the Engine's embedded DNS
// needs the Engine's own iptables rules (an Engine may run without them), so a container reads
// these from a file of the node's instead, where there are any a container can reach.
import { existsSync, readFileSync } from "node:fs";

/** The node's resolvers a container can reach (none on a loopback), as a resolv.conf; null when there are none. */
export function upstreamResolvConf(): string | null {
  for (const file of ["/etc/resolv.conf", "/run/systemd/resolve/resolv.conf"]) {
    if (!existsSync(file)) continue;
    const servers = [...readFileSync(file, "utf8").matchAll(/^\s*nameserver\s+(\S+)/gm)].map((m) => m[1]!).filter((server) => !server.startsWith("127.") && server !== "::1");
    if (servers.length > 0) return servers.map((server) => `nameserver ${server}\n`).join("");
  }
  return null;
}
