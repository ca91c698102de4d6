// A local stand-in for Spiget's API (v2) and its file host on one origin, for the plugins browser's
// tests. No recorded answer of Spiget's API with a known licence was found, so its answers are
// built here as Spiget's own server makes them (SpiGetOrg/api.spiget.org @
// 000fa49745b1a4aeba28d136b8525c27ca4aca2c, Apache-2.0): its resource and version documents
// (db/schemas/resource.js, resourceVersion.js, with `_id` as `id`), its routes (routes/search.js:
// GET /search/resources/{query}?field=name, the words a case-insensitive regular expression;
// routes/resources.js: /resources/free, /resources/{id}, /resources/{id}/versions/latest,
// /resources/{id}/download redirecting to the file host, an external resource to its own URL),
// its paging (util.js: size, page, sort "-field"; X-Page-Size, X-Page-Index, X-Page-Count and
// X-Total headers; an empty list answered 404). The description is base64 of HTML, as SpigotMC's
// pages are. Each downloadable resource's file is a small jar of its own at
// `<origin>/file/spiget-resources/<id>.jar`, the file host's path.

type Json = Record<string, any>;

export interface SpigetFixture {
  /** The API's base URL (…/v2), as the panel's modSources setting takes it. */
  url: string;
  /** The origin of the API and of the file host (the node's sources.spigetCdn). */
  origin: string;
  requests: string[];
  /** A resource as served (changed in place by attack tests). */
  resource(id: number): Json;
  /** The bytes served for a resource's file (replaced in place by attack tests). */
  jar(id: number): Uint8Array<ArrayBuffer>;
  setJar(id: number, bytes: Uint8Array<ArrayBuffer>): void;
  /** Where the download of `id` redirects (an attack: another host). */
  redirect(id: number, location: string): void;
  /** Publishes a new latest version of `id` (a new file too); its version id. */
  release(id: number): number;
  stop(): void;
}

export const SPIGET = { essentials: 9089, vault: 34315, luckperms: 28140, premium: 41111 } as const;

const seconds = (day: number) => Date.UTC(2024, 5, day) / 1000;
const html = (text: string) => Buffer.from(text, "utf8").toString("base64");

function resource(id: number, name: string, tag: string, tested: string[], downloads: number, extra: Json = {}): Json {
  return {
    id,
    name,
    tag,
    contributors: "",
    likes: 10,
    file: { type: ".jar", size: 1.2, sizeUnit: "KB", url: `resources/${name.toLowerCase()}.${id}/download?version=${id * 10}` },
    testedVersions: tested,
    links: {},
    rating: { count: 12, average: 4.8 },
    releaseDate: seconds(1),
    updateDate: seconds(20),
    downloads,
    external: false,
    icon: { url: "", data: "" },
    premium: false,
    price: 0,
    currency: "",
    author: { id: 1000 + id },
    category: { id: 4 },
    version: { id: id * 10 },
    versions: [{ id: id * 10 }],
    updates: [],
    reviews: [],
    description: html(`<b>${name}</b><br/>${tag}<br/><script>alert(1)</script>`),
    supportedLanguages: "English",
    sourceCodeLink: "",
    donationLink: "",
    ...extra,
  };
}

export function startSpigetFixture(): SpigetFixture {
  const resources = new Map<number, Json>([
    [SPIGET.essentials, resource(SPIGET.essentials, "EssentialsX", "The essential plugin suite for Spigot and Paper", ["1.19", "1.20", "1.21"], 2_000_000)],
    [SPIGET.vault, resource(SPIGET.vault, "Vault", "Permissions, chat and economy API", ["1.8", "1.12", "1.13"], 3_000_000)],
    [SPIGET.luckperms, resource(SPIGET.luckperms, "LuckPerms", "A permissions plugin", ["1.20", "1.21"], 1_500_000, { external: true, file: { type: "external", size: 0, sizeUnit: "", url: "resources/luckperms.28140/download?version=1", externalUrl: "https://luckperms.net/download" } })],
    [SPIGET.premium, resource(SPIGET.premium, "EssentialPremium", "A premium plugin", ["1.21"], 9_000, { premium: true, price: 9.99, currency: "USD" })],
  ]);
  const jars = new Map<number, Uint8Array<ArrayBuffer>>([...resources.keys()].map((id) => [id, new TextEncoder().encode(`PK stand-in for ${resources.get(id)!.name} (Spiget resource ${id})\n`)]));
  const redirects = new Map<number, string>();
  const requests: string[] = [];

  const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => Response.json(body, { status, headers });
  /** A version as resourceVersion.js has it: its name made from its id (2.<id mod 100>.0). */
  const versionDocument = (r: Json, versionId: number) => ({ id: versionId, uuid: `${r.id}-${versionId}`, name: `2.${versionId % 100}.0`, releaseDate: r.updateDate, downloads: 100, rating: { count: 0, average: 0 }, url: r.file.url, resource: r.id });
  /** As util.js paginates: size (10), page (1), sort "-field"/"+field"; an empty list is 404. */
  const paged = (all: Json[], q: URLSearchParams) => {
    const size = Number(q.get("size")) || 10;
    const page = Number(q.get("page")) || 1;
    const sort = q.get("sort") ?? "id";
    const field = sort.replace(/^[-+]/, "");
    const sign = sort.startsWith("-") ? -1 : 1;
    const sorted = [...all].sort((a, b) => sign * ((a[field] ?? 0) - (b[field] ?? 0)));
    const docs = sorted.slice((page - 1) * size, page * size);
    const headers = { "X-Page-Size": String(size), "X-Page-Index": String(page), "X-Page-Count": String(Math.max(1, Math.ceil(all.length / size))), "X-Total": String(all.length) };
    return all.length === 0 ? json([], 404, headers) : json(docs, 200, headers);
  };
  const listed = (r: Json) => {
    // The list routes select the list fields only (util.js resourceListFields): no description, external or price.
    const { description: _d, external: _e, price: _p, currency: _c, versions: _v, updates: _u, reviews: _r, ...rest } = r;
    return rest;
  };

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const url = new URL(req.url);
      requests.push(`${url.pathname}${url.search}`);
      const q = url.searchParams;
      let match = /^\/file\/spiget-resources\/(\d+)\.jar$/.exec(url.pathname);
      if (match) {
        const bytes = jars.get(Number(match[1]));
        return bytes ? new Response(bytes, { headers: { "content-type": "application/octet-stream" } }) : new Response("Not Found", { status: 404 });
      }
      match = /^\/v2\/search\/resources\/([^/]+)$/.exec(url.pathname);
      if (match) {
        const field = q.get("field") ?? "name";
        if (field !== "name" && field !== "tag") return json({ error: "invalid field" }, 400);
        let pattern: RegExp;
        try {
          pattern = new RegExp(decodeURIComponent(match[1]!), "i");
        } catch {
          return json({ error: "invalid query" }, 500);
        }
        return paged([...resources.values()].filter((r) => pattern.test(r[field])).map(listed), q);
      }
      if (url.pathname === "/v2/resources/free") return paged([...resources.values()].filter((r) => !r.premium).map(listed), q);
      match = /^\/v2\/resources\/(\d+)\/versions\/(\d+)$/.exec(url.pathname);
      if (match) {
        const found = resources.get(Number(match[1]));
        const versionId = Number(match[2]);
        return found?.versions.some((v: { id: number }) => v.id === versionId) ? json(versionDocument(found, versionId)) : json({ error: "version not found" }, 404);
      }
      match = /^\/v2\/resources\/(\d+)(\/versions\/latest|\/download)?$/.exec(url.pathname);
      if (match) {
        const found = resources.get(Number(match[1]));
        if (!found) return json({ error: "resource not found" }, 404);
        if (!match[2]) return json(found);
        if (match[2] === "/versions/latest") return json(versionDocument(found, found.version.id));
        if (found.external) return found.file.externalUrl ? Response.redirect(found.file.externalUrl, 302) : json({ error: "cannot download external resource" }, 400);
        return new Response(null, { status: 302, headers: { location: redirects.get(found.id) ?? `${url.origin}/file/spiget-resources/${found.id}${found.file.type}`, "X-Spiget-File-Source": "cdn" } });
      }
      return json({ error: "not found" }, 404);
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    url: `${origin}/v2`,
    origin,
    requests,
    resource: (id) => resources.get(id)!,
    jar: (id) => jars.get(id)!,
    setJar: (id, bytes) => void jars.set(id, bytes),
    redirect: (id, location) => void redirects.set(id, location),
    release: (id) => {
      const r = resources.get(id)!;
      const next = r.version.id + 1;
      r.version = { id: next };
      r.versions.push({ id: next });
      r.updateDate += 86_400;
      jars.set(id, new TextEncoder().encode(`PK stand-in for ${r.name} ${next} (Spiget resource ${id})\n`));
      return next;
    },
    stop: () => server.stop(true),
  };
}
