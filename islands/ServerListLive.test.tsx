// The server list's live island: applyLive writes a server's status, CPU and memory into its
// server-rendered row (and leaves other rows alone); the island renders nothing of its own.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { renderToString } from "react-dom/server";
import { makeTranslate } from "../core/i18n/translate";
import en from "../locales/en.json";
import island, { applyLive } from "./ServerListLive";
import { installDom, withI18n, type InstalledDom } from "./test-support";

let dom: InstalledDom;
const t = makeTranslate(en);
const MIB = 1024 * 1024;
const row = (id: string) =>
  `<table><tbody><tr data-server-row="${id}"><td><span class="server-status-dot is-unknown" data-live="status" data-status="unknown"></span></td><td data-live="players">—</td><td data-live="cpu">—</td><td data-live="memory">—</td></tr></tbody></table>`;

beforeAll(() => {
  dom = installDom("http://localhost/server", { expose: ["CSS"] });
});
afterAll(() => dom.restore());

describe("ServerListLive", () => {
  test("renders nothing itself", () => {
    expect(renderToString(withI18n(<island.component ids={["aaaaaaaa"]} />))).toBe("");
  });

  test("applyLive: a running server's dot, CPU and memory against its limit; a stopped one's dashes", () => {
    const root = dom.window.document.createElement("div");
    root.innerHTML = row("aaaaaaaa") + row("bbbbbbbb");
    const doc = root as unknown as ParentNode;
    applyLive(doc, "aaaaaaaa", { status: "online", cpu: 7.25, memory: 512 * MIB, memoryLimitMiB: 2048 }, t);
    applyLive(doc, "bbbbbbbb", { status: "offline" }, t);
    applyLive(doc, "cccccccc", { status: "online" }, t);
    const cell = (id: string, name: string) => root.querySelector(`[data-server-row="${id}"] [data-live="${name}"]`)!;
    expect(cell("aaaaaaaa", "status").getAttribute("data-status")).toBe("online");
    expect(cell("aaaaaaaa", "status").getAttribute("class")).toBe("server-status-dot is-online");
    expect(cell("aaaaaaaa", "status").getAttribute("aria-label")).toBe("Online");
    expect(cell("aaaaaaaa", "cpu").textContent).toBe("7.3 %");
    expect(cell("aaaaaaaa", "memory").textContent).toBe("512 MiB of 2 GiB");
    expect(cell("bbbbbbbb", "status").getAttribute("data-status")).toBe("offline");
    expect(cell("bbbbbbbb", "cpu").textContent).toBe("—");
    expect(cell("bbbbbbbb", "memory").textContent).toBe("—");
  });

  test("applyLive: players as 7/20, 'no answer' (not 0) when the game does not answer, a dash when stopped or not the reader's", () => {
    const root = dom.window.document.createElement("div");
    root.innerHTML = ["aaaaaaaa", "bbbbbbbb", "cccccccc", "dddddddd"].map(row).join("");
    const doc = root as unknown as ParentNode;
    applyLive(doc, "aaaaaaaa", { status: "online", players: { online: 7, max: 20 } }, t);
    applyLive(doc, "bbbbbbbb", { status: "online", players: null }, t);
    applyLive(doc, "cccccccc", { status: "online" }, t);
    applyLive(doc, "dddddddd", { status: "offline", players: { online: 3, max: 20 } }, t);
    const players = (id: string) => root.querySelector(`[data-server-row="${id}"] [data-live="players"]`)!.textContent;
    expect([players("aaaaaaaa"), players("bbbbbbbb"), players("cccccccc"), players("dddddddd")]).toEqual(["7/20", "no answer", "—", "—"]);
  });
});

