// An address of this machine that is not loopback, for test servers a node must be allowed to
// reach (backup targets refuse loopback in every spelling: daemon/net/outbound-guard). The first
// non-internal IPv4 address of an interface; a machine with none needs one (CI machines have one).
import { networkInterfaces } from "node:os";
import { partAvailable } from "./require-part";

export function outwardAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) if (entry.family === "IPv4" && !entry.internal) return entry.address;
  }
  return null;
}

export const hasOutwardAddress = () => partAvailable("a non-loopback IPv4 address on an interface", () => outwardAddress() !== null);
