// Where each server's network namespace sits in the node's address range: the range is a /16
// (DEFAULT_NETWORK_RANGE unless the node's config says otherwise); slot n is the /30 at n × 4,
// its first address the node's end of the link and its second the server's (a step container's
// network takes a slot as a server does). The range's last /24 is left alone: earlier versions
// made a Docker network for install containers there ("kiln-install"), which may still exist on a
// machine, and a slot inside it would share its routes. Interface names carry the slot
// ("kiln12"), so a slot is claimed machine-wide by creating its interface, which succeeds once.

export const DEFAULT_NETWORK_RANGE = "10.213.0.0/16";
/** Slots in a /16 before its last /24. */
export const SLOT_COUNT = 255 * 64;
/** Every interface Kiln makes starts so; the firewall rules match the prefix. */
export const INTERFACE_PREFIX = "kiln";

export interface Link {
  slot: number;
  /** The node's end, in the node's network namespace. */
  host: string;
  /** The server's end, eth0 in its namespace. */
  server: string;
  /** The node's interface ("kiln12"). */
  interface: string;
}

/** The first two octets of a valid "a.b.0.0/16", or null. */
export function parseRange(range: string): [number, number] | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.0\.0\/16$/.exec(range.trim());
  if (!match) return null;
  const [a, b] = [Number(match[1]), Number(match[2])];
  return a <= 255 && b <= 255 ? [a, b] : null;
}

export function linkOf(range: [number, number], slot: number): Link {
  if (!Number.isInteger(slot) || slot < 0 || slot >= SLOT_COUNT) throw new RangeError(`slot ${slot} is outside 0-${SLOT_COUNT - 1}`);
  const offset = slot * 4;
  const third = Math.floor(offset / 256);
  const fourth = offset % 256;
  const prefix = `${range[0]}.${range[1]}.${third}`;
  return { slot, host: `${prefix}.${fourth + 1}`, server: `${prefix}.${fourth + 2}`, interface: `${INTERFACE_PREFIX}${slot}` };
}
