// Minecraft player management end to end, through the panel's API and a real node: while the
// server is stopped the list files and server.properties are edited (fields Kiln does not know
// kept); while it runs, a real process standing in for a Minecraft console gets each command and
// the API answers from the console's reply (done, refused, or no reply: a timeout).
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { panelForAll, jsonInit, formInit, type PanelWithNode } from "./helpers/panel-node";
import { minecraftStandIn } from "./helpers/minecraft-standin";
import { eventually } from "./helpers/node";
import { errorOf } from "./helpers/refusal";

let ctx: PanelWithNode;
let id: string;
let folder: string;
panelForAll((made) => (ctx = made));
beforeAll(async () => {
  ({ id, folder } = await minecraftStandIn(ctx, "players"));
  await eventually(async () => !((await (await ctx.node.call("GET", `/daemon/server/${id}/status`)).json()) as { installing: boolean }).installing, 10000, "the install to end");
});

const api = (method: string, path: string, body?: unknown) => ctx.panel.request(`/api/servers/${id}/players${path}`, { token: ctx.admin.token, ...jsonInit(method, body) });
const json = (name: string) => JSON.parse(readFileSync(join(folder, name), "utf8"));
const commands = () => (existsSync(join(folder, "commands.log")) ? readFileSync(join(folder, "commands.log"), "utf8").trim().split("\n") : []);

describe("while the server is stopped: the files", () => {
  test("whitelist add and remove keep the other entries and their unknown fields", async () => {
    writeFileSync(join(folder, "usercache.json"), JSON.stringify([{ name: "Steve", uuid: "8667ba71-b85a-4004-af54-457a9734eed7", expiresOn: "2027-01-01 00:00:00 +0000" }]));
    writeFileSync(join(folder, "whitelist.json"), JSON.stringify([{ uuid: "1", name: "Alex", addedBy: "a plugin" }]));
    const add = await api("POST", "/whitelist", { name: "steve" });
    expect(add.status).toBe(200);
    expect(await add.json()).toEqual({ changed: true });
    expect(json("whitelist.json")).toEqual([{ uuid: "1", name: "Alex", addedBy: "a plugin" }, { name: "Steve", uuid: "8667ba71-b85a-4004-af54-457a9734eed7" }]);
    expect(await (await api("POST", "/whitelist", { name: "Steve" })).json()).toEqual({ changed: false });
    const listed: unknown = await (await api("GET", "/whitelist")).json();
    expect(listed).toEqual({ list: "whitelist", entries: [{ uuid: "1", name: "Alex" }, { name: "Steve", uuid: "8667ba71-b85a-4004-af54-457a9734eed7" }], enabled: false });
    expect(await (await api("DELETE", "/whitelist", { name: "Alex" })).json()).toEqual({ changed: true });
    expect(json("whitelist.json")).toEqual([{ name: "Steve", uuid: "8667ba71-b85a-4004-af54-457a9734eed7" }]);
  });

  test("the whitelist switch is server.properties' white-list; every other line stays", async () => {
    writeFileSync(join(folder, "server.properties"), "#Minecraft server properties\nmotd=A Kiln server\nwhite-list=false\nonline-mode=true\n");
    expect(await (await api("POST", "/whitelist/enabled", { enabled: true })).json()).toEqual({ changed: true });
    expect(readFileSync(join(folder, "server.properties"), "utf8")).toBe("#Minecraft server properties\nmotd=A Kiln server\nwhite-list=true\nonline-mode=true\n");
    expect(((await (await api("GET", "/whitelist")).json()) as { enabled: boolean }).enabled).toBe(true);
  });

  test("a ban and an IP ban in vanilla's shape; a stranger to an online-mode server is refused, an offline-mode one gets the offline UUID", async () => {
    expect((await api("POST", "/bans", { name: "Steve", reason: "griefing" })).status).toBe(200);
    expect(json("banned-players.json")).toEqual([{ name: "Steve", uuid: "8667ba71-b85a-4004-af54-457a9734eed7", created: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000$/), source: "Kiln", expires: "forever", reason: "griefing" }]);
    expect((await api("POST", "/ip-bans", { ip: "2001:db8:0::7" })).status).toBe(200);
    expect(json("banned-ips.json")[0]).toMatchObject({ ip: "2001:db8::7", expires: "forever" });
    expect(await errorOf(await api("POST", "/ops", { name: "Stranger" }))).toEqual({ status: 404, code: "ErrPlayerUnknown" });
    expect(existsSync(join(folder, "ops.json"))).toBe(false);
    writeFileSync(join(folder, "server.properties"), "online-mode=false\n");
    expect((await api("POST", "/ops", { name: "Notch" })).status).toBe(200);
    expect(json("ops.json")).toEqual([{ name: "Notch", uuid: "b50ad385-829d-3141-a216-7e7d7539ba7f", level: 4, bypassesPlayerLimit: false }]);
  });

  test("kicking needs a running server", async () => {
    expect(await errorOf(await api("POST", "/Steve/kick", { reason: "bye" }))).toEqual({ status: 409, code: "ErrServerOffline" });
  });

  test("the Players tab works without script: lists shown, a form adds, a bad name is refused on the tab", async () => {
    const { html } = await ctx.page(`/server/${id}?tab=players`, ctx.admin.token);
    expect(html).toContain('data-testid="players-whitelist"');
    expect(html).toContain(">Steve<");
    expect(html).toContain("The server is stopped");
    const added = await ctx.panel.request(`/server/${id}/players/whitelist/add`, { token: ctx.admin.token, ...formInit({ name: "Notch" }) });
    expect(added.status).toBe(303);
    expect(json("whitelist.json").map((e: { name: string }) => e.name)).toEqual(["Steve", "Notch"]);
    const refused = await ctx.panel.request(`/server/${id}/players/whitelist/add`, { token: ctx.admin.token, ...formInit({ name: "Bad name" }) });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("does not have the required form");
    expect(json("whitelist.json")).toHaveLength(2);
  });

  test("the tab is there for holders of managePlayers on Minecraft Java servers only", async () => {
    const holder = await ctx.userWith(id, { managePlayers: true });
    const other = await ctx.userWith(id, { viewServerConsole: true });
    expect((await ctx.page(`/server/${id}`, holder.token)).html).toContain(`?tab=players`);
    expect((await ctx.page(`/server/${id}?tab=players`, other.token)).html).not.toContain('data-testid="players"');
    const echo = await ctx.createServer("echo-game");
    expect((await ctx.page(`/server/${echo}`, ctx.admin.token)).html).not.toContain(`?tab=players`);
  });

  test("nothing was typed into a console meanwhile", () => {
    expect(commands()).toEqual([]);
  });
});

describe("while the server runs: its console", () => {
  beforeAll(async () => {
    const started = await ctx.node.call("POST", `/daemon/server/${id}/start?wait=true`);
    expect(started.status).toBe(204);
    await eventually(async () => ((await ctx.node.json("GET", `/daemon/server/${id}/console`)) as { logs: string[] }).logs.join("").includes("Done ("), 10000, "the stand-in to be up");
  });

  test("each change is its console command, confirmed from the answer", async () => {
    expect(await (await api("POST", "/whitelist", { name: "Herobrine" })).json()).toEqual({ changed: true });
    expect(await (await api("DELETE", "/whitelist", { name: "Herobrine" })).json()).toEqual({ changed: true });
    expect(await (await api("POST", "/whitelist/enabled", { enabled: false })).json()).toEqual({ changed: true });
    expect(await (await api("POST", "/ops", { name: "Alex" })).json()).toEqual({ changed: true });
    expect(await (await api("POST", "/bans", { name: "Griefer", reason: "broke the spawn" })).json()).toEqual({ changed: true });
    expect(await (await api("DELETE", "/ip-bans", { ip: "10.0.0.9" })).json()).toEqual({ changed: true });
    expect((await api("POST", "/Steve/kick", { reason: "back in five" })).status).toBe(204);
    expect((await api("POST", "/Steve/kick")).status).toBe(204);
    expect(commands()).toEqual(["whitelist add Herobrine", "whitelist remove Herobrine", "whitelist off", "op Alex", "ban Griefer broke the spawn", "pardon-ip 10.0.0.9", "kick Steve back in five", "kick Steve"]);
  });

  test("a refusal says the console's words; no answer is a timeout", async () => {
    const refused = await api("POST", "/whitelist", { name: "Nobody" });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string; msg: string } }).error).toMatchObject({ code: "ErrPlayerCommandRefused", msg: expect.stringContaining("That player does not exist") });
    expect(await errorOf(await api("POST", "/Ghost/kick", {}))).toEqual({ status: 409, code: "ErrPlayerCommandRefused" });
    const started = Date.now();
    expect(await errorOf(await api("POST", "/ops", { name: "Silent_one" }))).toEqual({ status: 504, code: "ErrPlayerCommandTimeout" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
  }, 20000);

  test("the online list comes from the console's list command, with kick and op on the tab", async () => {
    const res = await ctx.node.call("GET", `/daemon/server/${id}/online-players`);
    expect(await res.json()).toEqual({ online: 2, max: 20, players: [{ name: "Steve" }, { name: "Alex" }] });
    const { html } = await ctx.page(`/server/${id}?tab=players`, ctx.admin.token);
    expect(html.match(/data-testid="online-player"/g)).toHaveLength(2);
    const kicked = await ctx.panel.request(`/server/${id}/players/kick`, { token: ctx.admin.token, ...formInit({ name: "Alex", reason: "see you" }) });
    expect(kicked.status).toBe(303);
    expect(commands().at(-1)).toBe("kick Alex see you");
  });
});

describe("other games", () => {
  test("a server whose template is not Minecraft Java gets no Minecraft command", async () => {
    const other = await ctx.createServer("not-minecraft");
    const res = await ctx.panel.request(`/api/servers/${other}/players/ops`, { token: ctx.admin.token, ...jsonInit("POST", { name: "Steve" }) });
    expect(await errorOf(res)).toEqual({ status: 409, code: "ErrNotMinecraftJava" });
  });
});
