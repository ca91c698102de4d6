// Restoring a server's folder without ever leaving it half-done: restic restores into
// a staging folder beside the server's folder (same file system), the files are handed to the
// server's user there, and only a complete restore is swapped in by two renames. A restore that
// fails or is killed leaves the staging folder, which is removed (now, or when the node starts
// again); a node that stopped between the two renames finds the old folder and puts it back.
import { lchownSync, readdirSync, renameSync, chmodSync, existsSync, mkdirSync, closeSync, lstatSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname, basename, join } from "node:path";
import { randomBytes } from "node:crypto";
import type { ServerUser } from "../environment/server-user";
import type { Jail } from "../files/jail";
import { makeFolder } from "../files/operations";
import { existsOrLink } from "../files/exists-or-link";
import { O_DIRECTORY, O_PATH } from "../files/openat2";
import { KilnError } from "../../core/errors";
import { canonicalName } from "../../core/files/raw-name";
import { fsPath, type FsPath } from "../files/fs-path";

const STAGING = ".restoring-";
const REPLACED = ".replaced-";
const SLASH = Buffer.from("/");

/** A new staging folder for server `id`, beside its folder, only the node may open. */
export function stagingFolder(serverDir: string, id: string): string {
  const folder = join(dirname(serverDir), `${STAGING}${id}-${randomBytes(6).toString("hex")}`);
  mkdirSync(folder, { mode: 0o700 });
  return folder;
}

/**
 * Gives every entry of a restored tree to the server's user. The tree is the node's own until it
 * is swapped in (nothing of the server's can reach it), so a plain walk is safe here; links are
 * changed themselves (lchown), never followed. Names go as the bytes the folder holds: a name that
 * is not UTF-8 (a server's process may make one; restic keeps it) read as text reaches nothing,
 * and its lchown failing failed the whole restore.
 */
export function handOverStaged(folder: FsPath, user: ServerUser | null): void {
  if (!user) return;
  if (!lstatSync(folder).isDirectory()) return lchownSync(folder, user.uid, user.gid);
  const walk = (path: Buffer) => {
    for (const name of readdirSync(path, { encoding: "buffer" })) {
      const child = Buffer.concat([path, SLASH, name]);
      lchownSync(child, user.uid, user.gid);
      if (lstatSync(child).isDirectory()) walk(child);
    }
  };
  walk(typeof folder === "string" ? Buffer.from(folder) : folder);
  lchownSync(folder, user.uid, user.gid);
}

/** Puts the complete `staged` folder in place of `serverDir`; the old one is removed afterwards. */
export async function swapIn(staged: string, serverDir: string): Promise<void> {
  const replaced = join(dirname(serverDir), `${REPLACED}${basename(serverDir)}-${randomBytes(6).toString("hex")}`);
  renameSync(serverDir, replaced);
  renameSync(staged, serverDir);
  // Other servers' users must not look in (as server-user.ts sets it).
  chmodSync(serverDir, 0o700);
  await rm(replaced, { recursive: true, force: true });
}

/**
 * Moves the restored `staged` entry to `path` in the server's folder, in place of what is there.
 * The folder that receives it is held open beneath the jail's root and named through
 * /proc/self/fd, so a link planted on the way cannot send the entry (or the removal of the old
 * one) out of the server's folder. `refuse` may throw for where the entry really lands (jail-relative,
 * that folder followed), judged on the folder held open: nothing is moved then.
 */
export async function placeInto(jail: Jail, staged: FsPath, path: string, refuse?: (landing: string) => void): Promise<void> {
  const normal = jail.normalize(path);
  const parent = dirname(`/${normal}`).slice(1);
  if (parent) makeFolder(jail, parent);
  const fd = jail.open(parent, O_PATH | O_DIRECTORY);
  try {
    const into = `/proc/self/fd/${fd}`;
    const name = basename(normal);
    if (refuse) {
      const folder = jail.realRelative(into, parent);
      refuse(folder ? `${folder}/${name}` : name);
    }
    const aside = `${REPLACED}${randomBytes(6).toString("hex")}`;
    // The name as its bytes (./fs-path): one that is not UTF-8 lands as it was.
    const landing = fsPath(join(into, name));
    const had = existsOrLink(landing);
    if (had) renameSync(landing, join(into, aside));
    renameSync(staged, landing);
    if (had) await rm(join(into, aside), { recursive: true, force: true });
  } finally {
    closeSync(fd);
  }
}

/**
 * At start-up: staging folders a stopped node left are removed, and a server folder that was
 * moved aside but not replaced (the node stopped between the two renames) is put back.
 */
export async function recoverRestores(serversRoot: string, log: (line: string) => void): Promise<void> {
  if (!existsSync(serversRoot)) return;
  for (const name of readdirSync(serversRoot)) {
    const path = join(serversRoot, name);
    if (name.startsWith(STAGING)) {
      await rm(path, { recursive: true, force: true });
      log(`kiln daemon: removed an unfinished backup restore (${name})`);
    } else if (name.startsWith(REPLACED)) {
      const original = join(serversRoot, name.slice(REPLACED.length).replace(/-[0-9a-f]{12}$/, ""));
      if (existsSync(original)) await rm(path, { recursive: true, force: true });
      else {
        renameSync(path, original);
        log(`kiln daemon: put back the folder of server ${basename(original)}, whose restore was cut short`);
      }
    }
  }
}

/** The restored entry `path` (a wire name) inside the staging folder, by its bytes; ErrNotFound when the snapshot did not have it. */
export function stagedEntry(staging: string, path: string): FsPath {
  const entry = fsPath(join(staging, canonicalName(path)));
  if (!existsOrLink(entry)) throw new KilnError("ErrNotFound", { path }, "the backup does not hold that path");
  return entry;
}
