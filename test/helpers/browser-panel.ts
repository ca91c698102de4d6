// A real panel process plus headless Chromium, for the browser tests (and bench/page-weight).
import { afterAll, beforeAll, expect } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { fileBrowser, steadyStaticFiles } from "./browser";
import { KILN, startKiln, tempDir, freePort } from "./process";
import { echoTemplate } from "./node";

export interface BrowserPanel {
  browser: Browser;
  /** "localhost" rather than 127.0.0.1: WebAuthn needs a domain, and localhost is a secure context. */
  base: string;
  stop(): Promise<void>;
}

/** `command` starts the panel: the checkout by default (benchmarks may pass the built executable). */
export async function startBrowserPanel(env: Record<string, string> = {}, data = tempDir(), command = [...KILN, "panel"]): Promise<BrowserPanel> {
  const port = await freePort();
  const kiln = await startKiln(command, { KILN_DATA: data, KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0", ...env }, /listening on/);
  // The process's Chromium, with contexts of this panel's own (stop() closes them).
  const browser = await fileBrowser();
  return {
    browser,
    base: `http://localhost:${port}`,
    async stop() {
      await browser.close();
      kiln.proc.kill();
    },
  };
}

/** The first administrator of the browser tests' panels. */
export const BROWSER_ADMIN = { email: "admin@example.com", password: "adminpassword" };

/** A browser panel whose first administrator is BROWSER_ADMIN. */
export function startAdminBrowserPanel(env: Record<string, string> = {}): Promise<BrowserPanel> {
  return startBrowserPanel({ KILN_ADMIN_EMAIL: BROWSER_ADMIN.email, KILN_ADMIN_PASSWORD: BROWSER_ADMIN.password, ...env });
}

/** Logs in as BROWSER_ADMIN through the login form and waits for the server list. */
export async function logInAsAdmin(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/auth/login`);
  await page.fill("input[name=email]", BROWSER_ADMIN.email);
  await page.fill("input[name=password]", BROWSER_ADMIN.password);
  await page.click("main form button[type=submit]");
  await page.waitForURL(`${base}/server`);
}

/**
 * For a browser test file: starts a panel before its tests (when Chromium is there, else
 * nothing) and hands it to `use`; stops it after them.
 */
export function browserPanelForFile(enabled: boolean, use: (panel: BrowserPanel) => void, start: () => Promise<BrowserPanel> = () => startAdminBrowserPanel()): void {
  let panel: BrowserPanel | undefined;
  // Starting a panel (bundles built at start-up) and Chromium can pass bun's 5 s hook limit on a busy machine.
  beforeAll(async () => {
    if (!enabled) return;
    panel = await start();
    steadyStaticFiles(panel.browser);
    use(panel);
  }, 60_000);
  afterAll(async () => {
    await panel?.stop();
  });
}

/** A server from the echo template on the first node, made through the API with the page's session; `more` is added to what creates it (its limits, say). */
export async function createEchoServer(page: Page, base: string, name: string, more: Record<string, unknown> = {}): Promise<string> {
  expect((await page.request.put(`${base}/api/templates/echo`, { data: echoTemplate() })).status()).toBe(200);
  const nodes = await (await page.request.get(`${base}/api/nodes`)).json();
  const created = await page.request.post(`${base}/api/servers`, { data: { name, node: nodes[0].id, template: "echo", environment: { type: "standard" }, ...more } });
  expect(created.status()).toBe(201);
  const id = (await created.json()).id as string;
  // Creation starts the install without waiting for it; the pages are opened once it has written
  // motd.txt, so what they list does not depend on how fast the node installs.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const listing = await page.request.get(`${base}/proxy/daemon/server/${id}/file/`);
    if (listing.ok() && ((await listing.json()).files as Array<{ name: string }>).some((f) => f.name === "motd.txt")) break;
    if (Date.now() > deadline) throw new Error(`the install of server ${id} did not write motd.txt within 20 s`);
    await Bun.sleep(100);
  }
  return id;
}
