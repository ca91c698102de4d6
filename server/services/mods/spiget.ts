// Spiget's API (v2, https://spiget.org: SpigotMC's resources), as the panel asks it for the plugins
// browser. Its answers come from outside: each is read with a time limit and a size cap, no
// redirect followed, and checked against the shapes below (Spiget's own resource and version
// documents), then turned into the shapes the plans read (Modrinth's: ./modrinth). What Spiget
// can give, and so what Kiln offers from it:
// - a resource's latest file only, through Spiget's own file host (GET /resources/{id}/download
//   redirects there); a premium resource (sold on SpigotMC) or one hosted elsewhere (external)
//   cannot be downloaded through Spiget and is left out of searches and refused in plans;
// - no hash of any file, and no dependencies. So the panel pins the file when it plans it: it
//   downloads it once from Spiget's file host (the redirect followed only there or to the API's own
//   origin, nothing else), checks it is a jar (a zip) no larger than a change takes, and puts its
//   SHA-512 and exact size in the plan; the node then downloads it from its own allowed host and
//   places it only if its bytes are those (the file the user agreed to is the file placed);
// - SpigotMC lists the Minecraft versions a resource was tested on by minor version ("1.20"): a
//   server on 1.20.4 counts as tested on 1.20.
import { createHash } from "node:crypto";
import { KilnError } from "../../../core/errors";
import { ADDON_FILE_NAME, MAX_ADDON_BYTES } from "../../../core/mods/change";
import { BUKKIT_PLUGIN_LOADERS, SPIGET_FILE_HOST } from "../../../core/mods/types";
import { z } from "../../../core/zod";
import { htmlToText } from "./curseforge";
import type { ModrinthProject, ModrinthVersion } from "./modrinth";
import { SOURCE_TIMEOUT_MS, SOURCE_USER_AGENT, sourceAnswer } from "./source-answer";
import type { SourceSearch } from "./search-terms";

/** Kiln's sort names in Spiget's (descending; relevance is Spiget's id order, its default). */
const SORT: Record<string, string | undefined> = { relevance: undefined, downloads: "-downloads", updated: "-updateDate", newest: "-releaseDate" };
/** A file pinned at plan time is read within this long (a plugin is seldom more than a few MB). */
const PIN_TIMEOUT_MS = 60_000;
/** The bytes a zip (a jar) starts with. */
const ZIP_MAGIC = [0x50, 0x4b];

/** Kiln's id of a Spiget version: its resource's number and its own. */
const VERSION_ID = /^([1-9][0-9]{0,9})\.([1-9][0-9]{0,11})$/;
/** Files named by their origin in one listing (two questions each, as Hangar's hash lookups); the rest stand as files. */
export const MAX_ORIGIN_LOOKUPS = 25;

const text = (max: number) => z.string().check(z.maxLength(max));
const id = z.number().check(z.int(), z.gte(1));

const resourceSchema = z.object({
  id,
  name: text(512),
  tag: z._default(text(1024), ""),
  external: z._default(z.boolean(), false),
  premium: z._default(z.boolean(), false),
  file: z.nullish(z.object({ type: z._default(text(32), "") })),
  /** Base64 of the resource page's HTML (only in a resource's own answer). */
  description: z._default(text(512 * 1024), ""),
  testedVersions: z._default(z.array(text(64)), []),
  downloads: z._default(z.number(), 0),
  updateDate: z._default(z.number(), 0),
  category: z.nullish(z.object({ id })),
});
type SpigetResource = z.infer<typeof resourceSchema>;

const versionSchema = z.object({ id, name: text(256), releaseDate: z._default(z.number(), 0) });

export class SpigetClient {
  readonly source = "spiget" as const;

  constructor(
    private readonly base: string,
    private readonly timeoutMs = SOURCE_TIMEOUT_MS,
  ) {}

  /** Resources by name (all free ones, most downloaded first, without words); those Spiget cannot serve are left out. */
  async search(q: SourceSearch): Promise<{ hits: ModrinthProject[]; total: number }> {
    const size = q.limit;
    const params = new URLSearchParams({ size: String(size), page: String(Math.floor(q.offset / size) + 1) });
    const sort = SORT[q.sort] ?? (q.query ? undefined : "-downloads");
    if (sort) params.set("sort", sort);
    // Spiget reads the words as a regular expression: they are searched for as they are written.
    const path = q.query ? `/search/resources/${encodeURIComponent(q.query.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))}?field=name&${params}` : `/resources/free?${params}`;
    let total = 0;
    let found: SpigetResource[];
    try {
      found = await sourceAnswer("Spiget", `${this.base}${path}`, this.init(), z.array(resourceSchema).check(z.maxLength(100)), this.timeoutMs, (headers) => (total = Number(headers.get("x-total")) || 0));
    } catch (error) {
      // Spiget answers a search with nothing found as 404.
      if (error instanceof KilnError && error.code === "ErrNotFound") return { hits: [], total: 0 };
      throw error;
    }
    return { hits: found.filter(downloadable).map((r) => project0(r)), total: Math.min(Math.max(total, q.offset + found.length), 10_000) };
  }

  async project(resourceId: string): Promise<ModrinthProject> {
    return project0(await this.resource(resourceId), true);
  }

  async projects(ids: string[]): Promise<ModrinthProject[]> {
    return Promise.all([...new Set(ids)].map((one) => this.project(one)));
  }

  /** The resource's latest version (the only one Spiget serves), when it can be downloaded; none for other loaders. `gameVersion` is read against its tested versions, never a filter. */
  async versions(resourceId: string, loaders: readonly string[], gameVersion: string | null): Promise<ModrinthVersion[]> {
    if (loaders.length > 0 && !loaders.some((l) => BUKKIT_PLUGIN_LOADERS.includes(l))) return [];
    const resource = await this.resource(resourceId);
    if (!downloadable(resource)) return [];
    const latest = await this.get(`/resources/${resource.id}/versions/latest`, versionSchema);
    // Listed whatever the server runs: a plugin tested on older versions often runs on newer ones,
    // and the plan says when it was not tested on the server's.
    return [version0(resource, latest, gameVersion, this.download(resource))];
  }

  /** A version by Kiln's id for it (`<resource>.<version>`): Spiget serves the latest only, so an older one is refused. */
  async version(versionId: string): Promise<ModrinthVersion> {
    const match = VERSION_ID.exec(versionId);
    if (!match) throw new KilnError("ErrNotFound", { id: versionId.slice(0, 64) });
    const resource = await this.resource(match[1]!);
    const latest = await this.get(`/resources/${resource.id}/versions/latest`, versionSchema);
    if (String(latest.id) !== match[2]) throw new KilnError("ErrModSourceUnavailable", { source: "Spiget", reason: `${resource.name}: Spiget serves its latest version only` });
    if (!downloadable(resource)) throw new KilnError("ErrModSourceUnavailable", { source: "Spiget", reason: `${resource.name}: ${resource.premium ? "it is sold on SpigotMC" : "its file is hosted elsewhere"}` });
    return version0(resource, latest, null, this.download(resource));
  }

  /**
   * The versions of files the node placed from Spiget, by the version id its record holds
   * (`<resource>.<version>`), each under its `key`; an id Spiget no longer knows is absent.
   */
  async versionsOfOrigins(placed: { key: string; versionId: string }[]): Promise<Record<string, ModrinthVersion>> {
    const found: Record<string, ModrinthVersion> = {};
    await Promise.all(
      placed.slice(0, MAX_ORIGIN_LOOKUPS).map(async ({ key, versionId }) => {
        const match = VERSION_ID.exec(versionId);
        if (!match) return;
        try {
          const resource = await this.resource(match[1]!);
          const version = await this.get(`/resources/${resource.id}/versions/${match[2]}`, versionSchema);
          found[key] = version0(resource, version, null, this.download(resource));
        } catch (error) {
          if (error instanceof KilnError && error.code === "ErrNotFound") return;
          throw error;
        }
      }),
    );
    return found;
  }

  /**
   * The version with its file pinned: downloaded once from Spiget's file host, checked to be a jar
   * within MAX_ADDON_BYTES, its SHA-512 and exact size and the host's URL put in the plan.
   */
  async pin(version: ModrinthVersion): Promise<ModrinthVersion> {
    const file = version.files[0]!;
    const unavailable = (reason: string) => new KilnError("ErrModSourceUnavailable", { source: "Spiget", reason: `${file.filename}: ${reason}` });
    const signal = AbortSignal.timeout(PIN_TIMEOUT_MS);
    let response: Response;
    let target: string;
    try {
      const asked = await fetch(file.url, { redirect: "manual", signal, headers: { "user-agent": SOURCE_USER_AGENT } });
      await asked.body?.cancel();
      const location = asked.headers.get("location");
      if (asked.status < 300 || asked.status >= 400 || !location) throw unavailable(`Spiget did not send its file (HTTP ${asked.status})`);
      target = new URL(location, file.url).href;
      const origin = new URL(target).origin;
      if (origin !== SPIGET_FILE_HOST && origin !== new URL(this.base).origin) throw unavailable("Spiget sent it to another host");
      response = await fetch(target, { redirect: "error", signal, headers: { "user-agent": SOURCE_USER_AGENT } });
    } catch (error) {
      if (error instanceof KilnError) throw error;
      throw unavailable(signal.aborted ? "no answer in time" : "not reachable");
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw unavailable(`HTTP ${response.status}`);
    }
    const hash = createHash("sha512");
    const reader = response.body.getReader();
    let size = 0;
    let head: number[] = [];
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > MAX_ADDON_BYTES) throw unavailable("its file is larger than Kiln downloads");
        if (head.length < ZIP_MAGIC.length) head = [...head, ...value.subarray(0, ZIP_MAGIC.length - head.length)];
        hash.update(value);
      }
    } catch (error) {
      if (error instanceof KilnError) throw error;
      throw unavailable("the download broke off");
    } finally {
      await reader.cancel().catch(() => undefined);
    }
    if (!ZIP_MAGIC.every((b, i) => head[i] === b)) throw unavailable("its file is not a jar");
    return { ...version, files: [{ ...file, url: target, size, hashes: { sha512: hash.digest("hex") } }] };
  }

  /** Where Spiget sends a resource's file from (its latest). */
  private download(resource: SpigetResource): string {
    return `${this.base}/resources/${resource.id}/download`;
  }

  private resource(resourceId: string): Promise<SpigetResource> {
    if (!/^[1-9][0-9]{0,9}$/.test(resourceId)) throw new KilnError("ErrNotFound", { id: resourceId.slice(0, 64) });
    return this.get(`/resources/${resourceId}`, resourceSchema);
  }

  private get<S extends z.ZodMiniType>(path: string, schema: S): Promise<z.infer<S>> {
    return sourceAnswer("Spiget", `${this.base}${path}`, this.init(), schema, this.timeoutMs);
  }

  private init(): RequestInit {
    return { method: "GET", headers: { accept: "application/json", "user-agent": SOURCE_USER_AGENT } };
  }
}

/** Spiget can serve the file: free, on SpigotMC itself (not elsewhere), a jar. */
function downloadable(r: SpigetResource): boolean {
  return !r.premium && !r.external && r.file?.type === ".jar";
}

function project0(r: SpigetResource, withBody = false): ModrinthProject {
  return {
    id: String(r.id),
    slug: null,
    title: r.name,
    description: r.tag,
    body: withBody ? htmlToText(Buffer.from(r.description, "base64").toString("utf8")) : "",
    icon_url: null,
    downloads: r.downloads,
    categories: [],
    loaders: [...BUKKIT_PLUGIN_LOADERS],
    game_versions: r.testedVersions,
    project_type: "plugin",
    server_side: "required",
    license: null,
  };
}

/** The latest version as a version Kiln plans with; its file's hash and size come when it is pinned. */
function version0(r: SpigetResource, latest: z.infer<typeof versionSchema>, gameVersion: string | null, download: string): ModrinthVersion {
  const tested = (v: string) => r.testedVersions.some((t) => t === v || (/^\d+\.\d+$/.test(t) && v.startsWith(`${t}.`)));
  const fileName = `${r.name}-${latest.name}`.replace(/[^A-Za-z0-9._+\-()[\] ]/g, "").replace(/^[^A-Za-z0-9]+/, "").slice(0, 140) + ".jar";
  return {
    id: `${r.id}.${latest.id}`,
    project_id: String(r.id),
    name: latest.name,
    version_number: latest.name,
    game_versions: [...r.testedVersions, ...(gameVersion && tested(gameVersion) && !r.testedVersions.includes(gameVersion) ? [gameVersion] : [])],
    loaders: [...BUKKIT_PLUGIN_LOADERS],
    version_type: "release",
    date_published: latest.releaseDate ? new Date(latest.releaseDate * 1000).toISOString() : "",
    dependencies: [],
    files: [{ hashes: {}, url: download, filename: ADDON_FILE_NAME.test(fileName) ? fileName : `spiget-${r.id}.jar`, primary: true, size: 0 }],
  };
}
