// The ports a server may be reached on from outside its node. The node knows a server's ports by
// its variables (the panel's allocations fill them, portVariables below): a variable whose name says "port" (port,
// queryPort, rconPort, SERVER_PORT, TelnetPort) and whose value is a port number. Each is opened
// for TCP and UDP, as games use one or the other or both on the same number. A network console's
// port is the server's too but stays on its own loopback: only the node reaches it.
import type { Values } from "./substitute";

const PORT_NAME = /port/i;

export interface ServerPorts {
  tcp: number[];
  udp: number[];
}

/** The ports `values` name, and the definition's extra ports (allocations no variable carries), each once, in ascending order. */
export function serverPorts(values: Values, extraPorts: readonly number[] = []): ServerPorts {
  const ports = new Set<number>(extraPorts);
  for (const [name, value] of Object.entries(values)) {
    if (!PORT_NAME.test(name)) continue;
    const text = String(value).trim();
    const port = Number(text);
    if (/^\d{1,5}$/.test(text) && port >= 1 && port <= 65535) ports.add(port);
  }
  const sorted = [...ports].sort((a, b) => a - b);
  return { tcp: sorted, udp: [...sorted] };
}

/** What a definition is reached on: its variables and the extra ports the panel wrote. */
type Reached = { data: Record<string, { value?: unknown }>; extraPorts?: readonly number[] };

/**
 * Whether `next` keeps the server on its ports: it publishes exactly the ports `current` does and
 * binds the same address (its `ip` variable, where both have one). A server's definition rebuilt
 * from another template (a platform switch, a modpack laid on) stays on its own ports, its
 * allocations', never on another server's. A server that publishes none (on a node without a
 * pool, whose ports nobody hands out) takes the new template's, as a new server there would.
 */
export function keepsPorts(current: Reached, next: Reached): boolean {
  const ports = (d: Reached) => JSON.stringify(serverPorts(Object.fromEntries(Object.entries(d.data).map(([name, v]) => [name, v.value as Values[string]])), d.extraPorts).tcp);
  const ip = [current.data.ip, next.data.ip];
  return (ports(current) === "[]" || ports(current) === ports(next)) && (!ip[0] || !ip[1] || String(ip[0].value) === String(ip[1].value));
}

/** A variable an allocation fills: its name ends in "port" (port, queryPort, rconPort, SERVER_PORT, TelnetPort). */
const ALLOCATION_NAME = /port$/i;

/**
 * The variables a server's allocations fill, the primary's first: `port` (PufferPanel's), else
 * `SERVER_PORT` (an egg's), else the first such variable; then the others in the definition's
 * order. A variable counts when its value is a port number or still empty.
 */
export function portVariables(data: Record<string, { value?: unknown }>): string[] {
  const names = Object.entries(data)
    .filter(([name, variable]) => ALLOCATION_NAME.test(name) && (variable.value === "" || variable.value === undefined || /^\d{1,5}$/.test(String(variable.value).trim())))
    .map(([name]) => name);
  const primary = names.find((n) => n === "port") ?? names.find((n) => n === "SERVER_PORT") ?? names[0];
  return primary === undefined ? [] : [primary, ...names.filter((n) => n !== primary)];
}
