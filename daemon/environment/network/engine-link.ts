// A docker server's own network where the node makes networks: instead of the node's network
// (network mode host, which PufferPanel's Docker templates ask for), the container joins a bridge
// of its own on the server's slot, the /30 a namespace would take. The node makes the bridge
// (`kiln<slot>`, which claims the slot machine-wide as a namespace's link does) and hands it to
// the Engine as a network using that bridge, so the container gets the slot's server address. Its
// interface starts with "kiln", so the node's table treats it as any server's link: published
// ports are sent to it, it reaches the internet, never the node's services or another server.
//
// The Engine network is named after the node's data folder and the server
// ("kiln-srv-<node key>-<id>"), not the node's process: a container outlives the node, and a node
// that starts again finds its network and publishes its ports anew (adopt). What a node left
// without a container is removed before the node makes its first one (removeUnusedEngineLinks).
import type Dockerode from "dockerode";
import { writeFileSync } from "node:fs";
import { linkOf, SLOT_COUNT, type Link } from "./addresses";
import { run, ToolError, type ToolPaths } from "./commands";

/** The label of every server network Kiln makes in the Engine, valued with the node's key. */
export const NODE_LABEL = "kiln.node";

export function engineNetworkName(nodeKey: string, serverId: string): string {
  return `kiln-srv-${nodeKey}-${serverId}`;
}

/** A step container's network: one per step run, named after its slot (one holder at a time). */
export function stepNetworkName(nodeKey: string, slot: number): string {
  return `kiln-step-${nodeKey}-${slot}`;
}

/** Makes the slot's bridge (throws ToolError with `exists` when another holds the slot). */
export async function makeBridge(tools: ToolPaths, link: Link): Promise<void> {
  await run([tools.ip, "-batch", "-"], `link add ${link.interface} type bridge\naddress add ${link.host}/30 dev ${link.interface}\nlink set ${link.interface} up\n`);
  // Lets a client on the node's loopback reach a published port (DNAT to the server, masquerade back).
  writeFileSync(`/proc/sys/net/ipv4/conf/${link.interface}/route_localnet`, "1");
}

/**
 * The slot's bridge and the Engine network on it; neither is left when one fails. An Engine network
 * of another node's holding the slot's addresses throws ToolError with `exists` (the next slot).
 */
export async function makeEngineLink(docker: Dockerode, tools: ToolPaths, name: string, link: Link, nodeKey: string, serverId: string): Promise<void> {
  await makeBridge(tools, link);
  try {
    await makeEngineNetwork(docker, name, link, nodeKey, serverId);
  } catch (error) {
    await run([tools.ip, "link", "delete", link.interface]).catch(() => undefined);
    if (/overlap/i.test(String((error as Error).message))) throw new ToolError(["docker", "network", "create", name], "File exists: the slot's addresses are an Engine network's");
    throw error;
  }
}

/** The Engine network on the slot's bridge: the container's only address is the slot's server end. */
async function makeEngineNetwork(docker: Dockerode, name: string, link: Link, nodeKey: string, serverId: string): Promise<void> {
  const network = link.host.replace(/\d+$/, (last) => String(Number(last) - 1));
  await docker.createNetwork({
    Name: name,
    Driver: "bridge",
    CheckDuplicate: true,
    IPAM: { Config: [{ Subnet: `${network}/30`, Gateway: link.host }] },
    Options: { "com.docker.network.bridge.name": link.interface },
    Labels: { [NODE_LABEL]: nodeKey, "kiln.server": serverId },
  });
}

interface EngineNetworkInfo {
  IPAM?: { Config?: Array<{ Subnet?: string }> };
  Containers?: Record<string, unknown>;
}

/** The Engine's view of a network, or null when there is none. */
function inspected(docker: Dockerode, name: string): Promise<EngineNetworkInfo | null> {
  return docker
    .getNetwork(name)
    .inspect()
    .catch(() => null) as Promise<EngineNetworkInfo | null>;
}

/** The slot a network's /30 is in `range`, or null when it is not one of a slot. */
function slotOf(info: EngineNetworkInfo | null, range: [number, number]): number | null {
  const match = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/30$/.exec(info?.IPAM?.Config?.[0]?.Subnet ?? "");
  if (!match || Number(match[1]) !== range[0] || Number(match[2]) !== range[1]) return null;
  const slot = (Number(match[3]) * 256 + Number(match[4])) / 4;
  return Number.isInteger(slot) && slot >= 0 && slot < SLOT_COUNT ? slot : null;
}

const inUse = (info: EngineNetworkInfo | null) => Object.keys(info?.Containers ?? {}).length > 0;

/** The slot of an Engine network this node made for a server, or null when there is none (or it is not one of ours). */
export async function engineNetworkSlot(docker: Dockerode, name: string, range: [number, number]): Promise<number | null> {
  return slotOf(await inspected(docker, name), range);
}

/** Whether a container is on the Engine network (a missing network has none). */
export async function engineNetworkInUse(docker: Dockerode, name: string): Promise<boolean> {
  return inUse(await inspected(docker, name));
}

/** Removes the Engine network (once no container uses it) and the slot's bridge. */
export async function removeEngineLink(docker: Dockerode, tools: ToolPaths, name: string, link: Link): Promise<void> {
  await docker
    .getNetwork(name)
    .remove()
    .catch(() => undefined);
  await run([tools.ip, "link", "delete", link.interface]).catch(() => undefined);
}

/** The node's server and step networks that no container uses (a server deleted while the node was down, or one that ended since). */
export async function removeUnusedEngineLinks(docker: Dockerode, tools: ToolPaths, nodeKey: string, range: [number, number], keep: ReadonlySet<number>): Promise<void> {
  const networks = await docker.listNetworks({ filters: { label: [`${NODE_LABEL}=${nodeKey}`] } }).catch(() => []);
  for (const summary of networks) {
    const info = await inspected(docker, summary.Name);
    const slot = slotOf(info, range);
    if (inUse(info) || slot === null || keep.has(slot)) continue;
    await removeEngineLink(docker, tools, summary.Name, linkOf(range, slot));
  }
}
