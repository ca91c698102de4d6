// Hangar's API (v1, PaperMC's plugin repository: https://hangar.papermc.io/api-docs), as the panel
// asks it for the plugins browser, anonymously (public projects need no key). Its answers come
// from outside: each is read with a time limit and a size cap, no redirect followed, and checked
// against the shapes below (Hangar's own API model: Project, Version, PlatformVersionDownload,
// FileInfo, PluginDependency), then turned into the shapes the plans read (Modrinth's project and
// version: ./modrinth), so a plan is made the same way whatever the source:
// - Kiln reads a version's Paper download only (Hangar's other platforms, Velocity and Waterfall,
//   are proxies); a version with none is not a version for a Minecraft server. Its file carries the
//   SHA-256 Hangar gives; one hosted elsewhere (externalUrl) has neither hash nor Hangar's URL, so
//   it cannot be installed here (the plan says so);
// - its Paper platform versions are the Minecraft versions it runs on; its channel's UNSTABLE flag
//   makes it a beta, else a release;
// - a Paper plugin dependency on a Hangar project is required or optional as Hangar says; one
//   outside Hangar (no project id) is named by its name for the plan's warning.
import { KilnError } from "../../../core/errors";
import { z } from "../../../core/zod";
import type { ModrinthProject, ModrinthVersion } from "./modrinth";
import { SOURCE_TIMEOUT_MS, SOURCE_USER_AGENT, sourceAnswer } from "./source-answer";
import type { SourceSearch } from "./search-terms";

/** Hangar's name of the platform Kiln's plugin servers run (Purpur and Paper load its plugins). */
const PAPER = "PAPER";
/** The loaders a Paper download runs on, in Modrinth's names (core/mods/types LOADERS_OF). */
const PAPER_LOADERS = ["paper"];
/** Kiln's sort names in Hangar's (descending; none: Hangar's own relevance). */
const SORT: Record<string, string | undefined> = { relevance: undefined, downloads: "-downloads", updated: "-updated", newest: "-newest" };
/** Versions read per project: newest first, as many as Modrinth's and CurseForge's lists give. */
const VERSIONS_PER_PAGE = 25;
/** Files looked up by hash in one listing (two questions each); the rest wait for the next look. */
export const MAX_HASH_LOOKUPS = 25;
/** Pages of a project's versions searched for a file's hash (an older file is left unnamed). */
const HASH_PAGES = 4;

const text = (max: number) => z.string().check(z.maxLength(max));
const id = z.number().check(z.int(), z.gte(1));
const SHA256 = /^[0-9a-f]{64}$/;

const projectSchema = z.object({
  id,
  name: text(512),
  namespace: z.object({ owner: text(256), slug: text(256) }),
  stats: z._default(z.object({ downloads: z._default(z.number(), 0) }), { downloads: 0 }),
  category: z.nullish(text(64)),
  description: z.nullish(text(4096)),
  avatarUrl: z.nullish(text(2048)),
  mainPageContent: z.nullish(text(256 * 1024)),
  lastUpdated: z.nullish(text(64)),
});
type HangarProject = z.infer<typeof projectSchema>;

const downloadSchema = z.object({
  fileInfo: z.nullish(z.object({ name: text(512), sizeBytes: z.number(), sha256Hash: z.nullish(text(128)) })),
  externalUrl: z.nullish(text(2048)),
  downloadUrl: z.nullish(text(2048)),
});

const dependencySchema = z.object({ name: text(256), projectId: z.nullish(id), required: z._default(z.boolean(), false), externalUrl: z.nullish(text(2048)) });

const versionSchema = z.object({
  id,
  projectId: id,
  name: text(256),
  createdAt: z._default(text(64), ""),
  channel: z.nullish(z.object({ name: z._default(text(128), ""), flags: z._default(z.array(text(64)), []) })),
  downloads: z._default(z.record(z.string(), downloadSchema), {}),
  pluginDependencies: z._default(z.record(z.string(), z.array(dependencySchema)), {}),
  platformDependencies: z._default(z.record(z.string(), z.array(text(64))), {}),
});
type HangarVersion = z.infer<typeof versionSchema>;

const page = <S extends z.ZodMiniType>(schema: S) => z.object({ pagination: z.object({ count: z.number() }), result: z.array(schema) });

export class HangarClient {
  readonly source = "hangar" as const;

  constructor(
    private readonly base: string,
    private readonly timeoutMs = SOURCE_TIMEOUT_MS,
  ) {}

  async search(q: SourceSearch): Promise<{ hits: ModrinthProject[]; total: number }> {
    const params = new URLSearchParams({ q: q.query, platform: PAPER, limit: String(q.limit), offset: String(q.offset) });
    if (q.gameVersion) params.set("version", q.gameVersion);
    if (q.category) params.set("category", q.category);
    const sort = SORT[q.sort];
    if (sort) params.set("sort", sort);
    const answer = await this.get(`/projects?${params}`, page(projectSchema));
    return { hits: answer.result.map(project0), total: Math.min(answer.pagination.count, 10_000) };
  }

  async project(idOrSlug: string): Promise<ModrinthProject> {
    return project0(await this.get(`/projects/${encodeURIComponent(idOrSlug)}`, projectSchema));
  }

  /** Hangar answers one project at a time: these are asked side by side. */
  async projects(ids: string[]): Promise<ModrinthProject[]> {
    return Promise.all([...new Set(ids)].map((one) => this.project(one)));
  }

  /** A project's versions with a Paper download for this game version (any, when none), newest first; none for other loaders. */
  async versions(projectId: string, loaders: readonly string[], gameVersion: string | null): Promise<ModrinthVersion[]> {
    if (loaders.length > 0 && !loaders.some((l) => PAPER_LOADERS.includes(l))) return [];
    const params = new URLSearchParams({ platform: PAPER, limit: String(VERSIONS_PER_PAGE), offset: "0" });
    if (gameVersion) params.set("platformVersion", gameVersion);
    const answer = await this.get(`/projects/${encodeURIComponent(projectId)}/versions?${params}`, page(versionSchema));
    return newestFirst(answer.result.flatMap((v) => version0(v) ?? []));
  }

  async version(versionId: string): Promise<ModrinthVersion> {
    const version = version0(await this.get(`/versions/${numeric(versionId)}`, versionSchema));
    if (!version) throw new KilnError("ErrNotFound", { id: versionId });
    return version;
  }

  /**
   * The versions these files are, by their SHA-256 (files Hangar does not know are absent): Hangar
   * names the project of a hash, and the project's versions name the file. At most
   * MAX_HASH_LOOKUPS files are asked.
   */
  async versionsOfFiles(sha256s: string[]): Promise<Record<string, ModrinthVersion>> {
    const found: Record<string, ModrinthVersion> = {};
    await Promise.all(
      sha256s.slice(0, MAX_HASH_LOOKUPS).map(async (sha256) => {
        if (!SHA256.test(sha256)) return;
        let project: HangarProject;
        try {
          project = await this.get(`/versions/hash/${sha256}`, projectSchema);
        } catch (error) {
          if (error instanceof KilnError && error.code === "ErrNotFound") return;
          throw error;
        }
        for (let at = 0; at < HASH_PAGES; at++) {
          const params = new URLSearchParams({ platform: PAPER, limit: String(VERSIONS_PER_PAGE), offset: String(at * VERSIONS_PER_PAGE) });
          const versions = await this.get(`/projects/${project.id}/versions?${params}`, page(versionSchema));
          const match = versions.result.find((v) => v.projectId === project.id && v.downloads[PAPER]?.fileInfo?.sha256Hash?.toLowerCase() === sha256);
          const version = match && version0(match);
          if (version) return void (found[sha256] = version);
          if (versions.result.length < VERSIONS_PER_PAGE) return;
        }
      }),
    );
    return found;
  }

  private get<S extends z.ZodMiniType>(path: string, schema: S): Promise<z.infer<S>> {
    return sourceAnswer("Hangar", `${this.base}${path}`, { method: "GET", headers: { accept: "application/json", "user-agent": SOURCE_USER_AGENT } }, schema, this.timeoutMs);
  }
}

function project0(p: HangarProject): ModrinthProject {
  return {
    id: String(p.id),
    slug: p.namespace.slug,
    title: p.name,
    description: p.description ?? "",
    /** Markdown, as Modrinth's: the page renders it as text. */
    body: p.mainPageContent ?? "",
    icon_url: p.avatarUrl ?? null,
    downloads: p.stats.downloads,
    categories: p.category ? [p.category] : [],
    loaders: PAPER_LOADERS,
    game_versions: [],
    project_type: "plugin",
    server_side: "required",
    license: null,
  };
}

/** The version's Paper download as a version Kiln plans with; null when it has none. */
function version0(v: HangarVersion): ModrinthVersion | null {
  const download = v.downloads[PAPER];
  if (!download) return null;
  const file = download.fileInfo;
  const sha256 = file?.sha256Hash?.toLowerCase();
  return {
    id: String(v.id),
    project_id: String(v.projectId),
    name: v.name,
    version_number: v.name,
    game_versions: v.platformDependencies[PAPER] ?? [],
    loaders: PAPER_LOADERS,
    version_type: v.channel?.flags.includes("UNSTABLE") ? "beta" : "release",
    date_published: v.createdAt,
    dependencies: (v.pluginDependencies[PAPER] ?? []).map((d) => ({
      project_id: d.projectId ? String(d.projectId) : null,
      version_id: null,
      file_name: d.projectId ? null : d.name,
      dependency_type: d.required ? ("required" as const) : ("optional" as const),
    })),
    // A download hosted elsewhere has no file Hangar vouches for: no URL, no hash (the plan refuses it).
    files: [
      {
        hashes: sha256 && SHA256.test(sha256) ? { sha256 } : {},
        url: file && download.downloadUrl ? download.downloadUrl : "",
        filename: file?.name ?? `${v.name}.jar`,
        primary: true,
        size: file?.sizeBytes ?? 0,
      },
    ],
  };
}

function newestFirst(versions: ModrinthVersion[]): ModrinthVersion[] {
  return versions.sort((a, b) => (Date.parse(b.date_published) || 0) - (Date.parse(a.date_published) || 0));
}

/** Hangar numbers its versions: anything else is not one of its ids. */
function numeric(value: string): string {
  if (!/^[1-9][0-9]{0,15}$/.test(value)) throw new KilnError("ErrNotFound", { id: value.slice(0, 64) });
  return value;
}
