// Who is online, as the Players tab shows it from the console's `list` answer of a Minecraft
// console (a stand-in answering as vanilla does, with the list a test writes). The game joins the
// names with ", ", and names are not only Mojang's: Floodgate gives Bedrock players ".Steve" (or a
// prefix such as "*"), an offline-mode server takes "ab" or "x,Admin", and a proxy or an older
// offline-mode server takes a space.
// - Attack: a player named "x, Admin" next to "Steve". The tab split at every ", " and listed an
//   "x" and an "Admin" who are not on the server, each with kick and op buttons (one acting on the
//   real Admin); now the pieces outnumber the count, so the line is shown whole, without buttons.
// - A name `kick` would read as a UUID ("1-1-1-1-1") gets no kick button, and the node refuses it.
// - Function: every listed name is shown (the old tab showed only [A-Za-z0-9_] ones, so Floodgate
//   and offline-mode players were counted but missing), each with only the actions the game takes
//   for that exact name: kick for Floodgate's ".Bedrock_Guy" and a two-letter name (the game's
//   unquoted name), operator only for a Minecraft name, "Console only" with the reason otherwise.
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formInit, jsonInit, panelForAll, type PanelWithNode } from "../helpers/panel-node";
import { echoTemplate, eventually } from "../helpers/node";
import { putTemplate } from "../../server/services/templates";
import { writeFiles } from "../helpers/file-tree";

let ctx: PanelWithNode;
panelForAll((made) => (ctx = made));

// Answers `list` with the line in list.txt and `kick NAME` as vanilla does, logging each command.
const SCRIPT = [
  "say() { printf '[12:00:00] [Server thread/INFO]: %s\\n' \"$1\"; }",
  "say 'Done (0.1s)! For help, type \"help\"'",
  "while IFS= read -r line; do",
  "  printf '%s\\n' \"$line\" >> commands.log",
  "  case \"$line\" in",
  "    list) say \"$(cat list.txt)\" ;;",
  "    'kick '*) say \"Kicked ${line#kick }: Kicked by an operator\" ;;",
  "    stop) exit 0 ;;",
  "  esac",
  "done",
].join("\n");

let id: string;
let folder: string;
const listed = (line: string) => writeFileSync(join(folder, "list.txt"), line);
const tab = async () => (await ctx.page(`/server/${id}?tab=players`, ctx.admin.token)).html;
const rows = (html: string) => [...html.matchAll(/data-testid="online-player">(.*?)<\/li>/g)].map((match) => match[1]!);
const values = (html: string, path: string) => [...html.matchAll(new RegExp(`action="/server/[^"]+/players/${path}" [^>]*><input type="hidden" name="name" value="([^"]*)"`, "g"))].map((match) => match[1]);
const shownName = (row: string) => row.match(/<strong><span class="shown-label" dir="ltr">(.*?)<\/span><\/strong>/)![1]!.replace(/<[^>]+>/g, "");

beforeAll(async () => {
  await putTemplate(ctx.panel.db, "mc-list", { ...echoTemplate({ command: "sh list.sh", stop: "stop" }), name: "mc-list", display: "Minecraft list", type: "minecraft-java", install: [] });
  const res = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: "names", node: ctx.nodeId, template: "mc-list", environment: { type: "standard" } }) });
  id = ((await res.json()) as { id: string }).id;
  folder = ctx.node.folder(id);
  writeFiles(folder, { "list.sh": SCRIPT, "list.txt": "There are 0 of a max of 20 players online: " });
  await eventually(async () => !((await (await ctx.node.call("GET", `/daemon/server/${id}/status`)).json()) as { installing: boolean }).installing, 10_000, "the install to end");
  expect((await ctx.node.call("POST", `/daemon/server/${id}/start?wait=true`)).status).toBe(204);
  await eventually(async () => ((await ctx.node.json("GET", `/daemon/server/${id}/console`)) as { logs: string[] }).logs.join("").includes("Done ("), 10_000, "the stand-in to be up");
}, 30_000);

describe("the online list", () => {
  test("attack: 'x, Admin' lists no absent 'x' or 'Admin' and no button acts on them", async () => {
    listed("There are 2 of a max of 20 players online: Steve, x, Admin");
    const html = await tab();
    expect(rows(html)).toEqual([]);
    expect(values(html, "kick")).toEqual([]);
    expect(values(html, "ops/add")).toEqual([]);
    // Shown whole, as the game wrote it, and the count stays the game's.
    expect(html).toContain('data-testid="online-unsplit"');
    expect(html).toContain("Steve, x, Admin");
    expect(html).toContain("2 of 20 online");
  });

  test("every listed name is shown, with only the actions the game takes for that exact name", async () => {
    listed("There are 6 of a max of 20 players online: Steve, .Bedrock_Guy, *Steve, ab, 1-1-1-1-1, x,Admin");
    const html = await tab();
    const shown = rows(html);
    expect(shown.map(shownName)).toEqual(["Steve", ".Bedrock_Guy", "*Steve", "ab", "1-1-1-1-1", "x,Admin"]);
    expect(values(html, "kick")).toEqual(["Steve", ".Bedrock_Guy", "ab"]);
    expect(values(html, "ops/add")).toEqual(["Steve"]);
    // Each row without a button says so, and why, in its tooltip.
    expect(shown.filter((row) => row.includes('data-testid="console-only"'))).toHaveLength(5);
    expect(shown[2]).toContain("would need quoting");
    expect(shown[1]).toContain("Kiln makes operators only by a Minecraft name");
    expect(shown[1]).not.toContain("No kick button");

    // A Floodgate name is kicked by its own name; "1-1-1-1-1" (a UUID to the game) is refused.
    const kicked = await ctx.panel.request(`/server/${id}/players/kick`, { token: ctx.admin.token, ...formInit({ name: ".Bedrock_Guy" }) });
    expect(kicked.status).toBe(303);
    const refused = await ctx.panel.request(`/server/${id}/players/kick`, { token: ctx.admin.token, ...formInit({ name: "1-1-1-1-1" }) });
    expect(refused.status).not.toBe(303);
    expect((await ctx.node.call("POST", `/daemon/server/${id}/players/1-1-1-1-1/kick`, {})).status).toBeGreaterThanOrEqual(400);
    const commands = readFileSync(join(folder, "commands.log"), "utf8").split("\n");
    expect(commands).toContain("kick .Bedrock_Guy");
    expect(commands.filter((line) => line.startsWith("kick "))).toEqual(["kick .Bedrock_Guy"]);
  }, 20_000);
});
