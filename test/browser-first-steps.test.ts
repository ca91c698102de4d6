// First steps in Chromium against a real panel and its local node, at
// 1366 and 390 px: the empty server list offers the first server to an administrator and tells a
// self-registered user (there and on Account, where they land) that an administrator must give access; the node list shows each node's
// version, OS, last contact and server count (cards on a phone); a node added through the form
// opens on its deployment, whose one-line install is copied by its button and, run by a real
// shell, fetches the executable and the config from the panel and installs and starts its service.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import pkg from "../package.json";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile, startAdminBrowserPanel } from "./helpers/browser-panel";
import { tempDir } from "./helpers/process";

const enabled = hasChromium();
let browser: Browser;
let base: string;
// The panel runs from the sources (no build): it offers this stand-in as the kiln executable.
const standIn = join(tempDir("kiln-standin-"), "kiln");
writeFileSync(standIn, '#!/bin/sh\necho "kiln stand-in: $*"\n');
chmodSync(standIn, 0o755);
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel), () => startAdminBrowserPanel({ KILN_NODE_EXECUTABLE: standIn }));

const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
];

async function session(viewport: { width: number; height: number }, login: { email: string; password: string } = BROWSER_ADMIN): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, permissions: ["clipboard-read", "clipboard-write"] });
  expect((await context.request.post(`${base}/auth/login`, { data: login })).status()).toBe(200);
  return { context, page: await context.newPage() };
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe.if(enabled)("first steps", () => {
  for (const viewport of VIEWPORTS) {
    test(`at ${viewport.width} px an administrator's empty server list offers the first server`, async () => {
      const { context, page } = await session(viewport);
      await page.goto(`${base}/server`);
      const empty = page.locator('[data-testid="servers-empty"]');
      expect(await empty.textContent()).toContain("No servers yet.");
      const add = empty.getByRole("link", { name: "Add your first server" });
      expect(await add.isVisible()).toBe(true);
      expect(await pageWidth(page)).toBeLessThanOrEqual(viewport.width);
      await add.click();
      await page.waitForURL(`${base}/addserver`);
      await context.close();
    });
  }

  test("a self-registered user learns on Account and on the server list that their address must be confirmed before anyone can add them (390 px)", async () => {
    const admin = await session(VIEWPORTS[0]!);
    expect((await admin.context.request.put(`${base}/api/settings/panel.registrationEnabled`, { data: { value: "true" } })).status()).toBe(204);
    await admin.context.close();
    const context = await browser.newContext({ viewport: VIEWPORTS[1] });
    const page = await context.newPage();
    await page.goto(`${base}/auth/register`);
    await page.fill("input[name=username]", "newcomer");
    await page.fill("input[name=email]", "newcomer@example.com");
    await page.fill("input[name=password]", "newcomer-password");
    await page.fill("input[name=passwordConfirm]", "newcomer-password");
    await page.click("main form button[type=submit]");
    // Holding nothing, they land on Account, which says why the panel is empty: a self-registered
    // address is not confirmed yet, and nobody can add them by it until it is (docs/accounts.md).
    await page.waitForURL(`${base}/account`);
    expect(await page.locator('[data-testid="no-access-notice"]').textContent()).toContain("Your email address (newcomer@example.com) is not confirmed yet");
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await page.goto(`${base}/server`);
    expect(await page.locator('[data-testid="no-access-notice"]').count()).toBe(0);
    const empty = page.locator('[data-testid="servers-empty"]');
    expect(await empty.textContent()).toContain("You have no servers yet.");
    expect(await empty.textContent()).toContain("nobody can add you to a server by an unconfirmed address");
    expect(await page.locator('a[href="/addserver"]').count()).toBe(0);
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await context.close();
  });

  for (const viewport of VIEWPORTS) {
    test(`at ${viewport.width} px the node list shows version, OS, last contact and server count; the local node is 'In the panel'`, async () => {
      const { context, page } = await session(viewport);
      await page.goto(`${base}/node`);
      const local = page.locator('tr[data-node="local"]');
      const cell = (name: string) => local.locator(`td[data-cell="${name}"]`);
      expect((await cell("address").textContent())!).toContain("In the panel");
      expect((await cell("address").textContent())!).not.toMatch(/:\d{4,5}\b/);
      expect(await cell("version").textContent()).toBe(pkg.version);
      expect(await cell("os").textContent()).toBe(`${process.platform} ${process.arch}`);
      expect(await cell("last-contact").locator("time").getAttribute("datetime")).toMatch(/^\d{4}-/);
      expect(await cell("servers").textContent()).toMatch(/^\d+$/);
      expect(await cell("status").textContent()).toBe("Online");
      if (viewport.width < 640) {
        // A card: headings hidden, each cell labelled, nothing wider than the screen.
        expect(await page.locator("table.nodes-list thead").isVisible()).toBe(false);
        expect(await cell("version").evaluate((el) => getComputedStyle(el, "::before").content)).toBe('"Version"');
      }
      expect(await pageWidth(page)).toBeLessThanOrEqual(viewport.width);
      await context.close();
    });
  }

  test("a node added through the form opens on its deployment; the copied one-line install fetches kiln and the config and starts its service", async () => {
    const { context, page } = await session(VIEWPORTS[0]!);
    await page.goto(`${base}/addnode`);
    await page.fill("input[name=name]", "east-1");
    await page.fill("input[name=publicHost]", "games.example.com");
    await page.fill("input[name=privateHost]", "10.0.0.4");
    await page.click("main form button[type=submit]");
    await page.waitForURL(/\/node\/\d+#deployment$/);
    expect(await page.locator('[data-testid="master-url-warning"]').textContent()).toContain(`at the address this browser used (${base})`);

    const install = (await page.locator('[data-testid="deployment-install"]').textContent())!;
    const copy = page.locator('.node-install button[aria-label="Copy install command"]');
    await copy.click();
    expect(await page.locator(".node-install .copy-chip").textContent()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(install);

    // A real shell runs it, with the machine's folders moved under a temporary root and a
    // systemctl that notes what it is asked.
    const root = tempDir("kiln-machine-");
    mkdirSync(join(root, "bin"));
    mkdirSync(join(root, "fake"));
    writeFileSync(join(root, "fake", "systemctl"), `#!/bin/sh\necho "$*" >> ${root}/systemctl-calls\n`, { mode: 0o755 });
    const line = install.replaceAll("'/usr/local/bin/", `'${root}/bin/`).replaceAll("'/etc/kiln", `'${root}/etc/kiln`).replaceAll("'/etc/systemd/system", `'${root}/etc/systemd/system`);
    const run = Bun.spawnSync(["sh", "-c", line], { env: { PATH: `${root}/fake:${process.env.PATH}` } });
    expect(run.stderr.toString()).toBe("");
    expect(run.stdout.toString()).toBe("");
    expect(readFileSync(join(root, "systemctl-calls"), "utf8")).toBe("daemon-reload\nenable kiln\nrestart kiln\n");
    expect(readFileSync(join(root, "etc", "systemd", "system", "kiln.service"), "utf8")).toContain("ExecStart=/usr/local/bin/kiln daemon\n");
    expect(readFileSync(join(root, "bin", "kiln"), "utf8")).toBe(readFileSync(standIn, "utf8"));
    const configFile = join(root, "etc", "kiln", "daemon.json");
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    const id = /\/node\/(\d+)#/.exec(page.url())![1];
    const deployment = await (await context.request.get(`${base}/api/nodes/${id}/deployment`)).json();
    expect(JSON.parse(readFileSync(configFile, "utf8"))).toEqual(deployment.config);
    expect(deployment.config.panelUrl).toBe(base);
    await context.close();
  });

  test("without script the deployment is all there to copy by hand, and Download kiln downloads it", async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS[0], javaScriptEnabled: false, acceptDownloads: true });
    expect((await context.request.post(`${base}/auth/login`, { data: BROWSER_ADMIN })).status()).toBe(200);
    const page = await context.newPage();
    const nodes = await (await context.request.get(`${base}/api/nodes`)).json();
    const remote = nodes.find((n: { isLocal: boolean }) => !n.isLocal);
    await page.goto(`${base}/node/${remote.id}`);
    expect(await page.locator('[data-testid="deployment-install"]').textContent()).toContain(`printf '%s\\n' 'header = "Authorization: Bearer kd1.`);
    expect(await page.locator('[data-testid="deployment-unit"]').textContent()).toContain("ExecStart=/usr/local/bin/kiln daemon");
    // The copy buttons are in the markup, hidden until the shell shows them.
    expect(await page.locator(".copy-block button >> visible=true").count()).toBe(0);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="download-kiln"]')]);
    expect(download.suggestedFilename()).toBe("kiln");
    expect(readFileSync((await download.path())!, "utf8")).toBe(readFileSync(standIn, "utf8"));
    await context.close();
  });

  test("at 390 px the deployment section fits the screen and every copy button sits beside its text", async () => {
    const { context, page } = await session(VIEWPORTS[1]!);
    const nodes = await (await context.request.get(`${base}/api/nodes`)).json();
    const remote = nodes.find((n: { isLocal: boolean }) => !n.isLocal);
    await page.goto(`${base}/node/${remote.id}#deployment`);
    await page.waitForSelector(".copy-block button[data-copy]:not([hidden])");
    expect(await page.locator(".copy-block button").count()).toBe(5);
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    for (const block of await page.locator(".copy-block").all()) {
      const pre = (await block.locator("pre").boundingBox())!;
      const button = (await block.locator("button").boundingBox())!;
      expect(button.x + button.width).toBeLessThanOrEqual(pre.x + pre.width + 1);
      expect(button.y).toBeGreaterThanOrEqual(pre.y);
    }
    await context.close();
  });
});
