// Screenshots of the pages a translation shows most, for a translator (docs/translations.md) to
// look at their language in place: `bun scripts/locale-screenshots.ts ja_JP ar_SA` writes
// <locale>-<page>-<width>.png into $SHOTS (default /tmp/kiln-shots) for the server's console,
// its file manager and the template editor, at a laptop's and a phone's width.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { startAdminBrowserPanel, logInAsAdmin } from "../test/helpers/browser-panel";
import { echoTemplate } from "../test/helpers/node";
import { isLocale } from "../core/i18n/locales";

const locales = process.argv.slice(2);
if (locales.length === 0 || !locales.every(isLocale)) throw new Error("name offered locales: ja_JP ar_SA …");
const out = process.env.SHOTS ?? "/tmp/kiln-shots";
mkdirSync(out, { recursive: true });

const panel = await startAdminBrowserPanel();
try {
  const setup = await panel.browser.newPage();
  await logInAsAdmin(setup, panel.base);
  const api = setup.request;
  await api.put(`${panel.base}/api/templates/echo`, { data: echoTemplate() });
  const nodes = await (await api.get(`${panel.base}/api/nodes`)).json();
  const { id } = await (await api.post(`${panel.base}/api/servers`, { data: { name: "Survival 1.21", node: nodes[0].id, template: "echo", environment: { type: "standard" } } })).json();
  await api.post(`${panel.base}/proxy/daemon/server/${id}/start?wait=true`);
  await api.post(`${panel.base}/proxy/daemon/server/${id}/console`, { data: "say hello" });
  await api.put(`${panel.base}/proxy/daemon/server/${id}/file/plugins/config.yml`, { data: "motd: hello\n" });
  await api.put(`${panel.base}/proxy/daemon/server/${id}/file/server.properties`, { data: "max-players=20\n" });
  const cookies = await setup.context().cookies();
  const pages = { console: `/server/${id}`, files: `/server/${id}?tab=files`, template: "/template/echo" };
  for (const locale of locales) {
    for (const [width, height] of [[1366, 900], [390, 844]] as const) {
      const context = await panel.browser.newContext({ viewport: { width, height } });
      await context.addCookies([...cookies, { name: "kiln_locale", value: locale, url: panel.base }]);
      const page = await context.newPage();
      for (const [name, path] of Object.entries(pages)) {
        await page.goto(`${panel.base}${path}`);
        await page.waitForLoadState("networkidle").catch(() => undefined);
        await page.waitForTimeout(600);
        await page.screenshot({ path: join(out, `${locale}-${name}-${width}.png`), fullPage: width < 500 ? false : true });
      }
      await context.close();
    }
  }
  console.log(`screenshots in ${out}`);
} finally {
  await panel.stop();
}
