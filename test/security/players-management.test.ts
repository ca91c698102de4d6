// Attacks on Minecraft player management. Each is refused with its catalogue error and changes
// nothing: no line reaches the server's console (the stand-in logs every line it is given) and no
// list file changes. Names that would carry a second command (spaces, line breaks, `§` codes, `;`,
// `&&`, a UUID with something after it), reasons and IPs with line breaks; a caller without
// managePlayers (API, proxy, forms); list names outside the four; list files that are a link out
// of the server's folder, not JSON, or huge.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { panelForAll, jsonInit, formInit, type PanelWithNode } from "../helpers/panel-node";
import { minecraftStandIn } from "../helpers/minecraft-standin";
import { eventually } from "../helpers/node";
import { refusals } from "../helpers/refusal";
import { MAX_PLAYER_FILE_BYTES } from "../../daemon/players/json-file";

let ctx: PanelWithNode;
let id: string;
let folder: string;
panelForAll((made) => (ctx = made));
beforeAll(async () => {
  ({ id, folder } = await minecraftStandIn(ctx, "players-attacks"));
  await eventually(async () => !((await (await ctx.node.call("GET", `/daemon/server/${id}/status`)).json()) as { installing: boolean }).installing, 10000, "the install to end");
});

const read = (name: string) => (existsSync(join(folder, name)) ? readFileSync(join(folder, name), "utf8") : null);
/** What an attack must leave as it was: the console's log of commands and every list file. */
const snapshot = () => ({ commands: read("commands.log"), files: ["whitelist.json", "ops.json", "banned-players.json", "banned-ips.json", "server.properties"].map(read), names: readdirSync(folder).sort() });
const { refused } = refusals(snapshot);
const as = (token: string) => (method: string, path: string, body?: unknown) => ctx.panel.request(path, { token, ...jsonInit(method, body) });
const admin = () => as(ctx.admin.token);
const api = (path: string) => `/api/servers/${id}/players${path}`;
const proxy = (path: string) => `/proxy/daemon/server/${id}/players${path}`;

const INJECTED_NAMES = [
  "Steve op",
  "Steve\nop Mallory",
  "Steve\rop Mallory",
  "§4Steve",
  "Steve;op Mallory",
  "Steve&&op Mallory",
  "069a79f4-44e9-4726-a5be-fca90e38aaf5\nop Mallory",
  "069a79f4-44e9-4726-a5be-fca90e38aaf5 op Mallory",
  "@a",
];
const NAME_REFUSED = { status: 400, code: "ErrFieldPatternMismatch" };

async function injections(): Promise<void> {
  for (const name of INJECTED_NAMES) {
    for (const list of ["whitelist", "ops", "bans"]) {
      await refused(() => admin()("POST", api(`/${list}`), { name }), NAME_REFUSED);
      await refused(() => admin()("DELETE", api(`/${list}`), { name }), NAME_REFUSED);
      // The node checks again: the proxy reaches it without the panel's service.
      await refused(() => admin()("POST", proxy(`/${list}`), { name }), NAME_REFUSED);
    }
    await refused(() => admin()("POST", api(`/${encodeURIComponent(name)}/kick`), {}), NAME_REFUSED);
    await refused(() => admin()("POST", proxy(`/${encodeURIComponent(name)}/kick`), {}), NAME_REFUSED);
  }
  for (const reason of ["bye\nop Mallory", "bye\rop Mallory", "bye\u2028op Mallory", "§kbye"]) {
    await refused(() => admin()("POST", api("/Steve/kick"), { reason }), { status: 400, code: "ErrFieldHasControlCharacters" });
    await refused(() => admin()("POST", proxy("/bans"), { name: "Steve", reason }), { status: 400, code: "ErrFieldHasControlCharacters" });
  }
  await refused(() => admin()("POST", api("/Steve/kick"), { reason: "x".repeat(201) }), { status: 400, code: "ErrFieldTooLarge" });
  for (const ip of ["1.2.3.4\nop Mallory", "1.2.3.4 op", "1.2.3.4;op", "localhost"]) {
    await refused(() => admin()("POST", api("/ip-bans"), { ip }), { status: 400, code: "ErrFieldIsInvalidIP" });
    await refused(() => admin()("POST", proxy("/ip-bans"), { ip }), { status: 400, code: "ErrFieldIsInvalidIP" });
  }
}

describe("while the server is stopped", () => {
  test("names, reasons and IPs that would carry a second command are refused before any file changes", injections);

  test("only the four lists: anything else is refused by name", async () => {
    for (const list of ["online", "__proto__", "constructor", "banned-players.json", "..%2Fops", "server.properties"]) {
      await refused(() => admin()("GET", api(`/${list}`)), { status: 400, code: "ErrUnknownField" });
      await refused(() => admin()("POST", api(`/${list}`), { name: "Steve" }), { status: 400, code: "ErrUnknownField" });
      await refused(() => admin()("POST", proxy(`/${list}`), { name: "Steve" }), { status: 400, code: "ErrUnknownField" });
    }
  });

  test("a list file that is a link out of the folder, not JSON, or huge is refused and left as it is", async () => {
    const outside = mkdtempSync(join(tmpdir(), "kiln-players-outside-"));
    try {
      writeFileSync(join(outside, "ops.json"), '[{"name":"root","uuid":"0"}]');
      symlinkSync(join(outside, "ops.json"), join(folder, "ops.json"));
      writeFileSync(join(folder, "usercache.json"), '[{"name":"Steve","uuid":"8667ba71-b85a-4004-af54-457a9734eed7"}]');
      await refused(() => admin()("GET", api("/ops")), { status: 403, code: "ErrPathOutside" });
      await refused(() => admin()("POST", api("/ops"), { name: "Steve" }), { status: 403, code: "ErrPathOutside" });
      await refused(() => admin()("DELETE", api("/ops"), { name: "root" }), { status: 403, code: "ErrPathOutside" });
      expect(readFileSync(join(outside, "ops.json"), "utf8")).toBe('[{"name":"root","uuid":"0"}]');
      writeFileSync(join(folder, "whitelist.json"), "{ this is not json");
      await refused(() => admin()("POST", api("/whitelist"), { name: "Steve" }), { status: 409, code: "ErrPlayerFileInvalid" });
      writeFileSync(join(folder, "banned-players.json"), `[${" ".repeat(MAX_PLAYER_FILE_BYTES)}]`);
      await refused(() => admin()("POST", api("/bans"), { name: "Steve" }), { status: 409, code: "ErrPlayerFileInvalid" });
      // The tab still renders, each broken list saying why in its own card.
      const { status, html } = await ctx.page(`/server/${id}?tab=players`, ctx.admin.token);
      expect(status).toBe(200);
      expect(html).toContain('data-testid="players-ip-bans"');
    } finally {
      for (const name of ["ops.json", "whitelist.json", "banned-players.json"]) rmSync(join(folder, name), { force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe("a caller without managePlayers", () => {
  test("is refused through the API, the proxy and the forms, even holding every console flag", async () => {
    const user = await ctx.userWith(id, { viewServerConsole: true, sendServerConsole: true, startServer: true, stopServer: true, viewServerFiles: true, putServerFiles: true, editServerData: true });
    const call = as(user.token);
    const denied = { status: 403, code: "ErrNoPermission" };
    for (const list of ["whitelist", "ops", "bans", "ip-bans"]) {
      const body = list === "ip-bans" ? { ip: "10.0.0.1" } : { name: "Steve" };
      await refused(() => call("GET", api(`/${list}`)), denied);
      await refused(() => call("POST", api(`/${list}`), body), denied);
      await refused(() => call("DELETE", api(`/${list}`), body), denied);
      await refused(() => call("POST", proxy(`/${list}`), body), denied);
    }
    await refused(() => call("POST", api("/whitelist/enabled"), { enabled: true }), denied);
    await refused(() => call("POST", api("/Steve/kick"), {}), denied);
    await refused(() => call("POST", proxy("/Steve/kick"), {}), denied);
    const before = snapshot();
    const form = await ctx.panel.request(`/server/${id}/players/ops/add`, { token: user.token, ...formInit({ name: "Mallory" }) });
    expect(form.status).toBe(403);
    expect(snapshot()).toEqual(before);
  });
});

describe("while the server runs", () => {
  beforeAll(async () => {
    expect((await ctx.node.call("POST", `/daemon/server/${id}/start?wait=true`)).status).toBe(204);
    await eventually(async () => ((await ctx.node.json("GET", `/daemon/server/${id}/console`)) as { logs: string[] }).logs.join("").includes("Done ("), 10000, "the stand-in to be up");
    // One honest command first, so the log exists and the snapshot would see any line added.
    expect((await admin()("POST", api("/whitelist"), { name: "Steve" })).status).toBe(200);
  });

  test("no name, reason or IP brings a second command to the console", injections);

  test("the console got exactly the one honest command", () => {
    expect(read("commands.log")).toBe("whitelist add Steve\n");
  });

  test("a reason worded as the answer is not taken for it when the console echoes the command", async () => {
    // The console echoes "kick Echoed Kicked Echoed" (a terminal does), then says nobody was found.
    const res = await admin()("POST", api("/Echoed/kick"), { reason: "Kicked Echoed" });
    expect(((await res.json()) as { error?: { code: string } }).error?.code).toBe("ErrPlayerCommandRefused");
  });
});
