// Before the node connects somewhere on an administrator's or user's word (a backup target's S3
// endpoint or SFTP host), the name is resolved and every address it gives is checked: none may be
// refused by core/net/address-rules (loopback in every spelling, unspecified, link-local,
// multicast), nor be this machine's own address at one of the node's own ports (its API, SFTP, the
// panel's port). A name is checked again each time it is used, so a name made to point elsewhere
// later is caught at its next use (what restic resolves between the check and its connection is
// the one window left: docs/security.md).
import { lookup } from "node:dns/promises";
import { networkInterfaces } from "node:os";
import { KilnError } from "../../core/errors";
import { canonicalHost, refusedAddress } from "../../core/net/address-rules";

export interface OwnServices {
  /** Ports this machine serves the node's (and its panel's) own services on. */
  ports: number[];
}

/** Throws ErrAddressRefused (ErrFieldIsInvalidHost for a host that is no host), naming `field`, unless host:port leads only to addresses a node may be sent to. */
export async function assertOutboundAllowed(host: string, port: number, field: string, own: OwnServices): Promise<void> {
  const canonical = canonicalHost(host);
  if (!canonical) throw new KilnError("ErrFieldIsInvalidHost", { field });
  // A name that does not resolve now leads nowhere: nothing can be reached through it, and it is
  // checked again at its next use (a target may be set while its host is briefly unknown).
  const addresses = await lookup(canonical, { all: true, verbatim: true }).then((found) => found.map((a) => a.address), () => [] as string[]);
  const mine = own.ports.includes(port) ? ownAddresses() : new Set<string>();
  for (const address of addresses) {
    const normal = canonicalHost(address) ?? address;
    const reason = refusedAddress(normal) ?? (mine.has(normal) ? "own-service" : null);
    if (reason) throw new KilnError("ErrAddressRefused", { field, reason });
  }
}

/** Every address of this machine's interfaces, canonical. */
function ownAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces())) for (const entry of list ?? []) out.add(canonicalHost(entry.address) ?? entry.address);
  return out;
}
