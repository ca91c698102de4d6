// A modpack made ready to place, inside a hidden folder of the server's own (so moving it into
// place is a rename on one filesystem, through the jail): the .mrpack downloaded and checked
// against its source's hash, unpacked with the file manager's extraction (every entry beneath the
// folder, the size and entry limits), its modrinth.index.json read here again rather than taken
// from the panel, each file the server gets downloaded and checked against the index's hashes,
// and the overrides listed. Nothing outside the hidden folder changes until placing; the caller
// removes the folder whatever happens.
import { randomUUID } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync } from "node:fs";
import { posix } from "node:path";
import { KilnError } from "../../core/errors";
import { isPackPath, MAX_PACK_INDEX_BYTES, overrideTarget, PACK_INDEX, packIndexSchema, serverFiles, type PackChange, type PackIndex, type PackReading } from "../../core/mods/pack";
import { extractArchive, type ExtractLimits } from "../files/extract";
import type { Jail } from "../files/jail";
import { removePath, statPath, writeAtomically } from "../files/operations";
import { STAGING_PREFIX } from "../files/node-staging";
import { checkedDownload, checkFileHost } from "./download";
import type { InstalledFiles } from "./installed";
import { readSmallText } from "./small-file";
import type { PackUploads } from "./pack-uploads";
import type { InstalledPacks } from "./installed-packs";

/** One file to place: where it goes, where it waits (both relative to the server's folder), its SHA-512. */
export interface StagedFile {
  target: string;
  staged: string;
  sha512: string;
}

export interface StagedPack {
  /** The hidden folder holding everything (removed by the caller). */
  folder: string;
  index: PackIndex;
  files: StagedFile[];
}

export interface PackStageDeps {
  /** Where the pack itself may come from (a source's file host). */
  fileOrigins: readonly string[];
  /** Where a pack's index may point its files at: Modrinth's format allows its CDN, GitHub and GitLab (with GitHub's objects host its downloads redirect to). */
  packFileOrigins: readonly string[];
  uploads: PackUploads;
  packs: InstalledPacks;
  installed: InstalledFiles;
  extractLimits: ExtractLimits;
}

/**
 * Entries (files and folders) a pack's archive may hold, below the node's extraction limit: a pack
 * brings its mods by download, so its archive holds the index and the overrides (configs, scripts,
 * a few resource packs): a few thousand entries for the largest packs. Each override is hashed and
 * listed in the plan (its path, up to 400 characters), which the panel keeps for its maker; more
 * is refused before anything is hashed (ErrArchiveTooLarge).
 */
export const MAX_PACK_ENTRIES = 10_000;

/** The hidden folder's name: the file manager lists it, no user's door opens it (files/node-staging), and a pack may not write a name like it. */
export const stageFolderName = () => `${STAGING_PREFIX.pack}${randomUUID()}`;

/** Downloads, checks and unpacks the pack in `folder` (made here): its index, and its override files staged. */
async function unpack(jail: Jail, serverId: string, folder: string, change: PackChange, deps: PackStageDeps): Promise<{ index: PackIndex; overrides: StagedFile[] }> {
  jail.at(folder, (entry) => mkdirSync(entry, 0o700));
  // Named .zip: the extraction knows archives by their name.
  const archive = `${folder}/pack.zip`;
  const bytes = "upload" in change ? deps.uploads.read(serverId, change.upload, change.sha512) : checkedDownload({ url: change.url, fileName: "pack.mrpack", size: change.size, sha512: change.sha512 }, deps.fileOrigins);
  await writeAtomically(jail, archive, bytes);
  jail.at(`${folder}/unpacked`, (entry) => mkdirSync(entry, 0o700));
  await extractArchive(jail, archive, `${folder}/unpacked`, { ...deps.extractLimits, maxEntries: Math.min(deps.extractLimits.maxEntries, MAX_PACK_ENTRIES) });
  const index = readIndex(jail, `${folder}/unpacked/${PACK_INDEX}`);
  for (const file of serverFiles(index)) {
    if (!isPackPath(file.path)) throw invalid(file.path);
    checkFileHost(file.url, deps.packFileOrigins);
  }
  // server-overrides/ after overrides/: the later one wins for a path.
  const overrides = new Map<string, StagedFile>();
  for (const entry of regularFiles(jail, `${folder}/unpacked`)) {
    const target = overrideTarget(entry);
    if (target === null) continue;
    if (!isPackPath(target)) throw invalid(target);
    const staged = `${folder}/unpacked/${entry}`;
    // Not remembered: the staging folder's name is new each time.
    const hashed = await deps.installed.hash(jail, staged, false);
    if (!hashed) continue;
    overrides.delete(target);
    overrides.set(target, { target, staged, sha512: hashed.sha512 });
  }
  return { index, overrides: [...overrides.values()] };
}

/** Reads what the pack would do to the server's folder; the downloads it lists are not made. */
export async function readPack(jail: Jail, serverId: string, change: PackChange, deps: PackStageDeps): Promise<PackReading> {
  const folder = stageFolderName();
  try {
    const { index, overrides } = await unpack(jail, serverId, folder, change, deps);
    const replaces = (path: string) => existsIn(jail, path);
    const removes = await dropped(jail, serverId, new Set([...serverFiles(index).map((f) => f.path), ...overrides.map((o) => o.target)]), deps);
    return {
      name: index.name,
      versionId: index.versionId,
      summary: index.summary ?? "",
      dependencies: index.dependencies,
      files: serverFiles(index).map((f) => ({ path: f.path, size: f.size, replaces: replaces(f.path) })),
      overrides: overrides.map((o) => ({ path: o.target, size: statPath(jail, o.staged, false).size, replaces: replaces(o.target) })),
      removes: removes.map((r) => ({ path: r.path, size: r.size, replaces: true })),
    };
  } finally {
    removeStage(jail, folder);
  }
}

/**
 * Stages the pack in `folder` (made here; the caller removes it): the overrides unpacked, and
 * each file the server gets downloaded and checked; `counted(downloaded, total)` hears each.
 * Throws ErrModPackInvalid (no readable index, or a path a pack may not write), and what a
 * download or an extraction throws.
 */
export async function stagePack(jail: Jail, serverId: string, folder: string, change: PackChange, deps: PackStageDeps, counted: (downloaded: number, total: number) => void): Promise<StagedPack> {
  const { index, overrides } = await unpack(jail, serverId, folder, change, deps);
  const downloads = serverFiles(index);
  const byTarget = new Map<string, StagedFile>();
  counted(0, downloads.length);
  for (const [i, file] of downloads.entries()) {
    const staged = `${folder}/download-${i}`;
    await writeAtomically(jail, staged, checkedDownload({ url: file.url, fileName: posix.basename(file.path), size: file.size, sha512: file.sha512, sha1: file.sha1 }, deps.packFileOrigins));
    byTarget.set(file.path, { target: file.path, staged, sha512: file.sha512 });
    counted(i + 1, downloads.length);
  }
  // Overrides after the files: an override wins for a path.
  for (const override of overrides) {
    byTarget.delete(override.target);
    byTarget.set(override.target, override);
  }
  return { folder, index, files: [...byTarget.values()] };
}

/**
 * The files the server's installed pack placed that a pack placing `targets` drops, where they are
 * still as the pack placed them (a file the user changed since is theirs, and stays).
 */
export async function dropped(jail: Jail, serverId: string, targets: ReadonlySet<string>, deps: PackStageDeps): Promise<{ path: string; size: number }[]> {
  const installed = deps.packs.get(serverId);
  const found: { path: string; size: number }[] = [];
  for (const file of installed?.files ?? []) {
    if (targets.has(file.path) || !isPackPath(file.path)) continue;
    const hashed = await deps.installed.hash(jail, file.path);
    if (hashed?.sha512 === file.sha512) found.push({ path: file.path, size: hashed.size });
  }
  return found;
}

/** Removes a staging folder if it is there (whatever it holds by now). */
export function removeStage(jail: Jail, folder: string): void {
  if (existsIn(jail, folder)) removePath(jail, folder);
}

/** Whether `path` (from the server's folder, through the jail) names an entry; a link is not followed, a missing folder on the way is "no". */
export function existsIn(jail: Jail, path: string): boolean {
  try {
    return jail.at(path, (entry) => {
      try {
        lstatSync(entry);
        return true;
      } catch {
        return false;
      }
    });
  } catch (error) {
    if (error instanceof KilnError && error.code === "ErrNotFound") return false;
    throw error;
  }
}

function invalid(path: string): KilnError {
  return new KilnError("ErrModPackInvalid", { path: path.slice(0, 200) });
}

/** The pack's index: ErrModPackInvalid when it is missing, larger than an index may be, or not Modrinth's format. */
function readIndex(jail: Jail, path: string): PackIndex {
  const text = readSmallText(jail, path, MAX_PACK_INDEX_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(text ?? "");
  } catch {
    throw invalid(PACK_INDEX);
  }
  const parsed = packIndexSchema.safeParse(json);
  if (!parsed.success) throw invalid(PACK_INDEX);
  return parsed.data;
}

/** The regular files under `folder`, relative to it ("overrides/config/a.toml"); links and specials are left out. */
function regularFiles(jail: Jail, folder: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    const entries = jail.inFolder(relative ? `${folder}/${relative}` : folder, (path) => readdirSync(path, { withFileTypes: true }));
    for (const entry of entries) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(name);
      else if (entry.isFile()) found.push(name);
    }
  };
  walk("");
  return found;
}
