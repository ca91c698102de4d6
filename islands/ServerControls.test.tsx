// The control bar: its server render (every permitted button, each in a form that works without
// script) and, hydrated in happy-dom against a real Bun.serve socket, buttons following the
// status, restart loading until the server went down and came back, and installing disabling all;
// Kill asking first, and Stop and Kill disabled while the server is stopped.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { renderToString } from "react-dom/server";
import island, { type ServerControlsProps } from "./ServerControls";
import { openServerPage, until, withI18n, type ServerPage } from "./test-support";

let page: ServerPage;

const element = (props: ServerControlsProps) => withI18n(<island.component {...props} />);
/** A user who may use every button. */
const ALL_ALLOWED: ServerControlsProps = { serverId: "p1", canStart: true, canStop: true, canInstall: true };

// The fake panel greets each socket with "running"; the tests change it from there.
const status = (running: boolean, installing = false) => page.panel.send({ type: "status", data: { running, installing } });

beforeAll(() => {
  page = openServerPage("p1");
});

afterAll(() => page.close());

describe("ServerControls", () => {
  test("server render: every permitted button, each in its own form, with its hotkey", () => {
    const html = renderToString(element(ALL_ALLOWED));
    for (const action of ["start", "restart", "stop", "kill", "install"]) expect(html).toContain(`action="/server/p1/power/${action}"`);
    for (const key of ["r r", "r s", "r k", "r i"]) expect(html).toContain(`data-hotkey="${key}"`);
    expect(html).toContain(">Start<");
    const limited = renderToString(element({ serverId: "p1", canStart: true, canStop: false, canInstall: false }));
    expect(limited).toContain("/power/start");
    expect(limited).toContain("/power/restart");
    expect(limited).not.toContain("/power/stop");
    expect(limited).not.toContain("/power/kill");
    expect(limited).not.toContain("/power/install");
  });

  test("server render: Kill is a confirmation overlay whose form posts the kill, so it asks without script too", () => {
    const html = renderToString(element(ALL_ALLOWED));
    const kill = html.slice(html.indexOf('<details class="modal server-kill"'), html.indexOf("</details>"));
    expect(kill).toContain('data-hotkey="r k"');
    expect(kill).toContain("Kill the server?");
    expect(kill).toContain('action="/server/p1/power/kill"');
    expect(kill).toContain("Keep it running");
  });

  test("hydrated: opening Kill sends nothing; the confirmation sends the kill and closes", async () => {
    const { panel } = page;
    const container = await page.mount(element(ALL_ALLOWED));
    const details = () => container.querySelector("details.server-kill") as unknown as HTMLDetailsElement;
    // Running (the fake panel's greeting), so the socket is open and Kill is the confirmation.
    await until(() => container.querySelector('button[data-action="start"]') === null && details() !== null, 3000, "running");
    const kills = () => panel.received.filter((m) => m.type === "kill").length;
    const before = kills();
    (container.querySelector("details.server-kill > summary") as unknown as HTMLElement).click();
    await until(() => details().open, 2000, "opened");
    await Bun.sleep(100);
    expect(kills()).toBe(before);
    (container.querySelector("[data-confirm-kill]") as unknown as HTMLButtonElement).click();
    await until(() => kills() === before + 1, 2000, "kill sent");
    expect(details().open).toBe(false);
    container.remove();
  });

  test("hydrated: buttons follow the status; restart loads until down and up again; installing disables", async () => {
    const { panel } = page;
    const container = await page.mount(element(ALL_ALLOWED));
    const actions = () => [...container.querySelectorAll("[data-action]")].map((b) => b.getAttribute("data-action")!);
    const button = (action: string) => container.querySelector(`button[data-action="${action}"]`) as unknown as HTMLButtonElement;
    const killOpener = () => container.querySelector('details.server-kill > summary[data-action="kill"]');

    // Running: no Start.
    await until(() => !actions().includes("start"), 3000, "status applied");
    expect(actions()).toEqual(["restart", "stop", "kill", "install"]);

    button("restart").click();
    await until(() => panel.received.some((m) => m.type === "restart"), 2000, "restart sent");
    expect(button("restart").getAttribute("aria-busy")).toBe("true");
    expect(button("restart").disabled).toBe(true);
    status(false);
    await Bun.sleep(100);
    // Down in the middle of a restart: still loading, and Start does not take its place.
    expect(actions()).toEqual(["restart", "stop", "kill", "install"]);
    expect(button("restart").getAttribute("aria-busy")).toBe("true");
    status(true);
    await until(() => button("restart").getAttribute("aria-busy") === null, 2000, "restart done");
    expect(button("restart").disabled).toBe(false);

    // Running, Kill opens its confirmation rather than being a plain button.
    expect(killOpener()).not.toBeNull();
    expect(button("kill")).toBeNull();

    status(false);
    await until(() => actions().includes("start"), 2000, "stopped");
    expect(actions()).toEqual(["start", "stop", "kill", "install"]);
    // Stopped: nothing to stop or kill.
    expect(button("stop").disabled).toBe(true);
    expect(button("kill").disabled).toBe(true);
    expect(killOpener()).toBeNull();
    expect(button("start").disabled).toBe(false);

    status(false, true);
    await until(() => button("start").disabled, 2000, "installing");
    expect(actions().every((a) => button(a).disabled)).toBe(true);
    expect(container.textContent).toContain("Installing");

    // A form submitted after hydration goes over the socket, not to the page route.
    status(false);
    await until(() => !button("start").disabled, 2000, "installed");
    button("start").click();
    await until(() => panel.received.some((m) => m.type === "start"), 2000, "start sent");
  });
});
