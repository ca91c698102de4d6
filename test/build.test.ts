// npm run build makes one executable that runs every subcommand from any working directory.
import { expect, test } from "bun:test";
import ja from "../locales/ja.json";
import { join } from "node:path";
import { chmodSync, copyFileSync, existsSync, readFileSync } from "node:fs";
import { nodeCaller } from "./helpers/node-caller";
import { ROOT, tempDir, startKiln, freePort } from "./helpers/process";

/**
 * A copy of the executable npm test built for every test (KILN_TEST_EXE), else one built here by
 * build.ts. A copy of its own: pages of a file that other tests' processes map at the same time
 * are not given back by one process (MADV_PAGEOUT skips shared pages), which the start-pages check
 * below measures.
 */
function executable(): string {
  const out = join(tempDir("kiln-build-"), "kiln");
  if (process.env.KILN_TEST_EXE) {
    copyFileSync(process.env.KILN_TEST_EXE, out);
    chmodSync(out, 0o755);
    return out;
  }
  const build = Bun.spawnSync([process.execPath, join(ROOT, "build.ts"), "--outfile", out], { cwd: ROOT });
  expect(build.exitCode).toBe(0);
  return out;
}

test("the compiled executable serves the panel with embedded bundles, themes and migrations", async () => {
  const out = executable();
  expect(existsSync(out)).toBe(true);

  const elsewhere = tempDir("kiln-run-");
  const version = Bun.spawnSync([out, "version"], { cwd: elsewhere });
  expect(version.stdout.toString()).toMatch(/^kiln \d/);
  const add = Bun.spawnSync([out, "user", "add", "--email", "c@example.com", "--username", "compiled", "--password", "password123"], { cwd: elsewhere, env: { KILN_DATA: "d" } });
  expect(add.exitCode).toBe(0);
  const addAdmin = Bun.spawnSync([out, "user", "add", "--email", "a@example.com", "--username", "compiledadmin", "--password", "password123", "--admin"], { cwd: elsewhere, env: { KILN_DATA: "d" } });
  expect(addAdmin.exitCode).toBe(0);

  const port = await freePort();
  const kiln = await startKiln([out, "panel"], { KILN_DATA: "d", KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0" }, /local node listening on/, elsewhere);
  try {
    const html = await (await fetch(`http://127.0.0.1:${port}/auth/login`)).text();
    const client = /src="(\/assets\/client-[a-z0-9]+\.js)"/.exec(html)?.[1];
    const css = /href="(\/assets\/kiln-[a-z0-9]+\.css)"/.exec(html)?.[1];
    expect(client).toBeDefined();
    expect((await fetch(`http://127.0.0.1:${port}${client}`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}${css}`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/theme/forest.tar`)).status).toBe(200);
    // The translations are embedded too, read on first use: a Japanese page and an Arabic one.
    const japanese = await (await fetch(`http://127.0.0.1:${port}/auth/login`, { headers: { cookie: "kiln_locale=ja_JP" } })).text();
    expect(japanese).toContain(`>${ja["auth.login.submit"]}<`);
    expect(await (await fetch(`http://127.0.0.1:${port}/auth/login`, { headers: { cookie: "kiln_locale=ar_SA" } })).text()).toContain('lang="ar-SA" dir="rtl"');
    const login = await fetch(`http://127.0.0.1:${port}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "c@example.com", password: "password123" }) });
    expect(login.status).toBe(200);
    expect(existsSync(join(elsewhere, "d", "kiln.db"))).toBe(true);

    // It offers itself to new nodes: the local node's deployment download is this very file.
    const admin = await fetch(`http://127.0.0.1:${port}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "a@example.com", password: "password123" }) });
    const cookie = admin.headers.get("set-cookie")!.split(";")[0]!;
    const [local] = await (await fetch(`http://127.0.0.1:${port}/api/nodes`, { headers: { cookie } })).json();
    const served = await fetch(`http://127.0.0.1:${port}/api/nodes/${local.id}/kiln`, { headers: { cookie } });
    expect(served.status).toBe(200);
    expect(Bun.hash(await served.arrayBuffer())).toBe(Bun.hash(await Bun.file(out).arrayBuffer()));
  } finally {
    kiln.proc.kill();
  }

  // A started node gives back the pages of the executable that only its start needed, to idle in
  // less memory (server/cli/start-pages.ts), then answers as before: what it needs is read back in.
  const nodePort = await freePort();
  const secret = "s".repeat(32);
  const node = await startKiln(
    [out, "daemon"],
    { KILN_DAEMON_SECRET: secret, KILN_DAEMON_HOST: "127.0.0.1", KILN_DAEMON_PORT: String(nodePort), KILN_DAEMON_SFTP_PORT: "0", KILN_DAEMON_DATA: "node" },
    /node listening on/,
    elsewhere,
  );
  try {
    const fileBacked = () => Number(/RssFile:\s+(\d+)/.exec(readFileSync(`/proc/${node.proc.pid}/status`, "utf8"))![1]) * 1024;
    const started = fileBacked();
    const deadline = Date.now() + 10_000;
    while (fileBacked() > started - 10 * 1024 * 1024 && Date.now() < deadline) await Bun.sleep(100);
    expect(fileBacked()).toBeLessThan(started - 10 * 1024 * 1024);
    expect((await nodeCaller(`http://127.0.0.1:${nodePort}`, secret).call("GET", "/daemon")).status).toBe(200);
  } finally {
    node.proc.kill();
  }
}, 120_000);
