// An egg written in YAML (Pelican's own export format since PLCN_v3), read on the panel with Bun's
// YAML parser. YAML can repeat a node by reference (anchors and aliases), so a small text can
// stand for an enormous tree (the "billion laughs"): the parsed value is walked with a budget of
// nodes, counting every reference again, and refused when it would grow past what any egg holds,
// before anything copies or stores it.
import { repositoryFailed } from "./repository-http";

/** Nodes a document may have, counting repeated references each time: far above any egg's. */
const MAX_NODES = 200_000;

/** Whether `value` stays within `budget` nodes, each reference counted again. */
function withinBudget(value: unknown, budget: { left: number }): boolean {
  if (--budget.left < 0) return false;
  if (value === null || typeof value !== "object") return true;
  for (const child of Array.isArray(value) ? value : Object.values(value)) if (!withinBudget(child, budget)) return false;
  return true;
}

export const isYamlPath = (path: string): boolean => /\.ya?ml$/i.test(path);

/** The YAML text `text` of the repository at `base` as a plain value; ErrTemplateRepositoryFailed when it is none or too large. */
export function readYamlDocument(text: string, base: string): unknown {
  let value: unknown;
  try {
    value = Bun.YAML.parse(text);
  } catch {
    throw repositoryFailed(base, "answer is not YAML");
  }
  if (!withinBudget(value, { left: MAX_NODES })) throw repositoryFailed(base, "answer too large");
  return value;
}
