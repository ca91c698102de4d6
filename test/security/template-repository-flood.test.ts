// A template repository whose directory listings name more templates than any repository holds:
// every template offered is fetched for the listing, so listings of thousands of links in each of
// hundreds of folders made the panel fetch and hold millions. Served by a real HTTP server, in
// the PufferPanel layout (a folder per game) and the egg layout (nested folders).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testPanel, type TestPanel } from "../helpers/app";
import { SETTING_KEYS, setSetting } from "../../server/services/settings";
import { repositoryListing } from "../../server/services/templates/repositories";
import { MAX_TEMPLATES } from "../../server/services/templates/pufferpanel-layout";

let panel: TestPanel;
let server: ReturnType<typeof Bun.serve>;
let documents = 0;
/** Files per folder listing: three folders hold more than MAX_TEMPLATES together. */
const PER_FOLDER = Math.ceil(MAX_TEMPLATES / 3) + 10;

const listing = (links: string[]) => new Response(`<html><body>${links.map((l) => `<a href="${l}">${l}</a>`).join("\n")}</body></html>`, { headers: { "content-type": "text/html" } });
const eggFiles = (folder: string) => Array.from({ length: PER_FOLDER }, (_, i) => `egg-${folder}${i}.json`);

beforeAll(async () => {
  panel = await testPanel();
  server = Bun.serve({
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
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
