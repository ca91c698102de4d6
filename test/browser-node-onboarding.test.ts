// A node's deployment section in Chromium: the one-line install says it installs and starts the
// systemd service and how large the download is, the download button carries the size, and the
// page stays within the screen at laptop and phone widths and right to left. Screenshots with
// KILN_SHOTS.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile, startAdminBrowserPanel } from "./helpers/browser-panel";
import { tempDir } from "./helpers/process";
import { SHOT_VARIANTS, shotContext } from "./helpers/screenshots";
import { sidewaysOverflow } from "./helpers/browser";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(
  enabled,
  (panel) => ({ browser, base } = panel),
  () => {
    // An executable of 3 MiB for the page to offer (the panel's own would be the checkout's, unbuilt).
    const executable = join(tempDir("kiln-exe-"), "kiln");
    writeFileSync(executable, new Uint8Array(3 * 1024 * 1024));
    return startAdminBrowserPanel({ KILN_NODE_EXECUTABLE: executable });
  },
);

describe.if(enabled)("a node's deployment section", () => {
  test("says what the one-line install does and how large the download is, within the screen", async () => {
    let nodeId = 0;
    for (const { suffix, viewport, locale } of SHOT_VARIANTS) {
      const context = await shotContext(browser, base, viewport, locale, BROWSER_ADMIN);
      const page = await context.newPage();
      if (!nodeId) {
        const created = await page.request.post(`${base}/api/nodes`, { data: { name: "east-1", publicHost: "games.example.com", publicPort: 8081, privateHost: "10.0.0.4", privatePort: 8081, sftpPort: 5657 } });
        expect(created.status()).toBeLessThan(300);
        nodeId = (await created.json()).id;
      }
      await page.goto(`${base}/node/${nodeId}#deployment`);
      const install = page.locator('[data-testid="deployment-install"]');
      expect(await install.textContent()).toEndWith("systemctl enable kiln && systemctl restart kiln");
      if (!locale) {
        expect(await page.textContent('[data-testid="download-size"]')).toBe("The download is 3 MiB.");
        expect(await page.textContent('[data-testid="download-kiln"]')).toBe("Download kiln (3 MiB)");
        expect(await page.textContent(".node-install")).toContain("installs the systemd service /etc/systemd/system/kiln.service and starts it");
      }
      expect(await sidewaysOverflow(page)).toEqual([]);
      if (process.env.KILN_SHOTS) await page.locator('[data-testid="deployment"]').screenshot({ path: join(process.env.KILN_SHOTS, `node-deployment-${suffix}.png`) });
      await context.close();
    }
  }, 90_000);
});
