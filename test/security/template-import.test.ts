// Attack: the template import path. A hostile repository (in pufferpanel/templates' layout, the one
// Kiln reads from directory listings) answers listings that climb out of its folder or point
// elsewhere, a template that is huge, one nested a hundred thousand levels deep, one with
// `__proto__` and `constructor` keys, and one whose description and readme carry script and
// javascript: links; a templates.edit holder PUTs the same. Nothing is fetched outside the
// repository's base URL, every refusal is a catalogue error that stores nothing, and what is
// stored and shown carries no markup and no javascript: link.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { SCOPES } from "../../core/scopes";
import { SETTING_KEYS, setSetting } from "../../server/services/settings";
import { createNode } from "../../server/services/nodes";
import { testPanel, loginAs, HTML, type TestPanel } from "../helpers/app";

const XSS_DESC = `Pick one <script>alert(1)</script><a href="javascript:alert(2)">here</a> <A HREF=' JaVaScRiPt:alert(3)'>there</A> <img src=x onerror=alert(4)> <a href="https://example.test/ok">docs</a>`;
const XSS_TEMPLATE = {
  type: "other",
  display: `Evil <img src=x onerror=alert(5)>`,
  data: { pick: { type: "string", value: "a", display: "Pick", desc: XSS_DESC, required: true, userEdit: true, internal: false } },
  run: { command: "./server", stop: "stop" },
  environment: { type: "tty" },
};
const XSS_README = `# Evil\n\n<script>alert(6)</script> [click](javascript:alert(7)) [ok](https://example.test/)`;

/** A template nested `depth` levels deep inside a variable, small enough to pass the size limit. */
const deep = (depth: number) => `{"display":"deep","data":{"x":{"value":"a","desc":${"[".repeat(depth)}${"]".repeat(depth)}}}}`;

const PROTO = `{"display":"proto","data":{"__proto__":{"polluted":true,"value":"x"},"ok":{"value":"y","internal":false}},"run":{"command":"./x","environmentVars":{"constructor":"y"}}}`;

const listing = (links: string[]) => `<html><body>${links.map((l) => `<a href="${l}">${l}</a>`).join("\n")}</body></html>`;
const html = (body: string) => new Response(body, { headers: { "content-type": "text/html" } });

let hits: string[] = [];
/** A service on the panel's side that no repository may send the panel to. */
const internalHits: string[] = [];
const internal = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => (internalHits.push(new URL(req.url).pathname), Response.json({ display: "INTERNAL-ONLY", data: {} })) });
let repository: ReturnType<typeof Bun.serve>;
let base = "";

beforeAll(() => {
  repository = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      hits.push(path);
      const files: Record<string, () => Response> = {
        "/repo/": () =>
          html(listing(["../", "..%2f", "%2e%2e/", "/", "/etc/", "http://evil.test/x/", `http://127.0.0.1:${repository.port}/other/`, ".hidden/", "a%2Fb/", "good/", "xss/", "huge/", "deep/", "proto/", "?C=N;O=D"])),
        "/repo/good/": () => html(listing(["../", "good.json", "../secret.json", "%2e%2e%2fsecret.json", "/abs.json", "..%5csecret.json", "README.md"])),
        "/repo/good/good.json": () => Response.json({ ...XSS_TEMPLATE, display: "Good", data: {} }),
        "/repo/good/README.md": () => new Response("# Good"),
        "/repo/xss/": () => html(listing(["xss.json", "README.md"])),
        "/repo/xss/xss.json": () => Response.json(XSS_TEMPLATE),
        "/repo/xss/README.md": () => new Response(XSS_README),
        "/repo/huge/": () => html(listing(["huge.json"])),
        "/repo/huge/huge.json": () => new Response(`{"display":"${"x".repeat(3 * 1024 * 1024)}"}`),
        "/repo/deep/": () => html(listing(["deep.json"])),
        "/repo/deep/deep.json": () => new Response(deep(100_000)),
        "/repo/proto/": () => html(listing(["proto.json"])),
        "/repo/proto/proto.json": () => new Response(PROTO),
      };
      // A repository that sends every request elsewhere (an internal service, a cloud's metadata
      // address), and one that moved within its own host.
      if (path.startsWith("/away/")) return new Response(null, { status: 302, headers: { location: `http://127.0.0.1:${internal.port}/latest/meta-data/` } });
      if (path.startsWith("/moved/")) return new Response(null, { status: 301, headers: { location: path.replace("/moved/", "/repo/") } });
      return files[path]?.() ?? new Response("not found", { status: 404 });
    },
  });
  base = `http://127.0.0.1:${repository.port}/repo`;
});
afterAll(() => {
  repository.stop(true);
  internal.stop(true);
});

let panel: TestPanel;
let token: string;
beforeEach(async () => {
  hits = [];
  panel = await testPanel();
  await setSetting(panel.db, SETTING_KEYS.templateRepositories, base);
  ({ token } = await loginAs(panel.db, [SCOPES.templatesView, SCOPES.templatesEdit, SCOPES.serversCreate]));
});

const importOne = (name: string) =>
  panel.request(`/api/templates/import/${name}`, { token, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ repository: base }) });
const errorOf = async (res: Response) => ({ status: res.status, code: (await res.json()).error?.code });
const stored = async () => (await (await panel.request("/api/templates", { token })).json()).map((t: { id: string }) => t.id);

describe("a hostile repository", () => {
  test("its listings lead nowhere but below its base URL, and only plain names are offered", async () => {
    const res = await panel.request("/api/templates/import/repositories", { token });
    const { repositories } = await res.json();
    const repo = repositories.find((r: { id: string }) => r.id === base);
    // A file that cannot be read (huge) is still offered under its plain name; importing it says why.
    expect(repo.templates.map((t: { id: string }) => t.id).sort()).toEqual(["deep", "good", "huge", "proto", "xss"]);
    expect(hits.every((path) => path.startsWith("/repo/"))).toBe(true);
    expect(hits.filter((path) => path.endsWith("/"))).toEqual(expect.arrayContaining(["/repo/", "/repo/good/"]));
    expect(hits.some((path) => /secret|abs|etc|other|hidden/.test(path))).toBe(false);
  });

  test("names outside its listing, climbing or not, are not fetched", async () => {
    for (const name of ["secret", "..%2Fsecret", "%2e%2e%2fsecret", "good%2F..%2F..%2Fsecret"]) {
      expect(await errorOf(await importOne(name))).toEqual({ status: 404, code: "ErrNoTemplate" });
    }
    // A bare ".." (or its encoding) is resolved by the URL itself: no import route is reached at all.
    for (const name of ["..", "%2e%2e"]) expect(await errorOf(await importOne(name))).toEqual({ status: 404, code: "ErrNotFound" });
    expect(hits.some((path) => path.includes("secret"))).toBe(false);
    expect(await stored()).toEqual([]);
  });

  test("a huge file and a deeply nested one are refused with catalogue errors; nothing is stored", async () => {
    expect(await errorOf(await importOne("huge"))).toEqual({ status: 502, code: "ErrTemplateRepositoryFailed" });
    expect(await errorOf(await importOne("deep"))).toEqual({ status: 400, code: "ErrInvalidJson" });
    expect(await stored()).toEqual([]);
  });

  test("__proto__ and constructor keys are refused by name and pollute nothing", async () => {
    const res = await importOne("proto");
    const body = await res.json();
    expect(res.status).toBe(400);
    expect(body.error.code).toBe("ErrInvalidJson");
    expect(body.error.metadata.field).toBe("data.__proto__");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await stored()).toEqual([]);
  });

  test("script and javascript: links in its descriptions and readmes are stored and shown as text", async () => {
    const res = await importOne("xss");
    expect(res.status).toBe(200);
    const template = await res.json();
    await createNode(panel.db, { name: "node", publicHost: "127.0.0.1", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 2 });
    expect(template.data.pick.desc).toBe("Pick one alert(1)here there  [docs](https://example.test/ok)");
    const pages = [
      await (await panel.request("/template?import", { token, headers: HTML })).text(),
      await (await panel.request("/addserver?template=xss", { token, headers: HTML })).text(),
    ];
    expect(pages[0]).toContain("alert(6)");
    expect(pages[1]).toContain("Pick one alert(1)here there");
    for (const page of pages) {
      // Markup from the repository appears only escaped, as text; no link leads to javascript:.
      expect(page).not.toMatch(/<script>alert|href="\s*javascript:|<img src=x/i);
    }
  });
});

describe("PUT /api/templates/{id}", () => {
  const put = (id: string, body: string) => panel.request(`/api/templates/${id}`, { token, method: "PUT", headers: { "content-type": "application/json" }, body });

  test("the same attacks through the editor's save are refused or stored as text", async () => {
    expect(await errorOf(await put("deep", deep(100_000)))).toEqual({ status: 400, code: "ErrInvalidJson" });
    expect(await errorOf(await put("proto", PROTO))).toEqual({ status: 400, code: "ErrInvalidJson" });
    expect(await stored()).toEqual([]);
    const res = await put("xss", JSON.stringify(XSS_TEMPLATE));
    expect(res.status).toBe(200);
    expect((await res.json()).data.pick.desc).not.toMatch(/<script|javascript:|onerror/i);
  });

  test("a viewer cannot import or save", async () => {
    const viewer = await loginAs(panel.db, [SCOPES.templatesView]);
    const res = await panel.request("/api/templates/import/xss", { token: viewer.token, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ repository: base }) });
    expect(await errorOf(res)).toEqual({ status: 403, code: "ErrMissingScope" });
    expect(hits).toEqual([]);
  });
});

describe("a repository's redirects", () => {
  const listingOf = async (repository: string) => {
    const res = await panel.request(`/api/templates/import/repositories?repository=${encodeURIComponent(repository)}`, { token });
    return { status: res.status, text: await res.text() };
  };

  test("one to another host is refused and that host never asked; one within the repository's host is followed", async () => {
    const away = `http://127.0.0.1:${repository.port}/away`;
    const moved = `http://127.0.0.1:${repository.port}/moved`;
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, [base, away, moved].join("\n"));
    const refused = await listingOf(away);
    expect(refused.status).toBeLessThan(500);
    expect(refused.text).not.toContain("INTERNAL-ONLY");
    expect(refused.text).toContain("redirected to another host");
    expect(internalHits).toEqual([]);
    const followed = await listingOf(moved);
    expect(followed.text).toContain('"good"');
  });
});
