// Changes to a server's add-ons (mods/ or plugins/), made so they never leave a server broken:
// 1. a backup of the server is taken first (the backups feature: the user can go back to it from
//    the Backups tab whatever happens later, while it is among the server's newest backups before
//    changes, ../backups/service beforeChange);
// 2. every file is downloaded and checked (host, size, hash) into a hidden temporary file beside
//    its place before anything in the folder changes: a failed download changes nothing;
// 3. the files removed or replaced are moved into the node's own journal of the change (outside
//    the server's folder: its users cannot touch it), then the new files are renamed into place.
// Undo of the last change puts the journal's files back and takes the added ones away; a change
// that is not the server's last cannot be undone (the next change's journal replaced it). One
// change at a time per server. The other kinds of change keep the same rules in their own files:
// a modpack (./pack-change), a Minecraft version switch (./version-switch); the journal is
// ./journals, the staged downloads ./staged.
import { readdirSync, renameSync, unlinkSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join, posix } from "node:path";
import { KilnError } from "../../core/errors";
import { message } from "../../core/live/daemon-message";
import { changeRequestSchema, switchRequestSchema, type ChangeRequest, type ChangeStatus } from "../../core/mods/change";
import { packChangeSchema, type InstalledPack, type PackReading } from "../../core/mods/pack";
import { parseWith } from "../../core/validation/parse";
import { reasonMessage } from "../http/errors";
import type { Jail } from "../files/jail";
import { makeFolder } from "../files/operations";
import type { ExtractLimits } from "../files/extract";
import type { ServerManager } from "../servers/manager";
import type { Server } from "../servers/server";
import { checkFileHost } from "./download";
import { disabledName, type InstalledFiles, type Listing, nameOnDisk } from "./installed";
import type { AddonKind } from "../../core/mods/types";
import { readPack } from "./pack-stage";
import { failedStatus } from "./change-status";
import { Journals } from "./journals";
import { moveIn } from "./journal-files";
import { existsOrLink } from "../files/exists-or-link";
import { fsPath } from "../files/fs-path";
import { downloadStaged, dropStaged, rememberOrigins, type Staged } from "./staged";
import { runPack } from "./pack-change";
import { checkSwitch, runSwitch } from "./version-switch";
import { switchUndoable, undoSwitch } from "./switch-undo";
import type { PackUploads, StoredUpload } from "./pack-uploads";
import type { InstalledPacks } from "./installed-packs";
import type { AddonOrigins } from "./addon-origins";
import { KeptPlaces, type PlaceLimits } from "../kept-places";

/** A server's modpack work: one read or upload its co-users share, one kept for its owner and administrators (../kept-places). */
const PACK_PLACES: PlaceLimits = { perServer: 1, perNode: Number.POSITIVE_INFINITY, keptPerServer: 1, keptPerNode: Number.POSITIVE_INFINITY };

/** Statuses kept per server (the last few, for the panel to read after the change ended). */
const KEPT_STATUSES = 10;

export interface ModChangesDeps {
  manager: ServerManager;
  /** Takes a backup of the server and resolves with its short id when it is made. */
  backup(serverId: string, by: string, note: string): Promise<string>;
  /** Restores the whole folder from a backup (the server stopped meanwhile, started again if it ran). */
  restore(serverId: string, backup: string): Promise<void>;
  installed: InstalledFiles;
  /** The origins ("https://host") add-on files may be downloaded from. */
  fileOrigins: readonly string[];
  /** The origins a modpack's index may name its files on (core: Modrinth's format's hosts). */
  packFileOrigins: readonly string[];
  /** The node's folder for journals: <dataDir>/mod-changes. */
  journalRoot: string;
  /** How much a modpack may unpack (the file manager's extraction limits). */
  extractLimits: ExtractLimits;
  /** Modpacks users uploaded. */
  uploads: PackUploads;
  /** The modpack each server has. */
  packs: InstalledPacks;
  /** Where each add-on file the node placed came from. */
  origins: AddonOrigins;
  log(line: string): void;
}


/** What the kinds of change share: the node's parts, and the servers' journals. */
export interface ChangeContext {
  deps: ModChangesDeps;
  journals: Journals;
}

export class ModChanges {
  private readonly busy = new Set<string>();
  /** Servers a modpack is being read or uploaded for (./pack-stage, ./pack-uploads): the places each holds. */
  private readonly packWork = new KeptPlaces(() => PACK_PLACES);
  private readonly statuses = new Map<string, ChangeStatus[]>();
  private readonly journals: Journals;
  private readonly ctx: ChangeContext;

  constructor(private readonly deps: ModChangesDeps) {
    this.journals = new Journals(deps.journalRoot, deps.log);
    this.ctx = { deps, journals: this.journals };
  }

  /** Checks the request and starts it; the status says how it goes (GET the change). */
  start(serverId: string, body: unknown, by: string): ChangeStatus {
    const server = this.deps.manager.get(serverId);
    const request = parseWith(changeRequestSchema, body);
    this.check(server.jail, request);
    const done = this.claim(server);
    const status: ChangeStatus = { changeId: randomUUID(), state: "running", step: "backup", downloaded: 0, total: request.add.length, added: [], removed: [], disabled: [], enabled: [], note: request.note, at: Date.now() };
    this.keep(serverId, status);
    void this.run(serverId, server.jail, request, status, by).finally(done);
    return status;
  }

  /**
   * Checks a modpack change and starts it: the pack's server files and overrides laid over the
   * server's folder, each replaced file kept for the undo, the template's fileDenylist kept to.
   */
  startPack(serverId: string, body: unknown, by: string): ChangeStatus {
    const server = this.deps.manager.get(serverId);
    const change = parseWith(packChangeSchema, body);
    if ("url" in change) checkFileHost(change.url, this.deps.fileOrigins);
    const done = this.claim(server);
    const status: ChangeStatus = { changeId: randomUUID(), state: "running", step: change.afterInstall ? "install" : "backup", downloaded: 0, total: 0, added: [], removed: [], disabled: [], enabled: [], note: change.note, at: Date.now() };
    this.keep(serverId, status);
    const run = () => runPack(this.ctx, serverId, server.jail, change, status, by);
    void (change.afterInstall ? server.afterQueued(run) : run()).finally(done);
    return status;
  }

  /** What a modpack would lay over the server's folder (read from the pack itself), for the plan; `owners`: the panel marked the call its owner's or an administrator's. */
  readPack(serverId: string, body: unknown, owners = false): Promise<PackReading> {
    const server = this.deps.manager.get(serverId);
    const change = parseWith(packChangeSchema, body);
    return this.onePackAtATime(serverId, owners, () => readPack(server.jail, serverId, change, this.deps));
  }

  /** The modpack the server has, as placed (null: none, or its change was undone). */
  installedPack(serverId: string): InstalledPack | null {
    this.deps.manager.get(serverId);
    return this.deps.packs.get(serverId);
  }

  /** Keeps a modpack the user uploaded, for a plan and a change to name; `owners` as for readPack. */
  uploadPack(serverId: string, body: ReadableStream<Uint8Array> | null, owners = false): Promise<StoredUpload> {
    this.deps.manager.get(serverId);
    return this.onePackAtATime(serverId, owners, () => this.deps.uploads.store(serverId, body));
  }

  /**
   * One modpack read or upload at a time per server for its co-users, and one more for its owner
   * and administrators (ErrTooManyRequests past them): a read unpacks and hashes a whole pack, an
   * upload writes up to MAX_PACK_BYTES beside the server's folder, outside its disk space; the
   * uploads kept are pruned before each one, so two at a time keep them within one more than the
   * number kept, and the node's work for one server to two packs. An upload lasts as long as its
   * sender takes (a byte a second holds it): the owner's and administrators' calls take the place
   * kept for them first, then the shared one, so co-users holding the shared one never keep them
   * out (the panel marks their calls: core/contract's keptForOwners).
   */
  private async onePackAtATime<T>(serverId: string, owners: boolean, work: () => Promise<T>): Promise<T> {
    const place = this.packWork.take(serverId, owners);
    if (!("give" in place)) throw new KilnError("ErrTooManyRequests");
    try {
      return await work();
    } finally {
      place.give();
    }
  }

  status(serverId: string, changeId: string): ChangeStatus {
    this.deps.manager.get(serverId);
    const found = this.statuses.get(serverId)?.find((s) => s.changeId === changeId) ?? this.fromJournal(serverId, changeId);
    if (!found) throw new KilnError("ErrNotFound", { id: changeId });
    return found;
  }

  /** The folder's files, each with where the node got it when it placed it, and the change that can be undone. */
  async listing(serverId: string, folder: AddonKind): Promise<Listing & { undoable: string | null }> {
    const listing = await this.deps.installed.list(this.deps.manager.get(serverId).jail, folder);
    const origins = this.deps.origins.get(serverId);
    return { ...listing, files: listing.files.map((f) => (origins[f.sha512] ? { ...f, origin: origins[f.sha512]! } : f)), undoable: this.undoable(serverId) };
  }

  /** The server's last change, while it can be undone (its journal is there; a switch's while ./switch-undo allows); null otherwise. */
  undoable(serverId: string): string | null {
    const journal = this.journals.of(serverId);
    if (journal?.switched && !switchUndoable(this.deps.manager.get(serverId).definition, journal.switched, this.journals.writtenAt(serverId))) return null;
    return journal?.changeId ?? null;
  }

  /** The same, with what it was: a crash on the first run after it names it. */
  lastChange(serverId: string): { changeId: string; note: string } | null {
    const journal = this.journals.of(serverId);
    return journal ? { changeId: journal.changeId, note: journal.note ?? "" } : null;
  }

  async undo(serverId: string, changeId: string): Promise<ChangeStatus> {
    const server = this.deps.manager.get(serverId);
    if (this.busy.has(serverId)) throw new KilnError("ErrModChangeRunning");
    const journal = this.journals.of(serverId);
    if (!journal || journal.changeId !== changeId) throw new KilnError("ErrModUndoUnavailable");
    const done = this.claim(server);
    try {
      const status = this.status(serverId, changeId);
      if (journal.switched) {
        await undoSwitch(this.ctx, serverId, journal.switched, this.journals.writtenAt(serverId)).catch((error: unknown) => {
          // Its backup is looked up before anything is restored: gone, the undo changed nothing and says why.
          if (error instanceof KilnError && error.code === "ErrNotFound" && error.metadata?.backup === journal.switched!.backup) throw new KilnError("ErrModSwitchUndoBackupGone", { backup: journal.switched!.backup });
          throw error;
        });
        return this.undone(serverId, status);
      }
      const dir = this.journals.dir(serverId);
      const jail = server.jail;
      // Every name is opened through the jail from the server's folder, whatever folders it passes.
      const path = (name: string) => (journal.folder ? `${journal.folder}/${name}` : name);
      for (const { name, sha512 } of journal.added) {
        const hashed = await this.deps.installed.hash(jail, path(name));
        // A file the user replaced since is theirs now: left in place.
        if (hashed?.sha512 === sha512) jail.at(path(name), (entry) => unlinkSync(entry));
      }
      for (const { from, to } of [...journal.renamed].reverse()) {
        jail.at(path(to), (toEntry) => jail.at(path(from), (fromEntry) => existsOrLink(toEntry) && !existsOrLink(fromEntry) && renameSync(toEntry, fromEntry)));
      }
      for (const name of journal.saved) {
        const parent = posix.dirname(path(name));
        if (parent !== ".") makeFolder(jail, parent);
        moveIn(join(dir, "files", name), jail, path(name));
      }
      if (journal.previousPack !== undefined) this.deps.packs.set(serverId, journal.previousPack);
      this.journals.drop(serverId);
      return this.undone(serverId, status);
    } finally {
      done();
    }
  }

  /**
   * The server's one change at a time (ErrModChangeRunning while another runs), counted among its
   * changes (refused while it is held for a move: servers/folder-changes); the call it answers ends both.
   */
  private claim(server: Server): () => void {
    if (this.busy.has(server.id)) throw new KilnError("ErrModChangeRunning");
    const end = server.changes.begin();
    this.busy.add(server.id);
    return () => {
      this.busy.delete(server.id);
      end();
    };
  }

  /** The change's status once undone, kept and said on the console. */
  private undone(serverId: string, status: ChangeStatus): ChangeStatus {
    const undone: ChangeStatus = { ...status, state: "undone", at: Date.now() };
    this.keep(serverId, undone);
    this.deps.manager.get(serverId).console.daemon(message("daemon.addons.undone"));
    return undone;
  }



  /** Drops a removed server's journal and statuses. */
  forgetServer(serverId: string): void {
    this.statuses.delete(serverId);
    this.deps.uploads.forgetServer(serverId);
    this.deps.packs.set(serverId, null);
    this.deps.origins.forget(serverId);
    this.journals.drop(serverId);
  }

  /** Before anything runs: every download on an allowed host, every named file there, no name twice. */
  private check(jail: Jail, request: ChangeRequest): void {
    const { folder } = request;
    const seen = new Set<string>();
    request.add.forEach((file, index) => {
      checkFileHost(file.url, this.deps.fileOrigins);
      if (!file.sha512 && !file.sha256 && !file.sha1) throw new KilnError("ErrFieldRequired", { field: `add.${index}.sha512` });
      if (seen.has(file.fileName)) throw new KilnError("ErrModFileTwice", { fileName: file.fileName });
      seen.add(file.fileName);
    });
    for (const names of [request.remove, request.disable, request.enable]) {
      for (const name of names) {
        if (seen.has(name)) throw new KilnError("ErrModFileTwice", { fileName: name });
        seen.add(name);
        if (!nameOnDisk(jail, folder, name)) throw new KilnError("ErrNotFound", { path: `${folder}/${name}` });
      }
    }
  }

  private async run(serverId: string, jail: Jail, request: ChangeRequest, status: ChangeStatus, by: string): Promise<void> {
    const server = this.deps.manager.get(serverId);
    const { folder } = request;
    const staged: Staged[] = [];
    const update = (changes: Partial<ChangeStatus>) => Object.assign(status, changes);
    try {
      // An empty folder has nothing to lose (and restic refuses an empty snapshot).
      if (jail.inFolder("", (path) => readdirSync(path).length > 0)) status.backup = await this.deps.backup(serverId, by, request.note ? `before: ${request.note}` : "before an add-on change");
      update({ step: "download" });
      await downloadStaged(this.deps, jail, folder, request.add, staged, status);
      update({ step: "place" });
      this.place(serverId, jail, request, staged, status);
      await rememberOrigins(this.deps, serverId, jail, folder, staged);
      update({ state: "done", step: undefined, at: Date.now() });
      const counts = { added: status.added.length, removed: status.removed.length, disabled: status.disabled.length, enabled: status.enabled.length };
      server.console.daemon(status.backup ? message("daemon.addons.changed", { ...counts, backup: status.backup }) : message("daemon.addons.changedEmpty", counts));
    } catch (error) {
      update(failedStatus(error));
      server.console.daemon(message("daemon.addons.failed", { reason: reasonMessage(error) }));
    } finally {
      dropStaged(jail, folder, staged);
    }
  }



  /**
   * Checks a version switch and starts it: the variable must be the one the template's addons
   * statement names (`${variable}`: what the install reads the version from) and the value one it
   * takes; the add-on files as for any change.
   */
  startSwitch(serverId: string, body: unknown, by: string): ChangeStatus {
    const server = this.deps.manager.get(serverId);
    const request = parseWith(switchRequestSchema, body);
    checkSwitch(server.definition, request);
    if (request.folder) this.check(server.jail, { folder: request.folder, add: request.add, remove: request.remove, disable: [], enable: [], note: request.note });
    else if (request.add.length > 0 || request.remove.length > 0) throw new KilnError("ErrFieldRequired", { field: "folder" });
    const done = this.claim(server);
    const status: ChangeStatus = { changeId: randomUUID(), state: "running", step: "backup", switchTo: request.value, ...(request.what !== "game" ? { switchOf: request.what } : {}), downloaded: 0, total: request.add.length, added: [], removed: [], disabled: [], enabled: [], note: request.note, at: Date.now() };
    this.keep(serverId, status);
    void runSwitch(this.ctx, serverId, request, status, by).finally(done);
    return status;
  }











  /**
   * Moves what is removed or replaced into a new journal, renames, and puts the staged files in
   * place. A failure midway puts back what it had moved, so the folder is as it was.
   */
  private place(serverId: string, jail: Jail, request: ChangeRequest, staged: Staged[], status: ChangeStatus): void {
    const { folder } = request;
    this.journals.write(serverId, jail, { changeId: status.changeId, note: request.note, folder, added: [], saved: [], renamed: [] }, ({ journal, done, save }) => {
      for (const name of request.remove) {
        save(nameOnDisk(jail, folder, name)!);
        status.removed.push(name);
      }
      for (const [list, names] of [["disable", request.disable], ["enable", request.enable]] as const) {
        for (const name of names) {
          const from = nameOnDisk(jail, folder, name)!;
          const to = list === "disable" ? disabledName(name) : name;
          if (from === to) continue;
          // By the names' bytes (daemon/files/fs-path): an installed name may be any a folder holds.
          jail.inFolder(folder, (path) => renameSync(fsPath(`${path}/${from}`), fsPath(`${path}/${to}`)));
          journal.renamed.push({ from, to });
          done.push(() => jail.inFolder(folder, (path) => renameSync(fsPath(`${path}/${to}`), fsPath(`${path}/${from}`))));
          (list === "disable" ? status.disabled : status.enabled).push(name);
        }
      }
      for (const file of staged) {
        // The same name there already (an update keeping its name, or a disabled copy): saved first.
        for (const existing of [file.name, disabledName(file.name)]) if (jail.inFolder(folder, (path) => existsOrLink(`${path}/${existing}`))) save(existing);
        jail.inFolder(folder, (path) => renameSync(`${path}/${file.temp}`, `${path}/${file.name}`));
        journal.added.push({ name: file.name, sha512: file.sha512 });
        done.push(() => jail.inFolder(folder, (path) => unlinkSync(`${path}/${file.name}`)));
        status.added.push(file.name);
      }
    });
  }







  private keep(serverId: string, status: ChangeStatus): void {
    const list = (this.statuses.get(serverId) ?? []).filter((s) => s.changeId !== status.changeId);
    list.push(status);
    this.statuses.set(serverId, list.slice(-KEPT_STATUSES));
  }





  /** After a restart, the last change is known from its journal (done: it was written at the end). */
  private fromJournal(serverId: string, changeId: string): ChangeStatus | null {
    const journal = this.journals.of(serverId);
    if (!journal || journal.changeId !== changeId) return null;
    return { changeId, state: "done", downloaded: journal.added.length, total: journal.added.length, added: journal.added.map((a) => a.name), removed: [], disabled: [], enabled: [], note: journal.note ?? "", at: this.journals.writtenAt(serverId) };
  }
}
