// A real panel process plus headless Chromium, for the browser tests (and bench/page-weight).
import type { Browser } from "playwright-core";
import { launchBrowser } from "./browser";
import { KILN, startKiln, tempDir, freePort } from "./process";

export interface BrowserPanel {
  browser: Browser;
  /** "localhost" rather than 127.0.0.1: WebAuthn needs a domain, and localhost is a secure context. */
  base: string;
  stop(): Promise<void>;
}

export async function startBrowserPanel(env: Record<string, string> = {}, data = tempDir()): Promise<BrowserPanel> {
  const port = await freePort();
  const kiln = await startKiln([...KILN, "panel"], { KILN_DATA: data, KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0", ...env }, /listening on/);
  const browser = await launchBrowser();
  return {
    browser,
    base: `http://localhost:${port}`,
    async stop() {
      await browser.close();
      kiln.proc.kill();
    },
  };
}
