// Every file under a folder with its SHA-256 (and every folder), for comparing trees too big to
// hold in memory as text: a restored backup against what was backed up.
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export function treeChecksums(dir: string, prefix = "", out: Record<string, string> = {}): Record<string, string> {
  for (const name of readdirSync(join(dir, prefix)).sort()) {
    const path = prefix ? `${prefix}/${name}` : name;
    const stats = lstatSync(join(dir, path));
    if (stats.isDirectory()) {
      out[path] = "folder";
      treeChecksums(dir, path, out);
    } else if (stats.isFile()) out[path] = createHash("sha256").update(readFileSync(join(dir, path))).digest("hex");
    else out[path] = "other";
  }
  return out;
}
