// Where a network console (run.stdin telnet, rcon, rconws) may point. The console is the
// server's own process, which listens on this node: the address must be a loopback one
// (PufferPanel's default, 127.0.0.1), and the port a port number. The address and the port may
// only take values the template fixes: a variable users may edit there would let a user point
// the node's console at another service on the node (a database, another server's RCON) and
// type into it. The password may come from any variable: it only opens the server's own console.
import { KilnError } from "../errors";
import { referencedNames, substitute, type Values } from "./substitute";
import { ownVariable } from "./variable-value";
import type { ServerDefinition, StdinConfig } from "./template";

export interface ConsoleAddress {
  host: string;
  port: number;
  password: string;
}

/** 127.0.0.0/8, ::1 and localhost (spelled as the node resolves it, 127.0.0.1). */
export function loopbackHost(host: string): string | null {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (h === "" || h === "localhost") return "127.0.0.1";
  if (h === "::1" || h === "0:0:0:0:0:0:0:1") return "::1";
  const v4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return v4 && v4.slice(1).every((n) => Number(n) <= 255) ? h : null;
}

/**
 * The address of a network console with `values` substituted, or a KilnError naming the field:
 * ErrUserVariableNotAllowed (a user-editable variable in ip or port), ErrConsoleNotLocal (not a
 * loopback address, or not a port number).
 */
export function consoleAddress(stdin: StdinConfig, definition: Pick<ServerDefinition, "data">, values: Values, field = "run.stdin"): ConsoleAddress {
  for (const key of ["ip", "port"] as const) {
    for (const name of referencedNames(String(stdin[key] ?? ""))) {
      if (ownVariable(definition.data, name)?.userEdit) throw new KilnError("ErrUserVariableNotAllowed", { field: `${field}.${key}`, variable: name });
    }
  }
  const ip = substitute(stdin.ip ?? "", values);
  const host = loopbackHost(ip);
  if (!host) throw new KilnError("ErrConsoleNotLocal", { field: `${field}.ip`, value: ip });
  const portText = substitute(stdin.port ?? "", values).trim();
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65535) throw new KilnError("ErrConsoleNotLocal", { field: `${field}.port`, value: portText });
  return { host, port, password: substitute(stdin.password ?? "", values) };
}
