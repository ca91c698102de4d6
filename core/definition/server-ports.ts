// The ports a server may be reached on from outside its node. The node knows a server's ports by
// its variables (the panel's allocations fill them, portVariables below): a port variable is one
// whose name ends in "port" (port, queryPort, rconPort, SERVER_PORT, TelnetPort, queryport,
// SERVER_WEBPORT) or in "portv6" (Bedrock's IPv6 port: portv6, server-portv6), save where its
// last word is an English word that only ends so (UPLOAD_CRASH_REPORT, MISC_SUPPORT, autoExport),
// and what it publishes is its value when that is a port number. One rule for both sides: the
// variables the node publishes are those the panel fills from the server's allocations on a node
// with a pool (and keeps within them), so none publishes a port the pool did not hand out; a name
// that merely holds "port" (reportInterval, PORTFORWARD_ENABLE) is no port variable. Each port is
// opened for TCP and UDP, as games use one or the other or both on the same number. A network
// console's port is the server's too but stays on its own loopback: only the node reaches it. The
// node refuses to publish a port its own machine uses (daemon/environment/network/node-network).
import type { Values } from "./substitute";

/** Words that end in "port" without being one, as a name's last word (CRASH_REPORT, crashReport). */
const NOT_PORTS = new Set(["report", "support", "export", "import", "transport", "passport", "teleport", "airport", "sport"]);

/** Whether the variable `name` is a port variable (published by the node, filled by an allocation). */
export function isPortVariable(name: string): boolean {
  const base = name.replace(/v6$/i, "");
  if (!/port$/i.test(base)) return false;
  // Its last word: after the last character that is no letter or digit, or the last camelCase hump.
  const word = base.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).pop()!.toLowerCase();
  return !NOT_PORTS.has(word);
}

/** The port a port variable's value publishes (a whole number from 1 to 65535, as text or number), else null. */
export function publishedPort(value: unknown): number | null {
  const text = String(value ?? "").trim();
  const port = Number(text);
  return /^\d{1,5}$/.test(text) && port >= 1 && port <= 65535 ? port : null;
}

export interface ServerPorts {
  tcp: number[];
  udp: number[];
}

/** The ports `values` name, and the definition's extra ports (allocations no variable carries), each once, in ascending order. */
export function serverPorts(values: Values, extraPorts: readonly number[] = []): ServerPorts {
  const ports = new Set<number>(extraPorts);
  for (const [name, value] of Object.entries(values)) {
    const port = isPortVariable(name) ? publishedPort(value) : null;
    if (port !== null) ports.add(port);
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

/**
 * The variables a server's allocations fill (its port variables), the primary's first: `port`
 * (PufferPanel's), else `SERVER_PORT` (an egg's), else the first such variable; then the others in
 * the definition's order. A variable counts when its value is a port number or still empty.
 */
export function portVariables(data: Record<string, { value?: unknown }>): string[] {
  const names = Object.entries(data)
    .filter(([name, variable]) => isPortVariable(name) && (variable.value === "" || variable.value === undefined || /^\d{1,5}$/.test(String(variable.value).trim())))
    .map(([name]) => name);
  const primary = names.find((n) => n === "port") ?? names.find((n) => n === "SERVER_PORT") ?? names[0];
  return primary === undefined ? [] : [primary, ...names.filter((n) => n !== primary)];
}
