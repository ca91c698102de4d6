// Switching a server's Minecraft version, or its loader's own version (a Paper build, a Fabric
// loader) for the same Minecraft, or its platform (another template: ./platform-switch), from the
// Mods tab (manageMods). What a server runs is installed
// by its template, from the variables its addons statement names (`gameVersion: "${version}"`,
// `loaderVersion: "${build}"`): switching sets that variable and runs the install again, keeping
// the user's files, as a change with a backup first and an undo that restores it. The plan of a
// Minecraft switch says what the add-ons do: each one Modrinth has a version of for the target is
// replaced by it; the others are listed as missing (they stay, and may not load). A loader switch
// leaves the add-ons as they are: they are made for the Minecraft version, which stays.
import { randomUUID } from "node:crypto";
import { KilnError } from "../../../core/errors";
import type { ChangeStatus, SwitchRequest } from "../../../core/mods/change";
import { addonFolder, LOADERS_OF, SWITCH_FIELD, type LoaderVersions, type PackFiles, type PlanFile, type PlatformInfo, type VersionPlan, type VersionsAnswer } from "../../../core/mods/types";
import { safeGameVersion, safeVersion } from "../../../core/mods/versions";
import { ownVariable, variableValues, type ServerDefinition } from "../../../core/definition";
import { curseforgePackVariables, takesPackOnto } from "../../../core/definition/curseforge-pack";
import { loaderVariable, versionVariable } from "../../../core/definition/addons";
import type { Db } from "../../../db/client";
import { authorize, isAdminUser } from "../servers";
import { ServerNodeCalls } from "../servers/server-node-calls";
import { heldDefinition, recordBounds } from "../servers/bounds";
import type { SessionUser } from "../sessions";
import { backupBy } from "../backups";
import { ServerMods } from "./index";
import { ModrinthClient } from "./modrinth";
import { listedLoaderVersions, loaderKeywords, loaderSource } from "./loader-versions";
import { changeAdd, fileOf, loadersFor, PER_PROJECT_SOURCES } from "./plan";
import { PlanStore } from "./plan-store";
import { sourceClient, sourceUrl } from "./sources";
import { builtFrom, platformChoices, rebuiltDefinition } from "./platform-switch";
import { newServerCurseForgePack } from "./new-server-curseforge";
import { checkedId } from "./search-terms";
import { allTemplates, getTemplate } from "../templates";
import type { CurseForgeClient } from "./curseforge";

const plans = new PlanStore<VersionPlan>("version-plan");

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

  /** What the server runs, the Minecraft versions it can switch to and its loader's (none when its template does not name the variable). */
  async list(): Promise<VersionsAnswer> {
    const platform = await this.mods.platform();
    const definition = await this.definition();
    const variable = this.gameVariable(definition);
    return {
      platform: platform.platform,
      gameVersion: platform.gameVersion,
      ...(platform.loaderVersion ? { loaderVersion: platform.loaderVersion } : {}),
      variable: variable?.name ?? null,
      versions: variable ? await this.offered(variable.options) : [],
      loader: await this.loaderVersions(definition, platform).catch((error: unknown) => {
        // The platform's list not answering hides only its versions, never the Minecraft switch.
        const variable = loaderVariableOf(definition);
        if (variable && error instanceof KilnError && error.code === "ErrModSourceUnavailable") return { variable: variable.name, value: variable.value, versions: [], unavailable: true as const };
        throw error;
      }),
      pack: await this.packFiles(definition),
      platforms: (await platformChoices(this.db, definition)).map((found) => found.choice),
    };
  }

  /** What switching to `gameVersion` (the loader to `loaderVersion`, a CurseForge pack to its file `packFileId`) does to the add-ons; kept for its maker. */
  async plan(body: { gameVersion?: unknown; loaderVersion?: unknown; packFileId?: unknown; template?: unknown }): Promise<VersionPlan> {
    // One switch a plan: two named would leave one of them unasked for.
    const fields = Object.values(SWITCH_FIELD);
    const named = fields.filter((key) => body[key] !== undefined);
    if (named.length > 1) throw new KilnError("ErrUnknownField", { field: named[1]!, accepted: `one of ${fields.join(", ")}` });
    if (body.loaderVersion !== undefined) return await this.planLoader(body.loaderVersion);
    if (body.packFileId !== undefined) return await this.planPack(body.packFileId);
    if (body.template !== undefined) return await this.planPlatform(body.template);
    const to = safeGameVersion(body.gameVersion);
    if (!to) throw new KilnError("ErrFieldRequired", { field: "gameVersion" });
    const variable = this.gameVariable(await this.definition());
    if (!variable) throw new KilnError("ErrModSwitchUnavailable");
    const platform = await this.mods.platform();
    if (!platform.platform) throw new KilnError("ErrModPlatformUnknown");
    if (to === platform.gameVersion || !(await this.offered(variable.options)).includes(to)) throw new KilnError("ErrFieldNotBetween", { field: "gameVersion" });
    const folder = addonFolder(platform.platform);
    const { update, missing } = folder ? await this.addonsFor(platform, to) : { update: [], missing: [] };
    return plans.keep(this.db, this.id, this.user.id, { planId: randomUUID(), what: "game", platform: platform.platform, gameVersion: platform.gameVersion, from: platform.gameVersion, to, variable: variable.name, folder, update, missing });
  }

  /** A loader switch: one of the versions offered, not the variable's value now; the add-ons stay. */
  private async planLoader(value: unknown): Promise<VersionPlan> {
    const to = safeVersion(value);
    if (!to) throw new KilnError("ErrFieldRequired", { field: "loaderVersion" });
    const platform = await this.mods.platform();
    if (!platform.platform) throw new KilnError("ErrModPlatformUnknown");
    const loader = await this.loaderVersions(await this.definition(), platform);
    if (!loader) throw new KilnError("ErrModLoaderSwitchUnavailable");
    if (to === loader.value || !loader.versions.includes(to)) throw new KilnError("ErrFieldNotBetween", { field: "loaderVersion" });
    const from = platform.loaderVersion ?? loader.value;
    return plans.keep(this.db, this.id, this.user.id, { planId: randomUUID(), what: "loader", platform: platform.platform, gameVersion: platform.gameVersion, from, to, variable: loader.variable, folder: null, update: [], missing: [] });
  }

  /** A CurseForge pack's file switch: one of its files with a server pack, not the one it has; the add-ons are the pack's. */
  private async planPack(value: unknown): Promise<VersionPlan> {
    const to = typeof value === "string" && /^[1-9][0-9]{0,9}$/.test(value) ? value : null;
    if (!to) throw new KilnError("ErrFieldRequired", { field: "packFileId" });
    const pack = await this.packFiles(await this.definition());
    if (!pack) throw new KilnError("ErrModPackSwitchUnavailable");
    if (pack.unavailable) throw new KilnError("ErrModSourceUnavailable", { source: "CurseForge", reason: "its files did not come" });
    const target = pack.files.find((f) => f.id === to);
    if (!target || to === pack.value) throw new KilnError("ErrFieldNotBetween", { field: "packFileId" });
    const platform = await this.mods.platform();
    const fromName = pack.files.find((f) => f.id === pack.value)?.name ?? (pack.value || null);
    return plans.keep(this.db, this.id, this.user.id, { planId: randomUUID(), what: "pack", platform: platform.platform, gameVersion: platform.gameVersion, from: pack.value || null, to, variable: pack.variable, folder: null, update: [], missing: [], pack: { title: pack.title, fromName, toName: target.name } });
  }

  /**
   * A platform switch: one of the templates offered, built for the server; the add-ons stay, and
   * those whose source says they are not made for the new platform's loaders are named missing.
   */
  private async planPlatform(value: unknown): Promise<VersionPlan> {
    if (typeof value !== "string" || value === "") throw new KilnError("ErrFieldRequired", { field: "template" });
    const { choice, definition } = await this.platformTarget(value);
    const platform = await this.mods.platform();
    const folder = addonFolder(choice.platform);
    const missing: VersionPlan["missing"] = [];
    if (folder && addonFolder(platform.platform) === folder) {
      const loaders = LOADERS_OF[choice.platform];
      for (const { file, version, title } of (await this.mods.identify(platform, true)).identified) {
        if (!version) missing.push({ fileName: file.fileName, known: false });
        else if (!version.loaders.some((l) => loaders.includes(l))) missing.push({ fileName: file.fileName, ...(title ? { title } : {}), known: true });
      }
    }
    const variable = versionVariable(definition.addons)!;
    return plans.keep(this.db, this.id, this.user.id, { planId: randomUUID(), what: "platform", platform: platform.platform, gameVersion: platform.gameVersion, from: platform.platform, to: choice.platform, variable, folder: null, update: [], missing, target: { template: choice.template, display: choice.display } });
  }

  /**
   * A CurseForge pack laid onto this server, which another template installs (a mod loader's, or
   * vanilla): the server becomes one of the template that installs CurseForge packs, with the
   * pack's project and file (the newest release when none is named) and the Java its Minecraft
   * runs on, its own values kept; the install lays the server pack over its folder.
   */
  async planPackOnto(body: { projectId?: unknown; versionId?: unknown }): Promise<VersionPlan> {
    const platform = await this.mods.platform();
    if (platform.platform && addonFolder(platform.platform) === "plugins") throw new KilnError("ErrModPlatformUnknown");
    // Its template says it is a Minecraft server that takes mods: its files alone, which its users write, never do.
    if (!takesPackOnto(await this.definition())) throw new KilnError("ErrModPlatformSwitchUnavailable");
    const { pack, template, definition } = await this.packOnto(checkedId(body.projectId), body.versionId === undefined ? undefined : checkedId(body.versionId, "versionId"));
    const names = curseforgePackVariables(definition.install)!;
    return plans.keep(this.db, this.id, this.user.id, { planId: randomUUID(), what: "pack", platform: platform.platform, gameVersion: platform.gameVersion, from: null, to: String(pack.variables[names.fileId]), variable: names.fileId, folder: null, update: [], missing: [], pack: { title: pack.title, fromName: null, toName: pack.versionNumber, projectId: String(pack.variables[names.projectId]) }, target: { template: template.id, display: template.display } });
  }

  /** The pack's template (the one that installs CurseForge packs) built for this server with the pack's variables. */
  private async packOnto(projectId: string, fileId: string | undefined, templateId?: string) {
    const pack = await newServerCurseForgePack(this.db, { source: "curseforge", projectId, ...(fileId ? { versionId: fileId } : {}) }, templateId);
    const template = await getTemplate(this.db, pack.template);
    const current = await this.definition();
    return { pack, template, definition: rebuiltDefinition(current, template, pack.variables, [], builtFrom(await allTemplates(this.db), current)) };
  }

  /** The offered platform `template` installs, and the server's definition from it; ErrFieldNotBetween for one not offered. */
  private async platformTarget(template: string) {
    const found = (await platformChoices(this.db, await this.definition())).find((f) => f.choice.template === template);
    if (!found) throw new KilnError("ErrFieldNotBetween", { field: "template" });
    return found;
  }

  /** Sends the plan to the node, which does it all as one change; the plan is used up. */
  async apply(planId: string): Promise<ChangeStatus> {
    const plan = await plans.take(this.db, this.id, this.user.id, planId);
    // A platform switch's (or a pack laid onto the server's) definition is built again now: from the template as it is, for the server as it is.
    const definition = !plan.target ? undefined : plan.what === "platform" ? (await this.platformTarget(plan.target.template)).definition : (await this.packOnto(plan.pack!.projectId!, plan.to, plan.target.template)).definition;
    await this.assertKeepsPinned(definition, plan);
    const request: SwitchRequest = {
      ...(definition ? { definition } : {}),
      what: plan.what,
      variable: plan.variable,
      value: plan.to,
      folder: plan.folder,
      add: plan.update.map(changeAdd),
      // An update keeping its file name replaces it in place; the others' old files go.
      remove: plan.update.filter((f) => f.replaces && f.replaces !== f.fileName).map((f) => f.replaces!),
      note: noteOf(plan),
    };
    const status = (await (await this.send("modsSwitch", {}, request, { "x-kiln-by": backupBy(this.user) })).json()) as ChangeStatus;
    // The node took the switch's definition: its bounds (the new template's denylist) are the panel's copy now.
    if (definition) await recordBounds(this.db, this.id, definition);
    return status;
  }

  /**
   * A user who is not an administrator changes, by no switch, the Minecraft or loader version or the
   * CurseForge pack a server keeps from its users (its variable userEdit false: an administrator
   * pinning what it runs): what they may not set by hand they may not set through the Mods tab.
   * ErrNoPermission naming the variable; `next` is the definition a pack laid onto the server makes.
   * A platform switch carries only what users may edit (./platform-switch) and is not this rule's.
   */
  private async assertKeepsPinned(next: ServerDefinition | undefined, plan: VersionPlan): Promise<void> {
    if (plan.what === "platform" || (await isAdminUser(this.db, this.user))) return;
    const current = await this.definition();
    const pack = curseforgePackVariables(current.install);
    for (const name of new Set([plan.variable, ...(pack ? [pack.projectId, pack.fileId] : [])])) {
      const variable = ownVariable(current.data, name);
      if (variable?.userEdit !== false) continue;
      const after = next ? ownVariable(next.data, name)?.value : name === plan.variable ? plan.to : variable.value;
      if (String(after) !== String(variable.value)) throw new KilnError("ErrNoPermission", { field: `variables.${name}` }, `${name} is kept by the server's template`);
    }
  }

  /** Each installed add-on's version for `to`, or why there is none. */
  private async addonsFor(platform: PlatformInfo, to: string): Promise<Pick<VersionPlan, "update" | "missing">> {
    const { identified } = await this.mods.identify(platform, true);
    const loaders = loadersFor(platform);
    const fromModrinth = identified.filter((i) => i.version && i.source === "modrinth").map((i) => i.file.sha512);
    const targets = new Map(Object.entries(await (await this.modrinth()).updatesOfFiles(fromModrinth, loaders, to)));
    // The others answer project by project.
    for (const source of PER_PROJECT_SOURCES) {
      const fromSource = identified.filter((i) => i.version && i.source === source);
      if (fromSource.length === 0) continue;
      const client = await sourceClient(this.db, source);
      for (const item of fromSource) {
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
  private gameVariable(definition: ServerDefinition): { name: string; options: string[] } | null {
    const name = versionVariable(definition.addons);
    const variable = name ? ownVariable(definition.data, name) : undefined;
    if (!name || !variable) return null;
    const options = (variable.options ?? []).map((o) => String(o.value)).filter((v) => safeGameVersion(v) !== null);
    return { name, options };
  }

  /**
   * The variable the statement names for the loader's version, its value and the versions offered:
   * its options, else what the platform lists for the Minecraft version it runs, after the words
   * its variable takes (`latest` for the newest, as Kiln's templates take; Forge's `recommended`
   * too: ./loader-versions loaderKeywords). null when
   * the statement names no such variable; ErrModSourceUnavailable when the platform's list does not answer.
   */
  private async loaderVersions(definition: ServerDefinition, platform: PlatformInfo): Promise<LoaderVersions | null> {
    const variable = loaderVariableOf(definition);
    if (!variable) return null;
    const { name, value, options } = variable;
    if (options.length > 0) return { variable: name, value, versions: options };
    const source = platform.platform ? loaderSource(platform.platform) : undefined;
    if (!source || !platform.gameVersion) return { variable: name, value, versions: [] };
    const listed = await listedLoaderVersions(platform.platform!, await sourceUrl(this.db, source), platform.gameVersion);
    return { variable: name, value, versions: [...new Set([...loaderKeywords(platform.platform!), ...listed])] };
  }

  /**
   * The CurseForge pack the template installs (its curseforge step's project and file variables)
   * and its files with a server pack; null for a template without one. CurseForge not answering
   * (or off, or without a key) offers none, marked unavailable: the rest of the pane stands.
   */
  private async packFiles(definition: ServerDefinition): Promise<PackFiles | null> {
    const names = curseforgePackVariables(definition.install);
    if (!names) return null;
    const values = variableValues(definition);
    const projectId = String(values[names.projectId] ?? "");
    const value = String(values[names.fileId] ?? "");
    if (!/^[1-9][0-9]{0,9}$/.test(projectId)) return null;
    const base = { variable: names.fileId, projectId, value };
    try {
      const client = (await sourceClient(this.db, "curseforge")) as CurseForgeClient;
      const [pack, files] = await Promise.all([client.modpack(projectId), client.packFiles(Number(projectId))]);
      return { ...base, title: pack.title, files: files.map((f) => ({ id: String(f.id), name: f.displayName || f.fileName })) };
    } catch (error) {
      if (error instanceof KilnError && (error.code === "ErrModSourceUnavailable" || error.code === "ErrNotFound" || error.code === "ErrFieldNotBetween")) return { ...base, title: projectId, files: [], unavailable: true };
      throw error;
    }
  }

  /** With the panel's bounds laid over it: a platform switch keeps the limits and network, which are the panel's, not the node's word. */
  private async definition(): Promise<ServerDefinition> {
    return await heldDefinition(this.db, this.id);
  }

  private async modrinth(): Promise<ModrinthClient> {
    return new ModrinthClient(await sourceUrl(this.db, "modrinth"));
  }
}

/** A switch's few words, for the backup's note. */
function noteOf(plan: VersionPlan): string {
  if (plan.what === "pack") return `${plan.pack?.title ?? "modpack"} ${plan.pack?.fromName ?? plan.from ?? "?"} → ${plan.pack?.toName ?? plan.to}`.slice(0, 200);
  if (plan.what === "loader") return `${plan.platform} ${plan.from ?? "?"} → ${plan.to}`;
  if (plan.what === "platform") return `${plan.from ?? "?"} → ${plan.to} (${plan.target?.template ?? "?"})`.slice(0, 200);
  return `Minecraft ${plan.from ?? "?"} → ${plan.to}`;
}

/** The variable the template's statement names for the loader's version, with its value and options; null when it names none. */
function loaderVariableOf(definition: ServerDefinition): { name: string; value: string; options: string[] } | null {
  const name = loaderVariable(definition.addons);
  const variable = name ? ownVariable(definition.data, name) : undefined;
  if (!name || !variable) return null;
  const options = (variable.options ?? []).map((o) => String(o.value)).filter((v) => safeVersion(v) !== null);
  return { name, value: String(variable.value ?? ""), options };
}

/** The server's version switch for `user`, once they hold manageMods on it. */
export async function versionsFor(db: Db, user: SessionUser, id: string): Promise<ServerVersions> {
  await authorize(db, user, id, "manageMods");
  return new ServerVersions(db, id, user);
}
