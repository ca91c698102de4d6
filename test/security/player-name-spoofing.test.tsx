// Attacks by a player's name: a game server (its process, its plugins, any player who joins) names
// its players, and the panel shows those names next to buttons that act on them. A name that draws
// as another ("\u202Enimda" shows as "admin", "admin\u200B" and "admin\u0007" look like "admin")
// would have the operator kick, ban or op someone they misread.
// - A real Minecraft status answer from a local game server naming four "admin"s: the API gives
//   each name exactly as the game said it (the control character was taken out, so "admin\u0007"
//   became a second "admin"), and the console's list of names marks every hidden character
//   (core/text/shown-label); no override reaches the page as a character.
// - The Players tab's lists, written by plugins or anyone with the server's files: a banned or
//   operator name with an override or a zero-width space is shown marked, and its remove form goes
//   by the entry's UUID (the name is no command's); removing it leaves the real admin's entry.
// - The console's `list` answer from an offline-mode server, which takes "x,Admin" as a name: the
//   tab listed an "Admin" with kick and op buttons who was not there (names were split at every
//   comma); the game joins names with ", ", so it is one name, shown without a button (no command
//   takes it as written; test/security/player-online-names has the rest of that list's rules).
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderToString } from "react-dom/server";
import { formInit, panelForAll, type PanelWithNode } from "../helpers/panel-node";
import { eventually } from "../helpers/node";
import { queryServer as makeQueryServer } from "../helpers/query-server";
import { minecraftStandIn } from "../helpers/minecraft-standin";
import { putTemplate } from "../../server/services/templates";
import { echoTemplate } from "../helpers/node";
import { jsonInit } from "../helpers/panel-node";
import { writeFiles } from "../helpers/file-tree";
import { makeTranslate } from "../../core/i18n/translate";
import en from "../../locales/en.json";
import { PlayerNames } from "../../islands/ServerVitals";
import type { PlayersAnswer } from "../../core/players/players-state";

let ctx: PanelWithNode;
panelForAll((made) => (ctx = made), { queryIntervalMs: 500 });

const SPOOFED = ["admin", "\u202Enimda", "admin\u200B", "admin\u0007"];
/** No character that hides or reorders text reaches the page as itself. */
const HIDDEN = /[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

describe("names from the game's query", () => {
  test("the API gives each name as the game said it, and the shown list marks each hidden character", async () => {
    const { id } = await makeQueryServer(ctx, "spoofed", { command: "node spoofed-names.mjs ${port}", query: { type: "minecraft" }, ready: "listening", fixtures: ["spoofed-names.mjs"] });
    expect((await ctx.panel.request(`/proxy/daemon/server/${id}/start?wait=true`, { token: ctx.admin.token, method: "POST" })).status).toBeLessThan(300);
    let answer: PlayersAnswer | undefined;
    await eventually(async () => {
      const res = await ctx.panel.request(`/api/servers/${id}/players`, { token: ctx.admin.token });
      answer = res.status === 200 ? ((await res.json()) as PlayersAnswer) : undefined;
      return !!answer;
    }, 10_000, "the query's answer");
    expect(answer!.players.map((player) => player.name)).toEqual(SPOOFED);

    const html = renderToString(<PlayerNames names={answer!.players} t={makeTranslate(en)} />);
    expect(html).not.toMatch(HIDDEN);
    const shown = [...html.matchAll(/<li>(.*?)<\/li>/g)].map((match) => match[1]!.replace(/<[^>]+>/g, ""));
    expect(shown).toEqual(["admin", "\\u202Enimda", "admin\\u200B", "admin\\u0007"]);
    // Only the real admin is shown without a mark and a tooltip saying why.
    expect(html.match(/<mark class="label-escape">/g)).toHaveLength(3);
    expect(html.match(/title="Contains hidden characters, shown marked"/g)).toHaveLength(3);
    await ctx.panel.request(`/proxy/daemon/server/${id}/kill?wait=true`, { token: ctx.admin.token, method: "POST" });
  }, 60_000);
});

describe("names in the Players tab", () => {
  let id: string;
  let folder: string;
  const REAL = { name: "admin", uuid: "8667ba71-b85a-4004-af54-457a9734eed7" };
  const REVERSED = { name: "\u202Enimda", uuid: "11111111-2222-3333-4444-555555555555" };
  beforeAll(async () => {
    ({ id, folder } = await minecraftStandIn(ctx, "spoofed-lists"));
    await eventually(async () => !((await (await ctx.node.call("GET", `/daemon/server/${id}/status`)).json()) as { installing: boolean }).installing, 10_000, "the install to end");
  });

  test("a list's spoofed names are shown marked, and removing one goes by its own entry", async () => {
    writeFileSync(join(folder, "ops.json"), JSON.stringify([{ ...REAL, level: 4 }, { ...REVERSED, level: 4 }, { name: "admin\u200B", level: 4 }]));
    writeFileSync(join(folder, "banned-players.json"), JSON.stringify([{ ...REVERSED, reason: "\u202Edesrever" }]));
    const { status, html } = await ctx.page(`/server/${id}?tab=players`, ctx.admin.token);
    expect(status).toBe(200);
    expect(html).not.toMatch(HIDDEN);
    expect(html).toContain('<mark class="label-escape">\\u202E</mark>nimda');
    expect(html).toContain('admin<mark class="label-escape">\\u200B</mark>');
    expect(html).toContain('<mark class="label-escape">\\u202E</mark>desrever');
    // The reversed entry's remove form names its UUID; the zero-width one, which has none, has no form.
    const removeValues = [...html.matchAll(/action="\/server\/[^"]+\/players\/ops\/remove" method="post"><input type="hidden" name="name" value="([^"]*)"/g)].map((match) => match[1]);
    expect(removeValues).toEqual(["admin", REVERSED.uuid]);

    const removed = await ctx.panel.request(`/server/${id}/players/ops/remove`, { token: ctx.admin.token, ...formInit({ name: REVERSED.uuid }) });
    expect(removed.status).toBe(303);
    expect(JSON.parse(readFileSync(join(folder, "ops.json"), "utf8")).map((entry: { name: string }) => entry.name)).toEqual(["admin", "admin\u200B"]);
  });

  test("the console's list: a name with a comma is one name, and lists no 'Admin' who is not there", async () => {
    const script = [
      "say() { printf '[12:00:00] [Server thread/INFO]: %s\\n' \"$1\"; }",
      "say 'Done (0.1s)! For help, type \"help\"'",
      "while IFS= read -r line; do",
      "  case \"$line\" in",
      "    list) say 'There are 2 of a max of 20 players online: Steve, x,Admin' ;;",
      "    stop) exit 0 ;;",
      "  esac",
      "done",
    ].join("\n");
    await putTemplate(ctx.panel.db, "mc-comma", { ...echoTemplate({ command: "sh comma.sh", stop: "stop" }), name: "mc-comma", display: "Minecraft comma", type: "minecraft-java", install: [] });
    const res = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: "comma", node: ctx.nodeId, template: "mc-comma", environment: { type: "standard" } }) });
    const comma = ((await res.json()) as { id: string }).id;
    writeFiles(ctx.node.folder(comma), { "comma.sh": script });
    await eventually(async () => !((await (await ctx.node.call("GET", `/daemon/server/${comma}/status`)).json()) as { installing: boolean }).installing, 10_000, "the install to end");
    expect((await ctx.node.call("POST", `/daemon/server/${comma}/start?wait=true`)).status).toBe(204);
    await eventually(async () => ((await ctx.node.json("GET", `/daemon/server/${comma}/console`)) as { logs: string[] }).logs.join("").includes("Done ("), 10_000, "the stand-in to be up");
    const { html } = await ctx.page(`/server/${comma}?tab=players`, ctx.admin.token);
    expect(html).not.toContain('value="Admin"');
    const online = [...html.matchAll(/data-testid="online-player"><div><strong><span class="shown-label" dir="ltr">([^<]*)</g)].map((match) => match[1]);
    // Shown as the one name it is, with no button: no command takes it as written.
    expect(online).toEqual(["Steve", "x,Admin"]);
    expect(html).not.toContain('value="x,Admin"');
    await ctx.node.call("POST", `/daemon/server/${comma}/kill?wait=true`);
  }, 30_000);
});
