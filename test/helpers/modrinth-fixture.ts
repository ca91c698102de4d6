// A local stand-in for Modrinth's API v2 and its file host, answering with documents Modrinth
// really returned (recorded by other open-source projects; test/fixtures/modrinth/README.md names
// each file's origin and licence). Routes, query syntax, filters and error shapes follow Modrinth's
// server (labrinth, src/routes/v2): JSON arrays in the query (ids=["a","b"],
// loaders=["fabric"]), facets as an AND-list of OR-lists, a v2 404 with an empty body, 400s as
// {error, description}.
//
// The recorded files[] point at cdn.modrinth.com, which is out of reach here. So at start-up
// every recorded version gets small jars made here (a fabric.mod.json, plugin.yml or mods.toml
// naming the project), and its served copy says those jars' real sha1/sha512/size and a url on
// this stand-in's file host: a download can be verified end to end. The files on disk stay as
// recorded; only the in-memory copies are rewritten.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ZipFile } from "yazl";

const FIXTURES = join(import.meta.dir, "../fixtures/modrinth");

/** Recorded documents, highest priority first: the first copy of a project or version wins. */
const SOURCES = [
  "php-modrinth-api/get_project_dependencies_response.json",
  "php-modrinth-api/get_project_response.json",
  "mc-image-helper/project-fabric-api.json",
  "mc-image-helper/project-fabric-api-versions.trimmed.json",
  "mc-publish/projects.json",
  "mc-publish/versions.json",
  "mc-image-helper/modrinth-projects-fabric-api-cloth-config.json",
  "mc-image-helper/modrinth-project-version-cloth-config.json",
  "mc-image-helper/bulk-geyser.json",
  "mc-image-helper/project-geyser-only-betas.json",
  "mc-image-helper/project-nucledoom.json",
  "mc-image-helper/project-nucledoom-versions.json",
  "mc-image-helper/project-griefprevention.json",
  "mc-image-helper/project-griefprevention-versions.json",
  "mc-image-helper/project-discordsrv.json",
  "mc-image-helper/project-discordsrv-versions.json",
  "mc-image-helper/project-viaversion.json",
  "mc-image-helper/project-viaversion-versions.trimmed.json",
  "mc-image-helper/project-viabackwards.json",
  "mc-image-helper/project-viabackwards-versions.trimmed.json",
];
const SEARCH_SOURCE = "php-modrinth-api/search_projects_response.json";
/** GET /project/{id}/dependencies answers recorded for a project (the file does not say whose). */
const DEPENDENCIES_SOURCES: Record<string, string> = { YL57xq9U: "php-modrinth-api/get_project_dependencies_response.json" };

/** Recorded real projects the tests install by id: Geyser requires Fabric API; Lithium stands alone. */
export const MODRINTH = { geyser: "wKkoqHrH", fabricApi: "P7dR8mSH", lithium: "gvQqBUqZ" } as const;

export type DependencyType = "required" | "optional" | "incompatible" | "embedded";
export interface ModrinthDependency { version_id: string | null; project_id: string | null; file_name: string | null; dependency_type: DependencyType }
export interface ModrinthFile { hashes: { sha1: string; sha512: string }; url: string; filename: string; primary: boolean; size: number; file_type?: string | null; [field: string]: unknown }
export interface ModrinthVersion {
  id: string; project_id: string; name: string; version_number: string; version_type: "release" | "beta" | "alpha";
  featured: boolean; game_versions: string[]; loaders: string[]; date_published: string;
  dependencies: ModrinthDependency[]; files: ModrinthFile[]; [field: string]: unknown;
}
export interface ModrinthProject {
  id: string; slug: string; title: string; description: string; body: string; project_type: string;
  categories: string[]; additional_categories: string[]; loaders: string[]; game_versions: string[]; versions: string[];
  downloads: number; followers: number; icon_url: string | null; published: string; updated: string;
  license: { id: string }; client_side: string; server_side: string; gallery: { url: string; featured: boolean }[];
  color: number | null; [field: string]: unknown;
}
export interface SearchHit {
  project_id: string; project_type: string; slug: string; author: string; title: string; description: string;
  categories: string[]; display_categories: string[]; versions: string[]; downloads: number; follows: number;
  icon_url: string; date_created: string; date_modified: string; latest_version: string; license: string;
  client_side: string; server_side: string; gallery: string[]; featured_gallery: string | null; color: number | null;
}

export interface FixtureRequest { server: "api" | "cdn"; method: string; path: string; body?: unknown; userAgent: string | null }

export interface ModrinthFixtureOptions {
  /** Milliseconds every API answer waits (to see a page's loading state). */
  latencyMs?: number;
}

export interface ModrinthFixture {
  /** The API base, like https://api.modrinth.com/v2. */
  url: string;
  /** The file host's origin; files are at <cdn>/cdn/data/<project>/versions/<version>/<file name>. */
  cdn: string;
  /** Every request to either server, in order; path includes the query string. */
  requests: FixtureRequest[];
  /** The made jar a version's primary file is (what its served hashes and size describe). */
  jar(versionId: string): Uint8Array<ArrayBuffer>;
  /** The version document as served now (rewritten hashes, size, url). */
  version(versionId: string): ModrinthVersion;
  /** The project document as served now, by id or slug. */
  project(idOrSlug: string): ModrinthProject;
  /** Requests whose path starts with the prefix are accepted and never answered; with
   *  afterBytes, the status, headers and that many body bytes are sent, then nothing more. */
  hang(pathPrefix: string, options?: { afterBytes?: number }): void;
  /** The file host serves these bytes for the version's primary file; the document keeps the made jar's hashes. */
  setFileBytes(versionId: string, bytes: Uint8Array): void;
  /** The document says `size`; the file host streams `served` bytes (default 20 × size), without Content-Length. */
  announceSize(versionId: string, size: number, served?: number): void;
  /** Renames the version's primary file in its document (and its url); the file host serves it under that name. */
  setVersionFileName(versionId: string, name: string): void;
  setProjectBody(idOrSlug: string, text: string): void;
  /** Replaces a version's dependencies: no recorded document declares `incompatible`, so tests make such a pair here. */
  setDependencies(versionId: string, dependencies: ModrinthDependency[]): void;
  /**
   * A modpack project with one version whose .mrpack is made here (no pack is among the recorded
   * documents): its index lists the recorded versions' files as this stand-in serves them, and
   * its overrides hold the given texts. `index` may rewrite the index before it is packed.
   */
  addModpack(spec: ModpackSpec): Promise<{ projectId: string; versionId: string }>;
  /** A newer version of a pack `addModpack` made (its versionNumber, published after the others). */
  addModpackVersion(projectId: string, spec: ModpackSpec & { versionNumber: string }): Promise<{ projectId: string; versionId: string }>;
  stop(): void;
}

export interface ModpackSpec {
  slug: string;
  title: string;
  gameVersion: string;
  /** The index's dependency key and version: "fabric-loader", "0.15.11". */
  loader: [string, string];
  /** Recorded versions whose primary files the pack lists under mods/, with an env when given. */
  mods: { versionId: string; server?: "required" | "optional" | "unsupported" }[];
  overrides?: Record<string, string>;
  serverOverrides?: Record<string, string>;
  clientOverrides?: Record<string, string>;
  index?: (index: Record<string, unknown>) => unknown;
}

const BUKKIT_LOADERS = ["bukkit", "spigot", "paper", "purpur", "folia"];
const FIXED_MTIME = new Date("2024-01-01T00:00:00Z");
const CORS = { "access-control-allow-origin": "*" };

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES, file), "utf8"));
}

const isVersion = (doc: Record<string, unknown>): boolean => typeof doc.version_number === "string";
const isProject = (doc: Record<string, unknown>): boolean => typeof doc.slug === "string" && typeof doc.team === "string";

/** Every project and version of the recorded documents, first copy first. */
function loadRecorded(): { projects: Map<string, ModrinthProject>; versions: Map<string, ModrinthVersion> } {
  const projects = new Map<string, ModrinthProject>();
  const versions = new Map<string, ModrinthVersion>();
  const take = (doc: Record<string, unknown>) => {
    if (isVersion(doc)) {
      const v = doc as ModrinthVersion;
      if (!versions.has(v.id)) versions.set(v.id, structuredClone(v));
    } else if (isProject(doc)) {
      const p = doc as ModrinthProject;
      if (!projects.has(p.id)) projects.set(p.id, structuredClone(p));
    }
  };
  for (const file of SOURCES) {
    const doc = readJson(file) as Record<string, unknown> | Record<string, unknown>[];
    if (Array.isArray(doc)) doc.forEach(take);
    else if (Array.isArray(doc.projects) && Array.isArray(doc.versions)) [...doc.projects, ...doc.versions].forEach(take);
    else take(doc);
  }
  return { projects, versions };
}

/** A search hit built from a project document the way labrinth's LegacyResultSearchProject is:
 *  categories carry the loaders. The project document does not name its author, so author is "". */
function hitFromProject(p: ModrinthProject): SearchHit {
  const sorted = (list: string[]) => [...new Set(list)].sort();
  return {
    project_id: p.id, project_type: p.project_type, slug: p.slug, author: "", title: p.title, description: p.description,
    categories: sorted([...p.categories, ...p.additional_categories, ...p.loaders]),
    display_categories: sorted([...p.categories, ...p.loaders]),
    versions: p.game_versions, downloads: p.downloads, follows: p.followers, icon_url: p.icon_url ?? "",
    date_created: p.published, date_modified: p.updated, latest_version: p.game_versions.at(-1) ?? "",
    license: p.license.id, client_side: p.client_side, server_side: p.server_side,
    gallery: p.gallery.map((g) => g.url), featured_gallery: p.gallery.find((g) => g.featured)?.url ?? null, color: p.color,
  };
}

async function zipOf(entries: Record<string, string>): Promise<Uint8Array<ArrayBuffer>> {
  const zip = new ZipFile();
  for (const [path, text] of Object.entries(entries)) zip.addBuffer(Buffer.from(text), path, { mtime: FIXED_MTIME, mode: 0o100644 });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

const yamlString = (text: string) => `'${text.replaceAll("'", "''")}'`;
const fabricId = (slug: string) => {
  const id = slug.toLowerCase().replace(/[^a-z0-9_-]/g, "_");
  return /^[a-z]/.test(id) ? id : `mod_${id}`;
};
const pluginName = (title: string) => title.replace(/[^A-Za-z0-9_.-]/g, "") || "Plugin";

/** The entries of a made jar: what a loader reads to name the project, plus a note of its origin. */
function jarEntries(v: ModrinthVersion, file: ModrinthFile, projects: Map<string, ModrinthProject>): Record<string, string> {
  const project = projects.get(v.project_id);
  const slug = project?.slug ?? v.project_id;
  const title = project?.title ?? v.project_id;
  const entries: Record<string, string> = {
    "kiln-fixture.txt": `Made by Kiln's Modrinth stand-in for ${file.filename}: ${title} ${v.version_number} (project ${v.project_id}, version ${v.id}).\n`,
  };
  if (!file.primary) return entries;
  const required = v.dependencies
    .filter((d) => d.dependency_type === "required" && d.project_id !== null)
    .map((d) => projects.get(d.project_id ?? ""))
    .filter((p): p is ModrinthProject => p !== undefined);
  if (v.loaders.some((l) => l === "fabric" || l === "quilt")) {
    entries["fabric.mod.json"] = JSON.stringify({
      schemaVersion: 1, id: fabricId(slug), version: v.version_number, name: title, description: project?.description ?? "",
      depends: Object.fromEntries([["fabricloader", "*"], ...required.map((p) => [fabricId(p.slug), "*"])]),
    }, null, 2);
  }
  if (v.loaders.some((l) => BUKKIT_LOADERS.includes(l))) {
    const lines = [`name: ${pluginName(title)}`, `version: ${yamlString(v.version_number)}`, `main: kiln.fixture.${fabricId(slug).replaceAll("-", "_")}.Plugin`];
    if (required.length > 0) lines.push(`depend: [${required.map((p) => pluginName(p.title)).join(", ")}]`);
    entries["plugin.yml"] = `${lines.join("\n")}\n`;
  }
  if (v.loaders.some((l) => l === "forge" || l === "neoforge")) {
    entries["META-INF/mods.toml"] = `modLoader="javafml"\nloaderVersion="[1,)"\nlicense="fixture"\n[[mods]]\nmodId="${fabricId(slug).replaceAll("-", "_")}"\nversion="${v.version_number}"\ndisplayName="${title}"\n`;
  }
  return entries;
}

const hex = (algorithm: "sha1" | "sha512", bytes: Uint8Array) => new Bun.CryptoHasher(algorithm).update(bytes).digest("hex");

/** A JSON array of strings from a query value, or null where it is absent or not one (labrinth then filters nothing). */
function jsonStrings(value: string | null): string[] | null {
  if (value === null) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) && parsed.every((x) => typeof x === "string") ? parsed : null;
  } catch {
    return null;
  }
}

const errorAnswer = (status: number, error: string, description: string) =>
  Response.json({ error, description }, { status, headers: CORS });
const notFound = () => new Response("", { status: 404, headers: CORS });
const json = (value: unknown) => Response.json(value, { headers: CORS });
const byNewest = (a: ModrinthVersion, b: ModrinthVersion) => b.date_published.localeCompare(a.date_published);

/** Parses a facet as labrinth's parse_facet does: key, then ':' '=' '!=' '<' '<=' '>' '>=', then value. */
function parseFacet(facet: string): { key: string; op: string; value: string } | null {
  const match = /^([^:=<>!]*)(:|=|!=|<=|>=|<|>)(.*)$/s.exec(facet);
  return match ? { key: match[1]!, op: match[2]!, value: match[3]! } : null;
}

/** v2 facet keys are the hit's fields (labrinth renames versions→game_versions only for its v3 index). */
function facetMatches(hit: SearchHit, facet: string): boolean {
  const parsed = parseFacet(facet);
  if (!parsed) return false;
  const field = (hit as unknown as Record<string, unknown>)[parsed.key];
  const values = Array.isArray(field) ? field : [field];
  return values.some((v) => {
    if (parsed.op === ":" || parsed.op === "=") return String(v) === parsed.value;
    if (parsed.op === "!=") return String(v) !== parsed.value;
    const [a, b] = [Number(v), Number(parsed.value)];
    return parsed.op === "<" ? a < b : parsed.op === "<=" ? a <= b : parsed.op === ">" ? a > b : a >= b;
  });
}

const SORTS: Record<string, (a: SearchHit, b: SearchHit) => number> = {
  relevance: (a, b) => b.downloads - a.downloads,
  downloads: (a, b) => b.downloads - a.downloads,
  follows: (a, b) => b.follows - a.follows,
  updated: (a, b) => b.date_modified.localeCompare(a.date_modified),
  newest: (a, b) => b.date_created.localeCompare(a.date_created),
};

function search(hits: SearchHit[], query: URLSearchParams): Response {
  let facets: string[][][] = [];
  const rawFacets = query.get("facets");
  if (rawFacets !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawFacets);
    } catch (error) {
      return errorAnswer(400, "invalid_input", `Error while serializing or deserializing JSON: ${(error as Error).message}`);
    }
    const isFacet = (f: unknown) => typeof f === "string" || (Array.isArray(f) && f.every((x) => typeof x === "string"));
    if (!Array.isArray(parsed) || !parsed.every((inner) => Array.isArray(inner) && inner.every(isFacet))) {
      return errorAnswer(400, "invalid_input", "Error while serializing or deserializing JSON: expected a sequence of sequences of strings");
    }
    // An AND-list of OR-lists whose members may themselves be AND-lists (labrinth's three levels).
    facets = (parsed as (string | string[])[][]).map((or) => or.map((f) => (Array.isArray(f) ? f : [f])));
  }
  const index = query.get("index") ?? "relevance";
  const sort = SORTS[index];
  if (!sort) return errorAnswer(400, "invalid_input", `Invalid index to sort by: ${index}`);
  const offsetText = query.get("offset") ?? "0";
  const limitText = query.get("limit") ?? "10";
  if (!/^\d+$/.test(offsetText) || !/^\d+$/.test(limitText) || Number(limitText) === 0) {
    return errorAnswer(400, "invalid_input", "Error while parsing an integer: invalid digit found in string");
  }
  const limit = Math.min(Number(limitText), 100);
  const terms = (query.get("query") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const found = hits
    .filter((hit) => {
      const text = [hit.title, hit.slug, hit.description, hit.author, ...hit.categories].join(" ").toLowerCase();
      return terms.every((t) => text.includes(t));
    })
    .filter((hit) => facets.every((or) => or.some((and) => and.every((f) => facetMatches(hit, f)))))
    .sort(sort);
  // labrinth turns offset into a page of `limit` hits, so an offset inside a page starts at that page.
  const start = Math.floor(Number(offsetText) / limit) * limit;
  return json({ hits: found.slice(start, start + limit), offset: start, limit, total_hits: found.length });
}

export async function startModrinthFixture(options: ModrinthFixtureOptions = {}): Promise<ModrinthFixture> {
  const { projects, versions } = loadRecorded();
  const recordedSearch = (readJson(SEARCH_SOURCE) as { hits: SearchHit[] }).hits;
  const hits = [...recordedSearch, ...[...projects.values()].filter((p) => !recordedSearch.some((h) => h.project_id === p.id)).map(hitFromProject)];
  const recordedDependencies = new Map(
    Object.entries(DEPENDENCIES_SOURCES).map(([id, file]) => {
      const doc = readJson(file) as { projects: { id: string }[]; versions: { id: string }[] };
      return [id, { projects: doc.projects.map((p) => p.id), versions: doc.versions.map((v) => v.id) }] as const;
    }),
  );

  const requests: FixtureRequest[] = [];
  const hangs: { prefix: string; afterBytes?: number }[] = [];
  /** Made bytes of each file, by version id then file index. */
  const made = new Map<string, Uint8Array<ArrayBuffer>[]>();
  const fileBytes = new Map<string, Uint8Array<ArrayBuffer>>();
  const oversized = new Map<string, number>();

  const findProject = (idOrSlug: string) => projects.get(idOrSlug) ?? [...projects.values()].find((p) => p.slug === idOrSlug);
  const primaryIndex = (v: ModrinthVersion) => Math.max(0, v.files.findIndex((f) => f.primary));
  const mustVersion = (id: string) => {
    const v = versions.get(id);
    if (!v) throw new Error(`the Modrinth fixture has no version ${id}`);
    return v;
  };
  const mustProject = (idOrSlug: string) => {
    const p = findProject(idOrSlug);
    if (!p) throw new Error(`the Modrinth fixture has no project ${idOrSlug}`);
    return p;
  };

  const cors = (req: Request) => new Response(null, {
    status: 204,
    headers: { ...CORS, "access-control-allow-methods": "GET, POST, OPTIONS", "access-control-allow-headers": req.headers.get("access-control-request-headers") ?? "*" },
  });

  const hung = (path: string, answer: () => Response): Response | Promise<Response> => {
    const hang = hangs.find((h) => path.startsWith(h.prefix));
    if (!hang) return answer();
    if (hang.afterBytes === undefined) return new Promise<Response>(() => {});
    const full = answer();
    const first = hang.afterBytes;
    const stalled = new ReadableStream<Uint8Array>({
      async start(controller) {
        const bytes = new Uint8Array(await full.arrayBuffer());
        controller.enqueue(bytes.subarray(0, first));
        // Never closed: the rest never comes.
      },
    });
    return new Response(stalled, { status: full.status, headers: full.headers });
  };

  async function log(req: Request, server: FixtureRequest["server"]): Promise<{ url: URL; body: unknown }> {
    const url = new URL(req.url);
    const entry: FixtureRequest = { server, method: req.method, path: url.pathname + url.search, userAgent: req.headers.get("user-agent") };
    if (req.method === "POST") {
      const text = await req.text();
      try {
        entry.body = JSON.parse(text);
      } catch {
        entry.body = text;
      }
    }
    requests.push(entry);
    return { url, body: entry.body };
  }

  const projectVersions = (p: ModrinthProject) => [...versions.values()].filter((v) => v.project_id === p.id).sort(byNewest);

  /** The answer of GET /project/{id}/version, filtered as labrinth's version_list filters. */
  function versionList(p: ModrinthProject, query: URLSearchParams): Response {
    const loaders = jsonStrings(query.get("loaders"));
    const gameVersions = jsonStrings(query.get("game_versions"));
    const featured = query.get("featured");
    const type = query.get("version_type");
    return json(projectVersions(p).filter((v) =>
      (loaders === null || v.loaders.some((l) => loaders.includes(l)))
      && (gameVersions === null || v.game_versions.some((g) => gameVersions.includes(g)))
      && (featured === null || String(v.featured) === featured)
      && (type === null || v.version_type === type)));
  }

  function dependencies(p: ModrinthProject): Response {
    const recorded = recordedDependencies.get(p.id);
    const projectIds = new Set(recorded?.projects ?? []);
    const versionIds = new Set(recorded?.versions ?? []);
    if (!recorded) {
      for (const v of projectVersions(p)) {
        for (const d of v.dependencies) {
          if (d.project_id) projectIds.add(d.project_id);
          if (d.version_id) versionIds.add(d.version_id);
        }
      }
    }
    return json({
      projects: [...projectIds].map((id) => projects.get(id)).filter(Boolean),
      versions: [...versionIds].map((id) => versions.get(id)).filter(Boolean),
    });
  }

  /** Files by algorithm and hash (the rewritten hashes: what a client computes from a served jar). */
  const byHash = (algorithm: string, hash: string) =>
    [...versions.values()].find((v) => v.files.some((f) => (f.hashes as Record<string, string>)[algorithm] === hash.toLowerCase()));
  const defaultAlgorithm = (hashes: string[]) => ((hashes[0]?.length ?? 0) >= 128 ? "sha512" : "sha1");

  function newest(v: ModrinthVersion, filter: { loaders?: unknown; game_versions?: unknown; version_types?: unknown }): ModrinthVersion | undefined {
    const list = (value: unknown) => (Array.isArray(value) ? (value as string[]) : []);
    const [loaders, gameVersions, types] = [list(filter.loaders), list(filter.game_versions), list(filter.version_types)];
    const project = projects.get(v.project_id);
    const candidates = project ? projectVersions(project) : [v];
    return candidates.find((c) =>
      (loaders.length === 0 || c.loaders.some((l) => loaders.includes(l)))
      && (gameVersions.length === 0 || c.game_versions.some((g) => gameVersions.includes(g)))
      && (types.length === 0 || types.includes(c.version_type)));
  }

  type HashBody = { hashes: string[]; algorithm?: string; loaders?: unknown; game_versions?: unknown; version_types?: unknown };
  function hashBody(body: unknown): HashBody | Response {
    const b = body as Partial<HashBody> | null;
    if (typeof b !== "object" || b === null || !Array.isArray(b.hashes) || !b.hashes.every((h) => typeof h === "string")) {
      return errorAnswer(400, "invalid_input", "Error while validating input: Json deserialize error: missing field `hashes`");
    }
    return b as HashBody;
  }

  /**
   * GET /v2/tag/game_version as Modrinth shapes it, built from the Minecraft versions the recorded
   * documents name (none of the recorded answers is this list): newest first, a plain x.y[.z] a
   * release, anything else a snapshot. The date is the version's order, not Mojang's.
   */
  function gameVersionTags() {
    const named = new Set([...versions.values()].flatMap((v) => v.game_versions));
    const parts = (v: string) => v.split(/[^0-9]+/).filter(Boolean).map(Number);
    const newerFirst = (a: string, b: string) => {
      const [x, y] = [parts(a), parts(b)];
      for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? -1) !== (y[i] ?? -1)) return (y[i] ?? -1) - (x[i] ?? -1);
      return 0;
    };
    const sorted = [...named].sort(newerFirst);
    return sorted.map((version, i) => ({ version, version_type: /^\d+\.\d+(\.\d+)?$/.test(version) ? "release" : "snapshot", date: new Date(Date.UTC(2024, 0, 1) - i * 86_400_000).toISOString(), major: /^\d+\.\d+$/.test(version) }));
  }

  async function api(req: Request): Promise<Response> {
    const { url, body } = await log(req, "api");
    if (req.method === "OPTIONS") return cors(req);
    if (options.latencyMs) await Bun.sleep(options.latencyMs);
    return hung(url.pathname, () => route(req.method, url, body));
  }

  function route(method: string, url: URL, body: unknown): Response {
    const parts = url.pathname.split("/").slice(1).map((s) => decodeURIComponent(s));
    if (parts[0] !== "v2") return notFound();
    const [, what, id, sub, subId] = parts;
    const q = url.searchParams;
    if (method === "GET") {
      if (what === "search" && parts.length === 2) return search(hits, q);
      if ((what === "projects" || what === "versions") && parts.length === 2) {
        const raw = q.get("ids");
        if (raw === null) return errorAnswer(400, "invalid_input", "Error while validating input: Query deserialize error: missing field `ids`");
        let ids: unknown;
        try {
          ids = JSON.parse(raw);
        } catch (error) {
          return errorAnswer(400, "json_error", `Deserialization error: ${(error as Error).message}`);
        }
        if (!Array.isArray(ids) || !ids.every((x) => typeof x === "string")) return errorAnswer(400, "json_error", "Deserialization error: expected a sequence of strings");
        return what === "projects"
          ? json(ids.map((x) => findProject(x)).filter(Boolean))
          : json(ids.map((x) => versions.get(x)).filter(Boolean));
      }
      if (what === "project" && id !== undefined) {
        const p = findProject(id);
        if (!p) return notFound();
        if (parts.length === 3) return json(p);
        if (sub === "version" && parts.length === 4) return versionList(p, q);
        if (sub === "version" && parts.length === 5) {
          const found = projectVersions(p).reverse().find((v) => v.id === subId || v.version_number === subId);
          return found ? json(found) : notFound();
        }
        if (sub === "dependencies" && parts.length === 4) return dependencies(p);
        return notFound();
      }
      if (what === "version" && id !== undefined && parts.length === 3) {
        const v = versions.get(id);
        return v ? json(v) : notFound();
      }
      if (what === "tag" && id === "game_version" && parts.length === 3) return json(gameVersionTags());
      if (what === "version_file" && id !== undefined && parts.length === 3) {
        const v = byHash(q.get("algorithm") ?? "sha1", id);
        return v ? json(v) : notFound();
      }
      return notFound();
    }
    if (method === "POST") {
      if (what === "version_file" && id !== undefined && sub === "update" && parts.length === 4) {
        const v = byHash(q.get("algorithm") ?? "sha1", id);
        const update = v && newest(v, (body ?? {}) as HashBody);
        return update ? json(update) : notFound();
      }
      if (what === "version_files" && (parts.length === 2 || (parts.length === 3 && id === "update"))) {
        const b = hashBody(body);
        if (b instanceof Response) return b;
        const algorithm = b.algorithm ?? defaultAlgorithm(b.hashes);
        const answer: Record<string, ModrinthVersion> = {};
        for (const hash of b.hashes) {
          const v = byHash(algorithm, hash);
          const result = v && (id === "update" ? newest(v, b) : v);
          if (result) answer[hash.toLowerCase()] = result;
        }
        return json(answer);
      }
    }
    return notFound();
  }

  async function cdnFetch(req: Request): Promise<Response> {
    const { url } = await log(req, "cdn");
    if (req.method === "OPTIONS") return cors(req);
    const match = /^\/cdn\/data\/([^/]+)\/versions\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    const v = match ? versions.get(decodeURIComponent(match[2]!)) : undefined;
    const index = v && match && v.project_id === decodeURIComponent(match[1]!)
      ? v.files.findIndex((f) => f.filename === decodeURIComponent(match[3]!))
      : -1;
    if (!v || index < 0 || (req.method !== "GET" && req.method !== "HEAD")) return hung(url.pathname, () => new Response("Not Found", { status: 404 }));
    return hung(url.pathname, () => {
      const headers = { ...CORS, "content-type": "application/java-archive" };
      const own = made.get(v.id)![index]!;
      const isPrimary = index === primaryIndex(v);
      const served = isPrimary ? oversized.get(v.id) : undefined;
      if (served !== undefined) return new Response(padded(own, served), { headers });
      return new Response(isPrimary ? (fileBytes.get(v.id) ?? own) : own, { headers });
    });
  }

  /** `total` bytes, the jar then zeros, made chunk by chunk as the reader pulls (never held whole). */
  function padded(start: Uint8Array, total: number): ReadableStream<Uint8Array> {
    let sent = 0;
    const chunk = new Uint8Array(64 * 1024);
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= total) return controller.close();
        const size = Math.min(chunk.length, total - sent);
        const out = new Uint8Array(size);
        if (sent < start.length) out.set(start.subarray(sent, sent + size));
        sent += size;
        controller.enqueue(out);
      },
    });
  }

  // idleTimeout 0: a hung request stays open until the test ends it, not Bun's 10 s default.
  const apiServer = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: api });
  const cdnServer = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: cdnFetch });
  const cdn = `http://127.0.0.1:${cdnServer.port}`;
  const fileUrl = (v: ModrinthVersion, name: string) => `${cdn}/cdn/data/${v.project_id}/versions/${v.id}/${encodeURIComponent(name)}`;

  await Promise.all([...versions.values()].map(async (v) => {
    const bytes = await Promise.all(v.files.map((f) => zipOf(jarEntries(v, f, projects))));
    made.set(v.id, bytes);
    v.files.forEach((f, i) => {
      const b = bytes[i]!;
      f.hashes = { ...f.hashes, sha1: hex("sha1", b), sha512: hex("sha512", b) };
      f.size = b.length;
      f.url = fileUrl(v, f.filename);
    });
  }));

  /** A pack version made here: a new project unless `into` names one `addModpack` made. */
  async function packVersion(spec: ModpackSpec, into: string | null, versionNumber: string): Promise<{ projectId: string; versionId: string }> {
    const number = versions.size + 1;
    const projectId = into ?? `PACK${String(projects.size + 1).padStart(4, "0")}`;
    const versionId = `PKV${String(number).padStart(5, "0")}`;
    const files = spec.mods.map(({ versionId: id, server }) => {
      const v = mustVersion(id);
      const f = v.files[primaryIndex(v)]!;
      return { path: `mods/${f.filename}`, hashes: { sha1: f.hashes.sha1, sha512: f.hashes.sha512 }, env: server ? { client: "required", server } : undefined, downloads: [f.url], fileSize: f.size };
    });
    const index = { formatVersion: 1, game: "minecraft", versionId: versionNumber, name: spec.title, summary: `${spec.title}, made by Kiln's Modrinth stand-in`, files, dependencies: { minecraft: spec.gameVersion, [spec.loader[0]]: spec.loader[1] } };
    const prefixed = (prefix: string, entries: Record<string, string> = {}) => Object.fromEntries(Object.entries(entries).map(([path, text]) => [`${prefix}/${path}`, text]));
    const pack = await zipOf({ "modrinth.index.json": JSON.stringify(spec.index ? spec.index(index) : index, null, 2), ...prefixed("overrides", spec.overrides), ...prefixed("server-overrides", spec.serverOverrides), ...prefixed("client-overrides", spec.clientOverrides) });
    const loader = spec.loader[0].replace(/-loader$/, "");
    if (!into) {
      const project = { ...structuredClone(mustProject("fabric-api")), id: projectId, slug: spec.slug, title: spec.title, description: `${spec.title} (a modpack)`, body: "", project_type: "modpack", categories: [], additional_categories: [], loaders: [loader], game_versions: [spec.gameVersion], versions: [], downloads: 10 };
      projects.set(projectId, project);
      hits.push(hitFromProject(project));
    }
    mustProject(projectId).versions.push(versionId);
    // Each later version is published a day after the one before.
    const published = new Date(Date.UTC(2024, 5, 1) + number * 86_400_000).toISOString();
    const version: ModrinthVersion = {
      id: versionId, project_id: projectId, name: `${spec.title} ${versionNumber}`, version_number: versionNumber, version_type: "release", featured: true,
      game_versions: [spec.gameVersion], loaders: [loader], date_published: published, dependencies: [],
      files: [{ hashes: { sha1: hex("sha1", pack), sha512: hex("sha512", pack) }, url: "", filename: `${spec.slug}-${versionNumber}.mrpack`, primary: true, size: pack.length }],
    };
    version.files[0]!.url = fileUrl(version, version.files[0]!.filename);
    versions.set(versionId, version);
    made.set(versionId, [pack]);
    return { projectId, versionId };
  }

  return {
    url: `http://127.0.0.1:${apiServer.port}/v2`,
    cdn,
    requests,
    jar: (versionId) => made.get(mustVersion(versionId).id)![primaryIndex(mustVersion(versionId))]!,
    version: (versionId) => mustVersion(versionId),
    project: (idOrSlug) => mustProject(idOrSlug),
    hang: (pathPrefix, hangOptions = {}) => void hangs.push({ prefix: pathPrefix, afterBytes: hangOptions.afterBytes }),
    setFileBytes: (versionId, bytes) => void fileBytes.set(mustVersion(versionId).id, new Uint8Array(bytes)),
    announceSize: (versionId, size, served = 20 * size) => {
      const v = mustVersion(versionId);
      v.files[primaryIndex(v)]!.size = size;
      oversized.set(v.id, served);
    },
    setVersionFileName: (versionId, name) => {
      const v = mustVersion(versionId);
      const file = v.files[primaryIndex(v)]!;
      file.filename = name;
      file.url = fileUrl(v, name);
    },
    setProjectBody: (idOrSlug, text) => void (mustProject(idOrSlug).body = text),
    setDependencies: (versionId, deps) => void (mustVersion(versionId).dependencies = structuredClone(deps)),
    addModpack: (spec) => packVersion(spec, null, "1.0.0"),
    addModpackVersion: (projectId, spec) => packVersion(spec, mustProject(projectId).id, spec.versionNumber),
    stop: () => {
      apiServer.stop(true);
      cdnServer.stop(true);
    },
  };
}
