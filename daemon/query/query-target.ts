// Where a server is queried: the template's query.port with its variables filled in, else the
// server's game port (a variable named port, else the lowest port its variables name; see
// core/definition/server-ports). Null when the template declares no query.
import type { ServerDefinition, Values } from "../../core/definition";
import { substitute } from "../../core/definition";
import { serverPorts } from "../../core/definition/server-ports";

export interface QueryPlan {
  type: string;
  /** Null: no port to ask (none declared, none the variables name, or one that is not a port). */
  port: number | null;
}

function asPort(value: unknown): number | null {
  const text = String(value ?? "").trim();
  const port = Number(text);
  return /^\d{1,5}$/.test(text) && port >= 1 && port <= 65535 ? port : null;
}

export function queryPlan(definition: ServerDefinition, values: Values): QueryPlan | null {
  const query = definition.query;
  if (!query) return null;
  if (query.port !== undefined) return { type: query.type, port: asPort(typeof query.port === "number" ? query.port : substitute(query.port, values)) };
  const named = Object.entries(values).find(([name]) => /^(server_?)?port$/i.test(name));
  return { type: query.type, port: asPort(named?.[1]) ?? serverPorts(values).tcp[0] ?? null };
}
