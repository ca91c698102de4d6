// The panel's mods and plugins of one server, for the API and the Mods tab: the caller must hold
// manageMods (ErrNoPermission). The node says what the server is and what its folder holds; the
// source (Modrinth) says what those files are and what a project needs; the panel makes the plan,
// keeps it for its maker, and hands the node a change built from it, which the node checks again.
import { KilnError } from "../../../core/errors";
import type { ChangeRequest, ChangeStatus } from "../../../core/mods/change";
import { addonFolder, type AddonKind, type InstalledFile, type Plan, type PlatformInfo } from "../../../core/mods/types";
import type { Db } from "../../../db/client";
import type { SessionUser } from "../sessions";
import { authorize } from "../servers";
import { ServerNodeCalls } from "../servers/server-node-calls";
import { backupBy } from "../backups";
import { ModrinthClient } from "./modrinth";
import { checkedId, hit, pageOf, queryOf, sortOf, type SearchAnswer } from "./search-terms";

export type { SearchAnswer } from "./search-terms";
import { loadersFor, planInstall, planRemove, type Identified } from "./plan";
import { PlanStore } from "./plan-store";
import { isAddonCategory } from "../../../core/mods/categories";
import { recognise, type Recognition } from "./recognised";
import { sourceUrl } from "./sources";

export interface InstalledEntry {
  fileName: string;
  enabled: boolean;
  size: number;
  source?: "modrinth";
  projectId?: string;
  versionId?: string;
  versionNumber?: string;
  title?: string;
  updateAvailable?: { versionId: string; versionNumber: string };
}

/** How long a page rendered on the server waits for the source to name the installed files. */
export const PAGE_SOURCE_TIMEOUT_MS = 2000;

const plans = new PlanStore();
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

  async search(params: { q?: string; category?: string; sort?: string; page?: string }): Promise<SearchAnswer> {
    const platform = await this.platform();
    const loaders = loadersFor(platform);
    const query = queryOf(params.q);
    // Modrinth's API (v2) types plugins as "mod" too: the loaders (paper, spigot, …) tell them apart.
    const facets: string[][] = [["project_type:mod"], loaders.map((l) => `categories:${l}`)];
    if (platform.gameVersion) facets.push([`versions:${platform.gameVersion}`]);
    if (params.category) {
      if (!isAddonCategory(params.category)) throw new KilnError("ErrFieldNotBetween", { field: "category" });
      facets.push([`categories:${params.category}`]);
    }
    const sort = sortOf(params.sort);
    const page = pageOf(params.page);
    const answer = await this.modrinth().search({ query, facets, index: sort, offset: (page.number - 1) * page.size, limit: page.size });
    return { hits: answer.hits.map(hit), total: answer.total_hits };
  }

  async project(projectId: string) {
    const platform = await this.platform();
    const loaders = loadersFor(platform);
    const client = this.modrinth();
    const project = await client.project(checkedId(projectId));
    const versions = await client.versions(project.id, loaders, null);
    return {
      source: "modrinth" as const,
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
    let updates: Record<string, { id: string; version_number: string }> = {};
    const known = identified.filter((i) => i.version).map((i) => i.file.sha512);
    try {
      updates = await this.modrinth(options.sourceTimeoutMs).updatesOfFiles(known, loadersFor(platform), platform.gameVersion);
    } catch {
      // Updates are a hint: the list stands without them.
    }
    const files = identified.map(({ file, version, title }): InstalledEntry => {
      const newer = updates[file.sha512];
      return {
        fileName: file.fileName,
        enabled: file.enabled,
        size: file.size,
        ...(version ? { source: "modrinth" as const, projectId: version.project_id, versionId: version.id, versionNumber: version.version_number } : {}),
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
    if (body.source !== undefined && body.source !== "modrinth") throw new KilnError("ErrFieldNotBetween", { field: "source" });
    const projectId = checkedId(body.projectId);
    const versionId = body.versionId === undefined ? undefined : checkedId(body.versionId, "versionId");
    const client = this.modrinth();
    const platform = await this.platform();
    const { identified } = await this.identify(platform, true);
    const plan = await planInstall(client, platform, identified, projectId, versionId);
    return plans.keep(this.id, this.user.id, plan);
  }

  async planRemove(body: { fileNames?: unknown; withUnneededDependencies?: unknown }): Promise<Plan> {
    const names = body.fileNames;
    if (!Array.isArray(names) || names.length === 0 || names.some((n) => typeof n !== "string")) throw new KilnError("ErrFieldRequired", { field: "fileNames" });
    const platform = await this.platform();
    const { identified } = await this.identify(platform, true);
    return plans.keep(this.id, this.user.id, planRemove(platform, identified, names as string[], body.withUnneededDependencies === true));
  }

  /** Sends the plan's change to the node; the plan is used up. */
  async apply(planId: string): Promise<ChangeStatus> {
    const plan = plans.take(this.id, this.user.id, planId);
    if (plan.blocked) throw new KilnError("ErrModPlanBlocked");
    const request: ChangeRequest = {
      folder: plan.folder,
      add: [...plan.add, ...plan.update].map((f) => ({ url: f.url, fileName: f.fileName, size: f.size, ...(f.sha512 ? { sha512: f.sha512 } : {}), ...(f.sha1 ? { sha1: f.sha1 } : {}) })),
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
      const base = sourceUrl(this.db, "modrinth");
      recognised = await recognise(new ModrinthClient(base, sourceTimeoutMs), base, listing.files.map((f) => f.sha512), fresh);
    } catch {
      // The source turned off or not answering: the files stand as files.
    }
    const identified = listing.files.map((file) => ({ file, ...recognised.get(file.sha512) }));
    return { identified, undoable: listing.undoable };
  }

  private async listing(folder: AddonKind): Promise<{ files: InstalledFile[]; undoable: string | null }> {
    return (await (await this.call("modsInstalled", {}, { query: `?folder=${folder}` })).json()) as { files: InstalledFile[]; undoable: string | null };
  }

  private modrinth(timeoutMs?: number): ModrinthClient {
    return new ModrinthClient(sourceUrl(this.db, "modrinth"), timeoutMs);
  }
}

/** The server's mods for `user`, once they hold manageMods on it. */
export function modsFor(db: Db, user: SessionUser, id: string): ServerMods {
  authorize(db, user, id, "manageMods");
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
