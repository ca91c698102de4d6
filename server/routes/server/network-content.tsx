// The Network tab's content: the server's allocations and, for those who may change them, the
// node's free ports, each written as players type it (the allocation's alias, else its address,
// else the node's public host where it listens on every address; then the port).
import type { Context } from "hono";
import type { KilnEnv } from "../../context";
import type { Deps } from "../../deps";
import { serverAddress, type ServerAccess, type ServerEntry } from "../../services/servers";
import { allows } from "../../../core/scopes/server-access";
import { allocationLimitOf, serverAllocations } from "../../services/allocations/server-allocations";
import { EVERY_ADDRESS, freeAllocations, hasPool } from "../../services/allocations/pool";
import { requestHost } from "../servers";
import { NetworkTab } from "../../../views/pages/server/NetworkTab";

interface Allocation {
  ip: string;
  port: number;
  alias: string | null;
}

/** An allocation's address as players type it; `publicHost` is the node's, already filled in for {ip}. */
export function allocationAddress(allocation: Allocation, publicHost: string, requestHostName: string): string {
  if (allocation.alias) return `${allocation.alias}:${allocation.port}`;
  if (allocation.ip === EVERY_ADDRESS) return serverAddress(null, allocation.port, publicHost, requestHostName);
  // An IPv6 address is bracketed, or its port would read as part of it.
  return allocation.ip.includes(":") ? `[${allocation.ip}]:${allocation.port}` : `${allocation.ip}:${allocation.port}`;
}

export async function networkContent(deps: Deps, c: Context<KilnEnv>, server: ServerEntry, access: ServerAccess) {
  const host = requestHost(c);
  const address = (allocation: Allocation) => allocationAddress(allocation, server.node.publicHost, host);
  const allocations = (await serverAllocations(deps.db, c.get("user")!, server.id)).map((a) => ({ id: a.id, address: address(a), primary: a.primary }));
  const free = allows(access, "manageAllocations") ? (await freeAllocations(deps.db, server.nodeId)).map((a) => ({ id: a.id, address: address(a) })) : null;
  return (
    <NetworkTab
      serverId={server.id}
      node={{ id: server.nodeId, name: server.nodeName }}
      allocations={allocations}
      pool={await hasPool(deps.db, server.nodeId)}
      free={free}
      limit={await allocationLimitOf(deps.db, server.id)}
      admin={access.admin}
    />
  );
}
