// The parts of a server's definition that bound what the server may do: set by an administrator (at
// creation, on the admin tab, in a whole definition), applied by the node around whatever the
// server runs. The panel keeps its own copy of them (servers.bounds) and a move lays that copy over
// the definition the source node answers (server/services/transfers), so a source that answers
// without its limits or denylist, or with the node's own network, cannot carry that to the target.
//
// What is not here, and why: the command, install and run steps, the image, variables and their
// values are what the server runs, and the source already chooses every file it runs (it hands over
// the whole folder); the bounds below are what the target draws around it. A docker environment's
// host bindings are refused by every node at start (daemon/environment/docker-options). Which
// variables users may edit (userEdit) bounds users, not the server, and follows the template
// through a platform switch the node may undo on its own; it is read from the node as before.
import type { ServerDefinition } from "./template";

type Loose = Record<string, unknown>;
const isRecord = (value: unknown): value is Loose => typeof value === "object" && value !== null && !Array.isArray(value);

/** One bound: where it sits in a definition and what an absent one means. */
interface Bound {
  /** The definition's field, or the environment's (docker servers' network). */
  path: readonly ["limits" | "fileDenylist"] | readonly ["environment", "type" | "networkMode" | "networkName" | "portBindings"];
  /** Why it bounds the server. */
  why: string;
  /** The value as compared and kept, when the same bound has several spellings. */
  normal?: (value: unknown) => unknown;
}

/** Limits as their positive figures only: 0 and absent both mean no limit (./limits), none at all is no limits. */
function positiveLimits(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const set = Object.entries(value).filter(([, v]) => !(typeof v === "number" && v <= 0));
  return set.length > 0 ? Object.fromEntries(set) : undefined;
}

/** The bounds, once. */
export const DEFINITION_BOUNDS = {
  limits: { path: ["limits"], why: "memory, CPU, processes and disk: without them the server takes its neighbours' share", normal: positiveLimits },
  fileDenylist: { path: ["fileDenylist"], why: "files the file manager and SFTP keep from users" },
  environmentType: { path: ["environment", "type"], why: "docker (fenced by the Engine) or a process on the node (the sandbox)" },
  networkMode: { path: ["environment", "networkMode"], why: "a docker server's network: none, an Engine network or the node's own" },
  networkName: { path: ["environment", "networkName"], why: "the named Docker network a docker server joins" },
  portBindings: { path: ["environment", "portBindings"], why: "the ports a docker server publishes on the node's addresses" },
} as const satisfies Record<string, Bound>;

export type BoundName = keyof typeof DEFINITION_BOUNDS;
export const BOUND_NAMES = Object.keys(DEFINITION_BOUNDS) as BoundName[];

/** A definition's bounds by name; a bound it does not set is absent. */
export type DefinitionBounds = Partial<Record<BoundName, unknown>>;

/** The bounds `definition` sets. */
export function definitionBounds(definition: Pick<ServerDefinition, "limits" | "fileDenylist" | "environment">): DefinitionBounds {
  const bounds: DefinitionBounds = {};
  for (const name of BOUND_NAMES) {
    const bound: Bound = DEFINITION_BOUNDS[name];
    const raw = read(definition as unknown as Loose, bound.path);
    const value = bound.normal ? bound.normal(raw) : raw;
    if (value !== undefined) bounds[name] = value;
  }
  return bounds;
}

/**
 * `definition` with `bounds` laid over it (a bound the copy lacks is removed), and the names of
 * those it held otherwise. A docker environment the copy names for a definition on another
 * environment gets the copy's network and the schema's defaults for the rest (the image).
 */
export function withBounds<T extends object>(definition: T, bounds: DefinitionBounds): { definition: T; differing: BoundName[] } {
  const own = definitionBounds(definition as unknown as ServerDefinition);
  const out = { ...definition } as unknown as Loose;
  out.environment = isRecord(out.environment) ? { ...out.environment } : {};
  const differing: BoundName[] = [];
  for (const name of BOUND_NAMES) {
    const [field, inner] = DEFINITION_BOUNDS[name].path;
    const target = inner === undefined ? out : (out.environment as Loose);
    const key = inner ?? field;
    if (Object.hasOwn(bounds, name)) target[key] = structuredClone(bounds[name]);
    else delete target[key];
    if (canonical(own[name]) !== canonical(bounds[name])) differing.push(name);
  }
  return { definition: out as unknown as T, differing };
}

/** JSON with object keys sorted: a node may write the same limits in another order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (isRecord(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v)) ?? "undefined";
}

function read(definition: Loose, path: readonly string[]): unknown {
  let value: unknown = definition;
  for (const key of path) value = isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
  return value;
}
