// Where a webhook may send: an http(s) URL without credentials whose name leads only to public
// addresses (core/net/address-rules' internalAddress, and none of this machine's own), unless an
// administrator allowed this one endpoint an internal address; and never to a node's API or SFTP port, nor the panel's own port
// on this machine, whoever allowed what. Checked when the endpoint is saved and before every
// attempt (a name made to point inward later is caught at its next delivery), and the attempt
// connects to an address this check approved (./pinned), so a second answer of the resolver
// never reaches further.
import { lookup } from "node:dns/promises";
import { networkInterfaces } from "node:os";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { canonicalHost, internalAddress } from "../../../core/net/address-rules";

const MAX_URL = 2000;

/** The URL as it will be used, or ErrFieldIsInvalidHost naming `url`. */
export function webhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new KilnError("ErrFieldIsInvalidHost", { field: "url" });
  }
  if (text.length > MAX_URL || (url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password || !url.hostname) throw new KilnError("ErrFieldIsInvalidHost", { field: "url" });
  return url;
}

export interface PanelPorts {
  /** The port the panel itself listens on. */
  panelPort: number;
}

/** Throws ErrAddressRefused (field url) unless every address the URL's host has now may be sent to; answers those addresses (none: the name does not resolve now). */
export async function assertDestination(db: Db, url: URL, allowInternal: boolean, own: PanelPorts): Promise<string[]> {
  const host = canonicalHost(url.hostname);
  if (!host) throw new KilnError("ErrFieldIsInvalidHost", { field: "url" });
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const addresses = await lookup(host, { all: true, verbatim: true }).then((found) => found.map((a) => canonicalHost(a.address) ?? a.address), () => [] as string[]);
  // A name that does not resolve now leads nowhere; it is checked again before each delivery.
  const nodes = await db.select({ host: schema.nodes.privateHost, port: schema.nodes.privatePort, sftpPort: schema.nodes.sftpPort }).from(schema.nodes).all();
  const nodeHosts = await Promise.all(nodes.map(async (node) => ({ ...node, addresses: await addressesOf(node.host) })));
  const mine = ownAddresses();
  for (const address of addresses) {
    const internal = internalAddress(address);
    if (internal && !allowInternal) throw new KilnError("ErrAddressRefused", { field: "url", reason: internal });
    // This machine's own public addresses lead to its own services as surely as loopback does
    // (a Docker API or a database bound to every interface): internal too, unless allowed.
    if (mine.has(address) && !allowInternal) throw new KilnError("ErrAddressRefused", { field: "url", reason: "own-machine" });
    const local = mine.has(address) || internal === "loopback" || internal === "unspecified";
    const nodeService = nodeHosts.some((node) => (node.port === port || node.sftpPort === port) && (local || node.addresses.includes(address)));
    if (nodeService || (local && port === own.panelPort)) throw new KilnError("ErrAddressRefused", { field: "url", reason: "own-service" });
  }
  return addresses;
}

async function addressesOf(host: string): Promise<string[]> {
  const canonical = canonicalHost(host);
  if (!canonical) return [];
  return lookup(canonical, { all: true, verbatim: true }).then((found) => found.map((a) => canonicalHost(a.address) ?? a.address), () => []);
}

function ownAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces())) for (const entry of list ?? []) out.add(canonicalHost(entry.address) ?? entry.address);
  return out;
}
