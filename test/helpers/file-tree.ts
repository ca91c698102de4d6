// Everything under a folder (type, mode, content, link count, link target), so that comparing
// two snapshots shows any change, and a tree can be compared with its copy; and a few files
// written into a folder, as a test sets one up.
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export function fileTree(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(dir, prefix)).sort()) {
    const path = prefix ? `${prefix}/${name}` : name;
    const stats = lstatSync(join(dir, path));
    if (stats.isSymbolicLink()) out[path] = `link ${readlinkSync(join(dir, path))}`;
    else if (!stats.isFile() && !stats.isDirectory()) out[path] = "special";
    else if (stats.isDirectory()) Object.assign(out, { [path]: "folder" }, fileTree(dir, path));
    else out[path] = `file ${(stats.mode & 0o777).toString(8)} ${stats.nlink} ${readFileSync(join(dir, path)).toString("base64")}`;
  }
  return out;
}

/** Writes `files` (a path below `dir` → its content) into `dir`, making the folders on the way. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}
