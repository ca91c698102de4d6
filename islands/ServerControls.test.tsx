// The control bar: its server render (every permitted button, each in a form that works without
// script) and, hydrated in happy-dom against a real Bun.serve socket, buttons following the
// status, restart loading until the server went down and came back, and installing disabling all.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { renderToString } from "react-dom/server";
import island, { type ServerControlsProps } from "./ServerControls";
import { openServerPage, until, withI18n, type ServerPage } from "./test-support";

let page: ServerPage;

const element = (props: ServerControlsProps) => withI18n(<island.component {...props} />);

// The fake panel greets each socket with "running"; the tests change it from there.
const status = (running: boolean, installing = false) => page.panel.send({ type: "status", data: { running, installing } });

beforeAll(() => {
  page = openServerPage("p1");
});

afterAll(() => page.close());

describe("ServerControls", () => {
  test("server render: every permitted button, each in its own form, with its hotkey", () => {
    const html = renderToString(element({ serverId: "p1", canStart: true, canStop: true, canInstall: true }));
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

  test("hydrated: buttons follow the status; restart loads until down and up again; installing disables", async () => {
    const props: ServerControlsProps = { serverId: "p1", canStart: true, canStop: true, canInstall: true };
    const { window, dom, panel } = page;
    const container = window.document.createElement("div");
    container.innerHTML = renderToString(element(props));
    window.document.body.append(container);
    await dom.hydrate(container, element(props));
    const actions = () => [...container.querySelectorAll("button[data-action]")].map((b) => b.getAttribute("data-action")!);
    const button = (action: string) => container.querySelector(`button[data-action="${action}"]`) as unknown as HTMLButtonElement;

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

    status(false);
    await until(() => actions().includes("start"), 2000, "stopped");
    expect(actions()).toEqual(["start", "stop", "kill", "install"]);

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
