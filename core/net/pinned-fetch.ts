// A request to a URL whose name was checked (a webhook's destination on the panel, a step's
// download on the node) connects to an address the check approved, never to what the name
// resolves to a moment later: a name with a TTL of 0 answered a public address to the check and
// the loopback to fetch's own lookup, and the request reached the machine itself. The name still
// goes in the Host header, and an https certificate is checked against the name.
import { checkServerIdentity } from "node:tls";

type Certificate = Parameters<typeof checkServerIdentity>[1];

/**
 * fetch of `url` at the approved `addresses`, in the resolver's order: one that cannot be
 * connected to (an IPv6 address on a machine without IPv6) gives way to the next, as fetch's own
 * lookup would; the init's signal bounds them all. Throws the last failure; an empty list
 * (the name does not resolve now) is refused.
 */
export async function fetchAtAddresses(url: URL, addresses: readonly string[], init: RequestInit & { headers: Record<string, string> }): Promise<Response> {
  if (addresses.length === 0) throw new Error("its name does not resolve");
  let failure: unknown;
  for (const address of addresses) {
    const pinned = new URL(url.href);
    pinned.hostname = address.includes(":") ? `[${address}]` : address;
    const name = url.hostname;
    try {
      return await fetch(pinned.href, {
        ...init,
        headers: { ...init.headers, host: url.host },
        ...(url.protocol === "https:" ? { tls: { serverName: name, checkServerIdentity: (_: string, cert: Certificate) => checkServerIdentity(name, cert) } } : {}),
      });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      failure = error;
    }
  }
  throw failure;
}
