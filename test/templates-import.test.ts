// Template import: what the repositories offer (the built-in library, and HTTP repositories from
// the settings served here by a local fixture server), importing and overwriting, version-1
// templates converted on the way in, and repositories that fail changing nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { testPanel, loginAs, type TestPanel } from "./helpers/app";
import { SCOPES } from "../core/scopes";
import { SHIPPED_TEMPLATE_SOURCES } from "../templates";
import { SETTING_KEYS, setSetting } from "../server/services/settings";
import { echoTemplate } from "./helpers/node";

/** A 1.x template as PufferPanel 1.x shipped them: wrapped, string values, program + arguments. */
const V1_PAPER = {
  pufferd: {
    type: "java",
    display: "Paper (1.x) - Minecraft",
    install: { commands: [{ type: "download", files: "https://papermc.example/paper-${version}.jar" }, { type: "move", source: "paper-*.jar", target: "server.jar" }] },
    run: { stop: "stop", pre: [], post: [], program: "java", arguments: ["-Xmx${memory}M", "-jar", "server.jar"] },
    environment: { type: "standard" },
    data: {
      memory: { value: "1024", required: true, desc: "Heap in MB", display: "Memory (MB)", internal: false, type: "integer" },
      version: { value: "1.20.4", required: true, desc: "See <a href='https://papermc.io/downloads'>the downloads</a>", display: "Version", internal: true },
    },
  },
};

interface Fixture {
  url: string;
  hits: string[];
  stop(): void;
}

/** An HTTP repository in Kiln's format: index.json and <name>.json. `/broken` answers junk. */
function startRepository(): Fixture {
  const hits: string[] = [];
  const templates: Record<string, unknown> = { "paper-v1": V1_PAPER, echo: { ...echoTemplate(), display: "Echo from the repository" } };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      hits.push(path);
      if (path === "/repo/index.json") {
        return Response.json({
          name: "Fixture templates",
          templates: [
            { name: "paper-v1", display: "Paper (1.x)", type: "java", readme: "An **old** one" },
            { name: "echo", display: "Echo from the repository", type: "other", readme: "" },
          ],
        });
      }
      const name = /^\/repo\/(.+)\.json$/.exec(path)?.[1];
      if (name && name in templates) return Response.json(templates[name]);
      if (path === "/broken/index.json") return new Response("<html>not json</html>", { headers: { "content-type": "text/html" } });
      if (path === "/half/index.json") return Response.json({ templates: [{ name: "x" }] });
      if (path === "/half/x.json") return new Response('{"display": "cut sh', { headers: { "content-type": "application/json" } });
      return new Response("not found", { status: 404 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, hits, stop: () => void server.stop(true) };
}

let repo: Fixture;
let panel: TestPanel;
let token: string;
beforeAll(() => void (repo = startRepository()));
afterAll(() => repo.stop());
beforeEach(async () => {
  panel = await testPanel();
  ({ token } = await loginAs(panel.db, [SCOPES.templatesView, SCOPES.templatesEdit]));
});

const post = (body?: object) => ({ method: "POST", headers: { "content-type": "application/json" }, body: body ? JSON.stringify(body) : undefined });
const errorOf = async (res: Response) => ({ status: res.status, code: (await res.json()).error?.code });
const ids = async () => (await (await panel.request("/api/templates", { token })).json()).map((t: { id: string }) => t.id);

describe("listing what can be imported", () => {
  test("POST answers the importable names, as PufferPanel's does", async () => {
    const res = await panel.request("/api/templates/import", { token, ...post() });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(Object.keys(SHIPPED_TEMPLATE_SOURCES).sort());
  });

  test("the built-in library is always offered, with display names and readmes", async () => {
    const res = await panel.request("/api/templates/import/repositories", { token });
    expect(res.status).toBe(200);
    const { repositories } = await res.json();
    expect(repositories).toHaveLength(1);
    expect(repositories[0]).toMatchObject({ id: "kiln", builtIn: true });
    const names = repositories[0].templates.map((t: { name: string }) => t.name).sort();
    expect(names).toEqual(Object.keys(SHIPPED_TEMPLATE_SOURCES).sort());
    expect(names.length).toBeGreaterThanOrEqual(20);
    for (const t of repositories[0].templates) {
      expect(t.display).not.toBe("");
      expect(t.readme.length).toBeGreaterThan(20);
    }
  });

  test("repositories from the settings are listed too; one that fails is listed with its error", async () => {
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, [`${repo.url}/repo`, `${repo.url}/broken`, "http://127.0.0.1:9/nothing"].join("\n"));
    const { repositories } = await (await panel.request("/api/templates/import/repositories", { token })).json();
    expect(repositories.map((r: { id: string }) => r.id)).toEqual(["kiln", `${repo.url}/repo`, `${repo.url}/broken`, "http://127.0.0.1:9/nothing"]);
    expect(repositories[1]).toMatchObject({ name: "Fixture templates", builtIn: false });
    expect(repositories[1].templates).toEqual([
      { id: "paper-v1", name: "paper-v1", display: "Paper (1.x)", type: "java", readme: "An **old** one" },
      { id: "echo", name: "echo", display: "Echo from the repository", type: "other", readme: "" },
    ]);
    expect(repositories[2]).toMatchObject({ templates: [], error: { code: "ErrTemplateRepositoryFailed" } });
    expect(repositories[2].error.msg).toContain("not JSON");
    expect(repositories[3]).toMatchObject({ templates: [], error: { code: "ErrTemplateRepositoryFailed" } });
  });
});

describe("importing", () => {
  test("a library template is stored under its name, exactly as the library has it", async () => {
    const res = await panel.request("/api/templates/import/minecraft-paper", { token, ...post() });
    expect(res.status).toBe(200);
    expect(await ids()).toEqual(["minecraft-paper"]);
    const stored = await (await panel.request("/api/templates/minecraft-paper", { token })).json();
    expect(stored).toMatchObject({ id: "minecraft-paper", display: (SHIPPED_TEMPLATE_SOURCES["minecraft-paper"] as { display: string }).display });
  });

  test("importing again overwrites the template with the same id", async () => {
    await panel.request("/api/templates/valheim", { token, method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...echoTemplate(), display: "My own valheim" }) });
    expect((await (await panel.request("/api/templates/valheim", { token })).json()).display).toBe("My own valheim");
    await panel.request("/api/templates/import/valheim", { token, ...post({ repository: "kiln" }) });
    expect((await (await panel.request("/api/templates/valheim", { token })).json()).display).toBe("Valheim dedicated server");
    expect(await ids()).toEqual(["valheim"]);
  });

  test("from an HTTP repository, a version-1 template is converted on import", async () => {
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, `${repo.url}/repo`);
    const res = await panel.request("/api/templates/import/paper-v1", { token, ...post({ repository: `${repo.url}/repo` }) });
    expect(res.status).toBe(200);
    const t = await res.json();
    expect(t).toMatchObject({ id: "paper-v1", display: "Paper (1.x) - Minecraft", type: "java", run: { command: 'java "-Xmx${memory}M" -jar server.jar', stop: "stop" } });
    expect(t.data.memory).toMatchObject({ value: 1024, type: "integer", userEdit: true });
    expect(t.data.version).toMatchObject({ value: "1.20.4", userEdit: false, desc: "See [the downloads](https://papermc.io/downloads)" });
    expect(t.pufferd).toBeUndefined();
    expect(repo.hits).toContain("/repo/paper-v1.json");
  });

  test("an unknown name is ErrNoTemplate, in the library and in a repository, and nothing is stored", async () => {
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, `${repo.url}/repo`);
    expect(await errorOf(await panel.request("/api/templates/import/no-such-game", { token, ...post() }))).toEqual({ status: 404, code: "ErrNoTemplate" });
    expect(await errorOf(await panel.request("/api/templates/import/no-such-game", { token, ...post({ repository: `${repo.url}/repo` }) }))).toEqual({ status: 404, code: "ErrNoTemplate" });
    expect(await errorOf(await panel.request("/api/templates/import/..%2Fsecrets", { token, ...post() }))).toEqual({ status: 404, code: "ErrNoTemplate" });
    expect(await ids()).toEqual([]);
  });

  test("only repositories from the settings are fetched: another URL is refused without a request", async () => {
    const before = repo.hits.length;
    const res = await panel.request("/api/templates/import/echo", { token, ...post({ repository: `${repo.url}/repo` }) });
    expect(await errorOf(res)).toEqual({ status: 404, code: "ErrNoTemplate" });
    expect(repo.hits.length).toBe(before);
    expect(await ids()).toEqual([]);
  });

  test("a repository that does not answer, or answers half a template, is a clear error and changes nothing", async () => {
    await panel.request("/api/templates/import/valheim", { token, ...post() });
    const before = await (await panel.request("/api/templates/valheim", { token })).json();
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, ["http://127.0.0.1:9/nothing", `${repo.url}/half`].join("\n"));
    const dead = await panel.request("/api/templates/import/valheim", { token, ...post({ repository: "http://127.0.0.1:9/nothing" }) });
    expect(dead.status).toBe(502);
    const body = await dead.json();
    expect(body.error.code).toBe("ErrTemplateRepositoryFailed");
    expect(body.error.metadata.url).toBe("http://127.0.0.1:9/nothing");
    expect(await errorOf(await panel.request("/api/templates/import/x", { token, ...post({ repository: `${repo.url}/half` }) }))).toEqual({ status: 502, code: "ErrTemplateRepositoryFailed" });
    expect(await ids()).toEqual(["valheim"]);
    expect(await (await panel.request("/api/templates/valheim", { token })).json()).toEqual(before);
  });

  test("listing and importing need templates.edit", async () => {
    const viewer = await loginAs(panel.db, [SCOPES.templatesView]);
    expect(await errorOf(await panel.request("/api/templates/import", { token: viewer.token, ...post() }))).toEqual({ status: 403, code: "ErrMissingScope" });
    expect(await errorOf(await panel.request("/api/templates/import/repositories", { token: viewer.token }))).toEqual({ status: 403, code: "ErrMissingScope" });
    expect(await errorOf(await panel.request("/api/templates/import/valheim", { token: viewer.token, ...post() }))).toEqual({ status: 403, code: "ErrMissingScope" });
    expect(await ids()).toEqual([]);
  });
});

describe("version-1 templates through PUT", () => {
  test("are converted, not stored as an empty template", async () => {
    const res = await panel.request("/api/templates/old", { token, method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(V1_PAPER) });
    expect(res.status).toBe(200);
    const t = await res.json();
    expect(t).toMatchObject({ id: "old", name: "old", display: "Paper (1.x) - Minecraft", install: [{ type: "download", files: ["https://papermc.example/paper-${version}.jar"] }, { type: "move" }] });
    expect(t.pufferd).toBeUndefined();
  });
});

describe("the repositories setting", () => {
  test("takes http(s) URLs one per line, trims them and drops blank lines and duplicates", async () => {
    const { token: admin } = await loginAs(panel.db, [SCOPES.admin]);
    const put = (value: string) => panel.request("/api/settings", { token: admin, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ [SETTING_KEYS.templateRepositories]: value }) });
    expect((await put(" https://a.example/kiln/ \n\nhttps://a.example/kiln\nhttp://b.example")).status).toBeLessThan(300);
    expect(await (await panel.request(`/api/settings/${SETTING_KEYS.templateRepositories}`, { token: admin })).json()).toEqual({ value: "https://a.example/kiln\nhttp://b.example" });
    for (const bad of ["ftp://x.example", "not a url", "https://user:pw@x.example"]) {
      expect(await errorOf(await put(bad)), bad).toEqual({ status: 400, code: "ErrFieldIsInvalidHost" });
    }
  });
});

describe("the library as an HTTP repository", () => {
  test("written by the repository script, served over HTTP, every template imports the same as from the built-in library", async () => {
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "kiln-repo-"));
    const script = Bun.spawnSync([process.execPath, join(import.meta.dir, "..", "scripts", "template-repository.ts"), dir]);
    expect(script.exitCode).toBe(0);
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => new Response(Bun.file(join(dir, new URL(req.url).pathname.split("/").pop()!))) });
    try {
      const url = `http://127.0.0.1:${server.port}/kiln`;
      await setSetting(panel.db, SETTING_KEYS.templateRepositories, url);
      const { repositories } = await (await panel.request("/api/templates/import/repositories", { token })).json();
      const [library, hosted] = repositories;
      expect(hosted).toMatchObject({ id: url, name: "Kiln library", builtIn: false });
      expect(hosted.templates.map((t: { name: string }) => t.name).sort()).toEqual(library.templates.map((t: { name: string }) => t.name).sort());
      for (const { name } of hosted.templates) {
        const fromHttp = await (await panel.request(`/api/templates/import/${name}`, { token, ...post({ repository: url }) })).json();
        const fromLibrary = await (await panel.request(`/api/templates/import/${name}`, { token, ...post() })).json();
        // The same template; only where it was imported from differs.
        expect({ ...fromHttp, repository: undefined }, name).toEqual({ ...fromLibrary, repository: undefined });
        expect([fromHttp.repository, fromLibrary.repository]).toEqual([url, "kiln"]);
      }
      expect((await ids()).length).toBe(library.templates.length);
    } finally {
      void server.stop(true);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
