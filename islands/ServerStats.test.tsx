// The stats island against happy-dom: rendered on the server, hydrated without a mismatch, fed by
// a stats source; and the polling adapter against a real HTTP server.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { Window } from "happy-dom";
import { act, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import type { StatData } from "../core/live";
import type { PlayersState } from "../core/players/players-state";
import { makeTranslate } from "../core/i18n/translate";
import island, { MEMORY_UNIT_STORAGE_KEY, StatsPanel, appendSample, seedSamples } from "./ServerStats";
import { liveStatsSource, type StatsSource } from "./lib/stats-source";
import { installDom, referenceMessages, withI18n, type InstalledDom } from "./test-support";

/** A stats source the test drives by hand: it counts requests and delivers what the test says. */
class HandSource implements StatsSource {
  requests = 0;
  closed = false;
  private handlers = new Set<(d: StatData) => void>();
  private errorHandlers = new Set<(e: unknown) => void>();
  private playersHandlers = new Set<(p: PlayersState | null) => void>();
  request() {
    this.requests++;
  }
  onStat(handler: (d: StatData) => void) {
    this.handlers.add(handler);
    return () => void this.handlers.delete(handler);
  }
  onError(handler: (e: unknown) => void) {
    this.errorHandlers.add(handler);
    return () => void this.errorHandlers.delete(handler);
  }
  onPlayers(handler: (p: PlayersState | null) => void) {
    this.playersHandlers.add(handler);
    return () => void this.playersHandlers.delete(handler);
  }
  players(state: PlayersState | null) {
    for (const h of this.playersHandlers) h(state);
  }
  close() {
    this.closed = true;
  }
  emit(data: StatData) {
    for (const h of this.handlers) h(data);
  }
  fail() {
    for (const h of this.errorHandlers) h(new Error("down"));
  }
}

// The island sees only its declared prefixes, as in the browser.
const messages = referenceMessages(island.messages);
const t = makeTranslate(messages);

let dom: InstalledDom;
let window: Window;
let root: { unmount(): void } | null = null;
let container: HTMLElement;
const recoverable: unknown[] = [];

// A fresh page for each test; `location` is left alone here (the live adapter sets its own).
beforeEach(() => {
  dom = installDom("http://localhost/server/abc/stats", { expose: ["navigator", "localStorage"], location: null, act: true });
  window = dom.window;
  container = window.document.createElement("div") as unknown as HTMLElement;
  window.document.body.appendChild(container as never);
  recoverable.length = 0;
});
afterEach(async () => {
  if (root) act(() => root!.unmount());
  root = null;
  await dom.restore();
});

const tree = (source: HandSource, intervalMs?: number): ReactElement => withI18n(<StatsPanel connect={() => source} intervalMs={intervalMs} />, t);

/** Server-renders, then hydrates like islands/hydrate.tsx does. */
async function hydrate(source: HandSource, intervalMs?: number) {
  container.innerHTML = renderToString(tree(source, intervalMs));
  const { hydrateRoot } = await import("react-dom/client");
  await act(async () => {
    root = hydrateRoot(container, tree(source, intervalMs), { onRecoverableError: (e) => void recoverable.push(e) });
  });
}

const charts = () => [...container.querySelectorAll(".stats-chart")];
const linePoints = (chart: Element) => chart.querySelector(".stats-chart-line")!.getAttribute("points")!.split(" ").map((p) => p.split(",").map(Number));
const maxOf = (chart: Element) => Number(chart.querySelector(".stats-chart-plot")!.getAttribute("data-max"));
const latestOf = (chart: Element) => chart.querySelector(".stats-chart-latest")!.textContent;
const unitButton = (label: string) => [...container.querySelectorAll(".stats-unit-toggle button")].find((b) => b.textContent === label) as HTMLButtonElement;

describe("the island", () => {
  test("is ServerStats, hydrates at load and asks for the stats keys only", () => {
    expect([island.name, island.hydrate, island.messages]).toEqual(["ServerStats", "load", ["stats.", "vitals.players"]]);
    expect(Object.keys(messages).length).toBeGreaterThanOrEqual(5);
  });

  test("the server renders both charts with 40 seeded zero points and opens no source", () => {
    let opened = 0;
    const html = renderToString(withI18n(<StatsPanel connect={() => (opened++, new HandSource())} />, t));
    container.innerHTML = html;
    const [cpu, memory] = charts();
    expect(opened).toBe(0);
    expect(linePoints(cpu!).length).toBe(40);
    expect(linePoints(memory!).length).toBe(40);
    expect(linePoints(cpu!).every(([, y]) => y === 100)).toBe(true);
    expect([maxOf(cpu!), maxOf(memory!)]).toEqual([100, 1000]);
    expect(cpu!.querySelector(".stats-chart-title")!.textContent).toBe(messages["stats.cpu"]!);
    expect(memory!.querySelector("[role=img]")!.getAttribute("aria-label")).toContain("0 B");
    expect(unitButton("MB").getAttribute("aria-pressed")).toBe("true");
  });
});

describe("live", () => {
  test("hydrates without a mismatch and asks for a stat at once", async () => {
    const source = new HandSource();
    await hydrate(source);
    expect(recoverable).toEqual([]);
    expect(source.requests).toBe(1);
    expect(charts().length).toBe(2);
  });

  test("players: no chart until the node says the server is queried; then each stat samples the count, and no answer says so", async () => {
    const source = new HandSource();
    await hydrate(source);
    await act(async () => source.players({ error: "ErrQueryUnavailable", reason: "notDeclared", queriedAt: 1 }));
    expect(charts().length).toBe(2);
    await act(async () => source.players({ online: 7, max: 20, players: [], latencyMs: 3, queriedAt: 2 }));
    await act(async () => source.emit({ cpu: 1, memory: 1 }));
    const players = charts()[2]!;
    expect(linePoints(players).at(-1)).toEqual([100, 65]);
    expect(latestOf(players)).toBe("7/20");
    await act(async () => source.players({ error: "ErrQueryUnavailable", reason: "noAnswer", queriedAt: 3 }));
    expect(latestOf(charts()[2]!)).toBe("no answer");
  });

  test("a stat moves the latest point; only the latest 40 are kept", async () => {
    const source = new HandSource();
    await hydrate(source);
    const [cpuBefore] = charts();
    expect(linePoints(cpuBefore!).at(-1)).toEqual([100, 100]);

    await act(async () => source.emit({ cpu: 50.456, memory: 500_000_000 }));
    let [cpu, memory] = charts();
    expect(linePoints(cpu!).length).toBe(40);
    expect(linePoints(cpu!).at(-1)).toEqual([100, expect.closeTo(49.54, 2)]);
    expect(latestOf(cpu!)).toBe("50.46\u00a0%");
    expect(linePoints(memory!).at(-1)).toEqual([100, 50]);
    expect(latestOf(memory!)).toBe("500 MB");
    expect(cpu!.querySelector("[role=img]")!.getAttribute("aria-label")).toContain("50.46");

    await act(async () => {
      for (let i = 1; i <= 45; i++) source.emit({ cpu: i, memory: i * 1_000_000 });
    });
    [cpu, memory] = charts();
    expect(linePoints(cpu!).length).toBe(40);
    expect(linePoints(memory!).length).toBe(40);
    // The oldest kept is the 6th of the 45 (value 6), the latest the 45th.
    expect(linePoints(cpu!)[0]![1]).toBeCloseTo(94, 5);
    expect(linePoints(cpu!).at(-1)![1]).toBeCloseTo(55, 5);
    expect(latestOf(cpu!)).toBe("45\u00a0%");
  });

  test("a busy multi-core process grows the CPU axis above 100", async () => {
    const source = new HandSource();
    await hydrate(source);
    await act(async () => source.emit({ cpu: 180.25, memory: 0 }));
    expect(maxOf(charts()[0]!)).toBe(200);
  });

  test("the toggle switches every memory point between MB and MiB, and is remembered", async () => {
    const source = new HandSource();
    await hydrate(source);
    await act(async () => source.emit({ cpu: 1, memory: 1_048_576_000 })); // 1000 MiB, 1048.58 MB
    let memory = charts()[1]!;
    expect(maxOf(memory)).toBe(1250);
    expect(latestOf(memory)).toBe("1.05 GB");
    expect(memory.querySelector(".stats-chart-tip")).toBeNull();

    await act(async () => unitButton("MiB").click());
    memory = charts()[1]!;
    expect(unitButton("MiB").getAttribute("aria-pressed")).toBe("true");
    expect(unitButton("MB").getAttribute("aria-pressed")).toBe("false");
    expect(maxOf(memory)).toBe(1025);
    expect(linePoints(memory).at(-1)![1]).toBeCloseTo(100 - (1000 / 1025) * 100, 2);
    expect(latestOf(memory)).toBe("1000 MiB");
    expect(window.localStorage.getItem(MEMORY_UNIT_STORAGE_KEY)).toBe("MiB");

    await act(async () => unitButton("MB").click());
    expect(maxOf(charts()[1]!)).toBe(1250);
  });

  test("a memory limit is said in MiB as it was set, and drawn across the chart in either unit", async () => {
    const source = new HandSource();
    await hydrate(source);
    // 48 MiB is 50.33 MB: the limit keeps the unit it was set in.
    await act(async () => source.emit({ cpu: 1, memory: 30 * 1_048_576, limits: { memoryMiB: 48 } }));
    let memory = charts()[1]!;
    expect(latestOf(memory)).toBe("31.46 MB of 48\u00a0MiB");
    const line = () => charts()[1]!.querySelector(".stats-chart-limit")!;
    const y = () => Number(line().getAttribute("y1"));
    // MB: the limit at 50.33 on an axis fitted to it (60), not the usual 1000.
    expect(maxOf(memory)).toBe(60);
    expect(y()).toBeCloseTo(100 - (50.33 / 60) * 100, 2);
    expect(memory.querySelector(".stats-chart-limit-label")!.textContent).toBe("Limit 48\u00a0MiB");
    await act(async () => unitButton("MiB").click());
    expect(y()).toBeCloseTo(100 - (48 / 60) * 100, 2);
    // A limit above the axis raises it, so the line stays on the plot.
    await act(async () => source.emit({ cpu: 1, memory: 1, limits: { memoryMiB: 4096 } }));
    memory = charts()[1]!;
    expect(maxOf(memory)).toBeGreaterThanOrEqual(4096);
    expect(y()).toBeGreaterThanOrEqual(0);
    // No limit, no line.
    await act(async () => source.emit({ cpu: 1, memory: 1, limits: {} }));
    expect(charts()[1]!.querySelector(".stats-chart-limit")).toBeNull();
  });

  test("a remembered unit is used after hydration", async () => {
    window.localStorage.setItem(MEMORY_UNIT_STORAGE_KEY, "MiB");
    await hydrate(new HandSource());
    expect(recoverable).toEqual([]);
    expect(unitButton("MiB").getAttribute("aria-pressed")).toBe("true");
    expect(maxOf(charts()[1]!)).toBe(1025);
  });

  test("asks again every interval, shows a failure until the next stat, and stops on unmount", async () => {
    const source = new HandSource();
    await hydrate(source, 20);
    await act(() => Bun.sleep(75));
    expect(source.requests).toBeGreaterThanOrEqual(3);
    await act(async () => source.fail());
    expect(container.querySelector(".stats-failing[role=status]")!.textContent).toBe(messages["stats.unavailable"]!);
    await act(async () => source.emit({ cpu: 1, memory: 1 }));
    expect(container.querySelector(".stats-failing")).toBeNull();
    act(() => root!.unmount());
    root = null;
    const after = source.requests;
    await Bun.sleep(60);
    expect(source.requests).toBe(after);
    expect(source.closed).toBe(true);
  });
});

describe("samples", () => {
  test("seeded 40 zero samples 3 s apart; appending keeps 40 and rounds CPU", () => {
    const seeded = seedSamples(100_000);
    expect(seeded.length).toBe(40);
    expect(seeded.at(-1)).toEqual({ t: 100_000, cpu: 0, memory: 0 });
    expect(seeded[1]!.t - seeded[0]!.t).toBe(3000);
    const next = appendSample(seeded, { cpu: 3.14159, memory: -1 }, 103_000);
    expect(next.length).toBe(40);
    expect(next.at(-1)).toEqual({ t: 103_000, cpu: 3.14, memory: 0, players: 0 });
    expect(next[0]).toEqual(seeded[1]!);
  });
});

describe("live adapter", () => {
  // A stand-in for the panel's proxy: the socket answers "stat" for server "sock"; for "nosock"
  // the upgrade is refused, so the shared connection falls back to HTTP.
  let server: ReturnType<typeof Bun.serve>;
  const hits: string[] = [];
  let httpReply: () => Response = () => Response.json({ cpu: 12.5, memory: 2048 });
  beforeAll(() => {
    server = Bun.serve({
      port: 0,
      async fetch(req, srv) {
        const path = new URL(req.url).pathname;
        hits.push(path);
        if (path === "/proxy/daemon/socket/sock" && srv.upgrade(req, { data: undefined })) return undefined;
        if (path.endsWith("/stats")) {
          await Bun.sleep(10);
          return httpReply();
        }
        return new Response("nope", { status: 404 });
      },
      websocket: {
        message(ws, text) {
          if (JSON.parse(String(text)).type === "stat") ws.send(JSON.stringify({ type: "stat", data: { cpu: 7.25, memory: 4096 } }));
        },
      },
    });
  });
  afterAll(() => server.stop(true));
  beforeEach(() => {
    window.happyDOM.setURL(server.url.href);
    Object.assign(globalThis, { location: window.location });
    hits.length = 0;
  });

  test("over the open socket: sends stat and delivers the answer", async () => {
    const { serverLive } = await import("./lib/server-live");
    const live = serverLive("sock");
    for (let i = 0; i < 100 && !live.isOpen; i++) await Bun.sleep(10);
    expect(live.isOpen).toBe(true);
    const source = liveStatsSource("sock");
    const got: StatData[] = [];
    source.onStat((d) => got.push(d));
    source.request();
    for (let i = 0; i < 100 && got.length === 0; i++) await Bun.sleep(10);
    expect(got).toEqual([{ cpu: 7.25, memory: 4096 }]);
    expect(hits.filter((h) => h.endsWith("/stats"))).toEqual([]);
    source.close!();
    live.close();
  });

  test("without a socket: GETs the proxied stats route, one request at a time", async () => {
    const { serverLive } = await import("./lib/server-live");
    const source = liveStatsSource("nosock");
    const got: StatData[] = [];
    source.onStat((d) => got.push(d));
    source.request();
    source.request(); // dropped: one is in flight
    for (let i = 0; i < 100 && got.length === 0; i++) await Bun.sleep(10);
    expect(got).toEqual([{ cpu: 12.5, memory: 2048 }]);
    expect(hits.filter((h) => h.endsWith("/stats"))).toEqual(["/proxy/daemon/server/nosock/stats"]);
    source.close!();
    serverLive("nosock").close();
  });

  test("a failed request reaches onError, not onStat; after close nothing arrives", async () => {
    const { serverLive } = await import("./lib/server-live");
    window.document.body.innerHTML = `<div id="toasts"></div>`;
    httpReply = () => Response.json({ error: { code: "ErrGeneric", msg: "down" } }, { status: 502 });
    const source = liveStatsSource("nosock");
    const got: unknown[] = [];
    const errors: unknown[] = [];
    source.onStat((d) => got.push(d));
    source.onError!((e) => errors.push(e));
    source.request();
    for (let i = 0; i < 100 && errors.length === 0; i++) await Bun.sleep(10);
    expect(got).toEqual([]);
    expect(errors.length).toBe(1);
    httpReply = () => Response.json({ cpu: 1, memory: 1 });
    source.close!();
    source.request();
    await Bun.sleep(50);
    expect(got).toEqual([]);
    serverLive("nosock").close();
  });
});
