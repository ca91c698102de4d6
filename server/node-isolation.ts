// What each node last said of its isolation in its status answer (GET /daemon), kept in memory
// by the heartbeat (./node-memory): the node's page warns when the node cannot sandbox its servers.
import { nodeMemory } from "./node-memory";

export interface NodeIsolation {
  mode: "auto" | "required";
  sandboxed: boolean;
  /** bubblewrap is not installed, or cannot build a sandbox on that machine. */
  problem: "missing" | "unusable" | null;
  /** How it holds servers on the machine itself to their limits; null: it did not say. */
  limits: LimitMechanism | null;
  /** Whether its servers get networks of their own; null: it did not say (an older node). */
  network: boolean | null;
}

export const LIMIT_MECHANISMS = ["cgroup2", "cgroup1", "prlimit", "none"] as const;
export type LimitMechanism = (typeof LIMIT_MECHANISMS)[number];

const isolations = nodeMemory(readIsolation);

export const nodeIsolation = isolations.recall;

/** A node is another machine: its answer is checked field by field before the page trusts it. */
function readIsolation(status: unknown): NodeIsolation | null {
  const value = (status as { isolation?: unknown } | null)?.isolation as Partial<NodeIsolation> | null | undefined;
  if (!value || typeof value !== "object") return null;
  const { mode, sandboxed, problem, network } = value;
  if ((mode !== "auto" && mode !== "required") || typeof sandboxed !== "boolean") return null;
  const limits = (status as { limits?: unknown }).limits;
  return { mode, sandboxed, problem: problem === "missing" || problem === "unusable" ? problem : null, limits: LIMIT_MECHANISMS.find((name) => name === limits) ?? null, network: typeof network === "boolean" ? network : null };
}
