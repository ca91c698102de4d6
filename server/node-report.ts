// What each node last said of itself in its status answer (GET /daemon): the Kiln version it
// runs and its machine's OS and architecture, kept in memory by the heartbeat for the node list
// (an operator sees at a glance which node still runs an old kiln). Kept as ./node-memory keeps it.
import { nodeMemory } from "./node-memory";

export interface NodeReport {
  version: string;
  os: string;
  arch: string;
}

/** A version as package.json writes it ("0.1.0", "1.2.0-rc.1+abc"). */
const VERSION = /^[0-9A-Za-z.+-]{1,32}$/;
/** What process.platform and process.arch say ("linux", "x64", "arm64"). */
const WORD = /^[a-z0-9_]{1,16}$/;

const reports = nodeMemory(readReport);

export const nodeReport = reports.recall;

/** A node is another machine: each field is checked before a page shows it. */
function readReport(status: unknown): NodeReport | null {
  if (!status || typeof status !== "object") return null;
  const { version, os, arch } = status as Record<string, unknown>;
  if (typeof version !== "string" || !VERSION.test(version)) return null;
  return { version, os: typeof os === "string" && WORD.test(os) ? os : "", arch: typeof arch === "string" && WORD.test(arch) ? arch : "" };
}
