// The Modrinth stand-in answers Modrinth's v2 routes with the recorded documents, filters them as
// Modrinth does, serves jars whose bytes match the served hashes, and each attack switch does what
// it says (so an attack test built on it can fail for the right reason).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fromBuffer, type Entry, type ZipFile } from "yauzl";
import { startModrinthFixture, type ModrinthFixture, type ModrinthVersion, type SearchHit } from "./modrinth-fixture";

let mr: ModrinthFixture;
beforeAll(async () => {
  mr = await startModrinthFixture();
});
afterAll(() => mr.stop());

const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const getJson = async <T>(path: string): Promise<T> => {
  const res = await fetch(`${mr.url}${path}`);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
};
const post = (path: string, body: unknown) =>
  fetch(`${mr.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const sha512 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha512").update(bytes).digest("hex");
const primary = (v: ModrinthVersion) => v.files.find((f) => f.primary)!;

/** The entries of a zip, by name. */
async function entries(bytes: Uint8Array): Promise<Map<string, string>> {
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    fromBuffer(Buffer.from(bytes), { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))));
  const found = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: Entry) => {
      zip.openReadStream(entry, async (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        found.set(entry.fileName, Buffer.concat(chunks).toString("utf8"));
        zip.readEntry();
      });
    });
    zip.on("end", resolve);
    zip.on("error", reject);
    zip.readEntry();
  });
  return found;
}

describe("search", () => {
  test("answers Modrinth's shape, the recorded hits first in their recorded form", async () => {
    const answer = await getJson<{ hits: SearchHit[]; offset: number; limit: number; total_hits: number }>("/search?query=&limit=100");
    expect(answer.offset).toBe(0);
    expect(answer.limit).toBe(100);
    expect(answer.total_hits).toBe(answer.hits.length);
    const fabricApi = answer.hits.find((h) => h.project_id === "P7dR8mSH")!;
    expect(fabricApi).toMatchObject({ slug: "fabric-api", author: "modmuss50", categories: ["library", "fabric"], downloads: 3495309 });
    for (const hit of answer.hits) expect(Object.keys(hit)).toContain("icon_url");
    // relevance sorts by downloads, as labrinth's index does
    expect(answer.hits.map((h) => h.downloads)).toEqual(answer.hits.map((h) => h.downloads).sort((a, b) => b - a));
  });

  test("facets: an AND of OR-lists over categories, versions and project_type", async () => {
    const fabric120 = await getJson<{ hits: SearchHit[] }>(`/search?facets=${q([["categories:fabric"], ["versions:1.20.1"], ["project_type:mod"]])}&limit=100`);
    expect(fabric120.hits.length).toBeGreaterThan(0);
    for (const hit of fabric120.hits) {
      expect(hit.categories).toContain("fabric");
      expect(hit.versions).toContain("1.20.1");
    }
    const plugins = await getJson<{ hits: SearchHit[] }>(`/search?facets=${q([["categories:paper", "categories:spigot"]])}&limit=100`);
    expect(plugins.hits.map((h) => h.slug).sort()).toEqual(["discordsrv", "griefprevention", "viabackwards", "viaversion"]);
    const none = await getJson<{ hits: SearchHit[]; total_hits: number }>(`/search?facets=${q([["categories:fabric"], ["categories:forge"], ["project_type:resourcepack"]])}`);
    expect(none).toMatchObject({ hits: [], total_hits: 0 });
  });

  test("query text, index, offset and limit", async () => {
    const sodium = await getJson<{ hits: SearchHit[] }>("/search?query=sodium");
    expect(sodium.hits.map((h) => h.slug)).toEqual(["sodium"]);
    const newest = await getJson<{ hits: SearchHit[] }>("/search?index=newest&limit=100");
    expect(newest.hits.map((h) => h.date_created)).toEqual(newest.hits.map((h) => h.date_created).sort().reverse());
    const page2 = await getJson<{ hits: SearchHit[]; offset: number; limit: number }>("/search?offset=2&limit=2");
    const all = await getJson<{ hits: SearchHit[] }>("/search?limit=4");
    expect(page2.hits.map((h) => h.project_id)).toEqual(all.hits.slice(2, 4).map((h) => h.project_id));
  });

  test("bad facets or index are a 400 with labrinth's error body", async () => {
    for (const path of ["/search?facets=not-json", `/search?facets=${q(["categories:fabric"])}`, "/search?index=best", "/search?limit=ten"]) {
      const res = await fetch(`${mr.url}${path}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe("invalid_input");
    }
  });
});

describe("projects", () => {
  test("by id and by slug, with the recorded body; unknown is a 404 with an empty body", async () => {
    const byId = await getJson<{ slug: string; body: string }>("/project/AANobbMI");
    const bySlug = await getJson<{ id: string; body: string }>("/project/sodium");
    expect(byId.slug).toBe("sodium");
    expect(bySlug.id).toBe("AANobbMI");
    expect(bySlug.body).toContain("<center>");
    expect((await getJson<{ body: string }>("/project/modmenu")).body).toContain("![Mod Menu Banner]");
    const missing = await fetch(`${mr.url}/project/not-a-project`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("");
  });

  test("GET /projects?ids=[…] answers the known ones; ids that are not JSON are a 400", async () => {
    const found = await getJson<{ id: string }[]>(`/projects?ids=${q(["P7dR8mSH", "lithium", "xGdtZczs"])}`);
    expect(found.map((p) => p.id)).toEqual(["P7dR8mSH", "gvQqBUqZ"]);
    const bad = await fetch(`${mr.url}/projects?ids=[P7dR8mSH]`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe("json_error");
  });

  test("Iris's dependencies are the recorded answer (Sodium and its versions)", async () => {
    const deps = await getJson<{ projects: { id: string }[]; versions: ModrinthVersion[] }>("/project/iris/dependencies");
    expect(deps.projects.map((p) => p.id)).toEqual(["AANobbMI"]);
    expect(deps.versions.map((v) => v.id)).toContain("vgceLbdH");
  });
});

describe("versions", () => {
  test("a project's versions filtered by loaders and game_versions, newest first", async () => {
    const list = await getJson<ModrinthVersion[]>(`/project/fabric-api/version?loaders=${q(["fabric"])}&game_versions=${q(["1.20.1"])}`);
    expect(list.length).toBe(24);
    for (const v of list) expect(v.game_versions).toContain("1.20.1");
    expect(list.map((v) => v.date_published)).toEqual(list.map((v) => v.date_published).sort().reverse());
    expect(await getJson<ModrinthVersion[]>(`/project/P7dR8mSH/version?loaders=${q(["forge"])}`)).toEqual([]);
    const paper = await getJson<ModrinthVersion[]>(`/project/griefprevention/version?loaders=${q(["paper"])}&game_versions=${q(["1.21.4"])}`);
    expect(paper.map((v) => v.id)).toEqual(["iaJtn30B", "ue7jAjJ5"]);
    // labrinth ignores a filter that is not a JSON array
    expect((await getJson<ModrinthVersion[]>("/project/griefprevention/version?loaders=paper")).length).toBe(7);
  });

  test("GET /version/{id} and /versions?ids=[…]", async () => {
    const v = await getJson<ModrinthVersion>("/version/bkO2SFBF");
    expect(v.dependencies.map((d) => [d.project_id, d.dependency_type])).toContainEqual(["P7dR8mSH", "required"]);
    const many = await getJson<ModrinthVersion[]>(`/versions?ids=${q(["vgceLbdH", "nope1234", "ZSNsJrPI"])}`);
    expect(many.map((x) => x.id)).toEqual(["vgceLbdH", "ZSNsJrPI"]);
    expect((await fetch(`${mr.url}/version/nope1234`)).status).toBe(404);
  });

  test("POST /version_files maps each known hash to its version; sha1 is the default for 40-character hashes", async () => {
    const sodium = mr.version("vgceLbdH");
    const lithium = mr.version("ZSNsJrPI");
    const bySha512 = (await (await post("/version_files", { hashes: [primary(sodium).hashes.sha512, "ab".repeat(64)], algorithm: "sha512" })).json()) as Record<string, ModrinthVersion>;
    expect(Object.keys(bySha512)).toEqual([primary(sodium).hashes.sha512]);
    expect(bySha512[primary(sodium).hashes.sha512]!.id).toBe("vgceLbdH");
    const bySha1 = (await (await post("/version_files", { hashes: [primary(lithium).hashes.sha1] })).json()) as Record<string, ModrinthVersion>;
    expect(bySha1[primary(lithium).hashes.sha1]!.id).toBe("ZSNsJrPI");
    expect((await post("/version_files", { algorithm: "sha1" })).status).toBe(400);
  });

  test("POST /version_files/update answers the newest version matching loaders and game versions", async () => {
    const hash = primary(mr.version("ZSNsJrPI")).hashes.sha512;
    const newer = (await (await post("/version_files/update", { hashes: [hash], algorithm: "sha512", loaders: ["fabric"], game_versions: ["1.20.4"] })).json()) as Record<string, ModrinthVersion>;
    expect(newer[hash]!.id).toBe("nMhjKWVE");
    const same = (await (await post("/version_files/update", { hashes: [hash], algorithm: "sha512", loaders: ["fabric"], game_versions: ["1.20.1"] })).json()) as Record<string, ModrinthVersion>;
    expect(same[hash]!.id).toBe("ZSNsJrPI");
  });
});

describe("files", () => {
  test("a download's sha512 and size are the version document's, and the jar names the project", async () => {
    const v = await getJson<ModrinthVersion>("/version/vgceLbdH");
    const file = primary(v);
    expect(file.url.startsWith(`${mr.cdn}/cdn/data/AANobbMI/versions/vgceLbdH/`)).toBe(true);
    const bytes = new Uint8Array(await (await fetch(file.url)).arrayBuffer());
    expect(sha512(bytes)).toBe(file.hashes.sha512);
    expect(bytes.length).toBe(file.size);
    expect(bytes).toEqual(mr.jar("vgceLbdH"));
    const mod = JSON.parse((await entries(bytes)).get("fabric.mod.json")!) as { id: string; version: string };
    expect(mod).toMatchObject({ id: "sodium", version: "mc1.20-0.4.10" });
    const geyser = await entries(mr.jar("CeSpw2Km"));
    expect(JSON.parse(geyser.get("fabric.mod.json")!).depends).toMatchObject({ "fabric-api": "*" });
    const plugin = await entries(mr.jar("s4iIv3dm"));
    expect(plugin.get("plugin.yml")).toContain("depend: [ViaVersion]");
  });

  test("the requests log records method, path and body", async () => {
    await post("/version_files", { hashes: ["00"], algorithm: "sha1" });
    expect(mr.requests.at(-1)).toMatchObject({ server: "api", method: "POST", path: "/v2/version_files", body: { hashes: ["00"], algorithm: "sha1" } });
  });

  test("a browser may call it: CORS preflight and header", async () => {
    const pre = await fetch(`${mr.url}/search`, { method: "OPTIONS", headers: { origin: "http://x", "access-control-request-method": "GET" } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("attack switches", () => {
  test("hang: the request is accepted and never answered; afterBytes stalls mid-body", async () => {
    mr.hang("/v2/project/lithium");
    await expect(fetch(`${mr.url}/project/lithium`, { signal: AbortSignal.timeout(400) })).rejects.toThrow();
    const url = primary(mr.version("DulfD6iE")).url;
    mr.hang(new URL(url).pathname, { afterBytes: 10 });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.value?.length).toBe(10);
    const next = await Promise.race([reader.read().then(() => "more"), Bun.sleep(400).then(() => "stalled")]);
    expect(next).toBe("stalled");
    await reader.cancel().catch(() => {});
  });

  test("setFileBytes: the served bytes no longer match the document's sha512", async () => {
    mr.setFileBytes("hg9bSXT3", new TextEncoder().encode("not the jar"));
    const v = await getJson<ModrinthVersion>("/version/hg9bSXT3");
    const bytes = new Uint8Array(await (await fetch(primary(v).url)).arrayBuffer());
    expect(new TextDecoder().decode(bytes)).toBe("not the jar");
    expect(sha512(bytes)).not.toBe(primary(v).hashes.sha512);
  });

  test("announceSize: the document says 1 MiB, the host streams 20 MiB without a Content-Length", async () => {
    mr.announceSize("EXrxCjl6", 1024 * 1024);
    const v = await getJson<ModrinthVersion>("/version/EXrxCjl6");
    expect(primary(v).size).toBe(1024 * 1024);
    const res = await fetch(primary(v).url);
    expect(res.headers.get("content-length")).toBeNull();
    let total = 0;
    for await (const chunk of res.body!) total += chunk.length;
    expect(total).toBe(20 * 1024 * 1024);
  });

  test("setVersionFileName: the document names ../../evil.jar and its url still serves it", async () => {
    mr.setVersionFileName("JaKvOQIz", "../../evil.jar");
    const v = await getJson<ModrinthVersion>("/version/JaKvOQIz");
    expect(primary(v).filename).toBe("../../evil.jar");
    const res = await fetch(primary(v).url);
    expect(res.status).toBe(200);
    expect(sha512(new Uint8Array(await res.arrayBuffer()))).toBe(primary(v).hashes.sha512);
  });

  test("setProjectBody and setDependencies change what is served", async () => {
    mr.setProjectBody("griefprevention", "<script>alert(1)</script>");
    expect((await getJson<{ body: string }>("/project/O4o4mKaq")).body).toBe("<script>alert(1)</script>");
    mr.setDependencies("o9dFD9SO", [{ version_id: null, project_id: "AANobbMI", file_name: null, dependency_type: "incompatible" }]);
    expect((await getJson<ModrinthVersion>("/version/o9dFD9SO")).dependencies[0]!.dependency_type).toBe("incompatible");
  });
});
