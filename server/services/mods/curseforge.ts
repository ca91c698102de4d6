// CurseForge's API (v1, https://docs.curseforge.com/rest-api/), as the panel asks it for the mods
// and plugins browser, with the administrator's API key (the setting panel.mods.curseforgeKey) in
// x-api-key and no redirect followed, so the key never reaches another host. Its answers come
// from outside: each is read with a time limit and a size cap and checked against the shapes
// below, then turned into the shapes the plans read (Modrinth's project and version: ./modrinth),
// so a plan is made the same way whatever the source:
// - a mod's file is a version: its id, its mod's id, its display name as the version, its game
//   versions (the Minecraft ones; the loader names CurseForge lists among them become loaders),
//   its release type, its dependencies (relationType 3 required, 2 optional, 5 incompatible, 1
//   embedded; the others are tools and includes, which a server does not need), its one file with
//   the SHA-1 CurseForge gives (algo 1) and its downloadUrl (null when the author allows downloads
//   only on CurseForge: such a file cannot be installed here);
// - Bukkit plugins (class 5) load on Paper, Purpur and Spigot: their files get those loaders;
// - a class's categories are CurseForge's own, numbered, named as CurseForge names them: asked of
//   its API (kept an hour: they change when CurseForge adds one) and offered to narrow a search.
import { KilnError } from "../../../core/errors";
import { BUKKIT_PLUGIN_LOADERS } from "../../../core/mods/types";
import { isPublished } from "../../../core/mods/curseforge-files";
import { z } from "../../../core/zod";
import type { ModrinthProject, ModrinthVersion } from "./modrinth";
import { SOURCE_USER_AGENT, sourceAnswer, SOURCE_TIMEOUT_MS } from "./source-answer";

/** Minecraft's id on CurseForge, and the classes Kiln reads. */
export const MINECRAFT = 432;
export const CLASS = { plugins: 5, mods: 6, modpacks: 4471 } as const;
/** CurseForge's ModLoaderType for the loaders a search is narrowed to. */
const LOADER_TYPE: Record<string, number> = { forge: 1, fabric: 4, quilt: 5, neoforge: 6 };
/** Kiln's sort names in CurseForge's ModsSearchSortField (none: CurseForge's own relevance). */
const SORT_FIELD: Record<string, number | undefined> = { relevance: undefined, downloads: 6, updated: 3, newest: 11 };

const text = (max: number) => z.string().check(z.maxLength(max));
const id = z.number().check(z.int(), z.gte(1));

const fileSchema = z.object({
  id,
  modId: id,
  displayName: z._default(text(512), ""),
  fileName: text(512),
  releaseType: z._default(z.number(), 1),
  fileDate: z._default(text(64), ""),
  fileLength: z.number(),
  downloadUrl: z.nullish(text(2048)),
  hashes: z._default(z.array(z.object({ value: text(128), algo: z.number() })), []),
  gameVersions: z._default(z.array(text(64)), []),
  dependencies: z._default(z.array(z.object({ modId: id, relationType: z.number() })), []),
  fileFingerprint: z.optional(z.number()),
  /** A modpack's file: whether it is the server pack, else the server pack made from it. */
  isServerPack: z.nullish(z.boolean()),
  serverPackFileId: z.nullish(z.number()),
  /** CurseForge's FileStatus: 4 approved and 10 released are offered (as the node's curseforge step reads it). */
  fileStatus: z.optional(z.number()),
});
export type CurseFile = z.infer<typeof fileSchema>;

const modSchema = z.object({
  id,
  name: text(512),
  slug: z.nullish(text(256)),
  summary: z._default(text(4096), ""),
  downloadCount: z._default(z.number(), 0),
  classId: z.nullish(z.number()),
  logo: z.nullish(z.object({ thumbnailUrl: z.nullish(text(2048)) })),
  categories: z._default(z.array(z.object({ slug: text(128) })), []),
  latestFiles: z._default(z.array(fileSchema), []),
});
type CurseMod = z.infer<typeof modSchema>;

const categorySchema = z.object({ id, name: text(128), classId: z.nullish(z.number()), isClass: z.nullish(z.boolean()) });

/** A category a search may be narrowed to: CurseForge's id, and its name as CurseForge gives it. */
export interface ListedCategory {
  id: string;
  name: string;
}

/** How long a class's categories are kept, and the most kept of one class. */
const CATEGORIES_KEPT_MS = 60 * 60 * 1000;
const MAX_CATEGORIES = 300;
/** A class's categories per API base and class; the same for every key (CurseForge's public data). */
const keptCategories = new Map<string, { at: number; list: ListedCategory[] }>();

const data = <S extends z.ZodMiniType>(schema: S) => z.object({ data: schema });
const searchSchema = z.object({ data: z.array(modSchema), pagination: z.object({ totalCount: z.number() }) });
const fingerprintSchema = data(z.object({ exactMatches: z._default(z.array(z.object({ id, file: fileSchema })), []) }));

export interface CurseSearch {
  query: string;
  classId: number;
  loaders: readonly string[];
  gameVersion: string | null;
  /** One of the class's categories (`categories`), already checked. */
  categoryId?: string;
  sort: string;
  offset: number;
  limit: number;
}

export class CurseForgeClient {
  readonly source = "curseforge" as const;
  /** Each mod's class, as answers named it: a file's loaders depend on it (plugins). */
  private readonly classes = new Map<number, number | null>();

  constructor(
    private readonly base: string,
    private readonly key: string,
    private readonly timeoutMs = SOURCE_TIMEOUT_MS,
  ) {}

  async search(q: CurseSearch): Promise<{ hits: ModrinthProject[]; total: number }> {
    const params = new URLSearchParams({ gameId: String(MINECRAFT), classId: String(q.classId), searchFilter: q.query, index: String(q.offset), pageSize: String(q.limit) });
    if (q.gameVersion) params.set("gameVersion", q.gameVersion);
    if (q.categoryId) params.set("categoryId", q.categoryId);
    const loaderType = q.loaders.map((l) => LOADER_TYPE[l]).find((t) => t !== undefined);
    if (loaderType !== undefined && q.classId !== CLASS.plugins) params.set("modLoaderType", String(loaderType));
    const sort = SORT_FIELD[q.sort];
    if (sort !== undefined) params.set("sortField", String(sort)), params.set("sortOrder", "desc");
    const answer = await this.ask(`/v1/mods/search?${params}`, { method: "GET" }, searchSchema);
    return { hits: answer.data.map((m) => this.project0(m)), total: Math.min(answer.pagination.totalCount, 10_000) };
  }

  /** The categories of a class (its own only, not the class), by name; kept CATEGORIES_KEPT_MS. */
  async categories(classId: number): Promise<ListedCategory[]> {
    const key = `${this.base} ${classId}`;
    const kept = keptCategories.get(key);
    if (kept && Date.now() - kept.at < CATEGORIES_KEPT_MS) return kept.list;
    const params = new URLSearchParams({ gameId: String(MINECRAFT), classId: String(classId) });
    const answer = await this.ask(`/v1/categories?${params}`, { method: "GET" }, data(z.array(categorySchema).check(z.maxLength(MAX_CATEGORIES))));
    const list = answer.data
      .filter((c) => !c.isClass && c.classId === classId)
      .map((c) => ({ id: String(c.id), name: c.name }))
      .sort((a, b) => a.name.localeCompare(b.name));
    keptCategories.set(key, { at: Date.now(), list });
    return list;
  }

  async project(idOrSlug: string): Promise<ModrinthProject> {
    const mod = (await this.ask(`/v1/mods/${numeric(idOrSlug)}`, { method: "GET" }, data(modSchema))).data;
    const description = await this.ask(`/v1/mods/${mod.id}/description`, { method: "GET" }, data(text(256 * 1024))).then(
      (d) => d.data,
      () => "",
    );
    return { ...this.project0(mod), body: htmlToText(description) };
  }

  async projects(ids: string[]): Promise<ModrinthProject[]> {
    if (ids.length === 0) return [];
    const mods = await this.ask("/v1/mods", json({ modIds: ids.map(numeric) }), data(z.array(modSchema)));
    return mods.data.map((m) => this.project0(m));
  }

  /** A mod's files for these loaders (any, when none) and game version, newest first. */
  async versions(projectId: string, loaders: readonly string[], gameVersion: string | null): Promise<ModrinthVersion[]> {
    const modId = numeric(projectId);
    await this.classOf(modId);
    const params = new URLSearchParams({ pageSize: "50" });
    if (gameVersion) params.set("gameVersion", gameVersion);
    const files = await this.ask(`/v1/mods/${modId}/files?${params}`, { method: "GET" }, data(z.array(fileSchema)));
    return files.data
      .map((f) => this.version0(f))
      .filter((v) => loaders.length === 0 || v.loaders.some((l) => loaders.includes(l)))
      .sort((a, b) => b.date_published.localeCompare(a.date_published));
  }

  async version(fileId: string): Promise<ModrinthVersion> {
    const files = await this.ask("/v1/mods/files", json({ fileIds: [numeric(fileId)] }), data(z.array(fileSchema)));
    const file = files.data[0];
    if (!file) throw new KilnError("ErrNotFound", { id: fileId });
    await this.classOf(file.modId);
    return this.version0(file);
  }

  /** A modpack (class 4471) by id or by the slug its page address carries; anything else is ErrFieldNotBetween. */
  async modpack(idOrSlug: string): Promise<{ id: number; title: string; latestFiles: CurseFile[] }> {
    let mod: CurseMod | undefined;
    if (/^[0-9]+$/.test(idOrSlug)) mod = (await this.ask(`/v1/mods/${numeric(idOrSlug)}`, { method: "GET" }, data(modSchema))).data;
    else {
      const params = new URLSearchParams({ gameId: String(MINECRAFT), classId: String(CLASS.modpacks), slug: idOrSlug });
      mod = (await this.ask(`/v1/mods/search?${params}`, { method: "GET" }, searchSchema)).data.find((m) => m.slug === idOrSlug);
      if (!mod) throw new KilnError("ErrNotFound", { id: idOrSlug.slice(0, 64) });
    }
    if (mod.classId !== CLASS.modpacks) throw new KilnError("ErrFieldNotBetween", { field: "modpack.projectId" });
    return { id: mod.id, title: mod.name, latestFiles: mod.latestFiles };
  }

  /** One file of a mod, as CurseForge lists it (a file of another mod is not found). */
  async file(modId: number, fileId: string): Promise<CurseFile> {
    const file = (await this.ask(`/v1/mods/${modId}/files/${numeric(fileId)}`, { method: "GET" }, data(fileSchema))).data;
    if (file.modId !== modId) throw new KilnError("ErrNotFound", { id: fileId });
    return file;
  }

  /** A modpack's files that have a server pack (a server pack itself, or a client pack linking one), published, newest first; at most 50. */
  async packFiles(modId: number): Promise<CurseFile[]> {
    const files = await this.ask(`/v1/mods/${modId}/files?pageSize=50`, { method: "GET" }, data(z.array(fileSchema)));
    return files.data
      .filter((f) => f.modId === modId && !f.isServerPack && f.serverPackFileId && isPublished(f))
      .sort((a, b) => Date.parse(b.fileDate) - Date.parse(a.fileDate));
  }

  /** The files these fingerprints are (files CurseForge does not know are absent), by fingerprint. */
  async versionsOfFingerprints(fingerprints: number[]): Promise<Map<number, ModrinthVersion>> {
    if (fingerprints.length === 0) return new Map();
    const answer = await this.ask(`/v1/fingerprints/${MINECRAFT}`, json({ fingerprints }), fingerprintSchema);
    await Promise.all([...new Set(answer.data.exactMatches.map((m) => m.file.modId))].map((modId) => this.classOf(modId)));
    return new Map(answer.data.exactMatches.filter((m) => m.file.fileFingerprint !== undefined).map((m) => [m.file.fileFingerprint!, this.version0(m.file)]));
  }

  private project0(mod: CurseMod): ModrinthProject {
    this.classes.set(mod.id, mod.classId ?? null);
    for (const file of mod.latestFiles) this.classes.set(file.modId, mod.classId ?? null);
    return {
      id: String(mod.id),
      slug: mod.slug ?? null,
      title: mod.name,
      description: mod.summary,
      body: "",
      icon_url: mod.logo?.thumbnailUrl ?? null,
      downloads: mod.downloadCount,
      categories: mod.categories.map((c) => c.slug),
      loaders: [],
      game_versions: [],
      project_type: mod.classId === CLASS.modpacks ? "modpack" : "mod",
      server_side: null,
      license: null,
    };
  }

  private version0(file: CurseFile): ModrinthVersion {
    const plugin = this.classes.get(file.modId) === CLASS.plugins;
    const named = file.gameVersions.map((v) => v.toLowerCase());
    const sha1 = file.hashes.find((h) => h.algo === 1)?.value.toLowerCase();
    const dependencyType = { 3: "required", 2: "optional", 5: "incompatible", 1: "embedded" } as const;
    return {
      id: String(file.id),
      project_id: String(file.modId),
      name: file.displayName,
      version_number: file.displayName || file.fileName,
      game_versions: file.gameVersions.filter((v) => /^\d/.test(v)),
      loaders: plugin ? [...BUKKIT_PLUGIN_LOADERS] : named.filter((v) => v in LOADER_TYPE),
      version_type: file.releaseType === 2 ? "beta" : file.releaseType === 3 ? "alpha" : "release",
      date_published: file.fileDate,
      dependencies: file.dependencies
        .filter((d) => d.relationType in dependencyType)
        .map((d) => ({ project_id: String(d.modId), version_id: null, file_name: null, dependency_type: dependencyType[d.relationType as keyof typeof dependencyType] })),
      files: [{ hashes: { ...(sha1 ? { sha1 } : {}) }, url: file.downloadUrl ?? "", filename: file.fileName, primary: true, size: file.fileLength }],
    };
  }

  /** The mod's class, asked once per mod (a file's answer does not carry it). */
  private async classOf(modId: number): Promise<void> {
    if (this.classes.has(modId)) return;
    const mod = (await this.ask(`/v1/mods/${modId}`, { method: "GET" }, data(modSchema))).data;
    this.classes.set(modId, mod.classId ?? null);
  }

  private ask<S extends z.ZodMiniType>(path: string, init: RequestInit, schema: S): Promise<z.infer<S>> {
    return sourceAnswer("CurseForge", `${this.base}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), accept: "application/json", "x-api-key": this.key, "user-agent": SOURCE_USER_AGENT } }, schema, this.timeoutMs);
  }

}

/** CurseForge names mods by number: anything else is not one of its ids. */
function numeric(value: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(value)) throw new KilnError("ErrNotFound", { id: value.slice(0, 64) });
  return Number(value);
}

const json = (body: unknown): RequestInit => ({ method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });

/**
 * CurseForge's descriptions are HTML: the page shows their text only (paragraphs kept as blank lines), never markup.
 * The description is a stranger's text: every step takes time in proportion to its length (a page
 * of `<` or `<script` never closed must not hold the panel for seconds).
 */
export function htmlToText(html: string): string {
  const text = withoutScripts(html).replace(/<\s*(br|\/p|\/div|\/h[1-6]|\/li)\s*\/?>/gi, "\n");
  // A tag runs to the next ">": after the last one, no "<" starts a tag (each would be looked for to the end).
  const end = text.lastIndexOf(">") + 1;
  return (text.slice(0, end).replace(/<[^>]*>/g, "") + text.slice(end))
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** <script> and <style> elements dropped with their content; each closing tag is looked for once (an element never closed stays, as its text). */
function withoutScripts(html: string): string {
  const open = /<(script|style)/gi;
  const unclosed = new Set<string>();
  let out = "";
  let from = 0;
  for (let m = open.exec(html); m; m = open.exec(html)) {
    const name = m[1]!.toLowerCase();
    // No closing tag after an earlier one: none after this one either.
    if (unclosed.has(name)) continue;
    const close = new RegExp(`<\\/${name}\\s*>`, "gi");
    close.lastIndex = open.lastIndex;
    if (!close.exec(html)) {
      unclosed.add(name);
      continue;
    }
    out += html.slice(from, m.index);
    from = open.lastIndex = close.lastIndex;
  }
  return out + html.slice(from);
}
