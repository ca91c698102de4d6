// The node's own JSON files (definitions, tasks) are replaced whole: written to a temporary file
// beside the target, then renamed over it, so a crash mid-write leaves the old file, never half
// of a new one.
import { readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function writeJsonAtomically(file: string, value: unknown): void {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, JSON.stringify(value, null, 2), { mode: 0o600 });
  renameSync(temporary, file);
}

/** The temporary files a crash in writeJsonAtomically left in `folder`, removed; returns their names. */
export function removeJsonTemporaries(folder: string): string[] {
  const left = readdirSync(folder).filter((name) => /\.json\.\d+\.\d+\.tmp$/.test(name));
  for (const name of left) rmSync(join(folder, name), { force: true });
  return left;
}
