// An egg repository in the import dialog, without script: Kiln's own egg fixtures laid out as the
// public egg repositories are (nested folders holding egg-<name>.json, a README beside them, other
// JSON files that are no eggs) and served with directory listings. The dialog offers each egg by
// its name with the folder's README; importing one through the plain form stores it converted,
// with source egg, says so, and the template list shows where it came from.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCOPES } from "../core/scopes";
import { SETTING_KEYS, setSetting } from "../server/services/settings";
import { getTemplate, putTemplate } from "../server/services/templates";
import { createNode } from "../server/services/nodes";
import { readFileSync } from "node:fs";
import { serveFolder, type FolderServer } from "./helpers/template-folder-server";
import { testPanel, loginAs, HTML, type TestPanel } from "./helpers/app";

const FIXTURES = join(import.meta.dir, "fixtures/kiln-eggs");
let root: string;
let served: FolderServer;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "kiln-egg-repo-"));
  mkdirSync(join(root, "java/block"), { recursive: true });
  mkdirSync(join(root, "proxy"), { recursive: true });
  copyFileSync(join(FIXTURES, "ptdl-v2.json"), join(root, "java/block/egg-block-game.json"));
  writeFileSync(join(root, "java/block/README.md"), "# Block Game\n\nThe folder's readme.");
  writeFileSync(join(root, "java/block/config.json"), '{"not":"an egg"}');
  copyFileSync(join(FIXTURES, "plcn-v3.json"), join(root, "proxy/egg-proxy.json"));
  // Pelican's own export is YAML; a YAML bomb (aliases of aliases) beside it must cost nothing.
  mkdirSync(join(root, "relay"));
  copyFileSync(join(FIXTURES, "plcn-v3.yaml"), join(root, "relay/egg-yaml-relay.yaml"));
  // Seven levels of nine: 4.8 million nodes, which Bun's parser still builds (as shared references).
  const levels = Array.from({ length: 7 }, (_, i) => `l${i + 1}: &l${i + 1} [${Array(9).fill(i === 0 ? '"lol"' : `*l${i}`).join(",")}]`);
  writeFileSync(join(root, "relay/egg-bomb.yaml"), `meta: {version: PLCN_v3}\n${levels.join("\n")}\n`);
  served = serveFolder(root);
});
afterAll(() => {
  served.stop();
  rmSync(root, { recursive: true, force: true });
});

let panel: TestPanel;
let token: string;
beforeEach(async () => {
  panel = await testPanel();
  await setSetting(panel.db, SETTING_KEYS.templateRepositories, served.url);
  ({ token } = await loginAs(panel.db, [SCOPES.templatesView, SCOPES.templatesEdit]));
});

const post = (body: URLSearchParams) => ({ method: "POST", token, headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", origin: "http://localhost" }, body: body.toString() });

describe("an egg repository", () => {
  test("is read from its listings: each egg offered by its name, with the folder's README or its description", async () => {
    const { repositories } = await (await panel.request("/api/templates/import/repositories", { token })).json();
    const repo = repositories.find((r: { id: string }) => r.id === served.url);
    expect(repo.layout).toBe("egg");
    expect(repo.templates).toEqual([
      { id: "block-game", name: "block-game", display: "Block Game", type: "egg", readme: "# Block Game\n\nThe folder's readme." },
      { id: "bomb", name: "bomb", display: "bomb", type: "other", readme: "" },
      { id: "proxy", name: "proxy", display: "Proxy", type: "egg", readme: "A proxy with two ways to start." },
      { id: "yaml-relay", name: "yaml-relay", display: "Yaml Relay", type: "egg", readme: "A relay exported as YAML." },
    ]);
    const page = await (await panel.request("/template?import", { token, headers: HTML })).text();
    expect(page).toContain('data-offer="block-game"');
    expect(page).toContain('action="/template/import/proxy"');
  });

  test("importing through the plain form stores the egg converted, says so, and the list shows its source", async () => {
    const res = await panel.request("/template/import/block-game", post(new URLSearchParams({ repository: served.url })));
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/template\/block-game\?imported=[\w-]+$/);
    const flash = /kiln_flash=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
    const next = await (await panel.request(location, { token, headers: { ...HTML, cookie: `kiln_flash=${flash}` } })).text();
    expect(next).toContain("Egg imported and converted to a Kiln template");
    // What the conversion read differently, listed on the page itself (no script needed), field by field.
    expect(next).toContain('data-note="eggFeatureEula"');
    expect(next).toContain("features.eula: users accept the EULA with the variable EULA");
    // Listed once, after the import: the page on its own, or with another template's token, has no list.
    expect(await (await panel.request("/template/block-game", { token, headers: HTML })).text()).not.toContain("data-conversion-notes");
    const other = location.replace("block-game", "proxy");
    await panel.request("/template/import/proxy", post(new URLSearchParams({ repository: served.url })));
    expect(await (await panel.request(other, { token, headers: HTML })).text()).not.toContain("data-conversion-notes");
    const stored = await getTemplate(panel.db, "block-game");
    expect(stored.source).toBe("egg");
    expect(stored.readme).toBe("A block game server.");
    expect(stored.environment).toMatchObject({ type: "docker", conventions: "egg" });
    const list = await (await panel.request("/template", { token, headers: HTML })).text();
    expect(list).toMatch(/data-template="block-game"[\s\S]*?data-source="egg"[^>]*>Egg</);
  });

  test("a YAML egg (Pelican's export) is read and converted like a JSON one", async () => {
    const res = await panel.request("/api/templates/import/yaml-relay", { token, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ repository: served.url }) });
    expect(res.status).toBe(200);
    expect(res.headers.get("kiln-import-format")).toBe("egg");
    const template = await res.json();
    expect(template.run).toMatchObject({ command: './relay --port ${SERVER_PORT} --name "${RELAY_NAME}"', stopCode: 2, readyMarkers: ["Relay up"] });
    expect(template.run.pre).toEqual([{ type: "configfile", file: "relay.yml", parser: "yaml", replace: [{ match: "server.port", value: "{{server.allocations.default.port}}" }] }]);
    expect(template.install[0].script).toBe('#!/bin/ash\ncd /mnt/server\necho "$RELAY_NAME" > name.txt\n');
    expect(template.data.RELAY_NAME.rules).toEqual({ maxLength: 32, pattern: "^[\\p{L}\\p{M}\\p{N}_-]+$" });
  });

  test("a YAML bomb is refused as too large, quickly, and nothing is stored", async () => {
    const started = performance.now();
    const res = await panel.request("/api/templates/import/bomb", { token, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ repository: served.url }) });
    expect(await res.json()).toMatchObject({ error: { code: "ErrTemplateRepositoryFailed", metadata: { reason: "answer too large" } } });
    expect(performance.now() - started).toBeLessThan(2000);
    expect((await (await panel.request("/api/templates", { token })).json()).map((t: { id: string }) => t.id)).toEqual([]);
  });

  test("a file that is no egg is not offered, and asking for it by name finds nothing", async () => {
    const res = await panel.request("/api/templates/import/config", { token, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ repository: served.url }) });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("ErrNoTemplate");
  });
});

describe("a server from a converted egg", () => {
  test("the Add server form tells the browser the variable's bounds and lengths; creation checks every rule", async () => {
    await putTemplate(panel.db, "block-game", JSON.parse(readFileSync(join(FIXTURES, "ptdl-v2.json"), "utf8")));
    const node = await createNode(panel.db, { name: "node", publicHost: "127.0.0.1", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 2 });
    const { token: admin } = await loginAs(panel.db, [SCOPES.serversCreate, SCOPES.templatesView]);
    const page = await (await panel.request("/addserver?template=block-game", { token: admin, headers: HTML })).text();
    const level = /<input[^>]*name="var\.LEVEL"[^>]*>/.exec(page)?.[0] ?? "";
    expect(level).toContain('minLength="3"');
    expect(level).toContain('maxLength="16"');
    const create = (variables: Record<string, string>) =>
      panel.request("/api/servers", { token: admin, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "egg server", node: node.id, template: "block-game", variables }) });
    for (const [variables, code] of [
      [{ LEVEL: "my world" }, "ErrFieldPatternMismatch"],
      [{ LEVEL: "ab" }, "ErrFieldLength"],
      [{ SERVER_JARFILE: "$(reboot).jar" }, "ErrFieldPatternMismatch"],
      [{ PVP: "yes" }, "ErrFieldNotEqual"],
    ] as const) {
      const res = await create(variables);
      expect(res.status).toBe(400);
      const { error } = await res.json();
      expect(error.code).toBe(code);
      expect(error.metadata.field ?? error.metadata.field1).toBe(Object.keys(variables)[0]);
    }
  });
});
