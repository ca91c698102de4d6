// A local stand-in for CurseForge's API (v1) and its file host, for the mods browser's tests,
// serving the recorded real answers in test/fixtures/curseforge (their README says where they come
// from): WorldGuard (a Bukkit plugin whose files require WorldEdit) and Just Enough Items (a mod
// with Forge and Fabric files). What it builds, in memory only, is listed in that README: WorldEdit's
// own file (its recorded project is a stub), descriptions, and a small jar per file whose SHA-1,
// length and fingerprint replace the recorded ones (the recorded jars are not here), served at
// `<cdn>/files/<fileId>/<fileName>`. Every API call must carry the key (else 403, as CurseForge
// answers); every request is logged with whether it carried it.
import { readFileSync, readdirSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { Fingerprint, strippedLength } from "../../core/mods/fingerprint";

export const CURSEFORGE_KEY = "test-curseforge-key-41d0";
const FIXTURES = join(import.meta.dir, "..", "fixtures", "curseforge");
const MINECRAFT = 432;

type Json = Record<string, any>;

export interface CurseForgeModsFixture {
  /** The API's base URL, as the panel's modSources setting takes it. */
  url: string;
  /** The file host's origin (the node's sources.curseforgeCdn). */
  cdn: string;
  requests: { path: string; host: "api" | "cdn"; key: string | null }[];
  /** A mod as served (changed in place by attack tests). */
  mod(id: number): Json;
  /** A file as served (changed in place by attack tests). */
  file(id: number): Json;
  /** The categories `GET /v1/categories` lists (changed in place by attack tests). */
  categories: Json[];
  /** The bytes served for a file. */
  jar(id: number): Uint8Array<ArrayBuffer>;
  /** Serves other bytes for a file than its hash says. */
  corrupt(id: number): void;
  stop(): void;
}

const WORLDEDIT_FILE_ID = 4675300;

function recorded(): { mods: Map<number, Json>; files: Map<number, Json> } {
  const mods = new Map<number, Json>();
  const files = new Map<number, Json>();
  for (const name of readdirSync(FIXTURES).filter((n) => n.endsWith(".json"))) {
    const mapping = JSON.parse(readFileSync(join(FIXTURES, name), "utf8")) as Json;
    const body = mapping.response.jsonBody ?? JSON.parse(mapping.response.body);
    if (Array.isArray(body.data)) for (const mod of body.data) mods.set(mod.id, structuredClone(mod));
    else if (body.data?.modId) files.set(body.data.id, structuredClone(body.data));
    else if (/\/v1\/mods\/(\d+)$/.test(mapping.request.url)) {
      // A stub (name and links only): its id from the recorded request.
      const id = Number(/\/v1\/mods\/(\d+)$/.exec(mapping.request.url)![1]);
      mods.set(id, { id, ...structuredClone(body.data) });
    }
  }
  for (const mod of mods.values()) for (const file of mod.latestFiles ?? []) if (!files.has(file.id)) files.set(file.id, structuredClone(file));
  return { mods, files };
}

export async function startCurseForgeModsFixture(): Promise<CurseForgeModsFixture> {
  const { mods, files } = recorded();
  // WorldEdit for Bukkit: the recorded stub, completed as the plugin WorldGuard requires.
  const worldedit = mods.get(31043)!;
  Object.assign(worldedit, { gameId: MINECRAFT, slug: "worldedit", summary: "In-game map editor", classId: 5, downloadCount: 1000, categories: [], latestFiles: [] });
  files.set(WORLDEDIT_FILE_ID, { id: WORLDEDIT_FILE_ID, gameId: MINECRAFT, modId: 31043, displayName: "WorldEdit 7.2.15 (MC 1.20)", fileName: "worldedit-bukkit-7.2.15.jar", releaseType: 1, fileStatus: 4, hashes: [], fileDate: "2023-07-01T00:00:00Z", fileLength: 0, downloadUrl: "", gameVersions: ["1.20"], dependencies: [] });
  worldedit.latestFiles = [files.get(WORLDEDIT_FILE_ID)];
  for (const mod of mods.values()) for (const file of mod.latestFiles ?? []) files.set(file.id, file);

  // The categories the recorded projects carry (CurseForge's own Category objects), as its
  // /v1/categories lists a class's: no recorded answer of that route was found.
  const categories: Json[] = [...new Map<number, Json>([...mods.values()].flatMap((m) => (m.categories ?? []).map((c: Json) => [c.id as number, structuredClone(c)] as const))).values()];

  const jars = new Map<number, Uint8Array<ArrayBuffer>>();
  const corrupted = new Set<number>();
  const requests: CurseForgeModsFixture["requests"] = [];

  const cdnServer = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const url = new URL(req.url);
      requests.push({ path: url.pathname, host: "cdn", key: req.headers.get("x-api-key") });
      const match = /^\/files\/(\d+)\/([^/]+)$/.exec(url.pathname);
      const file = match ? files.get(Number(match[1])) : undefined;
      if (!file || file.fileName !== decodeURIComponent(match![2]!)) return new Response("Not Found", { status: 404 });
      const bytes = jars.get(file.id)!;
      return new Response(corrupted.has(file.id) ? bytes.map((b, i) => (i === 0 ? b ^ 0xff : b)) : bytes, { headers: { "content-type": "application/java-archive" } });
    },
  });
  const cdn = `http://127.0.0.1:${cdnServer.port}`;

  // Each file gets a small jar of its own: its hash, length and fingerprint replace the recorded ones.
  for (const file of files.values()) {
    const bytes = new TextEncoder().encode(`PK stand-in for ${file.fileName} (CurseForge file ${file.id})\n`);
    jars.set(file.id, bytes);
    const fingerprint = new Fingerprint(strippedLength(bytes));
    fingerprint.update(bytes);
    Object.assign(file, {
      fileLength: bytes.length,
      hashes: [{ value: createHash("sha1").update(bytes).digest("hex"), algo: 1 }],
      fileFingerprint: fingerprint.digest(),
      downloadUrl: `${cdn}/files/${file.id}/${encodeURIComponent(file.fileName)}`,
    });
  }

  const json = (body: unknown, status = 200) => Response.json(body, { status });
  const notFound = () => new Response("", { status: 404 });
  const filesOf = (modId: number) => [...files.values()].filter((f) => f.modId === modId).sort((a, b) => String(b.fileDate).localeCompare(String(a.fileDate)));

  const apiServer = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const key = req.headers.get("x-api-key");
      requests.push({ path: `${url.pathname}${url.search}`, host: "api", key });
      if (key !== CURSEFORGE_KEY) return json({ error: "Forbidden" }, 403);
      const body = req.method === "POST" ? ((await req.json().catch(() => null)) as Json | null) : null;
      const q = url.searchParams;
      if (req.method === "GET" && url.pathname === "/v1/mods/search") {
        if (Number(q.get("gameId")) !== MINECRAFT) return json({ data: [], pagination: { index: 0, pageSize: 0, resultCount: 0, totalCount: 0 } });
        const words = (q.get("searchFilter") ?? "").toLowerCase();
        const gameVersion = q.get("gameVersion");
        const categoryId = q.get("categoryId");
        const found = [...mods.values()].filter(
          (m) =>
            m.classId === Number(q.get("classId")) &&
            (!words || `${m.name} ${m.slug}`.toLowerCase().includes(words)) &&
            (!gameVersion || filesOf(m.id).some((f) => f.gameVersions.includes(gameVersion))) &&
            (!categoryId || (m.categories ?? []).some((c: Json) => c.id === Number(categoryId))),
        );
        return json({ data: found, pagination: { index: 0, pageSize: found.length, resultCount: found.length, totalCount: found.length } });
      }
      if (req.method === "GET" && url.pathname === "/v1/categories") {
        if (Number(q.get("gameId")) !== MINECRAFT) return json({ data: [] });
        const classId = q.get("classId");
        return json({ data: categories.filter((c) => !classId || c.classId === Number(classId)) });
      }
      let match = /^\/v1\/mods\/(\d+)(\/description|\/files)?$/.exec(url.pathname);
      if (req.method === "GET" && match) {
        const mod = mods.get(Number(match[1]));
        if (!mod) return notFound();
        if (!match[2]) return json({ data: mod });
        if (match[2] === "/description") return json({ data: mod.description ?? `<p>${mod.summary ?? mod.name}</p><p>Made by the stand-in.</p>` });
        const gameVersion = q.get("gameVersion");
        return json({ data: filesOf(mod.id).filter((f) => !gameVersion || f.gameVersions.includes(gameVersion)), pagination: { index: 0, pageSize: 50, resultCount: 0, totalCount: 0 } });
      }
      if (req.method === "POST" && url.pathname === "/v1/mods") return json({ data: (body?.modIds ?? []).map((id: number) => mods.get(id)).filter(Boolean) });
      if (req.method === "POST" && url.pathname === "/v1/mods/files") return json({ data: (body?.fileIds ?? []).map((id: number) => files.get(id)).filter(Boolean) });
      match = /^\/v1\/fingerprints\/(\d+)$/.exec(url.pathname);
      if (req.method === "POST" && match) {
        const wanted = new Set<number>(body?.fingerprints ?? []);
        const exactMatches = [...files.values()].filter((f) => wanted.has(f.fileFingerprint)).map((f) => ({ id: f.modId, file: f, latestFiles: [] }));
        return json({ data: { isCacheBuilt: true, exactMatches, exactFingerprints: exactMatches.map((m) => m.file.fileFingerprint), partialMatches: [], installedFingerprints: [...wanted], unmatchedFingerprints: [] } });
      }
      return notFound();
    },
  });

  return {
    url: `http://127.0.0.1:${apiServer.port}`,
    cdn,
    requests,
    categories,
    mod: (id) => mods.get(id)!,
    file: (id) => files.get(id)!,
    jar: (id) => jars.get(id)!,
    corrupt: (id) => void corrupted.add(id),
    stop: () => {
      apiServer.stop(true);
      cdnServer.stop(true);
    },
  };
}
