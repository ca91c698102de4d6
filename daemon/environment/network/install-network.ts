// The Docker network install containers (an egg's containerscript) run on. Not the node's network
// (network mode host would put the script on the node's loopback, beside its API and SFTP) and
// not a server's: a bridge of its own, "kiln-install", on the last /24 of the node's range. Its
// interface starts with "kiln", so the node's table treats it as a server's link: it reaches the
// internet (masquerade; the Engine may run without its own iptables rules), never the node's
// services or a server's address. The Engine's embedded DNS needs those iptables rules, so the
// container reads the node's upstream resolvers from a file of ours instead, where there are any.
import type Dockerode from "dockerode";
import { existsSync, readFileSync } from "node:fs";
import { INSTALL_NETWORK, installSubnet } from "./addresses";

/** Makes the network unless it exists (another node on this machine may have made it first). */
export async function ensureInstallNetwork(docker: Dockerode, range: [number, number]): Promise<string> {
  try {
    await docker.getNetwork(INSTALL_NETWORK).inspect();
    return INSTALL_NETWORK;
  } catch {
    // not there yet
  }
  const { subnet, gateway } = installSubnet(range);
  try {
    await docker.createNetwork({
      Name: INSTALL_NETWORK,
      Driver: "bridge",
      CheckDuplicate: true,
      IPAM: { Config: [{ Subnet: subnet, Gateway: gateway }] },
      Options: { "com.docker.network.bridge.name": INSTALL_NETWORK, "com.docker.network.bridge.enable_icc": "false" },
      Labels: { "kiln.network": "install" },
    });
  } catch (error) {
    // Made meanwhile by someone else: theirs will do.
    if ((error as { statusCode?: number }).statusCode !== 409) throw error;
  }
  return INSTALL_NETWORK;
}

/** The node's resolvers an install container can reach (none on a loopback), as a resolv.conf; null when there are none. */
export function upstreamResolvConf(): string | null {
  for (const file of ["/etc/resolv.conf", "/run/systemd/resolve/resolv.conf"]) {
    if (!existsSync(file)) continue;
    const servers = [...readFileSync(file, "utf8").matchAll(/^\s*nameserver\s+(\S+)/gm)].map((m) => m[1]!).filter((server) => !server.startsWith("127.") && server !== "::1");
    if (servers.length > 0) return servers.map((server) => `nameserver ${server}\n`).join("");
  }
  return null;
}
