// One folder of a backup, for the restore dialog to browse: `restic ls --json <snapshot> /<folder>`
// lists the folder's direct entries (restic's paths start at the backup's root, which is the
// server's folder). Read line by line as restic prints them, at most BACKUP_FOLDER_MAX entries
// kept, so a folder of a million files costs no more than a page of them. Only what a download
// or restore would hand back is listed (./handed-back): entries that are not the server's own are
// not, nor is such a folder (ErrNotFound). restic prints a name's bytes that are not UTF-8 as
// U+FFFD, and takes no such name as an argument: a folder so named, or a listing holding U+FFFD, is
// read from restic's tree objects instead (./snapshot-tree), so every name is its exact bytes.
import { BACKUP_FOLDER_MAX, type BackupFolder } from "../../core/backups";
import type { Restic } from "./restic";
import { KilnError } from "../../core/errors";
import { isForeign } from "./handed-back";
import { hasRawBytes, nameFromText } from "../../core/files/raw-name";
import { treeFolder, type TreeNode } from "./snapshot-tree";

export async function listSnapshotFolder(restic: Restic, snapshotId: string, folder: string, uid: number): Promise<BackupFolder> {
  if (hasRawBytes(folder)) return listFromTree(restic, snapshotId, folder, uid);
  const listed = await listWithLs(restic, snapshotId, folder, uid);
  return listed.files.some((file) => file.name.includes("\uFFFD")) ? listFromTree(restic, snapshotId, folder, uid) : listed;
}

/** The folder from its tree object, judged and bounded as `restic ls`'s answer is. */
async function listFromTree(restic: Restic, snapshotId: string, folder: string, uid: number): Promise<BackupFolder> {
  const parent = `/${folder}`.replace(/\/+$/, "");
  // Whether the folder is the server's own is judged as in listWithLs: by its own node, one level up.
  const own = (node: TreeNode, path: string) => !isForeign({ path, type: node.type, uid: node.uid, links: 1 }, uid);
  if (folder !== "") {
    const slash = folder.lastIndexOf("/");
    const above = await treeFolder(restic, snapshotId, slash < 0 ? "" : folder.slice(0, slash));
    const itself = above?.find((node) => node.type === "dir" && node.name === folder.slice(slash + 1));
    if (!itself || !own(itself, parent)) throw new KilnError("ErrNotFound", { path: folder }, `the backup holds no folder ${folder}`);
  }
  const nodes = await treeFolder(restic, snapshotId, folder);
  if (!nodes) throw new KilnError("ErrNotFound", { path: folder }, `the backup holds no folder ${folder}`);
  const files: BackupFolder["files"] = [];
  let truncated = false;
  for (const node of nodes) {
    if (!own(node, `${parent}/${node.name}`)) continue;
    if (files.length >= BACKUP_FOLDER_MAX) {
      truncated = true;
      break;
    }
    files.push({ name: node.name, isFile: node.type !== "dir", size: node.size, modifyTime: Math.floor(Date.parse(node.mtime) / 1000) || 0 });
  }
  files.sort((a, b) => Number(a.isFile) - Number(b.isFile) || a.name.localeCompare(b.name));
  return { path: folder, files, truncated };
}

async function listWithLs(restic: Restic, snapshotId: string, folder: string, uid: number): Promise<BackupFolder> {
  const proc = restic.spawn(["ls", "--no-lock", "--json", snapshotId, `/${folder}`]);
  const stderr = new Response(proc.stderr).text();
  const files: BackupFolder["files"] = [];
  let truncated = false;
  let pending = "";
  const decoder = new TextDecoder();
  const parent = `/${folder}`.replace(/\/+$/, "");
  // restic lists the folder itself before its entries: a folder the backup does not hold is not there.
  let found = folder === "";
  const take = (line: string) => {
    if (!line.trim()) return;
    let node: { struct_type?: string; name?: unknown; type?: unknown; path?: unknown; size?: unknown; mtime?: unknown; uid?: unknown };
    try {
      node = JSON.parse(line);
    } catch {
      return;
    }
    if (node.struct_type !== "node" || typeof node.name !== "string" || typeof node.path !== "string") return;
    const own = !isForeign({ path: node.path, type: String(node.type ?? ""), uid: Number(node.uid ?? -1), links: 1 }, uid);
    if (node.path === parent && node.type === "dir") return void (found = own);
    // Only the folder's own entries: not the folder itself.
    if (node.path.slice(0, node.path.lastIndexOf("/")) !== parent) return;
    if (!own) return;
    if (files.length >= BACKUP_FOLDER_MAX) return void (truncated = true);
    // A name as text is its wire name once taken to bytes: U+EF80 in a name is three escapes there.
    files.push({ name: nameFromText(node.name), isFile: node.type !== "dir", size: typeof node.size === "number" ? node.size : 0, modifyTime: Math.floor(Date.parse(String(node.mtime ?? "")) / 1000) || 0 });
  };
  for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
    const lines = (pending + decoder.decode(chunk, { stream: true })).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) take(line);
  }
  take(pending);
  const code = await proc.exited;
  if (code !== 0) restic.failed("ls", code, await stderr);
  if (!found) throw new KilnError("ErrNotFound", { path: folder }, `the backup holds no folder ${folder}`);
  files.sort((a, b) => Number(a.isFile) - Number(b.isFile) || a.name.localeCompare(b.name));
  return { path: folder, files, truncated };
}
