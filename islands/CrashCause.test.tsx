// The crash card: nothing on the server render nor while no crash is reported; the cause, its fix
// and where it was seen once a status carries one (values from the console shown as text, never
// markup); gone when a status without it comes (the next start).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { renderToString } from "react-dom/server";
import island, { type CrashCauseProps } from "./CrashCause";
import { openServerPage, until, withI18n, type ServerPage } from "./test-support";

let page: ServerPage;
const element = (props: CrashCauseProps) => withI18n(<island.component {...props} />);


beforeAll(() => {
  page = openServerPage("cc1", { http: (_req, url) => (url.pathname.endsWith("/status") ? Response.json({ running: false, installing: false }) : undefined) });
});
afterAll(() => page.close("cc1"));

describe("CrashCause", () => {
  test("server render: no card", () => {
    expect(renderToString(element({ serverId: "cc1" }))).toBe('<div class="crash-cause-slot"></div>');
  });

  test("a reported crash shows its cause, fix and place as text; the next start removes it", async () => {
    const main = await page.mount(element({ serverId: "cc1" }));
    await until(() => Boolean(page.panel.socket("cc1")), 5000, "the socket");
    const crash = { cause: "modDependency", detail: { mod: "<b>Sodium</b>", dependency: "fabric-api" }, at: 1, phase: "run", where: { source: "logs/latest.log", line: 7 } };
    page.panel.send({ type: "status", data: { running: false, installing: false, crash } }, "cc1");
    await until(() => main.querySelector(".crash-cause") !== null, 3000, "the card");
    expect(main.querySelector(".crash-cause-text")!.textContent).toBe("a mod is missing a mod it depends on: <b>Sodium</b> needs fabric-api, which is not installed");
    expect(main.querySelector("b")).toBeNull();
    expect(main.querySelector(".crash-cause-where")!.textContent).toBe("Seen in logs/latest.log, line 7");
    page.panel.send({ type: "status", data: { running: true, installing: false, starting: true } }, "cc1");
    await until(() => main.querySelector(".crash-cause") === null, 3000, "the card to go");
    page.panel.send({ type: "status", data: { running: false, installing: false, crash: { cause: "unrecognised", at: 2, phase: "install", looked: [{ source: "console", lines: 3 }] } } }, "cc1");
    await until(() => main.querySelector(".crash-cause") !== null, 3000, "the card again");
    expect(main.querySelector("strong")!.textContent).toBe("Why the install failed");
    expect(main.querySelector(".crash-cause-where")!.textContent).toBe("Kiln read: the console");
    expect(main.querySelector(".crash-cause-change")).toBeNull();
    main.remove();
  });

  test("a crash on the first run after an add-on change names the change (as text) and leads to the Mods tab to undo it", async () => {
    const main = await page.mount(element({ serverId: "cc1" }));
    await until(() => Boolean(page.panel.socket("cc1")), 5000, "the socket");
    const crash = { cause: "modDependency", detail: { mod: "geyser", dependency: "fabric-api" }, at: 3, phase: "run", afterChange: { changeId: "0b7c3f52-1d2e-4f60-9a8b-0c1d2e3f4a5b", note: "+<i>Geyser</i>" } };
    page.panel.send({ type: "status", data: { running: false, installing: false, crash } }, "cc1");
    await until(() => main.querySelector(".crash-cause-change") !== null, 3000, "the change's line");
    const line = main.querySelector(".crash-cause-change")!;
    expect(line.textContent).toBe("This was the first start after a change to the mods or plugins (+<i>Geyser</i>). Undo that change");
    expect(line.querySelector("i")).toBeNull();
    expect(line.querySelector("a")!.getAttribute("href")).toBe("/server/cc1?tab=mods");
    main.remove();
  });
});
