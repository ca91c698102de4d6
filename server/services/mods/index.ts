// The panel's mods and plugins of one server, for the API and the Mods tab: the caller must hold
// manageMods (ErrNoPermission). The node says what the server is and what its folder holds; the
// sources (Modrinth, CurseForge, Hangar) say what those files are and what a project needs; the panel makes the plan,
// keeps it for its maker, and hands the node a change built from it, which the node checks again.
import { KilnError } from "../../../core/errors";
import type { ChangeRequest, ChangeStatus } from "../../../core/mods/change";
import { addonFolder, browseSourcesFor, type AddonKind, type BrowseSource, type InstalledFile, type ModSource, type Plan, type PlatformInfo } from "../../../core/mods/types";
import type { Db } from "../../../db/client";
import type { SessionUser } from "../sessions";
import { authorize } from "../servers";
import { ServerNodeCalls } from "../servers/server-node-calls";
import { backupBy } from "../backups";
import { ModrinthClient } from "./modrinth";
import { checkedId, hit, pageOf, projectHit, queryOf, sortOf, type SearchAnswer } from "./search-terms";

export type { SearchAnswer } from "./search-terms";
import { changeAdd, loadersFor, PER_PROJECT_SOURCES, planInstall, planRemove, type Identified } from "./plan";
import { PlanStore } from "./plan-store";
import { categoriesOf } from "../../../core/mods/categories";
import { recognise, type Recognition } from "./recognised";
import { sourceClient, sourceOf, sourceUrl, type SourceClient } from "./sources";
import { CLASS, type CurseForgeClient } from "./curseforge";
import type { HangarClient } from "./hangar";
import type { SpigetClient } from "./spiget";

export interface InstalledEntry {
  fileName: string;
  enabled: boolean;
  size: number;
  source?: ModSource;
  projectId?: string;
  versionId?: string;
  versionNumber?: string;
  title?: string;
  updateAvailable?: { versionId: string; versionNumber: string };
}

/** CurseForge, Hangar and Spiget answer updates project by project: at most this many projects each are asked per listing. */
const MAX_PER_PROJECT_UPDATES = 25;

/** How long a page rendered on the server waits for the source to name the installed files. */
export const PAGE_SOURCE_TIMEOUT_MS = 2000;

const plans = new PlanStore("mod-plan");
/** Per server, the add-on folder its platform last said (for the tab's label: Mods or Plugins) without asking the node on every page. */
const knownFolders = new Map<string, AddonKind | null>();

/** The add-on folder last seen for the server: "plugins" names the tab Plugins; unknown is Mods. */
export function knownAddonFolder(serverId: string): AddonKind | null | undefined {
  return knownFolders.get(serverId);
}

export class ServerMods extends ServerNodeCalls {
  constructor(
    db: Db,
    id: string,
    private readonly user: SessionUser,
  ) {
    super(db, id);
  }

  async platform(): Promise<PlatformInfo> {
    const platform = (await (await this.call("modsPlatform")).json()) as PlatformInfo;
    knownFolders.set(this.id, platform.folder);
    return platform;
  }

  async search(params: { q?: string; category?: string; sort?: string; page?: string; source?: string }): Promise<SearchAnswer> {
    const platform = await this.platform();
    const source = sourceFor(platform, params.source);
    const loaders = loadersFor(platform);
    const query = queryOf(params.q);
    // Each source's own categories (core/mods/categories; CurseForge's as its API lists them): one
    // it does not have is refused, not ignored.
    const category = params.category || undefined;
    if (category && source !== "curseforge" && !categoriesOf(source).includes(category)) throw new KilnError("ErrFieldNotBetween", { field: "category" });
    if (source === "hangar" || source === "spiget") {
      const page = pageOf(params.page);
      const client = (await this.client(source)) as HangarClient | SpigetClient;
      const answer = await client.search({ query, gameVersion: platform.gameVersion, category, sort: sortOf(params.sort), offset: (page.number - 1) * page.size, limit: page.size });
      return { hits: answer.hits.map((p) => projectHit(source, p)), total: answer.total };
    }
    if (source === "curseforge") {
      const page = pageOf(params.page);
      const client = (await this.client("curseforge")) as CurseForgeClient;
      const classId = addonFolder(platform.platform) === "plugins" ? CLASS.plugins : CLASS.mods;
      const sort = sortOf(params.sort);
      const categories = await client.categories(classId);
      if (category && !categories.some((c) => c.id === category)) throw new KilnError("ErrFieldNotBetween", { field: "category" });
      const answer = await client.search({ query, classId, loaders, gameVersion: platform.gameVersion, categoryId: category, sort, offset: (page.number - 1) * page.size, limit: page.size });
      return { hits: answer.hits.map((p) => projectHit("curseforge", p)), total: answer.total, categories };
    }
    // Modrinth's API (v2) types plugins as "mod" too: the loaders (paper, spigot, …) tell them apart.
    const facets: string[][] = [["project_type:mod"], loaders.map((l) => `categories:${l}`)];
    if (platform.gameVersion) facets.push([`versions:${platform.gameVersion}`]);
    if (category) facets.push([`categories:${category}`]);
    const sort = sortOf(params.sort);
    const page = pageOf(params.page);
    const answer = await (await this.modrinth()).search({ query, facets, index: sort, offset: (page.number - 1) * page.size, limit: page.size });
    return { hits: answer.hits.map(hit), total: answer.total_hits };
  }

  async project(projectId: string, sourceName?: string) {
    const platform = await this.platform();
    const source = sourceFor(platform, sourceName);
    const loaders = loadersFor(platform);
    const client = await this.client(source);
    const project = await client.project(checkedId(projectId));
    // Spiget lists its one version whatever the server runs, reading the server's version against its tested ones; the others list all when given none.
    const versions = await client.versions(project.id, loaders, source === "spiget" ? platform.gameVersion : null);
    return {
      source,
      projectId: project.id,
      slug: project.slug ?? null,
      title: project.title,
      description: project.description,
      /** Markdown from the project's authors: the page renders it as text (islands/lib/Markdown), never as HTML. */
      body: project.body,
      ...(project.icon_url ? { iconUrl: project.icon_url } : {}),
      downloads: project.downloads,
      license: project.license?.id ?? null,
      versions: versions.slice(0, 50).map((v) => ({ versionId: v.id, versionNumber: v.version_number, versionType: v.version_type, gameVersions: v.game_versions, loaders: v.loaders, published: v.date_published, fits: !platform.gameVersion || v.game_versions.includes(platform.gameVersion) })),
    };
  }

  /** `sourceTimeoutMs`: how long the source may take to name the files (a page waits less than the API); `platform`: already asked. */
  async installed(options: { sourceTimeoutMs?: number; platform?: PlatformInfo } = {}): Promise<{ folder: string | null; files: InstalledEntry[]; undoable: string | null }> {
    const platform = options.platform ?? (await this.platform());
    if (!addonFolder(platform.platform)) return { folder: null, files: [], undoable: null };
    const { identified, undoable } = await this.identify(platform, false, options.sourceTimeoutMs);
    const updates = await this.updates(platform, identified, options.sourceTimeoutMs);
    const files = identified.map(({ file, version, title, source }): InstalledEntry => {
      const newer = updates.get(file.sha512);
      return {
        fileName: file.fileName,
        enabled: file.enabled,
        size: file.size,
        ...(version ? { source: source ?? "modrinth", projectId: version.project_id, versionId: version.id, versionNumber: version.version_number } : {}),
        ...(title ? { title } : {}),
        ...(version && newer && newer.id !== version.id ? { updateAvailable: { versionId: newer.id, versionNumber: newer.version_number } } : {}),
      };
    });
    return { folder: addonFolder(platform.platform), files, undoable };
  }

  /** The last change while it can be undone: the node's listing only, nothing asked of the source. */
  async undoable(): Promise<string | null> {
    const folder = addonFolder((await this.platform()).platform);
    return folder ? (await this.listing(folder)).undoable : null;
  }

  async planInstall(body: { source?: unknown; projectId?: unknown; versionId?: unknown }): Promise<Plan> {
    const platform = await this.platform();
    const source = sourceFor(platform, body.source);
    const projectId = checkedId(body.projectId);
    const versionId = body.versionId === undefined ? undefined : checkedId(body.versionId, "versionId");
    const client = await this.client(source);
    const { identified } = await this.identify(platform, true);
    const plan = await planInstall(client, platform, identified, projectId, versionId);
    return plans.keep(this.db, this.id, this.user.id, plan);
  }

  async planRemove(body: { fileNames?: unknown; withUnneededDependencies?: unknown }): Promise<Plan> {
    const names = body.fileNames;
    if (!Array.isArray(names) || names.length === 0 || names.some((n) => typeof n !== "string")) throw new KilnError("ErrFieldRequired", { field: "fileNames" });
    const platform = await this.platform();
    const { identified } = await this.identify(platform, true);
    return plans.keep(this.db, this.id, this.user.id, planRemove(platform, identified, names as string[], body.withUnneededDependencies === true));
  }

  /** Sends the plan's change to the node; the plan is used up. */
  async apply(planId: string): Promise<ChangeStatus> {
    const plan = await plans.take(this.db, this.id, this.user.id, planId);
    if (plan.blocked) throw new KilnError("ErrModPlanBlocked");
    const request: ChangeRequest = {
      folder: plan.folder,
      add: [...plan.add, ...plan.update].map(changeAdd),
      remove: [...plan.remove.map((r) => r.fileName), ...plan.update.filter((f) => f.replaces && f.replaces !== f.fileName).map((f) => f.replaces!)],
      disable: [],
      enable: [],
      note: summary(plan),
    };
    return this.change(request);
  }

  /** Disables (renames to .disabled, which the game skips) or enables installed files: a change like any other. */
  async setEnabled(body: { fileNames?: unknown; enabled?: unknown }): Promise<ChangeStatus> {
    const names = body.fileNames;
    if (!Array.isArray(names) || names.length === 0 || names.some((n) => typeof n !== "string")) throw new KilnError("ErrFieldRequired", { field: "fileNames" });
    if (typeof body.enabled !== "boolean") throw new KilnError("ErrFieldNotBoolean", { field: "enabled" });
    const folder = addonFolder((await this.platform()).platform);
    if (!folder) throw new KilnError("ErrModPlatformUnknown");
    const list = names as string[];
    return this.change({ folder, add: [], remove: [], disable: body.enabled ? [] : list, enable: body.enabled ? list : [], note: `${body.enabled ? "enable" : "disable"} ${list.join(", ")}`.slice(0, 200) });
  }

  async changeStatus(changeId: string): Promise<ChangeStatus> {
    return (await (await this.call("modsChangeStatus", { changeId: checkedChangeId(changeId) })).json()) as ChangeStatus;
  }

  async undo(changeId: string): Promise<ChangeStatus> {
    return (await (await this.send("modsUndo", { changeId: checkedChangeId(changeId) }, {})).json()) as ChangeStatus;
  }

  private async change(request: ChangeRequest): Promise<ChangeStatus> {
    return (await (await this.send("modsChange", {}, request, { "x-kiln-by": backupBy(this.user) })).json()) as ChangeStatus;
  }

  /**
   * The folder's files with what Modrinth knows of them (nothing when it does not answer: the files
   * are still listed). `fresh`: ask the source about every file (plans), rather than what it said
   * before (the list).
   */
  async identify(platform: PlatformInfo, fresh = false, sourceTimeoutMs?: number): Promise<{ identified: Identified[]; undoable: string | null }> {
    const folder = addonFolder(platform.platform);
    if (!folder) throw new KilnError("ErrModPlatformUnknown");
    const listing = await this.listing(folder);
    let recognised = new Map<string, Recognition>();
    try {
      const base = await sourceUrl(this.db, "modrinth");
      const client = new ModrinthClient(base, sourceTimeoutMs);
      recognised = await recognise({ versionsOf: (keys) => client.versionsOfFiles(keys), projects: (ids) => client.projects(ids) }, base, listing.files.map((f) => f.sha512), fresh);
    } catch {
      // The source turned off or not answering: the files stand as files.
    }
    const identified: Identified[] = listing.files.map((file) => {
      const known = recognised.get(file.sha512);
      return known?.version ? { file, ...known, source: "modrinth" } : { file };
    });
    await this.identifyOnCurseForge(identified.filter((i) => !i.version), fresh, sourceTimeoutMs);
    if (browseSourcesFor(platform.platform).includes("hangar")) await this.identifyOnHangar(identified.filter((i) => !i.version), fresh, sourceTimeoutMs);
    await this.identifyOnSpiget(identified.filter((i) => !i.version && i.file.origin?.source === "spiget"), fresh, sourceTimeoutMs);
    return { identified, undoable: listing.undoable };
  }

  /**
   * The newest version of each recognised file's project for this server, by the file's SHA-512:
   * Modrinth's in one question, the others' per project (at most MAX_PER_PROJECT_UPDATES each).
   * Updates are a hint: a source that fails leaves its files without.
   */
  private async updates(platform: PlatformInfo, identified: Identified[], sourceTimeoutMs?: number): Promise<Map<string, { id: string; version_number: string }>> {
    const updates = new Map<string, { id: string; version_number: string }>();
    const loaders = loadersFor(platform);
    const fromModrinth = identified.filter((i) => i.version && i.source === "modrinth").map((i) => i.file.sha512);
    try {
      const answer = await (await this.modrinth(sourceTimeoutMs)).updatesOfFiles(fromModrinth, loaders, platform.gameVersion);
      for (const [sha512, version] of Object.entries(answer)) updates.set(sha512, version);
    } catch {
      // Modrinth not answering: no updates from it.
    }
    for (const source of PER_PROJECT_SOURCES) {
      const fromSource = identified.filter((i) => i.version && i.source === source).slice(0, MAX_PER_PROJECT_UPDATES);
      if (fromSource.length === 0) continue;
      try {
        const client = await this.client(source, sourceTimeoutMs);
        await Promise.all(
          fromSource.map(async (item) => {
            const newest = (await client.versions(item.version!.project_id, loaders, platform.gameVersion).catch(() => []))[0];
            if (newest) updates.set(item.file.sha512, newest);
          }),
        );
      } catch {
        // The source turned off or not set up: no updates from it.
      }
    }
    return updates;
  }

  /** Files Modrinth does not know, by their fingerprints on CurseForge, when it is set up (else they stay files). */
  private async identifyOnCurseForge(unknown: Identified[], fresh: boolean, sourceTimeoutMs?: number): Promise<void> {
    if (unknown.length === 0) return;
    try {
      const client = (await this.client("curseforge", sourceTimeoutMs)) as CurseForgeClient;
      const lookup = {
        versionsOf: async (keys: string[]) => Object.fromEntries([...(await client.versionsOfFingerprints(keys.map(Number)))].map(([fp, v]) => [String(fp), v])),
        projects: (ids: string[]) => client.projects(ids),
      };
      const found = await recognise(lookup, await sourceUrl(this.db, "curseforge"), unknown.map((i) => String(i.file.fingerprint)), fresh);
      for (const item of unknown) {
        const known = found.get(String(item.file.fingerprint));
        if (known?.version) Object.assign(item, known, { source: "curseforge" });
      }
    } catch {
      // CurseForge turned off, without a key, or not answering: the files stand as files.
    }
  }

  /** Plugins neither Modrinth nor CurseForge knows, by their SHA-256 on Hangar (else they stay files). */
  private async identifyOnHangar(unknown: Identified[], fresh: boolean, sourceTimeoutMs?: number): Promise<void> {
    if (unknown.length === 0) return;
    try {
      const client = (await this.client("hangar", sourceTimeoutMs)) as HangarClient;
      const found = await recognise({ versionsOf: (keys) => client.versionsOfFiles(keys), projects: (ids) => client.projects(ids) }, await sourceUrl(this.db, "hangar"), unknown.map((i) => i.file.sha256), fresh);
      for (const item of unknown) {
        const known = found.get(item.file.sha256);
        if (known?.version) Object.assign(item, known, { source: "hangar" });
      }
    } catch {
      // Hangar turned off or not answering: the files stand as files.
    }
  }

  /** Files the node placed from Spiget (its record of their origin: Spiget has no lookup by hash), named by their resource and version. */
  private async identifyOnSpiget(placed: Identified[], fresh: boolean, sourceTimeoutMs?: number): Promise<void> {
    if (placed.length === 0) return;
    try {
      const client = (await this.client("spiget", sourceTimeoutMs)) as SpigetClient;
      const origins = new Map(placed.map((i) => [i.file.sha512, i.file.origin!]));
      const found = await recognise({ versionsOf: (keys) => client.versionsOfOrigins(keys.map((key) => ({ key, versionId: origins.get(key)!.versionId }))), projects: (ids) => client.projects(ids) }, await sourceUrl(this.db, "spiget"), [...origins.keys()], fresh);
      for (const item of placed) {
        const known = found.get(item.file.sha512);
        if (known?.version) Object.assign(item, known, { source: "spiget" });
      }
    } catch {
      // Spiget turned off or not answering: the files stand as files.
    }
  }

  private async listing(folder: AddonKind): Promise<{ files: InstalledFile[]; undoable: string | null }> {
    return (await (await this.call("modsInstalled", {}, { query: `?folder=${folder}` })).json()) as { files: InstalledFile[]; undoable: string | null };
  }

  private async modrinth(timeoutMs?: number): Promise<ModrinthClient> {
    return new ModrinthClient(await sourceUrl(this.db, "modrinth"), timeoutMs);
  }

  private async client(source: BrowseSource, timeoutMs?: number): Promise<SourceClient> {
    return await sourceClient(this.db, source, timeoutMs);
  }
}

/** The request's source among those this server's add-ons come from (Hangar for Paper's plugins only). */
function sourceFor(platform: PlatformInfo, value: unknown): BrowseSource {
  return sourceOf(value, browseSourcesFor(platform.platform));
}

/** The server's mods for `user`, once they hold manageMods on it. */
export async function modsFor(db: Db, user: SessionUser, id: string): Promise<ServerMods> {
  await authorize(db, user, id, "manageMods");
  return new ServerMods(db, id, user);
}

const CHANGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function checkedChangeId(value: string): string {
  if (!CHANGE_ID.test(value)) throw new KilnError("ErrNotFound", { id: value.slice(0, 64) });
  return value;
}

/** A few words for the backup's note. */
function summary(plan: Plan): string {
  const names = [...plan.add.map((f) => `+${f.title}`), ...plan.update.map((f) => `↑${f.title}`), ...plan.remove.map((r) => `-${r.title ?? r.fileName}`)];
  return names.join(" ").slice(0, 200);
}
