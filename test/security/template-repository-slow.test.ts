// A template repository that answers slowly on purpose: headers at once, then its body a byte at
// a time past the 10 s a request may take (the time limit ran out inside the body's read, where
// nothing caught it, so the import list answered a 500 instead of the repository's error); and
// one that answers every request just within its limit, whose reading (hundreds of listings and
// offers) had no end of its own and held the list and every import for hours.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testPanel, type TestPanel } from "../helpers/app";
import { SETTING_KEYS, setSetting } from "../../server/services/settings";
import { importTemplate, repositoryListing } from "../../server/services/templates/repositories";

let panel: TestPanel;
let server: ReturnType<typeof Bun.serve>;
const FOLDERS = 40;
/** Each answer of the patient repository: far within a request's 10 s. */
const DELAY_MS = 1500;

/** An answer whose headers come at once and whose body never ends: a byte a second. */
function trickle(): Response {
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("{"));
      timer = setInterval(() => {
        try {
          controller.enqueue(new TextEncoder().encode(" "));
        } catch {
          clearInterval(timer);
        }
      }, 1000);
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return new Response(body, { headers: { "content-type": "application/json" } });
}

beforeAll(async () => {
  panel = await testPanel();
  server = Bun.serve({
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/slow/index.json") return trickle();
      // PufferPanel's layout, FOLDERS games; under /patient/ every answer waits DELAY_MS.
      const [, kind, ...rest] = path.split("/");
      if ((kind !== "patient" && kind !== "prompt") || rest.join("/") === "index.json") return new Response("not found", { status: 404 });
      if (kind === "patient") await Bun.sleep(DELAY_MS);
      const links = (names: string[]) => new Response(`<html>${names.map((n) => `<a href="${n}">${n}</a>`).join("")}</html>`, { headers: { "content-type": "text/html" } });
      if (rest.join("/") === "") return links(Array.from({ length: FOLDERS }, (_, i) => `game${i}/`));
      const folder = /^(game\d+)\/$/.exec(rest.join("/"));
      if (folder) return links([`${folder[1]}.json`]);
      if (/^game\d+\/game\d+\.json$/.test(rest.join("/"))) return Response.json({ display: "A game", type: "other" });
      return new Response("not found", { status: 404 });
    },
  });
});
afterAll(() => server.stop(true));

describe("a repository that trickles its answer", () => {
  test("is listed with ErrTemplateRepositoryFailed (no answer), never a 500", async () => {
    const url = `http://127.0.0.1:${server.port}/slow/`;
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, url);
    const listed = await repositoryListing(panel.db, url);
    expect(listed.templates).toEqual([]);
    expect(listed.error).toMatchObject({ code: "ErrTemplateRepositoryFailed", metadata: { reason: "no answer" } });
  }, 30_000);
});

describe("a repository that answers each request just within its limit", () => {
  test("is read for no longer than the repository's own limit, then listed with its error", async () => {
    const url = `http://127.0.0.1:${server.port}/patient/`;
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, url);
    const started = performance.now();
    // Read whole, 40 listings and 40 offers 8 at a time, 1.5 s each: about 17 s.
    const listed = await repositoryListing(panel.db, url, { githubArchiveUrl: "http://127.0.0.1:9/", repositoryReadTimeoutMs: 3000 });
    expect(performance.now() - started).toBeLessThan(6000);
    expect(listed.error).toMatchObject({ code: "ErrTemplateRepositoryFailed", metadata: { reason: "no answer" } });
  }, 30_000);

  test("an import after the reading's limit has passed still reads the template", async () => {
    const url = `http://127.0.0.1:${server.port}/prompt/`;
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, url);
    const sources = { githubArchiveUrl: "http://127.0.0.1:9/", repositoryReadTimeoutMs: 1000 };
    expect((await repositoryListing(panel.db, url, sources)).templates).toHaveLength(FOLDERS);
    await Bun.sleep(1200);
    const imported = await importTemplate(panel.db, "game3", { repository: url, sources });
    expect(imported.template.display).toBe("A game");
  }, 30_000);
});
