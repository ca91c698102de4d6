// What installing a project means for one server, worked out before anything is written: the
// version for its platform, every required dependency (and theirs) that is not installed yet, the
// installed file it replaces, and what does not fit (an incompatible pair, a version for another
// loader or game version, a dependency with no version here). The user sees the whole plan and
// agrees once; the node then checks each file again as it downloads it.
import { randomUUID } from "node:crypto";
import { KilnError } from "../../../core/errors";
import { ADDON_FILE_NAME, MAX_ADDON_BYTES, MAX_CHANGE_FILES, type ChangeAdd } from "../../../core/mods/change";
import { addonFolder, BROWSE_SOURCES, LOADERS_OF, type BrowseSource, type InstalledFile, type Plan, type PlanFile, type PlatformInfo } from "../../../core/mods/types";
import type { ModSource } from "../../../core/mods/types";
import type { ModrinthClient, ModrinthVersion } from "./modrinth";

/** What a plan asks of a source (Modrinth, or CurseForge and Hangar in the same shapes: ./curseforge, ./hangar). */
export type PlanSource = Pick<ModrinthClient, "project" | "projects" | "versions" | "version"> & {
  readonly source: ModSource;
  /** A source that gives no hash pins the chosen version's file (Spiget: ./spiget) before it is planned. */
  pin?(version: ModrinthVersion): Promise<ModrinthVersion>;
};

/** The installed files, with the source versions their hashes belong to (where a source knows them). */
export interface Identified {
  file: InstalledFile;
  version?: ModrinthVersion;
  title?: string;
  /** The source that knows the file (its SHA-512 on Modrinth, its fingerprint on CurseForge, its SHA-256 on Hangar). */
  source?: ModSource;
}

const SHA512 = /^[0-9a-f]{128}$/;
/** The sources that answer which version is newest project by project (Modrinth answers for many files at once). */
export const PER_PROJECT_SOURCES = BROWSE_SOURCES.filter((s): s is Exclude<BrowseSource, "modrinth"> => s !== "modrinth");
/** The sources' names as their errors say them. */
export const SOURCE_NAMES: Record<ModSource, string> = { modrinth: "Modrinth", curseforge: "CurseForge", hangar: "Hangar", spiget: "Spiget" };
const SHA256 = /^[0-9a-f]{64}$/;
const SHA1 = /^[0-9a-f]{40}$/;

export function loadersFor(platform: PlatformInfo): readonly string[] {
  if (!platform.platform || !addonFolder(platform.platform)) throw new KilnError("ErrModPlatformUnknown");
  return LOADERS_OF[platform.platform];
}

/** Whether a version runs on this server: one of its loaders, and its game version when known. */
export function fits(version: ModrinthVersion, loaders: readonly string[], gameVersion: string | null): { loader: boolean; game: boolean } {
  return { loader: version.loaders.some((l) => loaders.includes(l)), game: !gameVersion || version.game_versions.includes(gameVersion) };
}

/** Releases before betas before alphas; Modrinth lists newest first, which the sort keeps. */
function best(versions: ModrinthVersion[]): ModrinthVersion | undefined {
  const rank = { release: 0, beta: 1, alpha: 2 } as const;
  return [...versions].sort((a, b) => rank[a.version_type] - rank[b.version_type])[0];
}

/** The file a version installs, checked: a plain .jar name, a size the node accepts, a hash to verify. */
export function fileOf(version: ModrinthVersion, title: string, source: ModSource = "modrinth"): Omit<PlanFile, "replaces" | "requiredBy"> {
  const file = version.files.find((f) => f.primary) ?? version.files[0];
  const unreadable = (reason: string) => new KilnError("ErrModSourceUnavailable", { source: SOURCE_NAMES[source], reason: `${title} ${version.version_number}: ${reason}` });
  if (!file) throw unreadable("the version has no file");
  if (!file.url) throw unreadable("its author allows downloads only on the source's own site");
  if (!ADDON_FILE_NAME.test(file.filename)) throw unreadable("its file name is not a plain .jar name");
  if (!Number.isInteger(file.size) || file.size < 0 || file.size > MAX_ADDON_BYTES) throw unreadable("its file size is not one Kiln downloads");
  const sha512 = file.hashes.sha512?.toLowerCase();
  const sha256 = file.hashes.sha256?.toLowerCase();
  const sha1 = file.hashes.sha1?.toLowerCase();
  if (!(sha512 && SHA512.test(sha512)) && !(sha256 && SHA256.test(sha256)) && !(sha1 && SHA1.test(sha1))) throw unreadable("its file has no hash to check it by");
  return {
    source,
    projectId: version.project_id,
    versionId: version.id,
    title,
    versionNumber: version.version_number,
    fileName: file.filename,
    size: file.size,
    url: file.url,
    ...(sha512 && SHA512.test(sha512) ? { sha512 } : {}),
    ...(sha256 && SHA256.test(sha256) ? { sha256 } : {}),
    ...(sha1 && SHA1.test(sha1) ? { sha1 } : {}),
  };
}

/** A planned file as the node is asked to download it: where, its name and size, every hash the source gave, and what it is (the node remembers it). */
export function changeAdd(file: PlanFile): ChangeAdd {
  return {
    url: file.url,
    fileName: file.fileName,
    size: file.size,
    ...(file.sha512 ? { sha512: file.sha512 } : {}),
    ...(file.sha256 ? { sha256: file.sha256 } : {}),
    ...(file.sha1 ? { sha1: file.sha1 } : {}),
    origin: { source: file.source, projectId: file.projectId, versionId: file.versionId },
  };
}

/** The plan to install `projectId` (at `versionId`, else the best version for the server) on a server that is `platform` and holds `installed`. */
export async function planInstall(client: PlanSource, platform: PlatformInfo, installed: Identified[], projectId: string, versionId?: string): Promise<Plan> {
  const loaders = loadersFor(platform);
  const folder = addonFolder(platform.platform)!;
  const game = platform.gameVersion;
  // A project is the same project only on the same source (ids of two sources may look alike).
  const byProject = new Map(installed.filter((i) => i.version && (i.source ?? "modrinth") === client.source).map((i) => [i.version!.project_id, i]));
  const plan: Plan = { planId: randomUUID(), folder, add: [], update: [], remove: [], warnings: [], blocked: false };
  const titles = new Map<string, string>();
  const titleOf = async (id: string) => {
    if (!titles.has(id)) titles.set(id, (await client.project(id)).title);
    return titles.get(id)!;
  };
  const planned = new Map<string, ModrinthVersion>();
  const queue: { projectId: string; versionId?: string; requiredBy?: string }[] = [{ projectId, versionId }];
  while (queue.length > 0) {
    const next = queue.shift()!;
    const root = next.requiredBy === undefined;
    if (planned.has(next.projectId)) continue;
    const there = byProject.get(next.projectId);
    // A dependency already installed stays as it is.
    if (!root && there) continue;
    const project = await client.project(next.projectId);
    titles.set(project.id, project.title);
    let version: ModrinthVersion | undefined;
    if (next.versionId) {
      version = await client.version(next.versionId);
      if (version.project_id !== project.id) throw new KilnError("ErrNotFound", { id: next.versionId });
      const fit = fits(version, loaders, game);
      if (!fit.loader) plan.warnings.push({ code: "wrongLoader", title: project.title });
      if (!fit.game) plan.warnings.push({ code: "wrongGameVersion", title: project.title });
    } else {
      version = best(await client.versions(project.id, loaders, game));
      // A source that lists versions whatever the server runs (Spiget) may offer one not made for it.
      if (version && !fits(version, loaders, game).game) plan.warnings.push({ code: "wrongGameVersion", title: project.title });
    }
    if (!version) {
      if (root) throw new KilnError("ErrModNoCompatibleVersion", { title: project.title, platform: platform.platform!, gameVersion: game ?? "" });
      plan.warnings.push({ code: "missingDependency", title: project.title, other: next.requiredBy });
      continue;
    }
    planned.set(project.id, version);
    if (there?.version?.id === version.id) continue;
    if (client.pin) version = await client.pin(version);
    const file = { ...fileOf(version, project.title, client.source), ...(next.requiredBy ? { requiredBy: next.requiredBy } : {}) };
    if (there) plan.update.push({ ...file, replaces: there.file.fileName });
    else plan.add.push(file);
    if (plan.add.length + plan.update.length > MAX_CHANGE_FILES) throw new KilnError("ErrFieldTooLarge", { field: "dependencies", max: MAX_CHANGE_FILES });
    for (const dependency of version.dependencies) {
      if (dependency.dependency_type !== "required") continue;
      // A required dependency the source names but does not host (Hangar's external ones): the user must bring it.
      if (!dependency.project_id) {
        if (dependency.file_name) plan.warnings.push({ code: "externalDependency", title: dependency.file_name.slice(0, 256), other: project.title });
        continue;
      }
      queue.push({ projectId: dependency.project_id, versionId: dependency.version_id ?? undefined, requiredBy: project.title });
    }
  }
  await findIncompatible(plan, planned, installed, titleOf);
  return plan;
}

/** Marks the plan blocked when a planned version and an installed (or another planned) one declare each other incompatible. */
async function findIncompatible(plan: Plan, planned: Map<string, ModrinthVersion>, installed: Identified[], titleOf: (id: string) => Promise<string>): Promise<void> {
  const replaced = new Set(plan.update.map((f) => f.replaces));
  const present = new Map<string, ModrinthVersion>();
  for (const item of installed) if (item.version && !replaced.has(item.file.fileName) && item.file.enabled) present.set(item.version.project_id, item.version);
  for (const [id, version] of planned) present.set(id, version);
  const reported = new Set<string>();
  for (const [id, version] of present) {
    for (const dependency of version.dependencies) {
      if (dependency.dependency_type !== "incompatible" || !dependency.project_id || !present.has(dependency.project_id)) continue;
      // Only pairs the plan brings in: an incompatibility already on the server is not this plan's.
      if (!planned.has(id) && !planned.has(dependency.project_id)) continue;
      const key = [id, dependency.project_id].sort().join(" ");
      if (reported.has(key)) continue;
      reported.add(key);
      plan.warnings.push({ code: "incompatible", title: await titleOf(id), other: await titleOf(dependency.project_id) });
      plan.blocked = true;
    }
  }
}

/**
 * The plan to remove `fileNames`, and with `withDependencies` the dependencies they required that
 * nothing left on the server requires.
 */
export function planRemove(platform: PlatformInfo, installed: Identified[], fileNames: string[], withDependencies: boolean): Plan {
  loadersFor(platform);
  const folder = addonFolder(platform.platform)!;
  const byName = new Map(installed.map((i) => [i.file.fileName, i]));
  const removed = new Set<string>();
  for (const name of fileNames) {
    if (!byName.has(name)) throw new KilnError("ErrNotFound", { path: `${folder}/${name}` });
    removed.add(name);
  }
  if (withDependencies) {
    // Until nothing more falls away: a dependency of a dependency may be needed only by the first.
    for (let changed = true; changed; ) {
      changed = false;
      const needed = new Set<string>();
      for (const item of installed) {
        if (removed.has(item.file.fileName) || !item.version) continue;
        for (const d of item.version.dependencies) if (d.dependency_type === "required" && d.project_id) needed.add(d.project_id);
      }
      for (const name of removed) {
        for (const d of byName.get(name)!.version?.dependencies ?? []) {
          if (d.dependency_type !== "required" || !d.project_id || needed.has(d.project_id)) continue;
          const dependency = installed.find((i) => i.version?.project_id === d.project_id && !removed.has(i.file.fileName));
          if (dependency) {
            removed.add(dependency.file.fileName);
            changed = true;
          }
        }
      }
    }
  }
  return {
    planId: randomUUID(),
    folder,
    add: [],
    update: [],
    remove: [...removed].map((name) => ({ fileName: name, size: byName.get(name)!.file.size, ...(byName.get(name)!.title ? { title: byName.get(name)!.title } : {}) })),
    warnings: [],
    blocked: false,
  };
}
