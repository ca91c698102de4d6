// The Activity page, a server's Activity tab, the account's logins and the Webhooks pages in a real
// browser (Chromium) against a real `kiln panel`: a console command typed and a file written are on
// the log, filtering by event narrows it, a webhook added through the form (to a local receiver:
// an administrator allows an internal address) gets its test delivery, and the delivery log shows
// it. Without script too. Screenshots (KILN_SHOTS) at 1280 and 390 px and in Arabic.
import { afterAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile, createEchoServer, logInAsAdmin } from "./helpers/browser-panel";
import { SHOT_VARIANTS, shoot, shotContext } from "./helpers/screenshots";
import { startReceiver, signatureValid } from "./helpers/webhook-receiver";
import { eventually } from "./helpers/node";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));
const receiver = startReceiver();
afterAll(() => receiver.stop());

describe.skipIf(!enabled)("activity and webhooks in the browser", () => {
  let id: string;

  test("what a user does is on the Activity page and the server's tab; a filter narrows it", async () => {
    const page = await browser.newPage();
    await logInAsAdmin(page, base);
    id = await createEchoServer(page, base, "watched");
    expect((await page.request.put(`${base}/proxy/daemon/server/${id}/file/notes.txt`, { multipart: { file: { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("plans") } } })).status()).toBeLessThan(300);
    await page.goto(`${base}/activity`);
    await page.locator('[data-event="server.file.write"]').first().waitFor();
    await page.locator('[data-event="server.created"]').first().waitFor();
    await page.fill("input[name=event]", "server.file.*");
    await page.click('[data-testid="activity-filter"] button[type=submit]');
    await page.waitForURL(/event=server.file/);
    expect(await page.locator('[data-testid="activity-list"] tbody tr').count()).toBe(await page.locator('[data-event^="server.file."]').count());
    await page.goto(`${base}/server/${id}?tab=activity`);
    expect(await page.locator('[data-testid="server-activity"]').textContent()).toContain("notes.txt");
    await page.goto(`${base}/account`);
    expect(await page.locator('[data-testid="account-logins"]').textContent()).toContain("user.login");
    await page.close();
  });

  test("a webhook added through the form gets its test; its delivery log says so", async () => {
    const page = await browser.newPage();
    await logInAsAdmin(page, base);
    await page.goto(`${base}/webhooks`);
    await page.fill('[data-testid="webhook-form"] input[name=url]', receiver.url);
    await page.fill('[data-testid="webhook-form"] input[name=events]', "server.*, backup.failed");
    await page.check('[data-testid="webhook-form"] input[name=allowInternal]');
    await page.click('[data-testid="webhook-form"] button[type=submit]');
    const secret = (await page.locator('[data-testid="webhook-secret"]').textContent())!;
    expect(secret.length).toBeGreaterThanOrEqual(16);
    await page.click('[data-testid="webhooks-list"] form[action$="/test"] button');
    await eventually(() => receiver.received.some((r) => r.headers["kiln-event"] === "webhook.test"), 10_000, "the test delivery");
    expect(signatureValid(secret, receiver.received.find((r) => r.headers["kiln-event"] === "webhook.test")!)).toBe(true);
    await page.click('[data-testid="webhooks-list"] td a');
    // The log is a page rendered when asked: it says delivered once the receiver's answer is recorded.
    await eventually(async () => (await page.reload(), (await page.locator('[data-testid="deliveries-list"] [data-state="delivered"]').count()) > 0), 10_000, "the log to say delivered");
    await page.close();
  });

  test("the pages work without script: the filter is a plain GET form", async () => {
    const context = await shotContext(browser, base, { width: 1280, height: 800 }, null, BROWSER_ADMIN, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/activity?event=server.file.write`);
    await page.locator('[data-event="server.file.write"]').first().waitFor();
    expect(await page.locator('[data-event="server.created"]').count()).toBe(0);
    await context.close();
  });

  test("screenshots: the Activity page, the server's tab, the Webhooks page and a delivery log", async () => {
    for (const variant of SHOT_VARIANTS) {
      const context = await shotContext(browser, base, variant.viewport, variant.locale, BROWSER_ADMIN);
      const page = await context.newPage();
      await page.goto(`${base}/activity`);
      await shoot(page, `activity-${variant.suffix}`);
      await page.goto(`${base}/server/${id}?tab=activity`);
      await shoot(page, `server-activity-${variant.suffix}`);
      await page.goto(`${base}/webhooks`);
      await shoot(page, `webhooks-${variant.suffix}`);
      await page.click('[data-testid="webhooks-list"] td a');
      await shoot(page, `webhook-deliveries-${variant.suffix}`);
      await context.close();
    }
  });
});
