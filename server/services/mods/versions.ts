// Switching a server's Minecraft version from the Mods tab (manageMods). What a server runs is
// installed by its template, from the variable its addons statement names (`gameVersion:
// "${version}"`): switching sets that variable and runs the install again, keeping the user's
// files, as a change with a backup first and an undo that restores it. The plan says what the
// add-ons do: each one Modrinth has a version of for the target is replaced by it; the others are
// listed as missing (they stay, and may not load).
import { randomUUID } from "node:crypto";
import { KilnError } from "../../../core/errors";
import type { ChangeStatus, SwitchRequest } from "../../../core/mods/change";
import { addonFolder, type PlanFile, type PlatformInfo, type VersionPlan, type VersionsAnswer } from "../../../core/mods/types";
import { safeGameVersion } from "../../../core/mods/versions";
import { ownVariable, type ServerDefinition } from "../../../core/definition";
import { versionVariable } from "../../../core/definition/addons";
import type { Db } from "../../../db/client";
import { authorize } from "../servers";
import { ServerNodeCalls } from "../servers/server-node-calls";
import type { SessionUser } from "../sessions";
import { backupBy } from "../backups";
import { ServerMods } from "./index";
import { ModrinthClient } from "./modrinth";
import { fileOf, loadersFor } from "./plan";
import { PlanStore } from "./plan-store";
import { sourceClient, sourceUrl } from "./sources";

const plans = new PlanStore<VersionPlan>();

export class ServerVersions extends ServerNodeCalls {
  private readonly mods: ServerMods;

  constructor(
    db: Db,
    id: string,
    private readonly user: SessionUser,
  ) {
    super(db, id);
    this.mods = new ServerMods(db, id, user);
  }

  /** What the server runs and the Minecraft versions it can switch to (none when its template does not name the variable). */
  async list(): Promise<VersionsAnswer> {
    const platform = await this.mods.platform();
    const variable = await this.variable();
    return {
      platform: platform.platform,
      gameVersion: platform.gameVersion,
      ...(platform.loaderVersion ? { loaderVersion: platform.loaderVersion } : {}),
      variable: variable?.name ?? null,
      versions: variable ? await this.offered(variable.options) : [],
    };
  }

  /** What switching to `gameVersion` does to the add-ons; kept for its maker. */
  async plan(body: { gameVersion?: unknown }): Promise<VersionPlan> {
    const to = safeGameVersion(body.gameVersion);
    if (!to) throw new KilnError("ErrFieldRequired", { field: "gameVersion" });
    const variable = await this.variable();
    if (!variable) throw new KilnError("ErrModSwitchUnavailable");
    const platform = await this.mods.platform();
    if (!platform.platform) throw new KilnError("ErrModPlatformUnknown");
    if (to === platform.gameVersion || !(await this.offered(variable.options)).includes(to)) throw new KilnError("ErrFieldNotBetween", { field: "gameVersion" });
    const folder = addonFolder(platform.platform);
    const { update, missing } = folder ? await this.addonsFor(platform, to) : { update: [], missing: [] };
    return plans.keep(this.id, this.user.id, { planId: randomUUID(), platform: platform.platform, from: platform.gameVersion, to, variable: variable.name, folder, update, missing });
  }

  /** Sends the plan to the node, which does it all as one change; the plan is used up. */
  async apply(planId: string): Promise<ChangeStatus> {
    const plan = plans.take(this.id, this.user.id, planId);
    const request: SwitchRequest = {
      variable: plan.variable,
      value: plan.to,
      folder: plan.folder,
      add: plan.update.map((f) => ({ url: f.url, fileName: f.fileName, size: f.size, ...(f.sha512 ? { sha512: f.sha512 } : {}), ...(f.sha1 ? { sha1: f.sha1 } : {}) })),
      // An update keeping its file name replaces it in place; the others' old files go.
      remove: plan.update.filter((f) => f.replaces && f.replaces !== f.fileName).map((f) => f.replaces!),
      note: `Minecraft ${plan.from ?? "?"} → ${plan.to}`,
    };
    return (await (await this.send("modsSwitch", {}, request, { "x-kiln-by": backupBy(this.user) })).json()) as ChangeStatus;
  }

  /** Each installed add-on's version for `to`, or why there is none. */
  private async addonsFor(platform: PlatformInfo, to: string): Promise<Pick<VersionPlan, "update" | "missing">> {
    const { identified } = await this.mods.identify(platform, true);
    const loaders = loadersFor(platform);
    const fromModrinth = identified.filter((i) => i.version && i.source === "modrinth").map((i) => i.file.sha512);
    const targets = new Map(Object.entries(await (await this.modrinth()).updatesOfFiles(fromModrinth, loaders, to)));
    // CurseForge answers project by project.
    const fromCurseForge = identified.filter((i) => i.version && i.source === "curseforge");
    if (fromCurseForge.length > 0) {
      const client = await sourceClient(this.db, "curseforge");
      for (const item of fromCurseForge) {
        const newest = (await client.versions(item.version!.project_id, loaders, to))[0];
        if (newest) targets.set(item.file.sha512, newest);
      }
    }
    const update: PlanFile[] = [];
    const missing: VersionPlan["missing"] = [];
    for (const { file, version, title, source } of identified) {
      const target = targets.get(file.sha512);
      if (!version) missing.push({ fileName: file.fileName, known: false });
      else if (!target || !target.game_versions.includes(to)) missing.push({ fileName: file.fileName, ...(title ? { title } : {}), known: true });
      else if (target.id !== version.id) update.push({ ...fileOf(target, title ?? file.fileName, source), replaces: file.fileName });
    }
    return { update, missing };
  }

  /** The variable's options, else Modrinth's releases (ErrModSourceUnavailable when it does not answer). */
  private async offered(options: string[]): Promise<string[]> {
    if (options.length > 0) return options;
    const tags = await (await this.modrinth()).gameVersions();
    return tags.filter((t) => t.version_type === "release" && safeGameVersion(t.version)).map((t) => t.version);
  }

  /** The variable the template's statement names for the Minecraft version, with its options; null when it names none. */
  private async variable(): Promise<{ name: string; options: string[] } | null> {
    const definition = (await (await this.call("definition")).json()) as ServerDefinition;
    const name = versionVariable(definition.addons);
    const variable = name ? ownVariable(definition.data, name) : undefined;
    if (!name || !variable) return null;
    const options = (variable.options ?? []).map((o) => String(o.value)).filter((v) => safeGameVersion(v) !== null);
    return { name, options };
  }

  private async modrinth(): Promise<ModrinthClient> {
    return new ModrinthClient(await sourceUrl(this.db, "modrinth"));
  }
}

/** The server's version switch for `user`, once they hold manageMods on it. */
export async function versionsFor(db: Db, user: SessionUser, id: string): Promise<ServerVersions> {
  await authorize(db, user, id, "manageMods");
  return new ServerVersions(db, id, user);
}
