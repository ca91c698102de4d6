// A local stand-in for Hangar's API (v1, PaperMC's plugin repository) and its file host, for the
// plugins browser's tests. No recorded answer of Hangar's API with a known licence was found, so
// its answers are built here in the shapes Hangar's own API model defines (HangarMC/Hangar @
// d9573a3a79985ac7d924aa178d0fd51ba83f6f31, MIT: backend/src/main/java/io/papermc/hangar/model/api/
// project/Project.java and ProjectCompact.java, project/version/Version.java,
// PlatformVersionDownload.java, FileInfo.java, PluginDependency.java, Pagination.java), with the
// query parameters its controllers read (q, platform, version, sort, limit, offset;
// platformVersion for versions) and its routes (/projects, /projects/{slugOrId},
// /projects/{slugOrId}/versions, /versions/{id}, /versions/hash/{sha256}). Every answer carries
// the model's fields, those Kiln does not read too, so a schema that reads more than it should
// fails here. Each file is a small jar of its own, its SHA-256 and size in the version's fileInfo,
// served at Hangar's CDN path (`<cdn>/plugins/<owner>/<slug>/versions/<name>/PAPER/<file>`).
import { createHash } from "node:crypto";

type Json = Record<string, any>;

export interface HangarFixture {
  /** The API's base URL (…/api/v1), as the panel's modSources setting takes it. */
  url: string;
  /** The file host's origin (the node's sources.hangarCdn). */
  cdn: string;
  requests: { path: string; host: "api" | "cdn" }[];
  /** A project as served (changed in place by attack tests). */
  project(id: number): Json;
  /** A version as served (changed in place by attack tests). */
  version(id: number): Json;
  /** The bytes served for a version's Paper file. */
  jar(versionId: number): Uint8Array<ArrayBuffer>;
  /** Serves other bytes for a version's file than its hash says. */
  corrupt(versionId: number): void;
  /** Answers a hash lookup of `sha256` with this project, whatever its versions hold. */
  forgeHash(sha256: string, projectId: number): void;
  stop(): void;
}

export const HANGAR = { viaVersion: 101, viaBackwards: 102, maintenance: 103, velocityOnly: 104 } as const;

const at = (day: number) => new Date(Date.UTC(2024, 5, day)).toISOString();
const stats = (downloads: number) => ({ views: downloads * 3, downloads, recentViews: 10, recentDownloads: 5, stars: 7, watchers: 2 });
const channel = (name: string, unstable: boolean) => ({ createdAt: at(1), name, description: `${name} builds`, color: unstable ? "#FFC800" : "#009600", flags: unstable ? ["UNSTABLE"] : ["PINNED"] });

function project(id: number, owner: string, slug: string, description: string, downloads: number, category: string, platforms: Record<string, string[]>): Json {
  return {
    createdAt: at(1),
    id,
    name: slug,
    namespace: { owner, slug },
    stats: stats(downloads),
    category,
    lastUpdated: at(20),
    visibility: "public",
    avatarUrl: `https://hangarcdn.papermc.io/avatars/project/${id}.webp`,
    description,
    publishedAt: at(1),
    userActions: { starred: false, watching: false, flagged: false },
    settings: { links: [], tags: [], license: { name: "GPL", url: null, type: "GPL" }, keywords: [], sponsors: "", donation: { enable: false, subject: "" } },
    supportedPlatforms: platforms,
    mainPageContent: `# ${slug}\n\n${description}\n\nMade by ${owner}.`,
    memberNames: [owner],
  };
}

interface VersionSpec {
  id: number;
  projectId: number;
  name: string;
  day: number;
  unstable?: boolean;
  gameVersions: string[];
  dependencies?: { name: string; projectId: number | null; required: boolean; externalUrl?: string }[];
  /** Hosted elsewhere: no file on Hangar. */
  external?: boolean;
  /** Velocity only: no Paper download. */
  velocity?: boolean;
}

export async function startHangarFixture(): Promise<HangarFixture> {
  const projects = new Map<number, Json>([
    [HANGAR.viaVersion, project(HANGAR.viaVersion, "ViaVersion", "ViaVersion", "Allow newer clients to join older server versions.", 1_250_000, "misc", { PAPER: ["1.20.4", "1.20.6", "1.21", "1.21.1"], VELOCITY: ["3.3"] })],
    [HANGAR.viaBackwards, project(HANGAR.viaBackwards, "ViaVersion", "ViaBackwards", "Allow older clients to join newer server versions.", 640_000, "misc", { PAPER: ["1.20.4", "1.20.6", "1.21", "1.21.1"] })],
    [HANGAR.maintenance, project(HANGAR.maintenance, "kennytv", "Maintenance", "Enable maintenance mode with a custom motd and icon.", 98_000, "admin_tools", { PAPER: ["1.20.4", "1.21.1"] })],
    [HANGAR.velocityOnly, project(HANGAR.velocityOnly, "kennytv", "VelocityOnlyTool", "A proxy tool for Velocity only.", 5_000, "admin_tools", { VELOCITY: ["3.3"] })],
  ]);
  const specs: VersionSpec[] = [
    { id: 9001, projectId: HANGAR.viaVersion, name: "5.0.3", day: 18, gameVersions: ["1.20.4", "1.20.6", "1.21", "1.21.1"] },
    { id: 9002, projectId: HANGAR.viaVersion, name: "5.1.0-SNAPSHOT", day: 19, unstable: true, gameVersions: ["1.21.1"] },
    { id: 9003, projectId: HANGAR.viaVersion, name: "4.9.2", day: 2, gameVersions: ["1.20.4"], external: true },
    { id: 9011, projectId: HANGAR.viaBackwards, name: "5.0.3", day: 18, gameVersions: ["1.20.4", "1.20.6", "1.21", "1.21.1"], dependencies: [{ name: "ViaVersion", projectId: HANGAR.viaVersion, required: true }] },
    { id: 9021, projectId: HANGAR.maintenance, name: "4.2.1", day: 10, gameVersions: ["1.20.4", "1.21.1"], dependencies: [{ name: "ProtocolLib", projectId: null, required: true, externalUrl: "https://www.spigotmc.org/resources/protocollib.1997/" }, { name: "ViaVersion", projectId: HANGAR.viaVersion, required: false }] },
    { id: 9031, projectId: HANGAR.velocityOnly, name: "1.0.0", day: 5, gameVersions: [], velocity: true },
  ];

  const jars = new Map<number, Uint8Array<ArrayBuffer>>();
  const corrupted = new Set<number>();
  const forgedHashes = new Map<string, number>();
  const requests: HangarFixture["requests"] = [];

  const cdnServer = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const url = new URL(req.url);
      requests.push({ path: url.pathname, host: "cdn" });
      const version = [...versions.values()].find((v) => v.downloads.PAPER?.downloadUrl && new URL(v.downloads.PAPER.downloadUrl).pathname === url.pathname);
      if (!version) return new Response("Not Found", { status: 404 });
      const bytes = jars.get(version.id)!;
      return new Response(corrupted.has(version.id) ? bytes.map((b, i) => (i === 0 ? b ^ 0xff : b)) : bytes, { headers: { "content-type": "application/java-archive" } });
    },
  });
  const cdn = `http://127.0.0.1:${cdnServer.port}`;

  const versions = new Map<number, Json>();
  for (const spec of specs) {
    const owner = projects.get(spec.projectId)!;
    const { slug } = owner.namespace;
    const fileName = `${slug}-${spec.name}.jar`;
    const bytes = new TextEncoder().encode(`PK stand-in for ${fileName} (Hangar version ${spec.id})\n`);
    jars.set(spec.id, bytes);
    const platform = spec.velocity ? "VELOCITY" : "PAPER";
    const download = spec.external
      ? { fileInfo: null, externalUrl: `https://github.com/${owner.namespace.owner}/${slug}/releases/download/${spec.name}/${fileName}`, downloadUrl: null }
      : { fileInfo: { name: fileName, sizeBytes: bytes.length, sha256Hash: createHash("sha256").update(bytes).digest("hex") }, externalUrl: null, downloadUrl: `${cdn}/plugins/${owner.namespace.owner}/${slug}/versions/${encodeURIComponent(spec.name)}/${platform}/${fileName}` };
    versions.set(spec.id, {
      createdAt: at(spec.day),
      id: spec.id,
      projectId: spec.projectId,
      name: spec.name,
      visibility: "public",
      description: `## ${spec.name}\n\nChanges.`,
      stats: { totalDownloads: 100, platformDownloads: { [platform]: 100 } },
      author: owner.namespace.owner,
      reviewState: "reviewed",
      channel: spec.unstable ? channel("Snapshot", true) : channel("Release", false),
      pinnedStatus: "NONE",
      downloads: { [platform]: download },
      pluginDependencies: { [platform]: (spec.dependencies ?? []).map((d) => ({ name: d.name, projectId: d.projectId, required: d.required, externalUrl: d.externalUrl ?? null, platform })) },
      platformDependencies: { [platform]: spec.velocity ? ["3.3"] : spec.gameVersions },
      platformDependenciesFormatted: { [platform]: spec.velocity ? ["3.3"] : spec.gameVersions },
      memberNames: [owner.namespace.owner],
    });
  }

  const json = (body: unknown, status = 200) => Response.json(body, { status });
  const notFound = () => json({ message: "Not found", messageArgs: [], isHangarApiException: true, httpError: { statusCode: 404, statusPhrase: "Not Found" } }, 404);
  const paged = (all: Json[], q: URLSearchParams) => {
    const limit = Math.min(25, Number(q.get("limit") ?? 25));
    const offset = Number(q.get("offset") ?? 0);
    return json({ pagination: { limit, offset, count: all.length }, result: all.slice(offset, offset + limit) });
  };
  const bySlugOrId = (value: string) => [...projects.values()].find((p) => String(p.id) === value || p.namespace.slug.toLowerCase() === value.toLowerCase());
  const sorts: Record<string, (a: Json, b: Json) => number> = {
    "-downloads": (a, b) => b.stats.downloads - a.stats.downloads,
    "-updated": (a, b) => b.lastUpdated.localeCompare(a.lastUpdated),
    "-newest": (a, b) => b.createdAt.localeCompare(a.createdAt),
  };

  const apiServer = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const url = new URL(req.url);
      requests.push({ path: `${url.pathname}${url.search}`, host: "api" });
      if (req.method !== "GET" || !url.pathname.startsWith("/api/v1/")) return notFound();
      const path = url.pathname.slice("/api/v1".length);
      const q = url.searchParams;
      if (path === "/projects") {
        const words = (q.get("q") ?? "").toLowerCase();
        const platform = q.get("platform");
        const version = q.get("version");
        // Hangar's category filter: any of the categories given (ProjectCategoryFilter, `IN`).
        const categories = q.getAll("category");
        const found = [...projects.values()].filter(
          (p) =>
            (!words || `${p.name} ${p.description}`.toLowerCase().includes(words)) &&
            (!platform || platform in p.supportedPlatforms) &&
            (!version || (platform ? p.supportedPlatforms[platform] ?? [] : Object.values(p.supportedPlatforms).flat()).includes(version)) &&
            (categories.length === 0 || categories.includes(p.category)),
        );
        const sort = sorts[q.get("sort") ?? ""];
        return paged(sort ? found.sort(sort) : found, q);
      }
      let match = /^\/versions\/hash\/([^/]+)$/.exec(path);
      if (match) {
        const forged = forgedHashes.get(match[1]!);
        if (forged) return json(projects.get(forged));
        const version = [...versions.values()].find((v) => Object.values(v.downloads).some((d: any) => d.fileInfo?.sha256Hash === match![1]));
        return version ? json(projects.get(version.projectId)) : notFound();
      }
      match = /^\/versions\/(\d+)$/.exec(path);
      if (match) return versions.has(Number(match[1])) ? json(versions.get(Number(match[1]))) : notFound();
      match = /^\/projects\/([^/]+)(\/versions)?$/.exec(path);
      if (match) {
        const found = bySlugOrId(decodeURIComponent(match[1]!));
        if (!found) return notFound();
        if (!match[2]) return json(found);
        const platform = q.get("platform");
        const platformVersion = q.get("platformVersion");
        const list = [...versions.values()]
          .filter((v) => v.projectId === found.id && (!platform || platform in v.downloads) && (!platformVersion || (v.platformDependencies[platform ?? "PAPER"] ?? []).includes(platformVersion)))
          .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
        return paged(list, q);
      }
      return notFound();
    },
  });

  return {
    url: `http://127.0.0.1:${apiServer.port}/api/v1`,
    cdn,
    requests,
    project: (id) => projects.get(id)!,
    version: (id) => versions.get(id)!,
    jar: (id) => jars.get(id)!,
    corrupt: (id) => void corrupted.add(id),
    forgeHash: (sha256, projectId) => void forgedHashes.set(sha256, projectId),
    stop: () => {
      apiServer.stop(true);
      cdnServer.stop(true);
    },
  };
}
