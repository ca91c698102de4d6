// Before the node connects somewhere on an administrator's or user's word (a backup target's S3
// endpoint or SFTP host, a step's download), the name is resolved and every address it gives is
// checked: none may be refused by core/net/address-rules (loopback in every spelling, unspecified,
// link-local, clouds' metadata services, multicast), be one of the node's servers' addresses (its
// network range: a server's own services, reached directly), nor be this machine's own address at
// one of the node's own ports (its API, SFTP, the panel's port). A name is checked again each time
// it is used, so a name made to point elsewhere later is caught at its next use; a download then
// connects to the address checked (daemon/processors/http), so no second lookup can differ.
import { lookup } from "node:dns/promises";
import { networkInterfaces } from "node:os";
import { KilnError } from "../../core/errors";
import { canonicalHost, plainAddress, refusedAddress } from "../../core/net/address-rules";

export interface OwnServices {
  /** Ports this machine serves the node's (and its panel's) own services on. */
  ports: number[];
  /** The node's servers' range ("a.b" of a.b.0.0/16, daemon/environment/network/addresses), where the node makes their networks. */
  serverRange?: [number, number];
}

/** Throws ErrAddressRefused (ErrFieldIsInvalidHost for a host that is no host), naming `field`, unless host:port leads only to addresses a node may be sent to. */
export async function assertOutboundAllowed(host: string, port: number, field: string, own: OwnServices): Promise<void> {
  await allowedAddresses(host, port, field, own);
}

/**
 * The addresses host:port leads to, every one allowed (else the refusal of assertOutboundAllowed).
 * A name that does not resolve gives none: nothing can be reached through it now.
 */
export async function allowedAddresses(host: string, port: number, field: string, own: OwnServices): Promise<string[]> {
  const canonical = canonicalHost(host);
  if (!canonical) throw new KilnError("ErrFieldIsInvalidHost", { field });
  // localhost and every name under it are the loopback whatever DNS answers (RFC 6761), and so
  // they are to Bun's fetch, trailing dot or not.
  const bare = canonical.replace(/\.$/, "");
  if (bare === "localhost" || bare.endsWith(".localhost")) throw new KilnError("ErrAddressRefused", { field, reason: "loopback" });
  const addresses = await lookup(canonical, { all: true, verbatim: true }).then((found) => found.map((a) => a.address), () => [] as string[]);
  const mine = own.ports.includes(port) ? ownAddresses() : new Set<string>();
  for (const address of addresses) {
    const plain = plainAddress(address);
    const reason = refusedAddress(plain) ?? (inRange(plain, own.serverRange) ? "server-network" : null) ?? (mine.has(plain) ? "own-service" : null);
    if (reason) throw new KilnError("ErrAddressRefused", { field, reason });
  }
  return addresses;
}

function inRange(address: string, range: [number, number] | undefined): boolean {
  return range !== undefined && address.startsWith(`${range[0]}.${range[1]}.`) && !address.includes(":");
}

/** Every address of this machine's interfaces, in one spelling. */
function ownAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces())) for (const entry of list ?? []) out.add(plainAddress(entry.address));
  return out;
}
