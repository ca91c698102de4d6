// Template repositories given as GitHub URLs, read from GitHub's archive behind the configurable
// base URL (recorded answers made by test/helpers/github-archive-server from the snapshots in
// ../shared/fixtures), and the import dialog's scaling: one repository read on its own, a slow
// one pending while the others are listed, the search form without script, and ids that
// collide across sources renamed by choice, never replaced unasked.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { testPanel, loginAs, type TestPanel } from "./helpers/app";
import { SCOPES } from "../core/scopes";
import { SETTING_KEYS, setSetting } from "../server/services/settings";
import { seedTemplates } from "../server/services/templates";
import { serveGitHubArchives, type ArchiveServer } from "./helpers/github-archive-server";
import { SHIPPED_TEMPLATES } from "../templates";

const FIXTURES = join(import.meta.dir, "..", "..", "shared", "fixtures");
const PUFFER = "https://github.com/pufferpanel/templates/tree/v3";
const EGGS = "https://github.com/pelican-eggs/minecraft";
const MISSING = "https://github.com/nobody/nothing";
const present = existsSync(join(FIXTURES, "pufferpanel-templates", "v3")) && existsSync(join(FIXTURES, "eggs", "minecraft"));
if (!present) console.log("templates-github: ../shared/fixtures is not there; skipping");

let archives: ArchiveServer;
let panel: TestPanel;
let token: string;
beforeAll(() => {
  if (!present) return;
  archives = serveGitHubArchives({
    "pufferpanel/templates/v3": join(FIXTURES, "pufferpanel-templates", "v3"),
    "pelican-eggs/minecraft/HEAD": join(FIXTURES, "eggs", "minecraft"),
  });
});
afterAll(() => archives?.stop());
beforeEach(async () => {
  if (!present) return;
  panel = await testPanel({ githubArchiveUrl: archives.url });
  ({ token } = await loginAs(panel.db, [SCOPES.templatesView, SCOPES.templatesEdit]));
});

const post = (body?: object) => ({ method: "POST", headers: { "content-type": "application/json" }, body: body ? JSON.stringify(body) : undefined });
const errorOf = async (res: Response) => ({ status: res.status, code: (await res.json()).error?.code });
const listing = async (query = "") => (await (await panel.request(`/api/templates/import/repositories${query}`, { token })).json()).repositories;

describe.if(present)("a GitHub repository URL", () => {
  test("is read from its archive at the configured base URL, in PufferPanel's layout and an egg repository's", async () => {
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, [PUFFER, EGGS].join("\n"));
    const [, puffer, eggs] = await listing();
    expect(puffer).toMatchObject({ id: PUFFER, layout: "pufferpanel", namespace: "pufferpanel" });
    expect(puffer.error).toBeUndefined();
    expect(puffer.templates.length).toBe(36);
    expect(puffer.templates.find((t: { id: string }) => t.id === "valheim")).toMatchObject({ display: expect.stringContaining("Valheim") });
    expect(eggs).toMatchObject({ id: EGGS, layout: "egg", namespace: "pelican-eggs" });
    expect(eggs.templates.length).toBeGreaterThan(90);
    expect(archives.hits).toEqual(["/pufferpanel/templates/tar.gz/v3", "/pelican-eggs/minecraft/tar.gz/HEAD"]);
  });

  test("templates import from it (a v3 template, an egg) and record where they came from", async () => {
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, [PUFFER, EGGS].join("\n"));
    const ark = await panel.request("/api/templates/import/ark", { token, ...post({ repository: PUFFER }) });
    expect(ark.status).toBe(200);
    expect(ark.headers.get("Kiln-Import-Format")).toBe("v3");
    expect(await ark.json()).toMatchObject({ id: "ark", source: "pufferpanel", repository: PUFFER });
    const paper = await panel.request("/api/templates/import/paper", { token, ...post({ repository: EGGS }) });
    expect(paper.status).toBe(200);
    expect(await paper.json()).toMatchObject({ id: "paper", source: "egg", repository: EGGS });
  });

  test("one repository can be asked for on its own", async () => {
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, [PUFFER, EGGS].join("\n"));
    const one = await listing(`?repository=${encodeURIComponent(EGGS)}`);
    expect(one.map((r: { id: string }) => r.id)).toEqual([EGGS]);
    // Only repositories from the settings are read.
    expect(await errorOf(await panel.request(`/api/templates/import/repositories?repository=${encodeURIComponent("https://github.com/else/where")}`, { token }))).toEqual({ status: 404, code: "ErrNoTemplate" });
  });

  test("a repository GitHub does not have is listed with a clear error", async () => {
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, MISSING);
    const [, missing] = await listing();
    expect(missing).toMatchObject({ templates: [], error: { code: "ErrTemplateRepositoryFailed" } });
    expect(missing.error.msg).toContain("no such repository or branch on GitHub");
  });
});

describe.if(present)("ids that collide across sources", () => {
  test("importing under another id keeps the installed one; an id taken is refused, nothing stored", async () => {
    await seedTemplates(panel.db, SHIPPED_TEMPLATES.filter((t) => t.name === "valheim"));
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, PUFFER);
    const renamed = await panel.request("/api/templates/import/valheim", { token, ...post({ repository: PUFFER, as: "valheim-pufferpanel" }) });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ id: "valheim-pufferpanel", repository: PUFFER });
    expect((await (await panel.request("/api/templates/valheim", { token })).json()).repository).toBe("kiln");
    expect(await errorOf(await panel.request("/api/templates/import/ark", { token, ...post({ repository: PUFFER, as: "valheim" }) }))).toEqual({ status: 409, code: "ErrTemplateExists" });
    expect(await errorOf(await panel.request("/api/templates/import/ark", { token, ...post({ repository: PUFFER, as: "../x" }) }))).toEqual({ status: 400, code: "ErrFieldHasURICharacters" });
    const ids = (await (await panel.request("/api/templates", { token })).json()).map((t: { id: string }) => t.id).sort();
    expect(ids).toEqual(["valheim", "valheim-pufferpanel"]);
  });

  test("the dialog offers Import as <id>-<namespace> or Replace for a collision, Update for the same source", async () => {
    await seedTemplates(panel.db, SHIPPED_TEMPLATES.filter((t) => t.name === "valheim"));
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, PUFFER);
    await panel.request("/api/templates/import/ark", { token, ...post({ repository: PUFFER }) });
    const html = await (await panel.request("/template?import=1", { token })).text();
    const offer = (repository: string, id: string) => {
      const section = html.slice(html.indexOf(`data-repository="${repository}"`));
      const start = section.indexOf(`data-offer="${id}"`);
      // Up to the next offer: a readme may hold list items of its own.
      return section.slice(start, section.indexOf('class="template-offer"', start));
    };
    const valheim = offer(PUFFER, "valheim");
    expect(valheim).toContain('data-import-as="valheim-pufferpanel"');
    expect(valheim).toContain("Import as valheim-pufferpanel");
    expect(valheim).toContain('data-import-as="valheim"');
    expect(valheim).toContain("from Kiln library");
    expect(offer(PUFFER, "ark")).toContain(">Update<");
    expect(offer("kiln", "valheim")).toContain(">Update<");
    expect(offer(PUFFER, "rust")).toContain(">Import<");
  });

  test("the page form imports under the chosen id and opens it", async () => {
    await seedTemplates(panel.db, SHIPPED_TEMPLATES.filter((t) => t.name === "valheim"));
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, PUFFER);
    const res = await panel.request("/template/import/valheim", { token, method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" }, body: new URLSearchParams({ repository: PUFFER, as: "valheim-pufferpanel" }).toString() });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toStartWith("/template/valheim-pufferpanel");
  });
});

describe.if(present)("the import dialog", () => {
  test("lists quick repositories at once and a slow one as loading; its section arrives on its own", async () => {
    // Listings are kept a while: a URL of its own, so this one is read afresh.
    const EGGS = "https://github.com/pelican-eggs/minecraft/tree/HEAD";
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, [PUFFER, EGGS].join("\n"));
    const release = archives.holdBack("pelican-eggs/minecraft");
    try {
      const started = Date.now();
      const html = await (await panel.request("/template?import=1", { token })).text();
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(html).toContain(`data-repository="${PUFFER}" aria-label`);
      expect(html).toContain(`data-offer="ark"`);
      expect(html).toMatch(new RegExp(`data-repository="${EGGS}" data-pending="/template/import/section\\?repository=${encodeURIComponent(EGGS).replace(/[.%]/g, "\\$&")}"`));
      release();
      const section = await (await panel.request(`/template/import/section?repository=${encodeURIComponent(EGGS)}`, { token })).text();
      expect(section).toStartWith("<section");
      expect(section).toContain('data-offer="paper"');
      expect(section).not.toContain("data-pending");
    } finally {
      release();
    }
  });

  test("the search form filters by name, id or type without script, and can show one repository", async () => {
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, [PUFFER, EGGS].join("\n"));
    const html = await (await panel.request(`/template?import=1&q=${encodeURIComponent("terraria tshock")}`, { token })).text();
    const shown = [...html.matchAll(/<li class="template-offer" data-offer="([^"]+)"[^>]*?(hidden="")?>/g)].filter((m) => !m[2]).map((m) => m[1]);
    expect(shown.sort()).toEqual(["terraria-tshock", "terraria-tshock"]);
    const one = await (await panel.request(`/template?import=1&repository=${encodeURIComponent(EGGS)}`, { token })).text();
    expect(one).not.toContain(`data-repository="${PUFFER}"`);
    expect(one).not.toContain('data-repository="kiln"');
    expect(one).toContain(`<option value="${EGGS}" selected="">`);
  });
});
