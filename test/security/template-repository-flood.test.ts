// A template repository whose directory listings name more templates than any repository holds:
// every template offered is fetched for the listing, so listings of thousands of links in each of
// hundreds of folders made the panel fetch and hold millions. Served by a real HTTP server, in
// the PufferPanel layout (a folder per game) and the egg layout (nested folders). And readmes of
// 2 MiB in every folder, which the listing held and the dialog rendered whole.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testPanel, type TestPanel } from "../helpers/app";
import { SETTING_KEYS, setSetting } from "../../server/services/settings";
import { LISTED_README_CHARS, repositoryListing } from "../../server/services/templates/repositories";
import { MAX_TEMPLATES } from "../../server/services/templates/pufferpanel-layout";

let panel: TestPanel;
let server: ReturnType<typeof Bun.serve>;
let documents = 0;
/** Files per folder listing: three folders hold more than MAX_TEMPLATES together. */
const PER_FOLDER = Math.ceil(MAX_TEMPLATES / 3) + 10;
const README_FOLDERS = 20;
const HUGE_README = "# big\n" + "x".repeat(2 * 1024 * 1024 - 100);

const listing = (links: string[]) => new Response(`<html><body>${links.map((l) => `<a href="${l}">${l}</a>`).join("\n")}</body></html>`, { headers: { "content-type": "text/html" } });
const eggFiles = (folder: string) => Array.from({ length: PER_FOLDER }, (_, i) => `egg-${folder}${i}.json`);

beforeAll(async () => {
  panel = await testPanel();
  server = Bun.serve({
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      // Folders each with one template and a readme as large as a file may be.
      if (path === "/readmes/") return listing(Array.from({ length: README_FOLDERS }, (_, i) => `g${i}/`));
      const folder = /^\/readmes\/(g\d+)\/$/.exec(path);
      if (folder) return listing([`${folder[1]}.json`, "README.md"]);
      if (path.startsWith("/readmes/") && path.endsWith("/README.md")) return new Response(HUGE_README);
      if (path.startsWith("/readmes/g") && path.endsWith(".json")) return Response.json({ display: "Game", type: "other" });
      if (path.endsWith(".json") && !path.endsWith("index.json")) {
        documents++;
        return Response.json({ meta: { version: "PTDL_v2" }, name: "x", description: "y" });
      }
      // PufferPanel's layout: a folder per game, each listing thousands of templates.
      if (path === "/flat/") return listing(["a/", "b/", "c/"]);
      const flat = /^\/flat\/([abc])\/$/.exec(path);
      if (flat) return listing(eggFiles(flat[1]!));
      // The egg layout: the templates one level further down.
      if (path === "/nested/") return listing(["games/"]);
      if (path === "/nested/games/") return listing(["a/", "b/", "c/"]);
      const nested = /^\/nested\/games\/([abc])\/$/.exec(path);
      if (nested) return listing(eggFiles(nested[1]!));
      return new Response("not found", { status: 404 });
    },
  });
});
afterAll(() => server.stop(true));

describe("a repository that offers too many templates", () => {
  for (const layout of ["flat", "nested"]) {
    test(`${layout}: refused as too many templates before any is fetched`, async () => {
      const url = `http://127.0.0.1:${server.port}/${layout}/`;
      await setSetting(panel.db, SETTING_KEYS.templateRepositories, url);
      documents = 0;
      const listed = await repositoryListing(panel.db, url);
      expect(listed.templates).toEqual([]);
      expect(listed.error).toMatchObject({ code: "ErrTemplateRepositoryFailed", metadata: { reason: "too many templates" } });
      expect(documents).toBe(0);
    }, 60_000);
  }
});

describe("readmes as large as a file may be", () => {
  test("a readme of 2 MiB in every folder is listed by its start only", async () => {
    const url = `http://127.0.0.1:${server.port}/readmes/`;
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, url);
    const listed = await repositoryListing(panel.db, url);
    expect(listed.error).toBeUndefined();
    expect(listed.templates).toHaveLength(README_FOLDERS);
    for (const offer of listed.templates) expect(offer.readme.length).toBeLessThanOrEqual(LISTED_README_CHARS);
    expect(listed.templates[0]!.readme.startsWith("# big")).toBe(true);
  }, 60_000);
});
