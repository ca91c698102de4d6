// An address of this machine that is not loopback, for test servers a node must be allowed to
// reach (backup targets refuse loopback in every spelling: daemon/net/outbound-guard). The first
// non-internal IPv4 address of an interface of the machine's own; a machine with none needs one (CI
// machines have one).
import { networkInterfaces } from "node:os";
import { partAvailable } from "./require-part";

export function outwardAddress(): string | null {
  // Not a link the tests or Kiln made (servers' bridges are in the node's server range, which
  // downloads and backup targets may not lead to).
  const made = /^(kiln|ktwan|docker|br-|veth)/;
  for (const [name, list] of Object.entries(networkInterfaces())) {
    if (made.test(name)) continue;
    for (const entry of list ?? []) if (entry.family === "IPv4" && !entry.internal) return entry.address;
  }
  return null;
}

export const hasOutwardAddress = () => partAvailable("a non-loopback IPv4 address on an interface", () => outwardAddress() !== null);
