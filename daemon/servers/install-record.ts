// What the last install left in a server's folder, and keeping the host's changes through a
// reinstall. After every install that finished, the node records each entry of the folder (a
// file's size and modification time, a folder's name) in <data>/servers/.install/<id>.json. An
// entry that differs from that record, or is not in it, was changed since (by the host, SFTP, or
// the game itself: a world, a config it wrote); a folder the record does not hold counts as one
// change, whole. A reinstall that keeps changes moves those entries aside into
// <data>/servers/.install/<id>.kept/ (a rename: same file system, no copy, so a world of any
// size costs nothing), runs the install, records the folder as the install left it, then puts
// them back; the install's own version of a kept entry is removed ("skip") or renamed beside it
// ("beside"), as the template says. Everything goes through the jail, nothing is followed.
// A crash between the two moves leaves the stash and its list; the next install or the node's
// next start puts it back first.
import { mkdirSync, readFileSync, renameSync, rmSync, type Stats } from "node:fs";
import { dirname, join, posix } from "node:path";
import { KilnError } from "../../core/errors";
import { BESIDE_SUFFIX, CHANGES_LISTED, type ChangedFilesMode, type InstallChanges } from "../../core/install";
import type { Jail } from "../files/jail";
import { STOP, walkJail } from "../files/walk";
import { makeFolder, removePath, renamePath } from "../files/operations";
import { existsOrLink } from "../files/exists-or-link";
import { writeJsonAtomically } from "../write-json";

/** A walk of the folder stops after this many entries; what it did not see counts as changed. */
export const MAX_RECORDED_ENTRIES = 200_000;

/** A file's (or link's) [size, mtimeMs]; "d" for a folder. */
type Entry = [number, number] | "d";
interface RecordFile {
  entries: Record<string, Entry>;
}

export class InstallRecord {
  private readonly file: string;
  private readonly stash: string;

  /** `folder`: <data>/servers/.install, shared by the node's servers, readable by the node only. */
  constructor(folder: string, id: string) {
    this.file = join(folder, `${id}.json`);
    this.stash = join(folder, `${id}.kept`);
  }

  /** The record of the last install, null when there is none (or it cannot be read). */
  private read(): RecordFile | null {
    try {
      const parsed = JSON.parse(readFileSync(this.file, "utf8")) as RecordFile;
      return parsed && typeof parsed.entries === "object" ? parsed : null;
    } catch {
      return null;
    }
  }

  /** Records the folder as it is now: called when an install has finished, before kept changes return. */
  async record(jail: Jail): Promise<void> {
    const entries: Record<string, Entry> = Object.create(null);
    await walk(jail, (path, stats) => {
      entries[path] = stats.isDirectory() ? "d" : [stats.size, stats.mtimeMs];
      return stats.isDirectory();
    });
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    writeJsonAtomically(this.file, { entries });
  }

  /** Every entry changed since the last install, a folder the install did not make as one. */
  async changed(jail: Jail): Promise<{ recorded: boolean; paths: string[] }> {
    const record = this.read();
    const entries = record?.entries ?? {};
    const paths: string[] = [];
    const unwalked = await walk(jail, (path, stats) => {
      const was = Object.hasOwn(entries, path) ? entries[path] : undefined;
      if (stats.isDirectory()) {
        if (was === "d") return true;
        paths.push(path);
        return false;
      }
      if (!Array.isArray(was) || was[0] !== stats.size || was[1] !== stats.mtimeMs) paths.push(path);
      return false;
    });
    // Folders the walk had no time for are kept whole: unseen is not unchanged.
    paths.push(...unwalked);
    return { recorded: record !== null, paths };
  }

  async changes(jail: Jail, mode: ChangedFilesMode): Promise<InstallChanges> {
    const { recorded, paths } = await this.changed(jail);
    return { recorded, paths: paths.slice(0, CHANGES_LISTED), count: paths.length, mode };
  }

  /**
   * Moves `paths` out of the folder into the stash, its list written first so a crash half way
   * still knows what to put back. A path gone meanwhile is passed over.
   */
  keepAside(jail: Jail, paths: string[]): void {
    rmSync(this.stash, { recursive: true, force: true });
    mkdirSync(join(this.stash, "files"), { recursive: true, mode: 0o700 });
    writeJsonAtomically(join(this.stash, "paths.json"), paths);
    for (const path of paths) {
      const target = join(this.stash, "files", path);
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      try {
        jail.at(path, (entry) => renameSync(entry, target));
      } catch (error) {
        if ((error as { code?: string }).code === "ENOENT" || (error instanceof KilnError && error.code === "ErrNotFound")) continue;
        throw error;
      }
    }
  }

  /** Whether a stash waits to be put back (an install crashed between the moves). */
  hasStash(): boolean {
    return existsOrLink(join(this.stash, "paths.json"));
  }

  /**
   * Puts what keepAside moved back where it was. The install's own version of an entry is
   * removed ("skip") or renamed to <name>.kiln-new ("beside"). Answers the paths put back and
   * those that could not be (the install made a file where their folder was): they stay in the
   * stash, and the next put-back tries them again.
   */
  putBack(jail: Jail, mode: ChangedFilesMode): { restored: string[]; left: Array<{ path: string; reason: unknown }> } {
    let paths: string[];
    try {
      paths = JSON.parse(readFileSync(join(this.stash, "paths.json"), "utf8")) as string[];
    } catch {
      return { restored: [], left: [] };
    }
    const restored: string[] = [];
    const left: Array<{ path: string; reason: unknown }> = [];
    for (const path of paths) {
      const source = join(this.stash, "files", path);
      if (!existsOrLink(source)) continue;
      try {
        const parent = posix.dirname(path);
        if (parent !== ".") makeFolder(jail, parent);
        if (jail.at(path, existsOrLink)) {
          if (mode === "beside") {
            const beside = `${path}${BESIDE_SUFFIX}`;
            if (jail.at(beside, existsOrLink)) removePath(jail, beside);
            renamePath(jail, path, beside);
          } else removePath(jail, path);
        }
        jail.at(path, (entry) => renameSync(source, entry));
        restored.push(path);
      } catch (reason) {
        left.push({ path, reason });
      }
    }
    if (left.length === 0) rmSync(this.stash, { recursive: true, force: true });
    else writeJsonAtomically(join(this.stash, "paths.json"), left.map((l) => l.path));
    return { restored, left };
  }

  /** The server was deleted: its record and any stash go too. */
  remove(): void {
    rmSync(this.file, { force: true });
    rmSync(this.stash, { recursive: true, force: true });
  }
}

/**
 * Visits every entry below the folder's root (../files/walk), at most MAX_RECORDED_ENTRIES of
 * them; answers what it did not reach beyond that.
 */
function walk(jail: Jail, visit: (path: string, stats: Stats) => boolean): Promise<string[]> {
  let seen = 0;
  return walkJail(jail, "", (path, stats) => (++seen > MAX_RECORDED_ENTRIES ? STOP : visit(path, stats)));
}
