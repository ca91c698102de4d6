// A change's status once it failed, the same for every kind of change: the catalogue error, and
// nothing placed (whatever it had placed was put back before this is said).
import type { ChangeStatus } from "../../core/mods/change";
import { toKilnError } from "../http/errors";

export function failedStatus(error: unknown): Partial<ChangeStatus> {
  const failure = toKilnError(error);
  return { state: "failed", step: undefined, error: { code: failure.code, metadata: failure.metadata }, added: [], removed: [], disabled: [], enabled: [], at: Date.now() };
}
