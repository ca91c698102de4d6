// Who plays, asked of real game servers run by Kiln: a Minecraft Java server from npm
// (flying-squid; see test/fixtures/query/flying-squid.mjs) declared `query: {type: "minecraft"}`
// and joined by real clients (mineflayer bots), and Debian's OpenArena server (Quake 3's protocol) asked through
// GameDig. The count and names reach GET /api/servers/{id}/players, the list's live values and the
// server-rendered list within 20 s of a join, and the server list in Chromium (the panel served
// over HTTP; its list island follows a bot leaving).
//
// The Minecraft server's node runs without the sandbox: the server imports flying-squid from
// this checkout's node_modules, which the sandbox (rightly) does not show a server's process.
// OpenArena runs in the sandbox.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { existsSync } from "node:fs";
import mineflayer, { type Bot } from "mineflayer";
import { panelForAll, type PanelWithNode } from "./helpers/panel-node";
import { eventually } from "./helpers/node";
import { QUERY_FIXTURES, queryServer } from "./helpers/query-server";
import { ROOT } from "./helpers/process";
import { COUNTS_FRESH_MS } from "../server/services/servers/players-query";
import { hasChromium, partAvailable } from "./helpers/require-part";
import { fileBrowser, steadyStaticFiles } from "./helpers/browser";
import { servePanel } from "../server/serve";
import type { Browser, Page } from "playwright-core";

const OPENARENA = "/usr/games/openarena-server";
const hasOpenArena = partAvailable("Debian's openarena-server", () => existsSync(OPENARENA));

let ctx: PanelWithNode;

const admin = () => ctx.admin.token;
const power = (id: string, action: string) => ctx.panel.request(`/proxy/daemon/server/${id}/${action}?wait=true`, { token: admin(), method: "POST" });
const players = async (id: string) => (await ctx.panel.request(`/api/servers/${id}/players`, { token: admin() })).json();
const live = async (id: string) => (await (await ctx.panel.request(`/api/servers/live?ids=${id}`, { token: admin() })).json()).servers[id];
/** The server's entry in the list API (GET /api/servers). */
const listed = async (id: string) => ((await (await ctx.panel.request("/api/servers", { token: admin() })).json()).servers as Array<{ id: string; players?: { online: number; max: number } | null }>).find((entry) => entry.id === id);

describe("a Minecraft Java server, asked with the Server List Ping", () => {
  panelForAll((made) => (ctx = made), { queryIntervalMs: 1000, isolation: { bwrapPath: "/nonexistent/bwrap" } });
  let id: string;
  let port: number;
  const bots: Bot[] = [];
  beforeAll(async () => {
    const entry = join(ROOT, "node_modules", "flying-squid", "index.js");
    ({ id, port } = await queryServer(ctx, "mc-query", { command: `node ${join(QUERY_FIXTURES, "flying-squid.mjs")} \${port} ${entry}`, query: { type: "minecraft" }, ready: "Done:" }));
    expect((await power(id, "start")).status).toBeLessThan(300);
  }, 60_000);
  afterAll(async () => {
    for (const bot of bots) bot.quit();
    await power(id, "kill");
  });

  test("nobody on: 0 of 20, with version and MOTD", async () => {
    await eventually(async () => typeof (await players(id)).online === "number", 10_000, "the first answer");
    expect(await players(id)).toMatchObject({ online: 0, max: 20, players: [], version: "1.16.5", motd: "Kiln test server" });
  }, 30_000);

  test("two bots join: the count and their names show within 20 s, in the API, the live values and the rendered list", async () => {
    for (const username of ["Alice_1", "Bob_2"]) {
      const bot = mineflayer.createBot({ host: "127.0.0.1", port, username, version: "1.16.5", auth: "offline" });
      bot.on("error", () => undefined);
      bots.push(bot);
    }
    const joined = Date.now();
    // The count and the names are two parts of one answer: a query between the second login and
    // the server's sample list taking it in sees two online and one name, so both are waited for.
    const names = (answer: { players: Array<{ name: string }> }) => answer.players.map((p) => p.name).sort().join();
    await eventually(async () => {
      const now = await players(id);
      return now.online === 2 && names(now) === "Alice_1,Bob_2";
    }, 20_000, "both players and their names in the API");
    expect(Date.now() - joined).toBeLessThan(20_000);
    const answer = await players(id);
    expect(names(answer)).toBe("Alice_1,Bob_2");
    expect(answer.players.every((p: { id?: string }) => /^[0-9a-f-]{36}$/.test(p.id ?? ""))).toBe(true);
    expect(answer.latencyMs).toBeGreaterThanOrEqual(0);
    expect(Date.now() - answer.queriedAt).toBeLessThan(20_000);
    expect((await live(id)).players).toEqual({ online: 2, max: 20 });
    await eventually(async () => (await listed(id))?.players?.online === 2, COUNTS_FRESH_MS + 5000, "both players in the list API");
    expect((await listed(id))?.players).toEqual({ online: 2, max: 20 });
    const { html } = await ctx.page("/server", admin());
    expect(html).toContain(">2/20<");
  }, 40_000);

  let browser: Browser | undefined;
  let served: ReturnType<typeof servePanel> | undefined;
  let listPage: Page | undefined;
  afterAll(async () => {
    await browser?.close();
    served?.stop(true);
  });
  const listCell = () => listPage!.locator(`[data-server-row="${id}"] [data-live="players"]`);

  test.if(hasChromium())("the server list in Chromium shows 2/20", async () => {
    served = servePanel(ctx.panel.app, { port: 0, hostname: "127.0.0.1" });
    browser = steadyStaticFiles(await fileBrowser());
    const context = await browser.newContext();
    await context.addCookies([{ name: "kiln", value: admin(), domain: "127.0.0.1", path: "/" }]);
    listPage = await context.newPage();
    await listPage.goto(`http://127.0.0.1:${served.port}/server`);
    expect(await listCell().textContent()).toBe("2/20");
    await listPage.waitForSelector('[data-island="ServerListLive"][data-hydrated="done"]', { state: "attached", timeout: 30_000 });
  }, 60_000);

  test("a bot leaves: the count follows", async () => {
    bots.pop()!.quit();
    await eventually(async () => (await players(id)).online === 1, 20_000, "one player left");
    expect((await players(id)).players.map((p: { name: string }) => p.name)).toEqual(["Alice_1"]);
    // The open list follows through its island's poll.
    if (listPage) await eventually(async () => (await listCell().textContent()) === "1/20", 15_000, "1/20 on the open list");
  }, 40_000);

  test("stopped: ErrServerOffline, and no players figure in the list", async () => {
    await power(id, "kill");
    const res = await ctx.panel.request(`/api/servers/${id}/players`, { token: admin() });
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("ErrServerOffline");
    expect(await live(id)).not.toHaveProperty("players");
    // The list API reuses a node's counts for COUNTS_FRESH_MS.
    await eventually(async () => (await listed(id))?.players === null, COUNTS_FRESH_MS + 5000, "no figure in the list API");
    expect((await ctx.page("/server", admin())).html).not.toContain("/20<");
  }, 30_000);
});

describe.skipIf(!hasOpenArena)("OpenArena (Quake 3's protocol) through GameDig, in the sandbox", () => {
  panelForAll((made) => (ctx = made), { queryIntervalMs: 1000 });
  let id: string;
  beforeAll(async () => {
    ({ id } = await queryServer(ctx, "oa-query", {
      command: `${OPENARENA} +set net_port \${port} +set dedicated 1 +set sv_maxclients 12 +set sv_hostname kiln-arena +map oa_dm1`,
      query: { type: "openarena" },
      ready: "AAS initialized",
      stop: "quit",
    }));
    expect((await power(id, "start")).status).toBeLessThan(300);
  }, 60_000);
  afterAll(() => power(id, "kill"));

  test("a template without a query: ErrQueryUnavailable notDeclared while it runs, no figure in the list", async () => {
    const { id } = await queryServer(ctx, "no-query", { command: "sh -c 'echo ready; while read l; do [ \"$l\" = stop ] && exit 0; done'", ready: "ready" });
    await power(id, "start");
    await eventually(async () => (await players(id)).error?.metadata?.reason === "notDeclared", 10_000, "the state to say so");
    const res = await ctx.panel.request(`/api/servers/${id}/players`, { token: admin() });
    expect(res.status).toBe(503);
    expect(await live(id)).not.toHaveProperty("players");
    expect(await listed(id)).toHaveProperty("players", null);
    await power(id, "kill");
  }, 30_000);

  test("its count, maximum and name; a bot added on the console shows by name", async () => {
    await eventually(async () => typeof (await players(id)).online === "number", 15_000, "GameDig's first answer");
    expect(await players(id)).toMatchObject({ online: 0, max: 12, motd: "kiln-arena" });
    await ctx.panel.request(`/proxy/daemon/server/${id}/console`, { token: admin(), method: "POST", headers: { "content-type": "text/plain" }, body: "addbot Sarge" });
    await eventually(async () => (await players(id)).online === 1, 20_000, "the bot in the answer");
    expect((await players(id)).players.map((p: { name: string }) => p.name)).toEqual(["Sarge"]);
    expect((await live(id)).players).toEqual({ online: 1, max: 12 });
  }, 60_000);
});
