// Modrinth's API (v2), as the panel asks it: search, projects, versions, and files recognised by
// their hash. Its answers come from outside: each is read with a time limit and a size cap and
// checked against the shape below (fields we do not read are dropped); anything else is
// ErrModSourceUnavailable, never an exception from deeper down.
import { z } from "../../../core/zod";
import { SOURCE_USER_AGENT, sourceAnswer, SOURCE_TIMEOUT_MS } from "./source-answer";

const text = (max: number) => z.string().check(z.maxLength(max));

const fileSchema = z.object({
  hashes: z.object({ sha1: z.optional(z.string()), sha256: z.optional(z.string()), sha512: z.optional(z.string()) }),
  url: text(2048),
  filename: text(512),
  primary: z._default(z.boolean(), false),
  size: z.number(),
});

const dependencySchema = z.object({
  version_id: z.nullish(z.string()),
  project_id: z.nullish(z.string()),
  file_name: z.nullish(z.string()),
  dependency_type: z.enum(["required", "optional", "incompatible", "embedded"]),
});

export const versionSchema = z.object({
  id: text(64),
  project_id: text(64),
  name: z._default(text(512), ""),
  version_number: text(256),
  game_versions: z.array(text(64)),
  loaders: z.array(text(64)),
  version_type: z._default(z.enum(["release", "beta", "alpha"]), "release"),
  date_published: z._default(text(64), ""),
  dependencies: z._default(z.array(dependencySchema), []),
  files: z.array(fileSchema),
});
export type ModrinthVersion = z.infer<typeof versionSchema>;

const hitSchema = z.object({
  project_id: text(64),
  slug: z.nullish(text(256)),
  title: text(512),
  description: z._default(text(4096), ""),
  downloads: z._default(z.number(), 0),
  icon_url: z.nullish(text(2048)),
  categories: z._default(z.array(text(64)), []),
  project_type: z._default(text(64), "mod"),
  date_modified: z.nullish(text(64)),
});
export type ModrinthHit = z.infer<typeof hitSchema>;

const searchSchema = z.object({ hits: z.array(hitSchema), total_hits: z.number(), offset: z.number(), limit: z.number() });

export const projectSchema = z.object({
  id: text(64),
  slug: z.nullish(text(256)),
  title: text(512),
  description: z._default(text(4096), ""),
  body: z._default(text(256 * 1024), ""),
  icon_url: z.nullish(text(2048)),
  downloads: z._default(z.number(), 0),
  categories: z._default(z.array(text(64)), []),
  loaders: z._default(z.array(text(64)), []),
  game_versions: z._default(z.array(text(64)), []),
  project_type: z._default(text(64), "mod"),
  server_side: z.nullish(text(32)),
  license: z.nullish(z.object({ id: z._default(text(128), "") })),
});
export type ModrinthProject = z.infer<typeof projectSchema>;

const gameVersionsSchema = z.array(z.object({ version: text(64), version_type: text(32) })).check(z.maxLength(5000));

export interface SearchQuery {
  query: string;
  /** Facets as Modrinth takes them: an AND of ORs ("categories:fabric", "versions:1.20.1", "project_type:mod"). */
  facets: string[][];
  index: "relevance" | "downloads" | "updated" | "newest" | "follows";
  offset: number;
  limit: number;
}

export class ModrinthClient {
  readonly source = "modrinth" as const;
  /** `timeoutMs`: how long an answer may take (a page rendered on the server waits less than the API). */
  constructor(
    private readonly base: string,
    private readonly timeoutMs = SOURCE_TIMEOUT_MS,
  ) {}

  search(q: SearchQuery): Promise<z.infer<typeof searchSchema>> {
    const params = new URLSearchParams({ query: q.query, facets: JSON.stringify(q.facets), index: q.index, offset: String(q.offset), limit: String(q.limit) });
    return this.get(`/search?${params}`, searchSchema);
  }

  project(idOrSlug: string): Promise<ModrinthProject> {
    return this.get(`/project/${encodeURIComponent(idOrSlug)}`, projectSchema);
  }

  projects(ids: string[]): Promise<ModrinthProject[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.get(`/projects?${new URLSearchParams({ ids: JSON.stringify(ids) })}`, z.array(projectSchema));
  }

  /** A project's versions for these loaders (any, when none) and game version, newest first (Modrinth's order). */
  versions(projectId: string, loaders: readonly string[], gameVersion: string | null): Promise<ModrinthVersion[]> {
    const params = new URLSearchParams();
    if (loaders.length > 0) params.set("loaders", JSON.stringify(loaders));
    if (gameVersion) params.set("game_versions", JSON.stringify([gameVersion]));
    return this.get(`/project/${encodeURIComponent(projectId)}/version?${params}`, z.array(versionSchema));
  }

  version(id: string): Promise<ModrinthVersion> {
    return this.get(`/version/${encodeURIComponent(id)}`, versionSchema);
  }

  /** The versions these files belong to, by their SHA-512 (files Modrinth does not know are absent). */
  versionsOfFiles(sha512s: string[]): Promise<Record<string, ModrinthVersion>> {
    if (sha512s.length === 0) return Promise.resolve({});
    return this.post("/version_files", { hashes: sha512s, algorithm: "sha512" }, z.record(z.string(), versionSchema));
  }

  /** For each file, the newest version of its project for these loaders and game version. */
  updatesOfFiles(sha512s: string[], loaders: readonly string[], gameVersion: string | null): Promise<Record<string, ModrinthVersion>> {
    if (sha512s.length === 0) return Promise.resolve({});
    return this.post("/version_files/update", { hashes: sha512s, algorithm: "sha512", loaders, ...(gameVersion ? { game_versions: [gameVersion] } : {}) }, z.record(z.string(), versionSchema));
  }

  /** Minecraft's versions as Modrinth lists them (newest first), releases and snapshots. */
  gameVersions(): Promise<z.infer<typeof gameVersionsSchema>> {
    return this.get("/tag/game_version", gameVersionsSchema);
  }

  private get<S extends z.ZodMiniType>(path: string, schema: S): Promise<z.infer<S>> {
    return this.ask(path, { method: "GET" }, schema);
  }

  private post<S extends z.ZodMiniType>(path: string, body: unknown, schema: S): Promise<z.infer<S>> {
    return this.ask(path, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } }, schema);
  }

  private ask<S extends z.ZodMiniType>(path: string, init: RequestInit, schema: S): Promise<z.infer<S>> {
    // Modrinth asks every client to name itself.
    return sourceAnswer("Modrinth", `${this.base}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), "user-agent": SOURCE_USER_AGENT } }, schema, this.timeoutMs);
  }
}
