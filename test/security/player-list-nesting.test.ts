// ATTACK: anything that writes a Minecraft server's folder (the game, a plugin, a holder of
// putServerFiles) writes the player list files the Players tab reads. A list of one entry whose
// extra field is an array nested two million deep is 4 MB, under the node's byte cap: parsing it
// held the node's thread about six times as long as 4 MB of real entries, on every read of the
// list (the tab reads each list it shows), and adding a player to it while the server was stopped
// failed inside JSON.stringify (the call stack ran out: a 500, not a refusal). No Minecraft file
// nests deeper than a few levels, so a list nested deeper than MAX_PLAYER_LIST_DEPTH is
// ErrPlayerFileInvalid, found in the pass that counts its entries, before it is parsed.
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { panelForAll, jsonInit, type PanelWithNode } from "../helpers/panel-node";
import { minecraftStandIn } from "../helpers/minecraft-standin";
import { eventually } from "../helpers/node";

let ctx: PanelWithNode;
let id = "";
let folder = "";
panelForAll((made) => (ctx = made));
beforeAll(async () => {
  ({ id, folder } = await minecraftStandIn(ctx, "deep-lists"));
  await eventually(async () => !((await (await ctx.node.call("GET", `/daemon/server/${id}/status`)).json()) as { installing: boolean }).installing, 10000, "the install to end");
});

const api = (method: string, path: string, body?: unknown) => ctx.panel.request(`/api/servers/${id}/players${path}`, { token: ctx.admin.token, ...jsonInit(method, body) });
const DEPTH = 2_000_000;
const DEEP = `[{"uuid":"00000000-0000-4000-8000-000000000001","name":"Steve","extra":${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}}]`;

describe("a list file nested two million deep", () => {
  test("is refused as invalid, read or added to, with the file left as it is", async () => {
    writeFileSync(join(folder, "whitelist.json"), DEEP);
    writeFileSync(join(folder, "server.properties"), "online-mode=false\n");
    const listed = await api("GET", "/whitelist");
    const added = await api("POST", "/whitelist", { name: "Alex" });
    expect({ status: listed.status, code: (await listed.json()).error?.code }).toEqual({ status: 409, code: "ErrPlayerFileInvalid" });
    expect({ status: added.status, code: (await added.json()).error?.code }).toEqual({ status: 409, code: "ErrPlayerFileInvalid" });
    expect(readFileSync(join(folder, "whitelist.json"), "utf8")).toBe(DEEP);
  }, 30_000);

  test("real lists, nested as Minecraft writes them, are still read", async () => {
    writeFileSync(join(folder, "ops.json"), JSON.stringify([{ uuid: "00000000-0000-4000-8000-000000000002", name: "Alex", level: 4, bypassesPlayerLimit: false, extra: { a: [{ b: [1] }] } }]));
    const listed = await api("GET", "/ops");
    expect(listed.status).toBe(200);
    expect((await listed.json()).entries.map((entry: { name: string }) => entry.name)).toEqual(["Alex"]);
  });
});
