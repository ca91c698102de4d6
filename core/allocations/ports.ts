// The ports an administrator adds to a node's pool, as the API and the node page take them: one
// port, a range ("25565-25600") or a list of either ([25565, "27015-27020"]). Every port is a
// number from 1 to 65535; a request adds at most MAX_PORTS_PER_REQUEST, so a typo cannot make a
// hundred thousand rows.
import { KilnError } from "../errors";

export const MAX_PORTS_PER_REQUEST = 1000;

/** The ports `spec` names, each once, ascending; ErrFieldNotBetween (field "ports") for anything else. */
export function parsePorts(spec: unknown): number[] {
  const parts = Array.isArray(spec) ? spec : [spec];
  if (parts.length === 0 || parts.length > MAX_PORTS_PER_REQUEST) throw refused();
  const ports = new Set<number>();
  for (const part of parts) {
    for (const port of portsOf(part)) {
      ports.add(port);
      if (ports.size > MAX_PORTS_PER_REQUEST) throw refused();
    }
  }
  return [...ports].sort((a, b) => a - b);
}

function portsOf(part: unknown): number[] {
  if (typeof part === "number") return [checked(part)];
  if (typeof part !== "string") throw refused();
  const text = part.trim();
  const range = /^(\d{1,5})\s*-\s*(\d{1,5})$/.exec(text);
  if (range) {
    const [from, to] = [checked(Number(range[1])), checked(Number(range[2]))];
    if (to < from || to - from >= MAX_PORTS_PER_REQUEST) throw refused();
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  }
  // A list typed in one field: "25565, 25570-25575".
  if (text.includes(",")) return text.split(",").flatMap((piece) => portsOf(piece));
  if (!/^\d{1,5}$/.test(text)) throw refused();
  return [checked(Number(text))];
}

function checked(port: number): number {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw refused();
  return port;
}

const refused = () => new KilnError("ErrFieldNotBetween", { field: "ports", min: 1, max: 65535 });
