// The login page is kept as HTML for logged-out visitors (server/render renderShared). An attacker
// who asks for it with their own query, headers and cookies must not change what anybody else is
// served: everything a request puts in the page is part of what the page is kept under. A
// logged-in request and a request with a flash to show are rendered for themselves, and a flood of
// distinct queries keeps at most SHARED_PAGES_MAX pages.
import { beforeAll, describe, expect, test } from "bun:test";
import { loginAs, testPanel, type TestPanel } from "../helpers/app";
import { SHARED_PAGES_MAX } from "../../server/render";

let panel: TestPanel;
beforeAll(async () => {
  panel = await testPanel();
});

const page = async (path: string, headers: Record<string, string> = {}) => (await panel.request(path, { headers: { accept: "text/html", ...headers } })).text();

describe("the kept login page", () => {
  test("an attacker's query, language, theme and forwarded headers reach only their own copy", async () => {
    const clean = await page("/auth/login");
    const marker = "kiln-attack-marker";
    await page(`/auth/login?reason=${marker}&x=%3Cscript%3E${marker}%3C/script%3E`, { "accept-language": "ar", cookie: `kiln_theme=${marker}; kiln_dark=1`, "x-forwarded-host": `${marker}.example`, host: `${marker}.example` });
    await page("/auth/login?reason=expired", { "x-forwarded-for": "203.0.113.9", "x-forwarded-host": `${marker}.example` });
    const again = await page("/auth/login");
    expect(again === clean).toBe(true);
    expect(again.includes(marker)).toBe(false);
  });

  test("a flash and a session are the request's own; the logged-in visitor is sent on", async () => {
    const withFlash = await page("/auth/login", { cookie: "kiln_flash=toast.loggedOut" });
    expect(withFlash.includes("data-server-toast")).toBe(true);
    expect((await page("/auth/login")).includes("data-server-toast")).toBe(false);
    const { token } = await loginAs(panel.db, []);
    const answer = await panel.request("/auth/login", { token, headers: { accept: "text/html" } });
    expect(answer.status).toBe(302);
  });

  test("distinct queries without end are served and keep memory bounded", async () => {
    for (let i = 0; i < SHARED_PAGES_MAX * 3; i++) expect(await page(`/auth/login?n=${i}`)).toContain(`n=${i}`);
    expect(await page("/auth/login")).toContain("<form");
  });
});
