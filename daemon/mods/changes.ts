// Changes to a server's add-ons (mods/ or plugins/), made so they never leave a server broken:
// 1. a backup of the server is taken first (the backups feature: the user can go back to it from
//    the Backups tab whatever happens later);
// 2. every file is downloaded and checked (host, size, hash) into a hidden temporary file beside
//    its place before anything in the folder changes: a failed download changes nothing;
// 3. the files removed or replaced are moved into the node's own journal of the change (outside
//    the server's folder: its users cannot touch it), then the new files are renamed into place.
// Undo of the last change puts the journal's files back and takes the added ones away; a change
// that is not the server's last cannot be undone (the next change's journal replaced it). One
// change at a time per server.
import { copyFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join, posix } from "node:path";
import { KilnError } from "../../core/errors";
import { message } from "../../core/live/daemon-message";
import { changeRequestSchema, switchRequestSchema, type ChangeRequest, type ChangeStatus, type SwitchRequest } from "../../core/mods/change";
import { variableValues, withVariableValues } from "../../core/definition";
import { versionVariable } from "../../core/definition/addons";
import { packChangeSchema, packMisfits, packPlatform, type InstalledPack, type PackIndex, type PackChange, type PackReading } from "../../core/mods/pack";
import type { AddonKind, PlatformInfo } from "../../core/mods/types";
import { parseWith } from "../../core/validation/parse";
import { reasonMessage, toKilnError } from "../http/errors";
import type { Jail } from "../files/jail";
import { makeFolder, renamePath, statPath, writeAtomically } from "../files/operations";
import type { ExtractLimits } from "../files/extract";
import { partialName } from "../files/partial-file";
import type { ServerManager } from "../servers/manager";
import { checkedDownload, checkFileHost } from "./download";
import { disabledName, type InstalledFiles, nameOnDisk } from "./installed";
import { dropped, existsIn, readPack, removeStage, stageFolderName, stagePack, type StagedFile } from "./pack-stage";
import type { PackUploads, StoredUpload } from "./pack-uploads";
import type { InstalledPacks } from "./installed-packs";
import { serverPlatform } from "./stated-platform";

/** A file downloaded to its hidden partial name, waiting to be put in place. */
type Staged = { name: string; temp: string; sha512: string };

/** Whatever was staged and not placed goes (a failed change leaves nothing behind). */
function dropStaged(jail: Jail, folder: AddonKind, staged: Staged[]): void {
  for (const { temp } of staged) {
    try {
      jail.inFolder(folder, (path) => existsQuiet(`${path}/${temp}`) && unlinkSync(`${path}/${temp}`));
    } catch {
      // already placed or gone
    }
  }
}

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
  log(line: string): void;
}

/** What a journal holds to undo its change. */
interface Journal {
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
  /** A version switch: the backup taken before it (its undo restores it) and the variable's value before. */
  switched?: { backup: string; variable: string; previous: unknown };
}

export class ModChanges {
  private readonly busy = new Set<string>();
  private readonly statuses = new Map<string, ChangeStatus[]>();

  constructor(private readonly deps: ModChangesDeps) {
    mkdirSync(deps.journalRoot, { recursive: true, mode: 0o700 });
  }

  /** Checks the request and starts it; the status says how it goes (GET the change). */
  start(serverId: string, body: unknown, by: string): ChangeStatus {
    const server = this.deps.manager.get(serverId);
    const request = parseWith(changeRequestSchema, body);
    this.check(server.jail, request);
    if (this.busy.has(serverId)) throw new KilnError("ErrModChangeRunning");
    this.busy.add(serverId);
    const status: ChangeStatus = { changeId: randomUUID(), state: "running", step: "backup", downloaded: 0, total: request.add.length, added: [], removed: [], disabled: [], enabled: [], note: request.note, at: Date.now() };
    this.keep(serverId, status);
    void this.run(serverId, server.jail, request, status, by).finally(() => this.busy.delete(serverId));
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
    if (this.busy.has(serverId)) throw new KilnError("ErrModChangeRunning");
    this.busy.add(serverId);
    const status: ChangeStatus = { changeId: randomUUID(), state: "running", step: change.afterInstall ? "install" : "backup", downloaded: 0, total: 0, added: [], removed: [], disabled: [], enabled: [], note: change.note, at: Date.now() };
    this.keep(serverId, status);
    const run = () => this.runPack(serverId, server.jail, change, status, by);
    void (change.afterInstall ? server.afterQueued(run) : run()).finally(() => this.busy.delete(serverId));
    return status;
  }

  /** What a modpack would lay over the server's folder (read from the pack itself), for the plan. */
  readPack(serverId: string, body: unknown): Promise<PackReading> {
    const server = this.deps.manager.get(serverId);
    return readPack(server.jail, serverId, parseWith(packChangeSchema, body), this.deps);
  }

  /** The modpack the server has, as placed (null: none, or its change was undone). */
  installedPack(serverId: string): InstalledPack | null {
    this.deps.manager.get(serverId);
    return this.deps.packs.get(serverId);
  }

  /** Keeps a modpack the user uploaded, for a plan and a change to name. */
  uploadPack(serverId: string, body: ReadableStream<Uint8Array> | null): Promise<StoredUpload> {
    this.deps.manager.get(serverId);
    return this.deps.uploads.store(serverId, body);
  }

  status(serverId: string, changeId: string): ChangeStatus {
    this.deps.manager.get(serverId);
    const found = this.statuses.get(serverId)?.find((s) => s.changeId === changeId) ?? this.fromJournal(serverId, changeId);
    if (!found) throw new KilnError("ErrNotFound", { id: changeId });
    return found;
  }

  /** The server's last change, while it can be undone (its journal is there); null otherwise. */
  undoable(serverId: string): string | null {
    return this.journalOf(serverId)?.changeId ?? null;
  }

  /** The same, with what it was: a crash on the first run after it names it. */
  lastChange(serverId: string): { changeId: string; note: string } | null {
    const journal = this.journalOf(serverId);
    return journal ? { changeId: journal.changeId, note: journal.note ?? "" } : null;
  }

  async undo(serverId: string, changeId: string): Promise<ChangeStatus> {
    const server = this.deps.manager.get(serverId);
    if (this.busy.has(serverId)) throw new KilnError("ErrModChangeRunning");
    const journal = this.journalOf(serverId);
    if (!journal || journal.changeId !== changeId) throw new KilnError("ErrModUndoUnavailable");
    this.busy.add(serverId);
    try {
      if (journal.switched) return await this.undoSwitch(serverId, journal.switched, changeId);
      const dir = this.journalDir(serverId);
      const jail = server.jail;
      // Every name is opened through the jail from the server's folder, whatever folders it passes.
      const path = (name: string) => (journal.folder ? `${journal.folder}/${name}` : name);
      for (const { name, sha512 } of journal.added) {
        const hashed = await this.deps.installed.hash(jail, path(name));
        // A file the user replaced since is theirs now: left in place.
        if (hashed?.sha512 === sha512) jail.at(path(name), (entry) => unlinkSync(entry));
      }
      for (const { from, to } of [...journal.renamed].reverse()) {
        jail.at(path(to), (toEntry) => jail.at(path(from), (fromEntry) => existsQuiet(toEntry) && !existsQuiet(fromEntry) && renameSync(toEntry, fromEntry)));
      }
      for (const name of journal.saved) {
        const parent = posix.dirname(path(name));
        if (parent !== ".") makeFolder(jail, parent);
        jail.at(path(name), (entry) => moveFile(join(dir, "files", name), entry));
      }
      if (journal.previousPack !== undefined) this.deps.packs.set(serverId, journal.previousPack);
      rmSync(dir, { recursive: true, force: true });
      const status = this.status(serverId, changeId);
      const undone: ChangeStatus = { ...status, state: "undone", at: Date.now() };
      this.keep(serverId, undone);
      server.console.daemon(message("daemon.addons.undone"));
      return undone;
    } finally {
      this.busy.delete(serverId);
    }
  }

  /** A version switch is undone by its backup (world included: a world a newer Minecraft opened does not open in the older one). */
  private async undoSwitch(serverId: string, switched: NonNullable<Journal["switched"]>, changeId: string): Promise<ChangeStatus> {
    const status = this.status(serverId, changeId);
    await this.deps.restore(serverId, switched.backup);
    this.deps.manager.update(serverId, withVariableValues(this.deps.manager.get(serverId).definition, { [switched.variable]: switched.previous }));
    rmSync(this.journalDir(serverId), { recursive: true, force: true });
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
    rmSync(this.journalDir(serverId), { recursive: true, force: true });
  }

  /** Before anything runs: every download on an allowed host, every named file there, no name twice. */
  private check(jail: Jail, request: ChangeRequest): void {
    const { folder } = request;
    const seen = new Set<string>();
    request.add.forEach((file, index) => {
      checkFileHost(file.url, this.deps.fileOrigins);
      if (!file.sha512 && !file.sha1) throw new KilnError("ErrFieldRequired", { field: `add.${index}.sha512` });
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
      await this.download(jail, folder, request.add, staged, status);
      update({ step: "place" });
      this.place(serverId, jail, request, staged, status);
      update({ state: "done", step: undefined, at: Date.now() });
      const counts = { added: status.added.length, removed: status.removed.length, disabled: status.disabled.length, enabled: status.enabled.length };
      server.console.daemon(status.backup ? message("daemon.addons.changed", { ...counts, backup: status.backup }) : message("daemon.addons.changedEmpty", counts));
    } catch (error) {
      const failure = toKilnError(error);
      update({ state: "failed", step: undefined, error: { code: failure.code, metadata: failure.metadata }, at: Date.now() });
      server.console.daemon(message("daemon.addons.failed", { reason: reasonMessage(error) }));
    } finally {
      dropStaged(jail, folder, staged);
    }
  }

  /** Downloads each file, checked, to a hidden partial name beside its place (`staged`, as each lands). */
  private async download(jail: Jail, folder: AddonKind, add: ChangeRequest["add"], staged: Staged[], status: ChangeStatus): Promise<void> {
    makeFolder(jail, folder);
    for (const file of add) {
      const temp = partialName(file.fileName);
      await writeAtomically(jail, `${folder}/${temp}`, checkedDownload(file, this.deps.fileOrigins));
      const hashed = await this.deps.installed.hash(jail, `${folder}/${temp}`);
      staged.push({ name: file.fileName, temp, sha512: hashed?.sha512 ?? "" });
      status.downloaded += 1;
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
    if (versionVariable(server.definition.addons) !== request.variable) throw new KilnError("ErrModSwitchUnavailable");
    withVariableValues(server.definition, { [request.variable]: request.value });
    if (request.folder) this.check(server.jail, { folder: request.folder, add: request.add, remove: request.remove, disable: [], enable: [], note: request.note });
    else if (request.add.length > 0 || request.remove.length > 0) throw new KilnError("ErrFieldRequired", { field: "folder" });
    if (this.busy.has(serverId)) throw new KilnError("ErrModChangeRunning");
    this.busy.add(serverId);
    const status: ChangeStatus = { changeId: randomUUID(), state: "running", step: "backup", switchTo: request.value, downloaded: 0, total: request.add.length, added: [], removed: [], disabled: [], enabled: [], note: request.note, at: Date.now() };
    this.keep(serverId, status);
    void this.runSwitch(serverId, request, status, by).finally(() => this.busy.delete(serverId));
    return status;
  }

  /**
   * A backup; then, with the server stopped, the variable set, the install run (keeping the
   * user's files), the add-ons' new files downloaded and put in place of the old. Anything failing
   * after the backup puts the backup back and the variable as it was: nothing was changed.
   */
  private async runSwitch(serverId: string, request: SwitchRequest, status: ChangeStatus, by: string): Promise<void> {
    const server = this.deps.manager.get(serverId);
    const jail = server.jail;
    const update = (changes: Partial<ChangeStatus>) => Object.assign(status, changes);
    const previous = variableValues(server.definition)[request.variable];
    const setVersion = (value: unknown) => this.deps.manager.update(serverId, withVariableValues(this.deps.manager.get(serverId).definition, { [request.variable]: value }));
    const staged: Staged[] = [];
    let changed = false;
    try {
      const backup = await this.deps.backup(serverId, by, `before: ${request.note || `Minecraft ${request.value}`}`);
      update({ backup });
      await server.whileStopped(async (install) => {
        update({ step: "install" });
        changed = true;
        setVersion(request.value);
        await install();
        if (!request.folder) return;
        update({ step: "download" });
        await this.download(jail, request.folder, request.add, staged, status);
        update({ step: "place" });
        this.placeSwitched(jail, request.folder, request.remove, staged, status);
      });
      const { next, journal } = this.openJournal(serverId, jail, { changeId: status.changeId, note: request.note, folder: "", added: [], saved: [], renamed: [], switched: { backup, variable: request.variable, previous } });
      this.commitJournal(serverId, next, journal);
      update({ state: "done", step: undefined, at: Date.now() });
      server.console.daemon(message("daemon.addons.switched", { version: request.value, backup }));
    } catch (error) {
      const putBack = !changed || (status.backup !== undefined && (await this.putBackBackup(serverId, status.backup, () => setVersion(previous))));
      const failure = toKilnError(error);
      update({ state: "failed", step: undefined, error: { code: failure.code, metadata: failure.metadata }, added: [], removed: [], at: Date.now() });
      const reason = reasonMessage(error);
      server.console.daemon(putBack ? message("daemon.addons.switchFailed", { reason }) : message("daemon.addons.switchNotPutBack", { reason, backup: status.backup ?? "?" }));
    } finally {
      if (request.folder) dropStaged(jail, request.folder, staged);
    }
  }

  /** The old add-on files go, the new ones take their names (the backup holds the old ones). */
  private placeSwitched(jail: Jail, folder: AddonKind, remove: string[], staged: Staged[], status: ChangeStatus): void {
    for (const name of remove) {
      const onDisk = nameOnDisk(jail, folder, name);
      if (onDisk) jail.inFolder(folder, (path) => unlinkSync(`${path}/${onDisk}`));
      status.removed.push(name);
    }
    for (const file of staged) {
      jail.inFolder(folder, (path) => renameSync(`${path}/${file.temp}`, `${path}/${file.name}`));
      status.added.push(file.name);
    }
  }

  /** The backup back in place and the variable as it was; false when that failed (logged; the backup stays in the list to restore by hand). */
  private async putBackBackup(serverId: string, backup: string, resetVariable: () => void): Promise<boolean> {
    try {
      await this.deps.restore(serverId, backup);
      resetVariable();
      return true;
    } catch (error) {
      this.deps.log(`kiln daemon: putting back backup ${backup} of ${serverId} after a version switch failed: ${(error as Error).message}`);
      return false;
    }
  }

  private async runPack(serverId: string, jail: Jail, change: PackChange, status: ChangeStatus, by: string): Promise<void> {
    const server = this.deps.manager.get(serverId);
    const update = (changes: Partial<ChangeStatus>) => Object.assign(status, changes);
    const stage = stageFolderName();
    try {
      if (change.afterInstall && !server.lastInstallSucceeded()) throw new KilnError("ErrModPackInstallFailed");
      update({ step: "backup" });
      if (jail.inFolder("", (path) => readdirSync(path).length > 0)) status.backup = await this.deps.backup(serverId, by, change.note ? `before: ${change.note}` : "before a modpack");
      update({ step: "download" });
      const pack = await stagePack(jail, serverId, stage, change, this.deps, (downloaded, total) => update({ downloaded, total }));
      // A new server's pack was chosen before its install said what the server runs: checked now.
      if (change.afterInstall) assertPackRuns(await serverPlatform(server), pack.index);
      update({ step: "place" });
      // Every place is checked before the first file moves: a denied or occupied one changes nothing.
      for (const file of pack.files) {
        server.denylist.check(jail, file.target);
        if (existsIn(jail, file.target) && statPath(jail, file.target, false).isDirectory()) throw new KilnError("ErrFileExists", { path: file.target }, `${file.target} is a folder`);
      }
      // An update: the files of the installed pack this version drops go (those the user changed stay).
      const removals = (await dropped(jail, serverId, new Set(pack.files.map((f) => f.target)), this.deps)).map((r) => r.path);
      for (const path of removals) server.denylist.check(jail, path);
      const previousPack = this.deps.packs.get(serverId);
      this.placePack(serverId, jail, change.note, pack.files, removals, previousPack, status);
      this.deps.packs.set(serverId, { name: pack.index.name, versionId: pack.index.versionId, ...(change.origin ? { origin: change.origin } : {}), files: pack.files.map((f) => ({ path: f.target, sha512: f.sha512 })), at: Date.now() });
      if ("upload" in change) this.deps.uploads.remove(serverId, change.upload);
      update({ state: "done", step: undefined, at: Date.now() });
      const { loader, gameVersion } = packPlatform(pack.index);
      server.console.daemon(message("daemon.addons.packPlaced", { name: pack.index.name, version: pack.index.versionId, files: status.added.length, loader, gameVersion: gameVersion ?? "?" }));
    } catch (error) {
      const failure = toKilnError(error);
      update({ state: "failed", step: undefined, error: { code: failure.code, metadata: failure.metadata }, at: Date.now() });
      server.console.daemon(message("daemon.addons.failed", { reason: reasonMessage(error) }));
    } finally {
      try {
        removeStage(jail, stage);
      } catch (error) {
        this.deps.log(`kiln daemon: removing a modpack's staging folder of ${serverId} failed: ${(error as Error).message}`);
      }
    }
  }

  /** Each staged file into its place, what was there into a new journal; a failure midway puts everything back. */
  private placePack(serverId: string, jail: Jail, note: string, files: StagedFile[], removals: string[], previousPack: InstalledPack | null, status: ChangeStatus): void {
    const { next, journal, done, save } = this.openJournal(serverId, jail, { changeId: status.changeId, note, folder: "", added: [], saved: [], renamed: [], previousPack });
    try {
      for (const path of removals) {
        save(path);
        status.removed.push(path);
      }
      for (const file of files) {
        const parent = posix.dirname(file.target);
        if (parent !== ".") makeFolder(jail, parent);
        if (existsIn(jail, file.target)) save(file.target);
        renamePath(jail, file.staged, file.target);
        journal.added.push({ name: file.target, sha512: file.sha512 });
        done.push(() => jail.at(file.target, (entry) => unlinkSync(entry)));
        status.added.push(file.target);
      }
      this.commitJournal(serverId, next, journal);
    } catch (error) {
      this.putBack(serverId, done, next);
      status.added = [];
      status.removed = [];
      throw error;
    }
  }

  /**
   * Moves what is removed or replaced into a new journal, renames, and puts the staged files in
   * place. A failure midway puts back what it had moved, so the folder is as it was.
   */
  private place(serverId: string, jail: Jail, request: ChangeRequest, staged: Staged[], status: ChangeStatus): void {
    const { folder } = request;
    const { next, journal, done, save } = this.openJournal(serverId, jail, { changeId: status.changeId, note: request.note, folder, added: [], saved: [], renamed: [] });
    try {
      for (const name of request.remove) {
        save(nameOnDisk(jail, folder, name)!);
        status.removed.push(name);
      }
      for (const [list, names] of [["disable", request.disable], ["enable", request.enable]] as const) {
        for (const name of names) {
          const from = nameOnDisk(jail, folder, name)!;
          const to = list === "disable" ? disabledName(name) : name;
          if (from === to) continue;
          jail.inFolder(folder, (path) => renameSync(`${path}/${from}`, `${path}/${to}`));
          journal.renamed.push({ from, to });
          done.push(() => jail.inFolder(folder, (path) => renameSync(`${path}/${to}`, `${path}/${from}`)));
          (list === "disable" ? status.disabled : status.enabled).push(name);
        }
      }
      for (const file of staged) {
        // The same name there already (an update keeping its name, or a disabled copy): saved first.
        for (const existing of [file.name, disabledName(file.name)]) if (jail.inFolder(folder, (path) => existsQuiet(`${path}/${existing}`))) save(existing);
        jail.inFolder(folder, (path) => renameSync(`${path}/${file.temp}`, `${path}/${file.name}`));
        journal.added.push({ name: file.name, sha512: file.sha512 });
        done.push(() => jail.inFolder(folder, (path) => unlinkSync(`${path}/${file.name}`)));
        status.added.push(file.name);
      }
      this.commitJournal(serverId, next, journal);
    } catch (error) {
      this.putBack(serverId, done, next);
      status.added = [];
      status.removed = [];
      status.disabled = [];
      status.enabled = [];
      throw error;
    }
  }

  /**
   * A new journal for a change being placed: `save(name)` moves what is at the name (in the
   * journal's folder, through the jail) into it, for the undo; `done` holds the steps a failure
   * midway undoes, newest last.
   */
  private openJournal(serverId: string, jail: Jail, journal: Journal): { next: string; journal: Journal; done: Array<() => void>; save(name: string): void } {
    const next = join(this.deps.journalRoot, `${serverId}.next`);
    rmSync(next, { recursive: true, force: true });
    mkdirSync(join(next, "files"), { recursive: true, mode: 0o700 });
    const done: Array<() => void> = [];
    const save = (name: string) => {
      const path = journal.folder ? `${journal.folder}/${name}` : name;
      const kept = join(next, "files", name);
      mkdirSync(posix.dirname(kept), { recursive: true, mode: 0o700 });
      jail.at(path, (entry) => moveFile(entry, kept));
      journal.saved.push(name);
      done.push(() => jail.at(path, (entry) => moveFile(kept, entry)));
    };
    return { next, journal, done, save };
  }

  /** The new journal replaces the last one: only the newest change can be undone. */
  private commitJournal(serverId: string, next: string, journal: Journal): void {
    writeFileSync(join(next, "journal.json"), JSON.stringify(journal), { mode: 0o600 });
    const current = this.journalDir(serverId);
    rmSync(current, { recursive: true, force: true });
    renameSync(next, current);
  }

  /** Undoes a placing's steps, newest first, and drops its unfinished journal. */
  private putBack(serverId: string, done: Array<() => void>, next: string): void {
    for (const undo of done.reverse()) {
      try {
        undo();
      } catch (again) {
        this.deps.log(`kiln daemon: putting back an add-on change of ${serverId} failed: ${(again as Error).message}`);
      }
    }
    rmSync(next, { recursive: true, force: true });
  }

  private keep(serverId: string, status: ChangeStatus): void {
    const list = (this.statuses.get(serverId) ?? []).filter((s) => s.changeId !== status.changeId);
    list.push(status);
    this.statuses.set(serverId, list.slice(-KEPT_STATUSES));
  }

  private journalDir(serverId: string): string {
    return join(this.deps.journalRoot, serverId);
  }

  private journalOf(serverId: string): Journal | null {
    try {
      return JSON.parse(readFileSync(join(this.journalDir(serverId), "journal.json"), "utf8")) as Journal;
    } catch {
      return null;
    }
  }

  /** After a restart, the last change is known from its journal (done: it was written at the end). */
  private fromJournal(serverId: string, changeId: string): ChangeStatus | null {
    const journal = this.journalOf(serverId);
    if (!journal || journal.changeId !== changeId) return null;
    const { mtimeMs } = lstatSync(join(this.journalDir(serverId), "journal.json"));
    return { changeId, state: "done", downloaded: journal.added.length, total: journal.added.length, added: journal.added.map((a) => a.name), removed: [], disabled: [], enabled: [], note: journal.note ?? "", at: mtimeMs };
  }
}

function existsQuiet(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A rename, or a copy and unlink when the two are on different filesystems. */
function moveFile(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    copyFileSync(from, to);
    unlinkSync(from);
  }
}

/** ErrModPackDoesNotRun when the server does not run the pack's loader and Minecraft version. */
function assertPackRuns(platform: PlatformInfo, index: PackIndex): void {
  const needs = packPlatform(index);
  if (packMisfits(platform, index.name, needs).length === 0) return;
  throw new KilnError("ErrModPackDoesNotRun", { loader: needs.loader, gameVersion: needs.gameVersion ?? "?", platform: platform.platform ?? "?", serverVersion: platform.gameVersion ?? "?" });
}
