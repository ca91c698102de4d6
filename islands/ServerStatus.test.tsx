// The status dot and the socket warning: grey on the server render, green/red once the real
// (Bun.serve) socket reports, and, when reconnecting gives up, the alert placed below the header.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { renderToString } from "react-dom/server";
import en from "../locales/en.json";
import island, { type ServerStatusProps } from "./ServerStatus";
import { openServerPage, until, withI18n, type ServerPage } from "./test-support";

let page: ServerPage;

const element = (props: ServerStatusProps) => withI18n(<island.component {...props} />);

/** A page header holding the island, as the server page renders it. */
async function mount(props: ServerStatusProps) {
  const main = page.window.document.createElement("main");
  main.innerHTML = `<div class="page-header"><h1><span>My server</span><span id="dot">${renderToString(element(props))}</span></h1></div><p id="after">tabs</p>`;
  page.window.document.body.append(main);
  await page.dom.hydrate(main.querySelector("#dot"), element(props));
  return main;
}

beforeAll(() => {
  // The socket of "downStatus" cannot be reached (the fake panel answers 503 for "down…" ids).
  page = openServerPage("st1", { http: (_req, url) => (url.pathname.endsWith("/status") ? Response.json({ running: false, installing: false }) : undefined) });
  page.window.document.body.innerHTML = `<div id="toasts"></div>`;
});

afterAll(() => page.close("downStatus"));

describe("ServerStatus", () => {
  test("server render: grey, labelled unknown", () => {
    const html = renderToString(element({ serverId: "st1" }));
    expect(html).toContain("is-unknown");
    expect(html).toContain('aria-label="Status unknown"');
    expect(html).toContain('title="Status unknown"');
    expect(html).not.toContain('role="alert"');
  });

  test("hydrated: green when the server reports running, red when it stops", async () => {
    const main = await mount({ serverId: "st1" });
    const dot = () => main.querySelector(".server-status-dot")!;
    await until(() => dot().classList.contains("is-online"), 3000, "online");
    expect(dot().getAttribute("aria-label")).toBe("Online");
    page.panel.send({ type: "status", data: { running: false, installing: false } }, "st1");
    await until(() => dot().classList.contains("is-offline"), 2000, "offline");
    expect(dot().getAttribute("title")).toBe("Offline");
    main.remove();
  });

  test("when the socket gives up, a warning alert appears right below the page header", async () => {
    const main = await mount({ serverId: "downStatus" });
    // The status still comes over HTTP meanwhile.
    await until(() => main.querySelector(".server-status-dot.is-offline") !== null, 7000, "status over HTTP");
    await until(() => main.querySelector('[role="alert"]') !== null, 10_000, "alert");
    const alert = main.querySelector('[role="alert"]')!;
    expect(alert.textContent).toBe(en["errors.ErrSocketFailed"]);
    expect(alert.parentElement!.previousElementSibling!.className).toBe("page-header");
    expect(main.querySelector(".page-header [role=alert]")).toBeNull();
  }, 20_000);
});
