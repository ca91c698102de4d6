// A modpack change: the pack's server files and overrides laid over the server's folder (each
// replaced file kept in the change's journal for the undo, the template's fileDenylist kept to),
// after a backup; an update also removes the files of the installed pack this version drops. A
// new server's pack (afterInstall) is placed only when its install succeeded and made a server
// that runs the pack.
import { readdirSync, unlinkSync } from "node:fs";
import { posix } from "node:path";
import { KilnError } from "../../core/errors";
import { message } from "../../core/live/daemon-message";
import type { ChangeStatus } from "../../core/mods/change";
import { packMisfits, packPlatform, type InstalledPack, type PackChange, type PackIndex } from "../../core/mods/pack";
import type { PlatformInfo } from "../../core/mods/types";
import { reasonMessage } from "../http/errors";
import type { Jail } from "../files/jail";
import { makeFolder, renamePath, statPath } from "../files/operations";
import type { ChangeContext } from "./changes";
import { failedStatus } from "./change-status";
import { dropped, existsIn, removeStage, stageFolderName, stagePack, type StagedFile } from "./pack-stage";
import { serverPlatform } from "./stated-platform";

export async function runPack(ctx: ChangeContext, serverId: string, jail: Jail, change: PackChange, status: ChangeStatus, by: string): Promise<void> {
  const server = ctx.deps.manager.get(serverId);
  const update = (changes: Partial<ChangeStatus>) => Object.assign(status, changes);
  const stage = stageFolderName();
  try {
    if (change.afterInstall && !server.lastInstallSucceeded()) throw new KilnError("ErrModPackInstallFailed");
    update({ step: "backup" });
    if (jail.inFolder("", (path) => readdirSync(path).length > 0)) status.backup = await ctx.deps.backup(serverId, by, change.note ? `before: ${change.note}` : "before a modpack");
    update({ step: "download" });
    const pack = await stagePack(jail, serverId, stage, change, ctx.deps, (downloaded, total) => update({ downloaded, total }));
    // A new server's pack was chosen before its install said what the server runs: checked now.
    if (change.afterInstall) assertPackRuns(await serverPlatform(server), pack.index);
    update({ step: "place" });
    // Every place is checked before the first file moves: a denied or occupied one changes nothing.
    for (const file of pack.files) {
      server.denylist.check(jail, file.target);
      if (existsIn(jail, file.target) && statPath(jail, file.target, false).isDirectory()) throw new KilnError("ErrFileExists", { path: file.target }, `${file.target} is a folder`);
    }
    // An update: the files of the installed pack this version drops go (those the user changed stay).
    const removals = (await dropped(jail, serverId, new Set(pack.files.map((f) => f.target)), ctx.deps)).map((r) => r.path);
    for (const path of removals) server.denylist.check(jail, path);
    const previousPack = ctx.deps.packs.get(serverId);
    placePack(ctx, serverId, jail, change.note, pack.files, removals, previousPack, status);
    ctx.deps.packs.set(serverId, { name: pack.index.name, versionId: pack.index.versionId, ...(change.origin ? { origin: change.origin } : {}), files: pack.files.map((f) => ({ path: f.target, sha512: f.sha512 })), at: Date.now() });
    if ("upload" in change) ctx.deps.uploads.remove(serverId, change.upload);
    update({ state: "done", step: undefined, at: Date.now() });
    const { loader, gameVersion } = packPlatform(pack.index);
    server.console.daemon(message("daemon.addons.packPlaced", { name: pack.index.name, version: pack.index.versionId, files: status.added.length, loader, gameVersion: gameVersion ?? "?" }));
  } catch (error) {
    update(failedStatus(error));
    server.console.daemon(message("daemon.addons.failed", { reason: reasonMessage(error) }));
  } finally {
    try {
      removeStage(jail, stage);
    } catch (error) {
      ctx.deps.log(`kiln daemon: removing a modpack's staging folder of ${serverId} failed: ${(error as Error).message}`);
    }
  }
}

/** Each staged file into its place, what was there into a new journal; a failure midway puts everything back. */
function placePack(ctx: ChangeContext, serverId: string, jail: Jail, note: string, files: StagedFile[], removals: string[], previousPack: InstalledPack | null, status: ChangeStatus): void {
  ctx.journals.write(serverId, jail, { changeId: status.changeId, note, folder: "", added: [], saved: [], renamed: [], previousPack }, ({ journal, done, save }) => {
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
  });
}

/** ErrModPackDoesNotRun when the server does not run the pack's loader and Minecraft version. */
function assertPackRuns(platform: PlatformInfo, index: PackIndex): void {
  const needs = packPlatform(index);
  if (packMisfits(platform, index.name, needs).length === 0) return;
  throw new KilnError("ErrModPackDoesNotRun", { loader: needs.loader, gameVersion: needs.gameVersion ?? "?", platform: platform.platform ?? "?", serverVersion: platform.gameVersion ?? "?" });
}
