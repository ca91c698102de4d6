// A template repository that answers slowly on purpose: headers at once, then its body a byte at
// a time past the 10 s a request may take. The time limit ran out inside the body's read, where
// nothing caught it, so the import list answered a 500 instead of the repository's error.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testPanel, type TestPanel } from "../helpers/app";
import { SETTING_KEYS, setSetting } from "../../server/services/settings";
import { repositoryListing } from "../../server/services/templates/repositories";

let panel: TestPanel;
let server: ReturnType<typeof Bun.serve>;

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
  server = Bun.serve({ port: 0, idleTimeout: 0, fetch: (request) => (new URL(request.url).pathname === "/slow/index.json" ? trickle() : new Response("not found", { status: 404 })) });
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
