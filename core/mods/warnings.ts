// The sentence of a plan's warning (core/mods/types PlanWarning): its catalogue key and values, one
// rule for the Mods tab's plan view and the API's `message`.
import type { PlanWarning } from "./types";

export function warningMessage(warning: PlanWarning): { key: string; params: { title: string; other: string } } {
  const params = { title: warning.title, other: warning.other ?? "" };
  // A dependency with no version for the server is said with the project that needs it, when there is one.
  const key = warning.code === "missingDependency" && !warning.other ? "mods.warning.missingDependencyOf" : `mods.warning.${warning.code}`;
  return { key, params };
}
