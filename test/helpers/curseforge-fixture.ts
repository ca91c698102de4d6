// A stand-in for CurseForge's API and the sites a modpack install reaches, for the curseforge
// step's tests and a new server made from a CurseForge pack. The JSON is shaped as CurseForge's
// REST API answers (docs.curseforge.com, "Get Mod" → {data: Mod} whose latestFiles are File
// objects, "Get Mod File" → {data: File}, "Get Mod Files" → {data: [File], pagination}, "Search
// Mods" by slug or words → {data: [Mod], pagination}; a
// File's id, fileDate, releaseType (1 release, 2 beta), fileStatus (4 approved, 10 released),
// isServerPack, serverPackFileId, parentProjectFileId, downloadUrl, fileLength, hashes (SHA-1 is
// algo 1) and gameVersions, loaders among them), trimmed to the fields Kiln reads plus a few it
// ignores. Written for these tests; no CurseForge data is copied.
//
// The packs are zips made here. Their installer "jars" are shell scripts the fixture java runs
// (test/fixtures/sources/java), doing in small what the real installers do: Forge's writes its
// libraries' unix_args.txt (or, before Minecraft 1.17, a forge-<version>.jar), Fabric's writes
// fabric-server-launch.jar.
import { createHash } from "node:crypto";
import { ZipFile } from "yazl";

export const API_KEY = "fixture-curseforge-key-7f3a";

export interface CurseForgeFixture {
  /** sources.curseforge, sources.forge, sources.neoforge and sources.fabric, all served here. */
  sources: { curseforge: string; forge: string; neoforge: string; fabric: string };
  /** Every request: method, path, and whether it carried the API key. */
  requests: { path: string; key: string | null }[];
  /** Changes a project's files (for the attack tests). */
  setFile(file: FixtureFile): void;
  stop(): void;
}

export interface FixtureFile {
  id: number;
  projectId: number;
  fileDate: string;
  releaseType?: number;
  fileStatus?: number;
  isServerPack?: boolean;
  serverPackFileId?: number | null;
  parentProjectFileId?: number | null;
  /** The zip served at /files/<id>.zip, entries by path; or a downloadUrl of its own. */
  zip?: Record<string, string>;
  /** Bytes served at /files/<id>.zip as they are (an archive made by hand, for the attack tests). */
  raw?: Uint8Array<ArrayBuffer>;
  downloadUrl?: string | null;
  /** The SHA-1 listed for it (null: none listed); by default, that of the bytes served. */
  sha1?: string | null;
  /** Its game versions as CurseForge lists them, loaders among them (default ["1.20.1"]). */
  gameVersions?: string[];
  displayName?: string;
  /** Its project's class (default 4471, modpacks), as the project's first file says. */
  classId?: number;
  /** Its project's name (default "pack <id>"), as the project's first file says. */
  projectName?: string;
}

const modernForgeInstaller = (version: string) => `#!/bin/sh
# fixture Forge installer ${version}
[ "$1" = --installServer ] || { echo "expected --installServer" >&2; exit 2; }
mkdir -p libraries/net/minecraftforge/forge/${version}
echo "-Dfixture.forge=${version} net.minecraftforge.bootstrap.ForgeBootstrap" > libraries/net/minecraftforge/forge/${version}/unix_args.txt
echo "installer log" > "$0.log"
echo "Forge ${version} installed"
`;

const oldForgeInstaller = (version: string) => `#!/bin/sh
# fixture Forge installer ${version} (before Minecraft 1.17: the server is a jar of its own)
[ "$1" = --installServer ] || exit 2
printf '#!/bin/sh\\necho "forge ${version} server"\\n' > forge-${version}.jar
echo "installer log" > "$0.log"
`;

const neoForgeInstaller = (version: string) => `#!/bin/sh
# fixture NeoForge installer ${version}
[ "$1" = --installServer ] || exit 2
mkdir -p libraries/net/neoforged/neoforge/${version}
echo "-Dfixture.neoforge=${version}" > libraries/net/neoforged/neoforge/${version}/unix_args.txt
`;

const fabricInstaller = `#!/bin/sh
# fixture Fabric installer: server -mcversion X -loader Y -downloadMinecraft
[ "$1" = server ] || exit 2
printf '#!/bin/sh\\necho "fabric launcher %s %s"\\n' "$3" "$5" > fabric-server-launch.jar
echo "vanilla" > server.jar
`;

/** The packs every test can use, by project: see the test for what each is meant to show. */
function defaultFiles(): FixtureFile[] {
  const modern = "1.20.1-47.2.0";
  return [
    // 100: a Forge pack; the newest released client file links its server pack (one top folder).
    { id: 1000, projectId: 100, fileDate: "2024-01-01T00:00:00Z", isServerPack: false, serverPackFileId: 1099 },
    { id: 1001, projectId: 100, fileDate: "2024-03-01T00:00:00Z", isServerPack: false, serverPackFileId: 1002, gameVersions: ["1.20.1", "Forge"] },
    { id: 1003, projectId: 100, fileDate: "2024-05-01T00:00:00Z", releaseType: 2, isServerPack: false, serverPackFileId: 1099 },
    { id: 1004, projectId: 100, fileDate: "2024-06-01T00:00:00Z", fileStatus: 5, isServerPack: false, serverPackFileId: 1099 },
    { id: 1002, projectId: 100, fileDate: "2024-03-01T00:00:00Z", isServerPack: true, parentProjectFileId: 1001, zip: {
      "Pack-Server-1.2/mods/pack-mod.jar": "a mod",
      "Pack-Server-1.2/config/pack.cfg": "setting=1",
      [`Pack-Server-1.2/forge-${modern}-installer.jar`]: modernForgeInstaller(modern),
    } },
    // 200: a Fabric pack telling its loader in variables.txt; 201: one whose versions Fabric's
    // meta has no launcher for, so its installer runs.
    { id: 2001, projectId: 200, fileDate: "2024-03-01T00:00:00Z", isServerPack: true, gameVersions: ["1.20.1", "Fabric"], zip: {
      "variables.txt": '# ServerStarter variables\nMINECRAFT_VERSION=1.20.1\nMODLOADER=Fabric\nMODLOADER_VERSION="0.15.7"\nFABRIC_INSTALLER_VERSION=1.0.0\n',
      "mods/fabric-mod.jar": "a fabric mod",
    } },
    { id: 2011, projectId: 201, fileDate: "2024-03-01T00:00:00Z", isServerPack: true, zip: { "variables.txt": "MINECRAFT_VERSION=1.16.5\nMODLOADER=fabric\nMODLOADER_VERSION=0.11.0\n" } },
    // 300: a NeoForge pack known only by its client manifest; 400: an old Forge pack likewise.
    { id: 3001, projectId: 300, fileDate: "2024-03-01T00:00:00Z", isServerPack: false, serverPackFileId: 3002, zip: {
      "manifest.json": JSON.stringify({ minecraft: { version: "1.21.1", modLoaders: [{ id: "neoforge-21.1.77", primary: true }] }, manifestType: "minecraftModpack", files: [], overrides: "overrides" }),
    } },
    { id: 3002, projectId: 300, fileDate: "2024-03-01T00:00:00Z", isServerPack: true, parentProjectFileId: 3001, zip: { "mods/neo-mod.jar": "a neoforge mod", "config/neo.toml": "x = 1" } },
    { id: 4001, projectId: 400, fileDate: "2024-03-01T00:00:00Z", isServerPack: false, serverPackFileId: 4002, zip: {
      "manifest.json": JSON.stringify({ minecraft: { version: "1.12.2", modLoaders: [{ id: "forge-14.23.5.2860", primary: true }] } }),
    } },
    { id: 4002, projectId: 400, fileDate: "2024-03-01T00:00:00Z", isServerPack: true, parentProjectFileId: 4001, zip: { "mods/old.jar": "an old mod" } },
    // 500: a client file with no server pack.
    { id: 5001, projectId: 500, fileDate: "2024-03-01T00:00:00Z", isServerPack: false, zip: { "manifest.json": "{}" } },
  ];
}

async function zipOf(entries: Record<string, string>): Promise<Uint8Array<ArrayBuffer>> {
  const zip = new ZipFile();
  // A fixed time, so a file's bytes (and so its listed SHA-1) are the same at every request.
  for (const [path, text] of Object.entries(entries)) zip.addBuffer(Buffer.from(text), path, { mtime: new Date("2024-01-01T00:00:00Z") });
  zip.end();
  return new Uint8Array(await new Response(zip.outputStream as unknown as ReadableStream).arrayBuffer());
}

export function startCurseForgeFixture(): CurseForgeFixture {
  const files = new Map(defaultFiles().map((f) => [f.id, f]));
  const requests: CurseForgeFixture["requests"] = [];
  let base = "";
  const bytesOf = async (f: FixtureFile) => f.raw ?? (f.zip ? await zipOf(f.zip) : undefined);
  const sha1Of = async (f: FixtureFile) => {
    if (f.sha1 !== undefined) return f.sha1;
    const bytes = await bytesOf(f);
    return bytes ? createHash("sha1").update(bytes).digest("hex") : null;
  };
  const fileJson = async (f: FixtureFile) => ({
    id: f.id,
    gameId: 432,
    modId: f.projectId,
    isAvailable: true,
    displayName: f.displayName ?? `file ${f.id}`,
    fileName: `file-${f.id}.zip`,
    releaseType: f.releaseType ?? 1,
    fileStatus: f.fileStatus ?? 4,
    fileDate: f.fileDate,
    downloadUrl: f.downloadUrl === undefined ? `${base}/files/${f.id}.zip` : f.downloadUrl,
    isServerPack: f.isServerPack ?? false,
    serverPackFileId: f.serverPackFileId ?? null,
    parentProjectFileId: f.parentProjectFileId ?? null,
    gameVersions: f.gameVersions ?? ["1.20.1"],
    fileLength: (await bytesOf(f))?.length ?? 0,
    hashes: await sha1Of(f).then((sha1) => (sha1 === null ? [] : [{ value: sha1, algo: 1 }])),
  });
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      requests.push({ path, key: req.headers.get("x-api-key") });
      const projectJson = async (project: number) => {
        const latest = [...files.values()].filter((f) => f.projectId === project);
        if (latest.length === 0) return null;
        return { id: project, gameId: 432, name: latest[0]!.projectName ?? `pack ${project}`, slug: `pack-${project}`, classId: latest[0]!.classId ?? 4471, latestFiles: await Promise.all(latest.map(fileJson)) };
      };
      // A search by slug (as a pack's page address names it, pack-<id>) or by words in the name; the class must match.
      if (path === "/curseforge/v1/mods/search") {
        if (req.headers.get("x-api-key") !== API_KEY) return new Response("Forbidden", { status: 403 });
        const q = new URL(req.url).searchParams;
        const slug = q.get("slug");
        const projects = slug === null ? [...new Set([...files.values()].map((f) => f.projectId))].sort((a, b) => a - b) : [Number(/^pack-(\d+)$/.exec(slug)?.[1] ?? NaN)];
        const words = (q.get("searchFilter") ?? "").toLowerCase();
        const found = (await Promise.all(projects.map(projectJson))).filter((p) => p !== null && p.classId === Number(q.get("classId")) && p.name.toLowerCase().includes(words));
        const [index, size] = [Number(q.get("index") ?? 0), Number(q.get("pageSize") ?? 50)];
        const data = found.slice(index, index + size);
        return Response.json({ data, pagination: { index, pageSize: size, resultCount: data.length, totalCount: found.length } });
      }
      // "Get Mod Files": a project's files, newest first.
      const listing = /^\/curseforge\/v1\/mods\/(\d+)\/files$/.exec(path);
      if (listing) {
        if (req.headers.get("x-api-key") !== API_KEY) return new Response("Forbidden", { status: 403 });
        const all = [...files.values()].filter((f) => f.projectId === Number(listing[1])).sort((a, b) => b.fileDate.localeCompare(a.fileDate));
        return Response.json({ data: await Promise.all(all.map(fileJson)), pagination: { index: 0, pageSize: 50, resultCount: all.length, totalCount: all.length } });
      }
      const api = /^\/curseforge\/v1\/mods\/(\d+)(?:\/files\/(\d+))?$/.exec(path);
      if (api) {
        if (req.headers.get("x-api-key") !== API_KEY) return new Response("Forbidden", { status: 403 });
        const project = Number(api[1]);
        if (api[2] === undefined) {
          const found = await projectJson(project);
          return found ? Response.json({ data: found }) : new Response("Not Found", { status: 404 });
        }
        const file = files.get(Number(api[2]));
        return file && file.projectId === project ? Response.json({ data: await fileJson(file) }) : new Response("Not Found", { status: 404 });
      }
      const download = /^\/files\/(\d+)\.zip$/.exec(path);
      const served = download ? files.get(Number(download[1])) : undefined;
      const bytes = served ? await bytesOf(served) : undefined;
      if (bytes) return new Response(bytes);
      const forge = /^\/forge\/net\/minecraftforge\/forge\/([^/]+)\/forge-\1-installer\.jar$/.exec(path);
      if (forge) return new Response(forge[1]!.startsWith("1.12") ? oldForgeInstaller(forge[1]!) : modernForgeInstaller(forge[1]!));
      const neo = /^\/neoforge\/releases\/net\/neoforged\/neoforge\/([^/]+)\/neoforge-\1-installer\.jar$/.exec(path);
      if (neo) return new Response(neoForgeInstaller(neo[1]!));
      if (path === "/fabric/v2/versions/installer") {
        return Response.json([{ url: `${base}/fabric/maven/fabric-installer-1.0.1.jar`, maven: "net.fabricmc:fabric-installer:1.0.1", version: "1.0.1", stable: true }, { url: `${base}/fabric/maven/fabric-installer-1.0.0.jar`, maven: "net.fabricmc:fabric-installer:1.0.0", version: "1.0.0", stable: true }]);
      }
      const launcher = /^\/fabric\/v2\/versions\/loader\/1\.20\.1\/([^/]+)\/([^/]+)\/server\/jar$/.exec(path);
      if (launcher) return new Response(`#!/bin/sh\necho "fabric launcher 1.20.1 ${launcher[1]} installer ${launcher[2]}"\n`);
      if (/^\/fabric\/maven\/fabric-installer-[\d.]+\.jar$/.test(path)) return new Response(fabricInstaller);
      return new Response("Not Found", { status: 404 });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
  return {
    sources: { curseforge: `${base}/curseforge`, forge: `${base}/forge`, neoforge: `${base}/neoforge`, fabric: `${base}/fabric` },
    requests,
    setFile: (file) => void files.set(file.id, file),
    stop: () => void server.stop(true),
  };
}
