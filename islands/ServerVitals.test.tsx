// The vitals beside the console: the server render (address and dashes, no copy button
// before script), then hydrated in happy-dom against a real Bun.serve socket: a stat asked at
// once and shown (CPU, memory against its limit, disk against its space, uptime), and "Not
// running" once the server stops. formatUptime picks the two largest units.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { renderToString } from "react-dom/server";
import { makeTranslate } from "../core/i18n/translate";
import en from "../locales/en.json";
import island, { formatUptime, type ServerVitalsProps } from "./ServerVitals";
import { openServerPage, until, withI18n, type ServerPage } from "./test-support";

let page: ServerPage;
const MIB = 1024 * 1024;
const element = (props: ServerVitalsProps) => withI18n(<island.component {...props} />);

const STAT = { cpu: 12.345, memory: 300 * MIB, disk: 50 * MIB, limits: { memoryMiB: 1024, diskMiB: 2048 }, uptime: 3 * 3600 + 125 };

beforeAll(() => {
  page = openServerPage("v1", {
    // The first stat is asked while the socket still connects (over HTTP), later ones on the socket.
    http: (_req, url) => (url.pathname === "/proxy/daemon/server/v1/stats" ? Response.json(STAT) : undefined),
    onMessage: (message, ws) => {
      if (message.type === "stat") ws.send(JSON.stringify({ type: "stat", data: STAT }));
    },
  });
});

afterAll(() => page.close());

describe("ServerVitals", () => {
  test("formatUptime: the two largest units that matter", () => {
    const t = makeTranslate(en);
    expect(formatUptime(9, t)).toBe("9 s");
    expect(formatUptime(245, t)).toBe("4 min 5 s");
    expect(formatUptime(3 * 3600 + 125, t)).toBe("3 h 2 min");
    expect(formatUptime(2 * 86400 + 3 * 3600 + 59, t)).toBe("2 d 3 h");
  });

  test("server render: the address as text, dashes for the live values, no copy button yet", () => {
    const html = renderToString(element({ serverId: "v1", address: "play.example.com:25565" }));
    expect(html).toContain("<code>play.example.com:25565</code>");
    expect(html).toContain('data-vital="cpu">—<');
    expect(html).not.toContain("Copy address");
  });

  test("hydrated: the stat's CPU, memory of its limit, disk of its space and uptime; 'Not running' when stopped", async () => {
    const props: ServerVitalsProps = { serverId: "v1", address: "localhost:25565" };
    const { panel } = page;
    const container = await page.mount(element(props));
    const vital = (name: string) => container.querySelector(`[data-vital="${name}"]`)!.textContent;
    await until(() => vital("cpu") !== "—", 3000, "a stat");
    expect(vital("cpu")).toBe("12.3 %");
    expect(vital("memory")).toBe("300 MiB of 1 GiB");
    expect(vital("disk")).toBe("50 MiB of 2 GiB");
    expect(vital("uptime")).toBe("3 h 2 min");
    expect(container.querySelector('button[aria-label="Copy address"]')).not.toBeNull();

    panel.send({ type: "status", data: { running: false, installing: false } });
    await until(() => vital("uptime") === "Not running", 2000, "stopped");
    expect(vital("cpu")).toBe("—");
    // The disk is still measured while stopped.
    expect(vital("disk")).toBe("50 MiB of 2 GiB");
  });

  test("players: the count, the names when opened, 'no answer' rather than 0, nothing for a server without a query", async () => {
    const props: ServerVitalsProps = { serverId: "v1", address: "localhost:25565" };
    const { panel } = page;
    const container = await page.mount(element(props));
    const players = () => container.querySelector('[data-vital="players"]');
    panel.send({ type: "status", data: { running: true, installing: false } });
    panel.send({ type: "players", data: { online: 2, max: 20, players: [{ name: "Alice_1" }, { name: "Bob_2" }], latencyMs: 4, queriedAt: 1 } });
    await until(() => players()?.querySelector("summary")?.textContent === "2/20", 3000, "the count");
    expect([...players()!.querySelectorAll("li")].map((li) => li.textContent)).toEqual(["Alice_1", "Bob_2"]);
    // A name in any script is shown as written; one that hides characters shows them marked, with a tooltip.
    panel.send({ type: "players", data: { online: 3, max: 20, players: [{ name: "محمد" }, { name: "\u202Enimda" }, { name: "Bob_2" }], latencyMs: 4, queriedAt: 1 } });
    await until(() => players()?.querySelector("summary")?.textContent === "3/20", 3000, "the new names");
    expect([...players()!.querySelectorAll("li")].map((li) => li.textContent)).toEqual(["محمد", "\\u202Enimda", "Bob_2"]);
    expect(players()!.querySelector("mark.label-escape")?.textContent).toBe("\\u202E");
    expect(players()!.querySelector("[data-escaped]")?.getAttribute("title")).toBe("Contains hidden characters, shown marked");
    expect(players()!.querySelectorAll("[data-escaped]")).toHaveLength(1);
    // A status names a sample: the list says how many it leaves out, so it agrees with the count.
    expect(players()!.textContent).not.toContain("Not named by the game");
    panel.send({ type: "players", data: { online: 30, max: 40, players: [{ name: ".Bedrock_Guy" }, { name: "Bob_2" }], latencyMs: 4, queriedAt: 1 } });
    await until(() => players()?.querySelector("summary")?.textContent === "30/40", 3000, "the sample");
    expect([...players()!.querySelectorAll("li")].map((li) => li.textContent)).toEqual([".Bedrock_Guy", "Bob_2"]);
    expect(players()!.querySelector("p")?.textContent).toBe("Not named by the game: 28");
    panel.send({ type: "players", data: { error: "ErrQueryUnavailable", reason: "noAnswer", queriedAt: 2 } });
    await until(() => players()?.textContent === "no answer", 3000, "no answer");
    panel.send({ type: "players", data: { error: "ErrQueryUnavailable", reason: "notDeclared", queriedAt: 3 } });
    await until(() => players() === null, 3000, "no players entry");
  });
});
