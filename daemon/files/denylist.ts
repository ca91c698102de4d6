// A template's fileDenylist (an egg's file_denylist): files users may not read, write or change
// through any door (file API, file manager, SFTP, the socket, archives, extraction, a task's file
// steps, a backup's download or single-path restore). gitignore patterns, as Wings reads them
// ("*.jar", "/config.yml", "logs/", "!keep.jar"), matched with the `ignore` package. The server's
// own steps (install, configfile) are not limited: the denylist keeps users' hands off files the
// template manages. Deleting a denied file stays possible, as with Wings.
//
// The rule, in one place for every door (docs/security.md, "File denylist"):
// - a read or write judges the path as asked and where it really leads: links followed as the
//   kernel would follow them, and for a name that does not exist yet, its deepest existing folder
//   followed (so "l/secret.yml" with "l -> config" is judged as "config/secret.yml");
// - anything that gives content a new name (rename, move, copy) is judged for the entry and every
//   entry beneath it, under the old name and under the new one: a folder holding a denied file
//   does not move (an anchored pattern would not follow it to its new name), and a folder does
//   not move to where its content would take denied names.
import ignore, { type Ignore } from "ignore";
import { closeSync } from "node:fs";
import { posix } from "node:path";
import { KilnError } from "../../core/errors";
import { nameFromText } from "../../core/files/raw-name";
import type { Jail } from "./jail";
import { readFolder } from "./listing";
import { O_PATH } from "./openat2";
import { statPath } from "./operations";

export class FileDenylist {
  private readonly matcher: Ignore | null;

  constructor(patterns: readonly string[] | undefined) {
    // A pattern is text and names the file its text's bytes name, so it is matched in the wire
    // form paths are judged in (core/files/raw-name): a character of the escapes' own range
    // (U+EF80..U+EFFF) is its bytes' escapes there, as in every listed or normalized path; matched
    // as written, "\uEF80.cfg" named the raw byte 0x80 and left the template's file unguarded.
    const usable = (patterns ?? []).map((p) => nameFromText(p.trim())).filter((p) => p !== "" && !p.startsWith("#"));
    this.matcher = usable.length ? ignore().add(usable) : null;
  }

  /**
   * Whether the jail-relative, normalized path is denied (the folder itself never is). A folder
   * is also matched as "name/", which is how gitignore's folder-only patterns ("logs/") name it.
   */
  denies(path: string, folder = false): boolean {
    if (!this.matcher || path === "") return false;
    return this.matcher.ignores(path) || (folder && this.matcher.ignores(`${path}/`));
  }

  /** Whether a path, as asked or where it leads, is denied. */
  blocks(jail: Jail, path: string): boolean {
    if (!this.matcher) return false;
    const normal = jail.normalize(path);
    return this.denies(normal) || this.denies(whereItLeads(jail, normal) ?? "");
  }

  /** Throws ErrFileDenied for the first of `paths` that is denied (reads and writes). */
  check(jail: Jail, ...paths: string[]): void {
    const found = paths.find((path) => this.blocks(jail, path));
    if (found !== undefined) throw denied(found);
  }

  /**
   * Throws ErrFileDenied when giving `from` the name `to` (a rename, a move, a copy) would take
   * a denied entry out from under its name or put an entry under a denied one: `from`, `to` and
   * every entry beneath `from` are judged under both names, as spelled and where they lead.
   */
  checkMove(jail: Jail, from: string, to: string): void {
    if (!this.matcher) return;
    this.check(jail, from, to);
    const entries = entriesBeneath(jail, jail.normalize(from));
    this.checkLanding(jail, from, entries);
    this.checkLanding(jail, to, entries);
  }

  /**
   * Throws ErrFileDenied when one of `entries` (relative to `to`; "" is the entry itself) is
   * denied at `to`, as spelled or where `to` leads (its folder followed, its own name not).
   */
  checkLanding(jail: Jail, to: string, entries: readonly TreeEntry[]): void {
    if (!this.matcher) return;
    const normal = jail.normalize(to);
    this.checkAt(normal, entries);
    this.checkAt(entryLeads(jail, normal), entries, normal);
  }

  /** Throws ErrFileDenied when one of `entries` is denied at `base`, a path taken as it is (named by `said`). */
  checkAt(base: string, entries: readonly TreeEntry[], said = base): void {
    for (const { rel, folder } of entries) if (this.denies(join(base, rel), folder)) throw denied(join(said, rel));
  }

  /** Whether there is anything to check at all (most templates have no denylist). */
  get empty(): boolean {
    return this.matcher === null;
  }
}

/** An entry of a tree, relative to its top ("" is the top itself). */
export interface TreeEntry {
  rel: string;
  folder: boolean;
}

export function denied(path: string): KilnError {
  return new KilnError("ErrFileDenied", { path }, `${path} is on the server's file denylist`);
}

const join = (base: string, rel: string) => (base === "" ? rel : rel === "" ? base : `${base}/${rel}`);
const parentOf = (path: string) => (posix.dirname(path) === "." ? "" : posix.dirname(path));

/**
 * Where `normal` leads: followed as the kernel would (links inside the folder), and for a part
 * that does not exist yet, the deepest existing folder followed and the rest as spelled. Null when
 * nothing on the way leads inside the folder.
 */
export function whereItLeads(jail: Jail, normal: string): string | null {
  const rest: string[] = [];
  for (let probe = normal; ; probe = parentOf(probe)) {
    const real = realPath(jail, probe);
    if (real !== null) return [real, ...rest.reverse()].filter(Boolean).join("/");
    if (probe === "") return null;
    rest.push(posix.basename(probe));
  }
}

/** Where the entry `normal` itself is (its folder followed, its own name not: a link stays the link). */
function entryLeads(jail: Jail, normal: string): string {
  if (normal === "") return "";
  const folder = whereItLeads(jail, parentOf(normal));
  return folder === null ? normal : join(folder, posix.basename(normal));
}

/** The entry `normal` ("") and every entry beneath it, relative to it; links are entries, never walked into. */
function entriesBeneath(jail: Jail, normal: string): TreeEntry[] {
  let stats;
  try {
    stats = statPath(jail, normal, false);
  } catch {
    return [];
  }
  const out: TreeEntry[] = [{ rel: "", folder: stats.isDirectory() }];
  if (!stats.isDirectory()) return out;
  const folders = [""];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    for (const child of readFolder(jail, join(normal, folder))) {
      const rel = join(folder, child.name);
      const isFolder = child.stats.isDirectory();
      out.push({ rel, folder: isFolder });
      if (isFolder) folders.push(rel);
    }
  }
  return out;
}

/** Where the path leads once links are followed, or null when it does not exist (yet) or leads out. */
function realPath(jail: Jail, normal: string): string | null {
  let fd: number;
  try {
    fd = jail.open(normal, O_PATH);
  } catch {
    return null;
  }
  try {
    return jail.realRelative(`/proc/self/fd/${fd}`, normal);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
