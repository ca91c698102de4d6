// The node's journal of a server's last add-on change (<dataDir>/mod-changes/<server>/): what the
// change placed, what it moved aside (kept under files/, outside the server's folder, where its
// users cannot touch it) and what else its undo needs. A change opens a new journal beside the
// current one and commits it by a rename once everything is in place, so the journal on disk is
// always a whole change's; only the newest change can be undone. Files move between the folder and
// the journal through ./journal-files (never a copy by name across filesystems).
import type { ServerDefinition } from "../../core/definition";
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, posix } from "node:path";
import type { AddonKind } from "../../core/mods/types";
import type { InstalledPack } from "../../core/mods/pack";
import type { Jail } from "../files/jail";
import { moveIn, moveOut } from "./journal-files";

/** What a journal holds to undo its change. */
export interface Journal {
  changeId: string;
  /** What the change was, in a few words. */
  note: string;
  /** mods/ or plugins/; "" for a modpack, whose names are paths from the server's folder ("config/x.toml"). */
  folder: AddonKind | "";
  /** Files placed by the change (names on disk) and their SHA-512, removed by an undo only if unchanged. */
  added: { name: string; sha512: string }[];
  /** Names on disk moved into the journal's files/ folder. */
  saved: string[];
  /** Renames made (disable, enable): undone in reverse. */
  renamed: { from: string; to: string }[];
  /** A modpack change: the pack the server had before (null: none), which its undo puts back. */
  previousPack?: InstalledPack | null;
  /**
   * A switch's undo (./switch-undo): its backup, and the variable's value before; a switch that
   * replaced the whole definition (a platform, a pack laid onto another template) keeps the one it
   * replaced and the mark of the one it made.
   */
  switched?: { backup: string; variable: string; previous: unknown; definition?: ServerDefinition; made?: string };
}

/** A journal being written: `save(name)` moves what is at the name into it; `done` holds the steps a failure midway undoes. */
export interface OpenJournal {
  next: string;
  journal: Journal;
  done: Array<() => void>;
  save(name: string): void;
}

export class Journals {
  /**
   * A change placed through a new journal: `place` moves what it replaces with `save` and pushes
   * the steps that reverse what else it does onto `done`; the journal is then committed. A failure
   * midway reverses those steps and drops the unfinished journal, so the folder is as it was, and
   * is thrown again.
   */
  write(serverId: string, jail: Jail, journal: Journal, place: (open: OpenJournal) => void): void {
    const open = this.open(serverId, jail, journal);
    try {
      place(open);
      this.commit(serverId, open.next, open.journal);
    } catch (error) {
      this.putBack(serverId, open.done, open.next);
      throw error;
    }
  }

  constructor(
    private readonly root: string,
    private readonly log: (line: string) => void,
  ) {
    mkdirSync(root, { recursive: true, mode: 0o700 });
  }

  /**
   * A new journal for a change being placed: `save(name)` moves what is at the name (in the
   * journal's folder, through the jail) into it, for the undo; `done` holds the steps a failure
   * midway undoes, newest last.
   */
  private open(serverId: string, jail: Jail, journal: Journal): OpenJournal {
    const next = join(this.root, `${serverId}.next`);
    rmSync(next, { recursive: true, force: true });
    mkdirSync(join(next, "files"), { recursive: true, mode: 0o700 });
    const done: Array<() => void> = [];
    const save = (name: string) => {
      const path = journal.folder ? `${journal.folder}/${name}` : name;
      const kept = join(next, "files", name);
      mkdirSync(posix.dirname(kept), { recursive: true, mode: 0o700 });
      moveOut(jail, path, kept);
      journal.saved.push(name);
      done.push(() => moveIn(kept, jail, path));
    };
    return { next, journal, done, save };
  }

  /** The new journal replaces the last one: only the newest change can be undone. */
  private commit(serverId: string, next: string, journal: Journal): void {
    writeFileSync(join(next, "journal.json"), JSON.stringify(journal), { mode: 0o600 });
    const current = this.dir(serverId);
    rmSync(current, { recursive: true, force: true });
    renameSync(next, current);
  }

  /** Undoes a placing's steps, newest first, and drops its unfinished journal. */
  private putBack(serverId: string, done: Array<() => void>, next: string): void {
    for (const undo of done.reverse()) {
      try {
        undo();
      } catch (again) {
        this.log(`kiln daemon: putting back an add-on change of ${serverId} failed: ${(again as Error).message}`);
      }
    }
    rmSync(next, { recursive: true, force: true });
  }

  dir(serverId: string): string {
    return join(this.root, serverId);
  }

  of(serverId: string): Journal | null {
    try {
      return JSON.parse(readFileSync(join(this.dir(serverId), "journal.json"), "utf8")) as Journal;
    } catch {
      return null;
    }
  }

  /** When the journal was written (its change's end). */
  writtenAt(serverId: string): number {
    return lstatSync(join(this.dir(serverId), "journal.json")).mtimeMs;
  }

  /** Drops the server's journal (undone, or the server removed). */
  drop(serverId: string): void {
    rmSync(this.dir(serverId), { recursive: true, force: true });
  }
}
