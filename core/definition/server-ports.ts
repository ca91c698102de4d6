// The ports a server may be reached on from outside its node. Kiln has no allocations yet, so a
// server's ports are the ones its variables name: a variable whose name says "port" (port,
// queryPort, rconPort, SERVER_PORT, TelnetPort) and whose value is a port number. Each is opened
// for TCP and UDP, as games use one or the other or both on the same number. A network console's
// port is the server's too but stays on its own loopback: only the node reaches it.
import type { Values } from "./substitute";

const PORT_NAME = /port/i;

export interface ServerPorts {
  tcp: number[];
  udp: number[];
}

/** The ports `values` name, each once, in ascending order. */
export function serverPorts(values: Values): ServerPorts {
  const ports = new Set<number>();
  for (const [name, value] of Object.entries(values)) {
    if (!PORT_NAME.test(name)) continue;
    const text = String(value).trim();
    const port = Number(text);
    if (/^\d{1,5}$/.test(text) && port >= 1 && port <= 65535) ports.add(port);
  }
  const sorted = [...ports].sort((a, b) => a - b);
  return { tcp: sorted, udp: [...sorted] };
}
