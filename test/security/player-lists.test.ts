// ATTACK: anything that writes the server's folder (the game, a plugin, a holder of putServerFiles)
// writes the four player list files the Players tab shows. A list of 4 MiB of tiny entries
// ({"name":"a"}, 322,000 of them, under the node's byte cap) once became a page of 266 MB with a
// remove form per entry, built in the panel's memory for whoever opened the tab (about 130 s of
// CPU and 4 GB for three such files). Now the node answers a page of a list at most
// (core/players/list-page), with the total; the tab shows TAB_PAGE_SIZE rows of each list with a
// pager and a search; a file of more than MAX_PLAYER_LIST_ENTRIES entries is refused before it is
// parsed (ErrPlayerListTooLong, said in its card, the page answered); a field of megabytes is
// shown cut. Adding, removing, kicking and the online list's operator marks work on long lists.
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { panelForAll, jsonInit, formInit, type PanelWithNode } from "../helpers/panel-node";
import { minecraftStandIn } from "../helpers/minecraft-standin";
import { eventually } from "../helpers/node";
import { errorOf, refusals } from "../helpers/refusal";
import { MAX_PLAYER_LIST_ENTRIES } from "../../daemon/players/json-file";
import { TAB_PAGE_SIZE } from "../../server/services/players/tab";
import { PLAYER_LIST_PAGE } from "../../core/players/list-page";

let ctx: PanelWithNode;
let id = "";
let folder = "";
panelForAll((made) => (ctx = made));
beforeAll(async () => {
  ({ id, folder } = await minecraftStandIn(ctx, "long-lists"));
  await eventually(async () => !((await (await ctx.node.call("GET", `/daemon/server/${id}/status`)).json()) as { installing: boolean }).installing, 10000, "the install to end");
});

const LONG = 5000;
const FILES = ["whitelist.json", "ops.json", "banned-players.json", "banned-ips.json"] as const;
const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
const ban = { created: "2026-01-02 03:04:05 +0000", source: "Kiln", expires: "forever", reason: "spam" };
/** Four real-shaped lists of LONG entries each. */
function writeLongLists(opAtEnd = "Op_last"): void {
  const range = Array.from({ length: LONG }, (_, i) => i);
  writeFileSync(join(folder, "whitelist.json"), JSON.stringify(range.map((i) => ({ uuid: uuid(i), name: `Player_${i}` }))));
  writeFileSync(join(folder, "ops.json"), JSON.stringify(range.map((i) => ({ uuid: uuid(i), name: i === LONG - 1 ? opAtEnd : `Op_${i}`, level: 4, bypassesPlayerLimit: false }))));
  writeFileSync(join(folder, "banned-players.json"), JSON.stringify(range.map((i) => ({ uuid: uuid(i), name: `Banned_${i}`, ...ban }))));
  writeFileSync(join(folder, "banned-ips.json"), JSON.stringify(range.map((i) => ({ ip: `10.0.${Math.floor(i / 256)}.${i % 256}`, ...ban }))));
}

const read = (name: string) => readFileSync(join(folder, name), "utf8");
const api = (method: string, path: string, body?: unknown) => ctx.panel.request(`/api/servers/${id}/players${path}`, { token: ctx.admin.token, ...jsonInit(method, body) });
const proxy = (path: string) => ctx.panel.request(`/proxy/daemon/server/${id}/players${path}`, { token: ctx.admin.token });
const tab = (query = "") => ctx.page(`/server/${id}?tab=players${query}`, ctx.admin.token);
/** The HTML of one list's card. */
const card = (html: string, list: string) => {
  const start = html.indexOf(`data-testid="players-${list}"`);
  return start < 0 ? "" : html.slice(start, html.indexOf("</section>", start));
};
const rows = (html: string) => (html.match(/data-testid="player-entry"/g) ?? []).length;
type Listed = { entries: { name?: string; ip?: string; reason?: string }[]; total?: number; offset?: number };

describe("while the server is stopped", () => {
  test("the tab shows one page of each long list, with a pager and a search that work without script", async () => {
    writeLongLists();
    const { status, html } = await tab();
    expect(status).toBe(200);
    for (const list of ["whitelist", "ops", "bans", "ip-bans"]) {
      expect(rows(card(html, list))).toBe(TAB_PAGE_SIZE);
      expect(card(html, list)).toContain(`${list}-page=2`);
      expect(card(html, list)).toContain(`name="${list}-search"`);
    }
    expect(html.length).toBeLessThan(1_000_000);
    // The last page, a page past it (the last again), each list keeping its own page and search.
    const last = await tab(`&whitelist-page=${Math.ceil(LONG / TAB_PAGE_SIZE)}&bans-search=banned_42`);
    expect(card(last.html, "whitelist")).toContain(">Player_4999<");
    expect(card(last.html, "whitelist")).not.toContain(">Player_0<");
    expect(card(last.html, "whitelist")).toContain("bans-search=banned_42");
    expect(rows(card(last.html, "bans"))).toBe(TAB_PAGE_SIZE); // Banned_42, Banned_420…, Banned_4200…
    expect(card((await tab("&whitelist-page=99999999")).html, "whitelist")).toContain(">Player_4999<");
    const found = (await tab("&whitelist-search=PLAYER_4321")).html;
    expect(rows(card(found, "whitelist"))).toBe(1);
    expect(card(found, "whitelist")).toContain(">Player_4321<");
    expect(rows(card((await tab("&whitelist-search=nobody")).html, "whitelist"))).toBe(0);
  });

  test("the API and the proxy answer a page with the total, never the whole list; a bad question is refused", async () => {
    const first = (await (await api("GET", "/whitelist")).json()) as Listed;
    expect(first.entries).toHaveLength(PLAYER_LIST_PAGE.defaultLimit);
    expect(first).toMatchObject({ total: LONG, offset: 0 });
    const tail = (await (await api("GET", "/ip-bans?offset=4990&limit=100")).json()) as Listed;
    expect(tail.entries.map((entry) => entry.ip)).toHaveLength(10);
    expect(tail.entries[0]!.ip).toBe(`10.0.${Math.floor(4990 / 256)}.${4990 % 256}`);
    expect(((await (await api("GET", "/ops?search=op_49&limit=1000")).json()) as Listed).total).toBe(110); // Op_49, Op_490…499, Op_4900…4998
    expect(((await (await proxy("/bans?limit=5")).json()) as Listed).entries).toHaveLength(5);
    expect(await errorOf(await api("GET", `/whitelist?limit=${PLAYER_LIST_PAGE.maxLimit + 1}`))).toEqual({ status: 400, code: "ErrFieldNotBetween" });
    expect(await errorOf(await api("GET", "/whitelist?offset=-1"))).toEqual({ status: 400, code: "ErrFieldNotInteger" });
    expect(await errorOf(await api("GET", `/whitelist?search=${"a".repeat(PLAYER_LIST_PAGE.maxSearch + 1)}`))).toEqual({ status: 400, code: "ErrFieldTooLarge" });
    // The node checks the question itself: the proxy reaches it without the panel's service.
    expect(await errorOf(await proxy("/whitelist?limit=5000"))).toEqual({ status: 400, code: "ErrFieldNotBetween" });
    expect(await errorOf(await proxy(`/whitelist?names=${Array(PLAYER_LIST_PAGE.maxNames + 1).fill("a").join(",")}`))).toEqual({ status: 400, code: "ErrFieldTooLarge" });
  });

  test("adding to and removing from a long list edit the file as before", async () => {
    writeFileSync(join(folder, "server.properties"), "online-mode=false\n");
    expect(await (await api("POST", "/whitelist", { name: "Notch" })).json()).toEqual({ changed: true });
    expect(await (await api("DELETE", "/whitelist", { name: "Player_2500" })).json()).toEqual({ changed: true });
    const names = (JSON.parse(read("whitelist.json")) as { name: string }[]).map((entry) => entry.name);
    expect(names).toHaveLength(LONG);
    expect(names.at(-1)).toBe("Notch");
    expect(names).not.toContain("Player_2500");
    const removed = await ctx.panel.request(`/server/${id}/players/bans/remove`, { token: ctx.admin.token, ...formInit({ name: "Banned_4999" }) });
    expect(removed.status).toBe(303);
    expect(read("banned-players.json")).not.toContain("Banned_4999");
  });

  test("a form sent from a list's page goes back to that page and search, and its address carries nothing else through", async () => {
    writeLongLists();
    const { html } = await tab("&whitelist-page=3&bans-search=banned_42");
    const action = card(html, "whitelist").match(/action="(\/server\/[^"]+\/whitelist\/remove[^"]*)"/)![1]!.replaceAll("&amp;", "&");
    expect(action).toBe(`/server/${id}/players/whitelist/remove?whitelist-page=3&bans-search=banned_42`);
    const removed = await ctx.panel.request(action, { token: ctx.admin.token, ...formInit({ name: "Player_51" }) });
    expect(removed.status).toBe(303);
    expect(removed.headers.get("location")).toBe(`/server/${id}?tab=players&whitelist-page=3&bans-search=banned_42`);
    expect(read("whitelist.json")).not.toContain('"Player_51"');
    // Only the tab's own names, each short, built into the tab's address.
    const crafted = `/server/${id}/players/whitelist/add?next=https://evil.example&tab=files&ops-search=${"x".repeat(65)}&ops-page=2%26tab%3Dfiles`;
    const added = await ctx.panel.request(crafted, { token: ctx.admin.token, ...formInit({ name: "Player_51" }) });
    expect(added.status).toBe(303);
    expect(added.headers.get("location")).toBe(`/server/${id}?tab=players&ops-page=2%26tab%3Dfiles`);
  });

  test("an entry's field of megabytes is shown cut, in the API and on the tab", async () => {
    writeFileSync(join(folder, "banned-players.json"), JSON.stringify([{ uuid: uuid(1), name: "Huge", ...ban, reason: "r".repeat(3_000_000) }]));
    const listed = (await (await api("GET", "/bans")).json()) as Listed;
    expect(listed.entries[0]!.reason!.length).toBeLessThanOrEqual(256);
    expect((await tab()).html.length).toBeLessThan(1_000_000);
  });

  test("a list at the cap is read, and takes no further entry while stopped", async () => {
    const atCap = `[${'{"name":"a"},'.repeat(MAX_PLAYER_LIST_ENTRIES).slice(0, -1)}]`;
    writeFileSync(join(folder, "whitelist.json"), atCap);
    expect(((await (await api("GET", "/whitelist?limit=1")).json()) as Listed).total).toBe(MAX_PLAYER_LIST_ENTRIES);
    expect(await errorOf(await api("POST", "/whitelist", { name: "Notch" }))).toEqual({ status: 409, code: "ErrPlayerListTooLong" });
    expect(read("whitelist.json")).toBe(atCap);
  });
});

describe("while the server runs", () => {
  beforeAll(async () => {
    writeLongLists("Steve");
    expect((await ctx.node.call("POST", `/daemon/server/${id}/start?wait=true`)).status).toBe(204);
    await eventually(async () => ((await ctx.node.json("GET", `/daemon/server/${id}/console`)) as { logs: string[] }).logs.join("").includes("Done ("), 10000, "the stand-in to be up");
  });

  test("an online player is marked an operator from ops.json by name, however far down the list; kick and list changes still work", async () => {
    const { html } = await tab();
    const online = card(html, "online").split('data-testid="online-player"').slice(1);
    const row = (name: string) => online.find((part) => part.includes(`>${name}<`)) ?? "";
    // Steve is the 5000th operator, far past the ops card's first page; Alex is none.
    expect(online).toHaveLength(2);
    expect(row("Steve")).toContain(`action="/server/${id}/players/ops/remove"`);
    expect(row("Alex")).toContain(`action="/server/${id}/players/ops/add"`);
    const kicked = await ctx.panel.request(`/server/${id}/players/kick`, { token: ctx.admin.token, ...formInit({ name: "Alex" }) });
    expect(kicked.status).toBe(303);
    expect(await (await api("POST", "/bans", { name: "Griefer", reason: "spam" })).json()).toEqual({ changed: true });
    expect(read("commands.log")).toContain("kick Alex\n");
  });

  test("stopping", async () => {
    expect((await ctx.node.call("POST", `/daemon/server/${id}/kill?wait=true`)).status).toBeLessThan(300);
  });
});

describe("a list file of more entries than the node reads", () => {
  // The planted files of the original attack: 4 MiB of {"name":"a"} each.
  const entry = '{"name":"a"},';
  const planted = `[${entry.repeat(Math.floor((4 * 1024 * 1024 - 2) / entry.length)).slice(0, -1)}]`;
  const snapshot = () => FILES.map((name) => read(name));
  const { refused } = refusals(snapshot);

  test("is refused before it is parsed: its card says why, the page stays small and quick", async () => {
    for (const name of ["whitelist.json", "ops.json", "banned-players.json"]) writeFileSync(join(folder, name), planted);
    const started = performance.now();
    const { status, html } = await tab();
    const ms = performance.now() - started;
    expect(status).toBe(200);
    expect(html.length).toBeLessThan(1_000_000);
    expect(ms).toBeLessThan(15_000);
    for (const list of ["whitelist", "ops", "bans"]) {
      expect(card(html, list)).toContain(`holds more entries than Kiln reads (at most ${MAX_PLAYER_LIST_ENTRIES})`);
      expect(rows(card(html, list))).toBe(0);
    }
    expect(rows(card(html, "ip-bans"))).toBe(TAB_PAGE_SIZE);
    await refused(() => api("GET", "/whitelist"), { status: 409, code: "ErrPlayerListTooLong" });
    await refused(() => proxy("/ops"), { status: 409, code: "ErrPlayerListTooLong" });
    await refused(() => api("POST", "/whitelist", { name: "Notch" }), { status: 409, code: "ErrPlayerListTooLong" });
    await refused(() => api("DELETE", "/bans", { name: "a_b" }), { status: 409, code: "ErrPlayerListTooLong" });
  }, 60_000);
});
