// A node's backups of its servers: create (with the policy's console commands around a
// running server's backup, then retention and the maximum), list, lock, delete, restore (whole or
// one path) and download. Every snapshot carries its server's tag, and every operation on one
// looks it up among that server's snapshots only, so no server reaches another's. Backups run as
// the node, outside the server's sandbox, and count against neither its disk space nor its limits;
// restic reads the folder in a view of its own (./backup-view), is ended when it gets nowhere
// (./progress-watch), and what a snapshot hands back is only the server's own (./handed-back).
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { ReportEvent } from "../events/reporter";
import { KilnError } from "../../core/errors";
import { normalizePath } from "../../core/files";
import { BY_TAG, DEFINITION_TAG, LOCKED_TAG, SERVER_TAG, SNAPSHOT_ID, byTag, parseIgnore, parsePolicy, type BackupActivity, type BackupEntry, type BackupFolder, type BackupList, type BackupPolicy, type DownloadFormat } from "../../core/backups";
import type { TaskRunHow } from "../../core/activity/property-values";
import { listSnapshotFolder } from "./snapshot-folder";
import type { ServerManager } from "../servers/manager";
import type { Server } from "../servers/server";
import { reasonMessage } from "../http/errors";
import type { BackupTargets } from "./targets";
import type { Restic } from "./restic";
import { ServerSettingsStore, type ServerBackupSettings } from "./server-settings";
import { CHANGE_HOST, OWNER_TAG, entry, isChangeBackup, isLocked, keptBy, ownerOf, type Snapshot } from "./snapshot-entries";
import { BEFORE_PAUSE_MS, consoleCommands, excludeLines } from "./around-backup";
import { includePattern, listedPath } from "./one-path";
import { shownName } from "../../core/files/shown-name";
import { handOverStaged, placeInto, stagedEntry, stagingFolder, swapIn } from "./restore-swap";
import { DOWNLOAD_STALL_MS, dumpResponse } from "./download";
import { ReaderSlots } from "./reader-slots";
import { BackupPace, BackupRate, TagRate } from "./backup-rate";
import { checkOnePath, judgeSnapshot, leaveOutStaged, type SnapshotVerdict } from "./handed-back";
import { recoverServers } from "./recovery";
import { CHANGE_BACKUPS_KEPT, type RecoveryOutcome } from "../../core/backups";
import { followRestore } from "./restore-progress";
import { DEFAULT_STALL, type StallLimits } from "./progress-watch";
import { handOverTree } from "../environment/server-user";
import { assertFits, assertFitsWhole, diskLimit } from "../files/quota";
import { message } from "../../core/live/daemon-message";


export class BackupService {
  private readonly activity = new Map<string, BackupActivity>();
  /** A backup before an add-on change under way, by server: its end, which a task's backup waits for (forTask). */
  private readonly changeRuns = new Map<string, Promise<void>>();
  /** Per repository: changes (backup, forget, tag) one at a time, so restic's exclusive locks never meet. */
  private readonly queues = new Map<string, Promise<unknown>>();
  /**
   * Each server's snapshots as last listed, per target: restic opens a repository with a key
   * derivation of about half a second (and 60 MiB), so a list is kept until this node changes the
   * repository (every change goes through inQueue) or the target's repository is another one.
   */
  private readonly listed = new Map<string, { restic: Restic; lists: Map<string, Promise<Snapshot[]>> }>();
  readonly settings: ServerSettingsStore;
  /** When a backup that gets nowhere is ended (./progress-watch); tests shorten it. */
  stall: StallLimits = { ...DEFAULT_STALL };
  /** The restic processes reading snapshots for downloads and browsing, bounded per server and node (./reader-slots); tests lower them. */
  readonly readers = new ReaderSlots();
  /** How many backups a server's users may ask for in a while (./backup-rate); tests change it. */
  readonly rate = new BackupRate();
  /** How often a server's backups may be locked or unlocked (./backup-rate); tests change it. */
  readonly tagRate = new TagRate();
  /** How often add-on changes of a server start their backups, whoever asks: waited for, never refused (./backup-rate); tests change it. */
  readonly changePace = new BackupPace();
  /** How many backups made before add-on changes a server keeps, apart from its own (beforeChange); tests change it. */
  changeBackupsKept = CHANGE_BACKUPS_KEPT;
  /** When a download whose reader takes nothing is ended (./download); tests shorten it. */
  downloadStallMs = DOWNLOAD_STALL_MS;

  constructor(
    private readonly manager: ServerManager,
    private readonly targets: BackupTargets,
    private readonly log: (line: string) => void = () => undefined,
    /** Told when a backup ends, well or not (the panel's activity log and webhooks). */
    private readonly reportEvent?: ReportEvent,
  ) {
    this.settings = new ServerSettingsStore(join(targets.dir, "servers"));
  }

  // ---- settings -------------------------------------------------------------------------
  view(id: string): { policy: BackupPolicy; ignore: string[] } {
    this.manager.get(id);
    const { policy, ignore } = this.settings.read(id);
    return { policy, ignore };
  }

  setIgnore(id: string, text: unknown): string[] {
    this.manager.get(id);
    if (typeof text !== "string") throw new KilnError("ErrFieldRequired", { field: "ignore" });
    const ignore = parseIgnore(text);
    this.settings.change(id, (s) => void (s.ignore = ignore));
    return ignore;
  }

  setPolicy(id: string, raw: unknown): BackupPolicy {
    this.manager.get(id);
    const policy = parsePolicy(raw);
    if (!this.targets.list().some((t) => t.kind === policy.target && t.configured)) throw new KilnError("ErrSettingNotConfigured", { name: `backup target ${policy.target}` });
    this.settings.change(id, (s) => void (s.policy = policy));
    return policy;
  }

  // ---- listing --------------------------------------------------------------------------
  async list(id: string): Promise<BackupList> {
    this.manager.get(id);
    const snapshots = await this.snapshots(id, this.settings.read(id));
    // Read again after restic answered: a backup that ended meanwhile has its sizes written by now.
    const settings = this.settings.read(id);
    return { backups: snapshots.map((s) => entry(s, settings)).sort((a, b) => b.time.localeCompare(a.time)), running: this.activity.get(id) ?? null };
  }

  // ---- create ---------------------------------------------------------------------------
  /**
   * A backup asked for (the API's and the tab's Back up now): as backup, counted against how many
   * the server's users may ask for in a while (./backup-rate; ErrTooManyRequests past it).
   */
  async requested(id: string, by: string, note = ""): Promise<{ finished: Promise<BackupEntry> }> {
    this.manager.get(id);
    const uncount = this.rate.take(id, by);
    try {
      return await this.backup(id, by, undefined, note);
    } catch (error) {
      uncount();
      throw error;
    }
  }

  /**
   * A task's backup step. A scheduled run is bounded by its schedule; a run by hand or by a
   * trigger is asked for by the server's users (run now; a console line they can make), so it
   * counts against the same bound as Back up now (./backup-rate).
   */
  async forTask(id: string, by: string, how: TaskRunHow, signal?: AbortSignal): Promise<{ finished: Promise<BackupEntry> }> {
    this.manager.get(id);
    const uncount = this.rate.take(id, by, Date.now(), how !== "scheduled");
    try {
      // A change's backup under way is waited for, not taken as the server being busy: a user with
      // the mods right alone, toggling a jar, keeps one running most of the time, and the
      // schedule's backups were refused (ErrServerBusy) nearly every time. The next change's
      // backup waits for its change and its pace, so this one starts first.
      for (let run = this.changeRuns.get(id); run; run = this.changeRuns.get(id)) await run;
      return await this.backup(id, by, signal);
    } catch (error) {
      uncount();
      throw error;
    }
  }

  /**
   * The backup an add-on change makes before it changes anything, whoever asks. Never refused for
   * how many there were (an owner installing mods one by one makes one per install): these are
   * kept among themselves (CHANGE_HOST), the newest `changeBackupsKept`, the oldest unlocked one
   * forgotten once the next is made; they neither count towards the server's maximum nor take part
   * in its keep rules with its own backups, so a loop of changes pushes none of those out and grows
   * the target by no more than that many. Against a machine's loop, only a pace (./backup-rate).
   */
  async beforeChange(id: string, by: string, note: string): Promise<{ finished: Promise<BackupEntry> }> {
    this.manager.get(id);
    await this.changePace.wait(id);
    return this.backup(id, by, undefined, note, true);
  }

  /**
   * Starts a backup; `by` says who ("user:<name>", "task:<name>"). Resolves once it is under way
   * (a refusal before: busy, no target, the maximum all locked), with the backup's end to wait for.
   */
  backup(id: string, by: string, signal?: AbortSignal, note = "", beforeChange = false): Promise<{ finished: Promise<BackupEntry> }> {
    const server = this.manager.get(id);
    const check = async () => {
      const settings = this.settings.read(id);
      const restic = await this.targets.repository(settings.policy.target);
      const max = beforeChange ? this.changeBackupsKept : settings.policy.maxBackups;
      // How many of the same kind the server keeps (beforeChange: made before add-on changes; else its own).
      let kept = 0;
      if (max > 0) {
        const before = (await this.snapshots(id, settings)).filter((s) => isChangeBackup(s) === beforeChange);
        // A change's backup is made whatever is locked: the ones locked are kept beside it.
        if (!beforeChange && before.length >= max && before.every(isLocked)) throw new KilnError("ErrBackupLimit", { max });
        kept = before.length;
      }
      return { settings, restic, kept, max };
    };
    const started = this.start(id, "backup", check, beforeChange, async ({ settings, restic, kept, max }, progress) => {
      server.console.daemon(message("daemon.backup.started"));
      const running = server.isRunning();
      const commands = consoleCommands(settings.policy, server.definition);
      await this.sendAll(server, running ? commands.before : []);
      if (running && commands.before.length > 0) await Bun.sleep(BEFORE_PAUSE_MS);
      let summary: Record<string, unknown> = {};
      let told = 0;
      try {
        writeFileSync(this.settings.excludeFile(id), excludeLines(settings.ignore, server.jail.root), { mode: 0o600 });
        // What the node made in the folder (an install step's files, an administrator's copy) is
        // the server's user's first, as before a start: a snapshot hands back only the server's own.
        await handOverTree(server.jail.root, server.user);
        await this.inQueue(settings.policy.target, () =>
          restic.backupFolder([".", "--json", "--host", beforeChange ? CHANGE_HOST : "kiln", "--tag", `${SERVER_TAG}${id}`, "--tag", `${BY_TAG}${byTag(by)}`, "--tag", `${OWNER_TAG}${ownerUid(server)}`, "--exclude-file", this.settings.excludeFile(id)], {
            folder: server.jail.root,
            readable: [this.settings.excludeFile(id)],
            signal,
            stall: this.stall,
            onJson: (json) => {
              if (json.message_type === "summary") summary = json;
              if (json.message_type !== "status" || typeof json.percent_done !== "number") return;
              progress(json.percent_done);
              const tenth = Math.floor(json.percent_done * 10);
              if (tenth > told && tenth < 10) server.console.daemon(message("daemon.backup.progress", { percent: (told = tenth) * 10 }));
            },
          }),
        );
      } catch (error) {
        server.console.daemon(message("daemon.backup.failed", { reason: reasonMessage(error) }));
        throw error;
      } finally {
        await this.sendAll(server, running ? commands.after : []);
      }
      const shortId = String(summary.snapshot_id ?? "").slice(0, 8);
      const added = Number(summary.data_added ?? 0);
      const total = Number(summary.total_bytes_processed ?? 0);
      this.settings.change(id, (s) => {
        s.sizes[shortId] = { added, total };
        if (note) s.notes[shortId] = note;
      });
      server.console.daemon(message("daemon.backup.finished", { id: shortId, added: mib(added), total: mib(total) }));
      await this.keepDefinition(id, server, restic, settings.policy.target);
      // Without a policy to apply (no keep rules, and the new one still within the maximum of its
      // kind: only this backup, one at a time per server, adds to the server's), the new backup is
      // known from restic's summary: no listing.
      if (Object.keys(settings.policy.retention).length === 0 && (max === 0 || kept + 1 <= max)) {
        return { id: String(summary.snapshot_id), shortId, time: new Date().toISOString(), added, total, by: byTag(by), locked: false, ...(note ? { note } : {}) };
      }
      const made = (await this.applyRetention(id, restic, settings.policy, server, shortId)).find((s) => s.short_id === shortId || s.id.startsWith(shortId));
      if (!made) throw new KilnError("ErrBackupFailed", { reason: "the new backup is not in the repository" });
      return entry(made, this.settings.read(id));
    });
    return started.then((run) => {
      const report = (event: "backup.completed" | "backup.failed", properties: Record<string, unknown>) => this.reportEvent?.({ serverId: id, event, at: Date.now(), properties: { ...properties, by: byTag(by) } });
      run.finished.then(
        (made) => report("backup.completed", { backup: made.shortId }),
        // The catalogue code only: a restic message may name host paths.
        (error: unknown) => report("backup.failed", { reason: error instanceof KilnError ? error.code : "ErrBackupFailed" }),
      );
      return run;
    });
  }

  /**
   * The policy's keep rules (locked backups are always kept), then the maximum: the oldest unlocked
   * ones go. Each kind apart (isChangeBackup): the keep rules and the server's maximum over its
   * own backups, `changeBackupsKept` over those made before add-on changes; never the one just
   * made (`made`). Resolves with the server's snapshots left.
   */
  private async applyRetention(id: string, restic: Restic, policy: BackupPolicy, server: Server, made: string): Promise<Snapshot[]> {
    const rules = Object.entries(policy.retention).flatMap(([key, n]) => [`--keep-${key}`, String(n)]);
    let kept: Snapshot[] | null = null;
    if (rules.length > 0) {
      // The keep rules are the server's own backups' ("kiln"'s); those before changes are left as they are.
      const changes = (await this.snapshots(id, this.settings.read(id))).filter(isChangeBackup);
      const answer = await this.inQueue(policy.target, () => restic.run(["forget", "--host", "kiln", "--group-by", "", "--tag", `${SERVER_TAG}${id}`, "--keep-tag", LOCKED_TAG, ...rules, "--prune", "--json"]));
      kept = keptBy(answer, id)?.concat(changes) ?? null;
    }
    // What forget kept is what is left (every restic run costs its key derivation, half a second).
    let left = kept ?? (await this.snapshots(id, this.settings.read(id)));
    const excessOf = (kind: boolean, max: number) => {
      if (max <= 0) return [];
      const all = left.filter((s) => isChangeBackup(s) === kind);
      const unlocked = all.filter((s) => !isLocked(s) && s.short_id !== made && !s.id.startsWith(made)).sort((a, b) => a.time.localeCompare(b.time));
      return unlocked.slice(0, Math.max(0, all.length - max));
    };
    const own = excessOf(false, policy.maxBackups);
    const excess = [...own, ...excessOf(true, this.changeBackupsKept)];
    if (excess.length > 0) {
      await this.inQueue(policy.target, () => restic.run(["forget", ...excess.map((s) => s.id), "--prune"]));
      if (own.length > 0) server.console.daemon(message("daemon.backup.removed", { count: own.length, max: String(policy.maxBackups) }));
      // One line each, naming it: rotation of the backups before changes is not the server's maximum.
      for (const gone of excess.filter(isChangeBackup)) server.console.daemon(message("daemon.backup.changeBackupRotated", { id: gone.short_id, max: String(this.changeBackupsKept) }));
      left = left.filter((s) => !excess.includes(s));
    }
    this.forgetSizes(id, left);
    return left;
  }

  /**
   * The server's definition beside its backups, when it changed since it was last kept there:
   * one small snapshot (tagged kiln-definition=<id>, never listed or counted as a backup), the
   * older ones forgotten. A node rebuilt from the target finds its servers by these.
   */
  private async keepDefinition(id: string, server: Server, restic: Restic, target: string): Promise<void> {
    const text = JSON.stringify(server.definition);
    const hash = createHash("sha256").update(text).digest("hex");
    const kept = this.settings.read(id).definitionKept;
    if (kept?.target === target && kept.hash === hash) return;
    await this.inQueue(target, async () => {
      await restic.run(["backup", "--stdin", "--stdin-filename", `${id}.json`, "--host", "kiln", "--tag", `${DEFINITION_TAG}${id}`], { input: text });
      await restic.run(["forget", "--group-by", "", "--tag", `${DEFINITION_TAG}${id}`, "--keep-last", "1"]);
    });
    this.settings.change(id, (s) => void (s.definitionKept = { target, hash }));
  }

  /** Rebuilds a lost node's servers from a target (./recovery): those of `known` only, the panel's servers on this node. */
  async recover(target: string, known: ReadonlySet<string>): Promise<RecoveryOutcome> {
    return recoverServers({
      restic: await this.targets.repository(target),
      known,
      target,
      manager: this.manager,
      settings: this.settings,
      restore: async (id, snapshotId) => (await this.restore(id, snapshotId)).finished,
      log: this.log,
    });
  }

  // ---- lock and delete ------------------------------------------------------------------
  async lock(id: string, snapshotId: unknown, locked: boolean): Promise<void> {
    const { snapshot, restic, target } = await this.find(id, snapshotId);
    if (isLocked(snapshot) === locked) return;
    if (locked && isChangeBackup(snapshot)) await this.assertRoomToLockChange(id, snapshot);
    this.tagRate.take(id);
    await this.inQueue(target, async () => {
      // Read again in the queue: two locks asked together must not both pass the count.
      if (locked && isChangeBackup(snapshot)) await this.assertRoomToLockChange(id, snapshot);
      await restic.run(["tag", locked ? "--add" : "--remove", LOCKED_TAG, snapshot.id]);
    });
  }

  /**
   * A change's backup is made whatever is locked (beforeChange) and rotation forgets only unlocked
   * ones, so the locked ones among them are at most `changeBackupsKept`: else a user locking each
   * as it comes grows them without end, past the server's own maximum (ErrBackupLimit, as there).
   */
  private async assertRoomToLockChange(id: string, snapshot: Snapshot): Promise<void> {
    const locked = (await this.snapshots(id, this.settings.read(id))).filter((s) => isChangeBackup(s) && isLocked(s) && (s.original ?? s.id) !== (snapshot.original ?? snapshot.id));
    if (locked.length >= this.changeBackupsKept) throw new KilnError("ErrBackupLimit", { max: this.changeBackupsKept });
  }

  async remove(id: string, snapshotId: unknown): Promise<void> {
    const { snapshot, restic, target } = await this.find(id, snapshotId);
    if (isLocked(snapshot)) throw new KilnError("ErrBackupLocked", { id: snapshot.short_id });
    await this.inQueue(target, () => restic.run(["forget", snapshot.id, "--prune"]));
    this.forgetSizes(id, await this.snapshots(id, this.settings.read(id)));
  }

  /**
   * An administrator's: a backup made before the node tagged whose files it holds (kiln-owner)
   * is tagged with the server's uid now, and from then on judged by it like any other. Until
   * then nothing of it is handed back (ownerUidOf): it was made before restic read in a view of
   * its own, so it may hold what a swapped link led to, and the uid its files had then may belong
   * to another server now (a deleted server's uid goes to the next new one; a rebuilt node hands
   * uids out anew). The administrator says the server's files are the ones its uid now owns.
   */
  async adopt(id: string, snapshotId: unknown): Promise<BackupEntry> {
    const server = this.manager.get(id);
    const { snapshot, restic, target } = await this.find(id, snapshotId);
    if (ownerOf(snapshot) === null) await this.inQueue(target, () => restic.run(["tag", "--add", `${OWNER_TAG}${ownerUid(server)}`, snapshot.id]));
    const adopted = (await this.snapshots(id, this.settings.read(id))).find((s) => s.id === snapshot.id || s.original === (snapshot.original ?? snapshot.id));
    if (!adopted) throw new KilnError("ErrNotFound", { backup: snapshot.short_id });
    return entry(adopted, this.settings.read(id));
  }

  // ---- restore --------------------------------------------------------------------------
  /**
   * The whole folder: the server is stopped (and no start comes between), the snapshot restored
   * into a staging folder and swapped in only when complete, then the server started again if it
   * was running. One path: restored beside, then put in place of what is there; the server runs on.
   */
  async restore(id: string, snapshotId: unknown, path?: unknown, signal?: AbortSignal): Promise<{ finished: Promise<void> }> {
    const server = this.manager.get(id);
    const one = path === undefined || path === null || path === "" ? "" : typeof path === "string" ? normalizePath(path) : null;
    if (one === null) throw new KilnError("ErrFieldRequired", { field: "path" });
    // No name holds NUL; a name with a line break or bytes that are not UTF-8 is restored too, by its exact bytes (./one-path).
    if (one.includes("\0")) throw new KilnError("ErrFieldHasControlCharacters", { field: "path" });
    const listed = listedPath(one);
    // What the snapshot may hand back is judged first (./handed-back), so a refusal is the answer.
    const check = async () => {
      const found = await this.find(id, snapshotId);
      const verdict = await this.judge(server, found.restic, found.snapshot, one ? listed : undefined);
      if (one) checkOnePath(server.jail, server.denylist, one, verdict, listed);
      await this.checkRestoreFits(server, found.restic, found.snapshot.id, listed);
      return { ...found, verdict, sparse: await this.restoresSparse(found.restic) };
    };
    return this.start(id, "restore", check, false, async ({ snapshot, restic, verdict, sparse }, progress) => {
      const staging = stagingFolder(server.jail.root, id);
      // --sparse: a file's zeros are written back as holes, as a sparse file was before.
      const restoreInto = (args: string[]) => restic.run(["restore", snapshot.id, "--target", staging, "--no-lock", ...(sparse ? ["--sparse"] : []), ...args], { signal });
      try {
        if (one) {
          server.console.daemon(message("daemon.backup.restoringPath", { path: shownName(one), id: snapshot.short_id }));
          await restoreInto(["--include", includePattern(one)]);
          const entry = stagedEntry(staging, one);
          leaveOutStaged(staging, verdict.foreign, listed);
          handOverStaged(entry, server.user);
          // Judged again where the entry really lands, on the folder held open for the move.
          await placeInto(server.jail, entry, one, (landing) => server.denylist.checkAt(landing, verdict.beneath, one));
        } else {
          await server.whileStopped(async () => {
            server.console.daemon(message("daemon.backup.restoringAll", { id: snapshot.short_id }));
            const expected = this.settings.read(id).sizes[(snapshot.original ?? snapshot.id).slice(0, 8)]?.total;
            const stop = expected ? followRestore(staging, expected, progress, (line) => server.console.daemon(line)) : () => undefined;
            try {
              await restoreInto([]);
            } finally {
              stop();
            }
            leaveOutStaged(staging, verdict.foreign);
            handOverStaged(staging, server.user);
            await swapIn(staging, server.jail.root);
          });
        }
        server.console.daemon(message("daemon.backup.restoreFinished"));
      } catch (error) {
        server.console.daemon(message("daemon.backup.restoreFailed", { reason: reasonMessage(error) }));
        throw error;
      } finally {
        await rm(staging, { recursive: true, force: true });
      }
    });
  }

  /**
   * Refuses, before anything is restored, a restore whose files would take the server's folder
   * past its disk space (ErrDiskQuotaExceeded, as a write past it is), by the sizes the snapshot
   * holds: a sparse file (holes take no block, so the folder's measurement never saw them) counts
   * its whole size, which restic may write back in full. A whole restore takes the folder's place,
   * so it must fit the limit itself; one path comes on top of what the folder holds now.
   */
  private async checkRestoreFits(server: Server, restic: Restic, snapshotId: string, one: string): Promise<void> {
    if (diskLimit(server.jail) === null) return;
    const under = one ? `/${one}` : "";
    let bytes = 0;
    await restic.run(["ls", "--no-lock", "--json", snapshotId], {
      onJson: (node) => {
        if (node.type !== "file" || typeof node.path !== "string") return;
        if (under && node.path !== under && !node.path.startsWith(`${under}/`)) return;
        bytes += Math.max(0, Number(node.size) || 0);
      },
    });
    if (one) assertFits(server.jail, bytes);
    else assertFitsWhole(server.jail, bytes);
  }

  /** Per restic: whether its restore has --sparse (0.15 and later; Debian 12's 0.14 has not). */
  private readonly sparseRestores = new WeakMap<Restic, Promise<boolean>>();

  private restoresSparse(restic: Restic): Promise<boolean> {
    let known = this.sparseRestores.get(restic);
    if (!known) {
      known = (async () => {
        const proc = restic.spawn(["restore", "--help"]);
        const [help] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
        return /--sparse\b/.test(help);
      })().catch(() => false);
      this.sparseRestores.set(restic, known);
    }
    return known;
  }

  // ---- browse ---------------------------------------------------------------------------
  /**
   * One folder of a backup, as the restore dialog browses it to pick what to restore: its direct
   * entries (`restic ls` of that folder), folders first, at most BACKUP_FOLDER_MAX of them.
   */
  async folder(id: string, snapshotId: unknown, path: unknown, owners = false): Promise<BackupFolder> {
    const folder = path === undefined || path === null ? "" : typeof path === "string" ? normalizePath(path) : null;
    if (folder === null) throw new KilnError("ErrFieldRequired", { field: "path" });
    // A folder's name may hold any byte but NUL (a server's process names them): restic takes a line break in its argument.
    if (folder.includes("\0")) throw new KilnError("ErrFieldHasControlCharacters", { field: "path" });
    const { snapshot, restic } = await this.find(id, snapshotId);
    const uid = ownerUidOf(snapshot);
    return this.readers.within(id, () => listSnapshotFolder(restic, snapshot.id, folder, uid), owners);
  }

  // ---- download -------------------------------------------------------------------------
  /** `owners`: the call is the server's owner's or an administrator's, who may take its kept reader (./reader-slots). */
  async download(id: string, snapshotId: unknown, format: DownloadFormat, owners = false): Promise<Response> {
    const server = this.manager.get(id);
    const { snapshot, restic } = await this.find(id, snapshotId);
    // One slot from the judging `restic find` to the end of `restic dump`, whoever reads it and however slowly.
    const give = this.readers.take(id, owners);
    try {
      const verdict = await this.judge(server, restic, snapshot);
      return await dumpResponse(restic, snapshot.id, format, `${id}-${snapshot.short_id}`, verdict, this.downloadStallMs, give);
    } catch (error) {
      give();
      throw error;
    }
  }

  /** A deleted server's settings go; its snapshots stay in the repository until retention or an administrator removes them. */
  forgetServer(id: string): void {
    this.settings.remove(id);
  }

  // ---- helpers --------------------------------------------------------------------------
  /**
   * What of a snapshot may be handed back (./handed-back), by the uid it was made with (a snapshot
   * from before Kiln tagged it: nothing until adopted, ownerUidOf); what is left out as not the
   * server's own is said in the node's log.
   */
  private async judge(server: Server, restic: Restic, snapshot: Snapshot, under?: string): Promise<SnapshotVerdict> {
    const verdict = await judgeSnapshot(restic, snapshot.id, { denylist: server.denylist, uid: ownerUidOf(snapshot), under });
    if (verdict.foreign.size > 0) {
      const more = verdict.foreign.size > verdict.foreignSeen.length ? ` and ${verdict.foreign.size - verdict.foreignSeen.length} more` : "";
      this.log(`kiln daemon: backup ${snapshot.short_id} of server ${server.id}: left out what is not the server's own: ${verdict.foreignSeen.join(", ")}${more}`);
    }
    return verdict;
  }

  private async snapshots(id: string, settings: ServerBackupSettings): Promise<Snapshot[]> {
    const target = settings.policy.target;
    const restic = await this.targets.repository(target);
    let cached = this.listed.get(target);
    if (cached?.restic !== restic) this.listed.set(target, (cached = { restic, lists: new Map() }));
    const lists = cached.lists;
    let list = lists.get(id);
    if (!list) {
      list = restic.json<Snapshot[] | null>(["snapshots", "--no-lock", "--tag", `${SERVER_TAG}${id}`]).then((all) =>
        // restic filtered by tag already; checked again here, since everything else rests on it.
        (all ?? []).filter((s) => s.tags?.includes(`${SERVER_TAG}${id}`)),
      );
      lists.set(id, list);
      list.catch(() => lists.delete(id));
    }
    return [...(await list)];
  }

  /** The server's snapshot named `snapshotId`, never another server's (ErrNotFound either way). */
  private async find(id: string, snapshotId: unknown) {
    this.manager.get(id);
    if (typeof snapshotId !== "string" || !SNAPSHOT_ID.test(snapshotId)) throw new KilnError("ErrNotFound", { backup: String(snapshotId).slice(0, 64) });
    const settings = this.settings.read(id);
    // Locking gives a snapshot a new id (restic rewrites it); the id it was made with still names it.
    const snapshot = (await this.snapshots(id, settings)).find((s) => s.id === snapshotId || s.short_id === snapshotId || s.original === snapshotId || s.original?.slice(0, 8) === snapshotId);
    if (!snapshot) throw new KilnError("ErrNotFound", { backup: snapshotId });
    return { snapshot, restic: await this.targets.repository(settings.policy.target), target: settings.policy.target };
  }

  /**
   * One backup or restore per server at a time (ErrServerBusy), with its progress for the list.
   * `check` runs first, so a refusal is the caller's answer; then `work` is under way.
   */
  private async start<C, T>(id: string, action: BackupActivity["action"], check: () => Promise<C>, beforeChange: boolean, work: (checked: C, progress: (done: number) => void) => Promise<T>): Promise<{ finished: Promise<T> }> {
    if (this.activity.has(id)) throw new KilnError("ErrServerBusy", { state: this.activity.get(id)!.action });
    // A restore changes the server's folder: counted among its changes, refused while a move holds them.
    const endChange = action === "restore" ? this.manager.get(id).changes.begin() : () => undefined;
    const activity: BackupActivity = { action, done: null };
    this.activity.set(id, activity);
    let ended: () => void = () => undefined;
    if (beforeChange) this.changeRuns.set(id, new Promise<void>((resolve) => (ended = resolve)));
    const end = () => {
      this.activity.delete(id);
      if (beforeChange) this.changeRuns.delete(id);
      ended();
      endChange();
    };
    let checked: C;
    try {
      checked = await check();
    } catch (error) {
      end();
      throw error;
    }
    const finished = work(checked, (done) => void (activity.done = Math.max(0, Math.min(1, done)))).finally(end);
    return { finished };
  }

  private inQueue<T>(target: string, work: () => Promise<T>): Promise<T> {
    // Whatever the work changed, the lists kept of the target are stale once it is over.
    const run = (this.queues.get(target) ?? Promise.resolve()).then(work).finally(() => this.listed.delete(target));
    this.queues.set(target, run.catch(() => undefined));
    return run;
  }

  private async sendAll(server: Server, commands: string[]): Promise<void> {
    for (const command of commands) await server.sendCommand(command).catch(() => undefined);
  }

  /** Sizes of backups that are gone are dropped, so the file does not grow forever. */
  private forgetSizes(id: string, left: Snapshot[]): void {
    const keep = new Set(left.map((s) => (s.original ?? s.id).slice(0, 8)));
    this.settings.change(id, (s) => {
      for (const key of Object.keys(s.sizes)) if (!keep.has(key)) delete s.sizes[key];
      for (const key of Object.keys(s.notes)) if (!keep.has(key)) delete s.notes[key];
    });
  }
}

/**
 * The uid a snapshot's files are judged by: the one it was tagged with when made. A snapshot made
 * before the tag is ErrBackupUnowned until an administrator adopts it (BackupService.adopt):
 * judged by the server's uid now, it handed back whatever that uid owned in it, which may have
 * been another server's files then.
 */
function ownerUidOf(snapshot: Snapshot): number {
  const uid = ownerOf(snapshot);
  if (uid === null) throw new KilnError("ErrBackupUnowned", { id: snapshot.short_id });
  return uid;
}

/** Whose files the server's are: its own user's, or the node's when servers do not get one. */
function ownerUid(server: Server): number {
  return server.user?.uid ?? process.getuid?.() ?? 0;
}

function mib(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}
