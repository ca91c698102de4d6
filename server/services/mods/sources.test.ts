// The default base URLs reach the sources' real APIs: the first request each client makes from a
// default lands on the path the source documents (Modrinth's /v2/search, CurseForge's
// /v1/mods/search). fetch is the boundary caught here; nothing leaves the machine.
import { afterEach, expect, spyOn, test } from "bun:test";
import { CurseForgeClient } from "./curseforge";
import { ModrinthClient } from "./modrinth";
import { DEFAULT_MOD_SOURCES } from "./sources";

const asked: string[] = [];
let fetchSpy: ReturnType<typeof spyOn<typeof globalThis, "fetch">> | undefined;
// The test files of a worker share one process (npm test's --no-isolate): fetch is put back after each test.
afterEach(() => {
  asked.length = 0;
  fetchSpy?.mockRestore();
  fetchSpy = undefined;
});

function answerWith(body: unknown) {
  fetchSpy = spyOn(globalThis, "fetch").mockImplementation((async (input: string | URL | Request) => {
    asked.push(String(input instanceof Request ? input.url : input));
    return Response.json(body);
  }) as typeof fetch);
}

test("Modrinth's default base asks its API v2", async () => {
  answerWith({ hits: [], total_hits: 0, offset: 0, limit: 10 });
  await new ModrinthClient(DEFAULT_MOD_SOURCES.modrinth.url).search({ query: "", facets: [], index: "relevance", offset: 0, limit: 10 });
  expect(asked[0]).toStartWith("https://api.modrinth.com/v2/search?");
});

test("CurseForge's default base asks its API v1 once, not /v1/v1", async () => {
  answerWith({ data: [], pagination: { totalCount: 0 } });
  await new CurseForgeClient(DEFAULT_MOD_SOURCES.curseforge.url, "key").search({ query: "", classId: 6, loaders: [], gameVersion: null, sort: "relevance", offset: 0, limit: 10 });
  expect(asked[0]).toStartWith("https://api.curseforge.com/v1/mods/search?");
});
