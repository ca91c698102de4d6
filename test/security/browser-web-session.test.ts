// Web-session attacks in a real Chromium against a real panel process:
// a link on another site (another origin, another site: 127.0.0.1 against the panel's
// localhost) that the victim follows while holding PufferPanel's puffer_auth cookie (SameSite
// Lax, as a cookie set by script without the attribute is: sent with top-level GET navigations
// from anywhere) must not make the panel extract an archive; and a failed start step's reason
// reaches the server page's toast.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { hasChromium } from "../helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile, createEchoServer, logInAsAdmin } from "../helpers/browser-panel";
import { echoTemplate } from "../helpers/node";
import { shoot, shotContext, SHOT_VARIANTS } from "../helpers/screenshots";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

/** The other site: one page whose link and image point wherever the test says. */
let attacker: ReturnType<typeof Bun.serve> | undefined;
let attackerPage = "";
beforeAll(() => {
  attacker = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(attackerPage, { headers: { "content-type": "text/html" } }) });
});
afterAll(() => attacker?.stop(true));

async function listing(page: Page, id: string, folder: string): Promise<string[]> {
  const answer = await page.request.get(`${base}/proxy/daemon/server/${id}/file/${folder}`);
  expect(answer.status()).toBe(200);
  return ((await answer.json()).files as { name: string }[]).map((f) => f.name);
}

describe.if(enabled)("a link on another site, followed with the session in PufferPanel's cookie", () => {
  let id = "";
  let session = "";

  test("neither an image nor a followed link extracts", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await logInAsAdmin(page, base);
    id = await createEchoServer(page, base, "Cross-site");
    expect((await page.request.post(`${base}/proxy/daemon/server/${id}/archive/pack.zip`, { data: ["motd.txt"] })).status()).toBe(200);
    // The archive's file goes, so the extract that is allowed below has something to bring back.
    expect((await page.request.delete(`${base}/proxy/daemon/server/${id}/file/motd.txt`)).status()).toBeLessThan(300);
    for (const folder of ["by-image", "by-link"]) expect((await page.request.put(`${base}/proxy/daemon/server/${id}/file/${folder}?folder=true`)).status()).toBeLessThan(300);
    // PufferPanel's client keeps the session in puffer_auth; Kiln's own cookie is SameSite Strict
    // and would not travel with a link from another site, so it goes to leave puffer_auth alone.
    session = (await context.cookies(base)).find((c) => c.name === "kiln")!.value;
    await context.clearCookies();
    await context.addCookies([{ name: "puffer_auth", value: session, url: base, sameSite: "Lax" }]);

    const extract = (folder: string) => `${base}/proxy/daemon/server/${id}/extract/pack.zip?destination=${folder}`;
    attackerPage = `<!doctype html><p>Free diamonds!</p><img src="${extract("by-image")}"><a id="go" href="${extract("by-link")}">claim</a>`;
    const attackerUrl = `http://127.0.0.1:${attacker!.port}/`;
    await page.goto(attackerUrl);
    await page.waitForLoadState("networkidle");
    const [answer] = await Promise.all([page.waitForResponse((r) => r.url().startsWith(extract("by-link"))), page.click("#go")]);
    expect(answer.status()).toBe(403);
    expect(await answer.text()).toContain("ErrNoPermission");
    // The cookie did travel (the panel knew who it was: the refusal is the same-origin rule's).
    expect(answer.request().headers()["cookie"] ?? (await answer.request().allHeaders())["cookie"]).toContain("puffer_auth=");
    expect(await listing(page, id, "by-image")).toEqual([]);
    expect(await listing(page, id, "by-link")).toEqual([]);
    await context.close();
  }, 90_000);

  test("the panel's own file manager (a same-origin fetch from its page, the same cookie) still extracts", async () => {
    const context = await browser.newContext();
    await context.addCookies([{ name: "puffer_auth", value: session, url: base, sameSite: "Lax" }]);
    const page = await context.newPage();
    await page.goto(`${base}/server/${id}?tab=files`);
    await page.waitForSelector('[data-island="FileManager"][data-hydrated="done"]');
    // Extract asks where first (and previews what it would replace, a same-origin GET too), then extracts.
    await page.click('.files-row[data-name="pack.zip"] [data-action="extract"]');
    await page.waitForSelector('[data-testid="files-extract-dialog"] [data-confirm-extract]');
    await page.click("[data-confirm-extract]");
    await page.waitForSelector('.files-row[data-name="motd.txt"]', { timeout: 20_000 });
    expect(await page.locator(".toast-error").count()).toBe(0);
    await context.close();
  }, 60_000);
});

describe.if(enabled)("a failed step's reason reaches the server page's toast", () => {
  let id = "";
  async function failingServer(context: BrowserContext): Promise<string> {
    const api = context.request;
    expect((await api.put(`${base}/api/templates/failing-start`, { data: { ...echoTemplate({ pre: [{ type: "command", commands: "sh -c 'exit 4'" }] }), name: "failing-start" } })).status()).toBe(200);
    const nodes = await (await api.get(`${base}/api/nodes`)).json();
    const created = await api.post(`${base}/api/servers`, { data: { name: "Start fails", node: nodes[0].id, template: "failing-start", environment: { type: "standard" } } });
    expect(created.status()).toBe(201);
    return (await created.json()).id;
  }

  for (const variant of SHOT_VARIANTS) {
    test(`Start: the toast names the step and its reason (${variant.suffix})`, async () => {
      const context = await shotContext(browser, base, variant.viewport, variant.locale, BROWSER_ADMIN);
      id ||= await failingServer(context);
      const page = await context.newPage();
      await page.goto(`${base}/server/${id}`);
      await page.waitForSelector('[data-island="ServerControls"][data-hydrated="done"]');
      await page.waitForSelector('.server-controls [data-action="start"]:not([disabled])', { timeout: 20_000 });
      await page.click('.server-controls [data-action="start"]');
      const toast = page.locator(".toast-error");
      await toast.first().waitFor({ timeout: 20_000 });
      const text = (await toast.first().textContent()) ?? "";
      // The reason is the node's own words (English in every locale); the sentence around it is translated.
      expect(text).toContain("command");
      expect(text).toMatch(/exit|status|4/);
      if (!variant.locale) expect(text).toContain("step failed");
      await shoot(page, `step-failed-toast-${variant.suffix}`);
      await context.close();
    }, 60_000);
  }
});
