// bench/page-weight: the JavaScript and CSS each page loads in a real browser (raw and gzip),
// counting chunks imported at run time. "interaction" rows add what touching every island loads.
//   bun bench/page-weight.ts   (KILN_BENCH_EXE=dist/kiln: the bundles the executable embeds)
import type { Page } from "playwright-core";
import { startBrowserPanel } from "../test/helpers/browser-panel";
import { closeSharedBrowser } from "../test/helpers/browser";
import { kilnCommand, kilnLabel } from "./lib/kiln";

const BUDGET_NO_ISLAND_GZIP = 5 * 1024;
/** The server page on the console tab, as admin, loads at most 75 KB of gzip JavaScript (an earlier design allowed 85). */
const BUDGET_SERVER_PAGE_GZIP = 75 * 1024;

interface Weight {
  js: number;
  jsGzip: number;
  css: number;
  cssGzip: number;
  files: string[];
}

function track(page: Page): Weight {
  const weight: Weight = { js: 0, jsGzip: 0, css: 0, cssGzip: 0, files: [] };
  page.on("response", async (response) => {
    const type = response.request().resourceType();
    if (type !== "script" && type !== "stylesheet") return;
    const body = await response.body().catch(() => Buffer.alloc(0));
    const gzip = Bun.gzipSync(new Uint8Array(body), { level: 9 }).length;
    if (type === "script") (weight.js += body.length), (weight.jsGzip += gzip);
    else (weight.css += body.length), (weight.cssGzip += gzip);
    weight.files.push(new URL(response.url()).pathname);
  });
  return weight;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

const panel = await startBrowserPanel({ KILN_ADMIN_EMAIL: "admin@example.com", KILN_ADMIN_PASSWORD: "adminpassword" }, undefined, kilnCommand("panel"));
const { browser, base } = panel;
const rows: { page: string; islands: number; weight: Weight }[] = [];

/** A small server on the local node, made through the API as a user would, for the server page rows. */
async function createBenchServer(): Promise<string> {
  const context = await browser.newContext();
  const api = context.request;
  await api.post(`${base}/auth/login`, { data: { email: "admin@example.com", password: "adminpassword" } });
  const template = { display: "Bench", run: { command: "sh -c 'while read l; do echo \"$l\"; done'", stop: "exit" }, supportedEnvironments: [{ type: "standard" }] };
  await api.put(`${base}/api/templates/bench`, { data: template });
  const groups = [{ display: "General", variables: ["loader"], order: 1 }, { if: "loader == 'forge'", display: "Forge", variables: ["build"], order: 2 }];
  await api.put(`${base}/api/templates/bench-groups`, { data: { ...template, data: { loader: { type: "string", value: "" }, build: { type: "string", value: "" } }, groups } });
  const nodes = await (await api.get(`${base}/api/nodes`)).json();
  const created = await api.post(`${base}/api/servers`, { data: { name: "bench", node: nodes[0].id, template: "bench", environment: { type: "standard" } } });
  const { id } = await created.json();
  await api.post(`${base}/proxy/daemon/server/${id}/start`);
  // A file for the files tab's editor row: YAML, so a language pack loads as it would for real.
  await api.put(`${base}/proxy/daemon/server/${id}/file/config.yml`, { multipart: { file: { name: "config.yml", mimeType: "text/yaml", buffer: Buffer.from("settings:\n  motd: bench\n") } } });
  // A task for the tasks tab's row: its Edit Task dialog carries a schedule and a step editor too.
  await api.post(`${base}/proxy/daemon/server/${id}/tasks`, { data: { name: "Weekly restart", cronSchedule: "30 18 ? * 1,3", operations: [{ type: "console", command: "say restarting" }, { type: "restart" }] } });
  await context.close();
  return id;
}

/** A remote node (never online), whose page shows the deployment with its copy buttons. */
async function createBenchNode(): Promise<number> {
  const context = await browser.newContext();
  await context.request.post(`${base}/auth/login`, { data: { email: "admin@example.com", password: "adminpassword" } });
  const node = await (await context.request.post(`${base}/api/nodes`, { data: { name: "bench-east", publicHost: "games.example.com", publicPort: 8081, privateHost: "10.0.0.4", privatePort: 8081, sftpPort: 5657 } })).json();
  await context.close();
  return node.id;
}

async function measure(label: string, path: string, opts: { login?: boolean; interact?: boolean; host?: string; then?: (page: Page) => Promise<void> } = {}) {
  const context = await browser.newContext({ extraHTTPHeaders: opts.host ? { "x-forwarded-host": opts.host } : {} });
  const page = await context.newPage();
  if (opts.login) {
    await page.goto(`${base}/auth/login`);
    await page.fill("input[name=email]", "admin@example.com");
    await page.fill("input[name=password]", "adminpassword");
    await page.click("main button[type=submit]");
    await page.waitForURL(/\/server$/);
  }
  const weight = track(page);
  await page.goto(`${base}${path}`);
  await page.waitForLoadState("networkidle");
  const islands = await page.locator("[data-island]").count();
  if (opts.interact) {
    for (const island of await page.locator("[data-island]").all()) await island.hover();
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(300);
  }
  if (opts.then) {
    await opts.then(page);
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(300);
  }
  rows.push({ page: label, islands, weight });
  await context.close();
}

try {
  await measure("/auth/login", "/auth/login");
  await measure("/auth/login (islands touched)", "/auth/login", { interact: true });
  await measure("/errors/404", "/errors/404");
  await measure("/server (admin)", "/server", { login: true });
  await measure("/account (admin)", "/account", { login: true });
  await measure("/server (admin, islands touched)", "/server", { login: true, interact: true });
  await measure("cloud-IDE warning (no island)", "/auth/login", { host: "demo.app.github.dev" });
  const id = await createBenchServer();
  await measure("/server (admin, one server: the list's live island)", "/server", { login: true });
  await measure("/server/{id} console tab (admin)", `/server/${id}`, { login: true });
  await measure("/server/{id} stats tab (admin)", `/server/${id}?tab=stats`, { login: true });
  await measure("/server/{id} admin tab, editor opened (admin)", `/server/${id}?tab=admin`, { login: true, interact: true });
  await measure("/server/{id} files tab (admin)", `/server/${id}?tab=files`, { login: true });
  await measure("/server/{id} tasks tab (admin)", `/server/${id}?tab=tasks`, { login: true });
  await measure("/template (admin)", "/template", { login: true });
  await measure("/node (admin)", "/node", { login: true });
  const nodeId = await createBenchNode();
  await measure("/node/{id} deployment, three copy buttons (admin)", `/node/${nodeId}`, { login: true });
  await measure("/node/{id} deployment, copy buttons touched (admin)", `/node/${nodeId}`, { login: true, interact: true });
  await measure("/template/{id}, the template editor (admin)", "/template/bench", { login: true });
  // Add server: a template without groups has no island; groups with an `if` bring their live island (CEL included).
  await measure("/addserver, a template without groups (admin)", "/addserver?template=bench", { login: true });
  await measure("/addserver, groups with if: their live island (admin)", "/addserver?template=bench-groups", { login: true });
  // Opening a file: the overlays' chunk, CodeMirror and the YAML pack load now, not with the page.
  await measure("/server/{id} files tab, file opened in the editor (admin)", `/server/${id}?tab=files`, {
    login: true,
    then: async (page) => {
      await page.waitForSelector('[data-island="FileManager"][data-hydrated="done"]');
      await page.click('.files-row[data-name="config.yml"] a.files-name');
      await page.waitForSelector('[data-testid="files-editor"] .cm-editor .tok-propertyName', { timeout: 15_000 });
    },
  });
} finally {
  await panel.stop();
  await closeSharedBrowser();
}

console.log(`${kilnLabel()}\n`);
console.log("| page | islands | JS raw | JS gzip | CSS raw | CSS gzip |");
console.log("|---|---|---|---|---|---|");
for (const { page, islands, weight: w } of rows) {
  console.log(`| ${page} | ${islands} | ${kb(w.js)} | ${kb(w.jsGzip)} | ${kb(w.css)} | ${kb(w.cssGzip)} |`);
}
const noIsland = rows.filter((r) => r.islands === 0);
const over = noIsland.filter((r) => r.weight.jsGzip > BUDGET_NO_ISLAND_GZIP);
const consoleTab = rows.find((r) => r.page.startsWith("/server/{id} console"))!;
const filesTab = rows.find((r) => r.page === "/server/{id} files tab (admin)")!;
const tasksTab = rows.find((r) => r.page === "/server/{id} tasks tab (admin)")!;
const editorOpened = rows.find((r) => r.page.startsWith("/server/{id} files tab, file opened"))!;
const editorFiles = editorOpened.weight.files.filter((f) => f.endsWith(".js") && !filesTab.weight.files.includes(f));
console.log(`\neditor chunk, loaded on open (overlays, CodeMirror, the YAML pack; not part of the files tab's load): ${kb(editorOpened.weight.jsGzip - filesTab.weight.jsGzip)} gzip (${kb(editorOpened.weight.js - filesTab.weight.js)} raw) in ${editorFiles.length} files`);
console.log(`\nbudget: the server page on the console tab loads at most ${kb(BUDGET_SERVER_PAGE_GZIP)} of gzip JavaScript: ${consoleTab.weight.jsGzip <= BUDGET_SERVER_PAGE_GZIP ? "met" : "EXCEEDED"} (${kb(consoleTab.weight.jsGzip)})`);
console.log(`budget: the server page on the files tab, as admin, loads at most ${kb(BUDGET_SERVER_PAGE_GZIP)} of gzip JavaScript: ${filesTab.weight.jsGzip <= BUDGET_SERVER_PAGE_GZIP ? "met" : "EXCEEDED"} (${kb(filesTab.weight.jsGzip)})`);
console.log(`budget: the server page on the tasks tab, as admin, loads at most ${kb(BUDGET_SERVER_PAGE_GZIP)} of gzip JavaScript: ${tasksTab.weight.jsGzip <= BUDGET_SERVER_PAGE_GZIP ? "met" : "EXCEEDED"} (${kb(tasksTab.weight.jsGzip)})`);
console.log(`budget: a page with no island loads at most ${kb(BUDGET_NO_ISLAND_GZIP)} of gzip JavaScript: ${over.length === 0 ? "met" : `EXCEEDED by ${over.map((r) => r.page).join(", ")}`}`);
