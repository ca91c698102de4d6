// The node's own JSON files (definitions, tasks) are replaced whole: written to a temporary file
// beside the target, then renamed over it, so a crash mid-write leaves the old file, never half
// of a new one.
import { renameSync, writeFileSync } from "node:fs";

export function writeJsonAtomically(file: string, value: unknown): void {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, JSON.stringify(value, null, 2), { mode: 0o600 });
  renameSync(temporary, file);
}
