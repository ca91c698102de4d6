// Moving an installation between engines: a real `kiln panel` on SQLite is used through its API
// (accounts, roles, a template, a server on its local node, settings, a webhook, an OAuth2 client,
// the activity all that records), stopped, and `kiln db migrate-to postgres://…` copies it; a
// panel on PostgreSQL then serves the same accounts and servers; `migrate-to sqlite:…` brings it
// back, and every table of the round trip reads the same as the original. A copy into a database
// that holds rows is refused and changes nothing; the source is never changed.
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { openDatabase } from "../../db";
import { tableSummary, tablesInOrder } from "../../server/services/database/copy";
import { KILN, freePort, runKiln, startKiln, tempDir } from "../helpers/process";
import { echoTemplate } from "../helpers/node";
import { freshPostgresDatabase, hasPostgres } from "../helpers/database";

const enabled = hasPostgres();
const ADMIN = { email: "admin@example.com", password: "a-long-password" };
const data = tempDir("kiln-move-");
const original = join(data, "kiln.db");
const running: Array<{ proc: { kill(signal?: number | NodeJS.Signals): void; exited: Promise<number> } }> = [];
afterAll(async () => {
  for (const panel of running) {
    panel.proc.kill("SIGKILL");
    await panel.proc.exited;
  }
});

async function panel(env: Record<string, string> = {}) {
  const port = await freePort();
  const started = await startKiln([...KILN, "panel"], { KILN_DATA: data, KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0", KILN_ADMIN_EMAIL: ADMIN.email, KILN_ADMIN_PASSWORD: ADMIN.password, ...env }, /local node listening on/);
  running.push(started);
  const base = `http://127.0.0.1:${port}`;
  const token = ((await (await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) })).json()) as { session: string }).session;
  const call = (method: string, path: string, body?: unknown) => fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const stop = async () => {
    started.proc.kill("SIGTERM");
    await started.proc.exited;
  };
  return { call, stop };
}

async function summaries(location: string) {
  const db = await openDatabase(location);
  try {
    const out: Record<string, unknown> = {};
    for (const table of tablesInOrder()) {
      const { table: name, rows, checksum } = await tableSummary(db, table);
      out[name] = { rows, checksum };
    }
    return out;
  } finally {
    await db.$kiln.close();
  }
}

describe.if(enabled)("kiln db migrate-to", () => {
  test("SQLite → PostgreSQL → SQLite: the panel runs on the copy, and the round trip reads the same, table by table", async () => {
    const lite = await panel();
    expect((await lite.call("PUT", "/api/templates/echo", echoTemplate())).ok).toBe(true);
    const nodeId = ((await (await lite.call("GET", "/api/nodes")).json()) as Array<{ id: number }>)[0]!.id;
    const server = (await (await lite.call("POST", "/api/servers", { name: "moved", node: nodeId, template: "echo", environment: { type: "standard" } })).json()) as { id: string };
    expect(server.id).toMatch(/^[0-9a-f]{8}$/);
    expect((await lite.call("POST", "/api/users", { username: "second", email: "second@example.com", password: "another-password" })).status).toBe(201);
    expect((await lite.call("POST", "/api/roles", { name: "helpers", scopes: ["servers.view"] })).status).toBe(201);
    expect((await lite.call("POST", "/api/settings", { "panel.settings.companyName": "Moved Co" })).status).toBe(204);
    expect((await lite.call("POST", "/api/webhooks", { url: "http://127.0.0.1:9/hook", events: ["server.*"], secret: "a-secret-of-some-length", allowInternal: true })).status).toBe(201);
    expect((await lite.call("POST", "/api/self/oauth2", { name: "script", description: "", password: ADMIN.password })).status).toBeLessThan(300);
    await lite.stop();
    const before = await summaries(original);
    expect(Object.values(before).some((t) => (t as { rows: number }).rows > 0)).toBe(true);

    const postgres = await freshPostgresDatabase();
    const there = runKiln(["db", "migrate-to", postgres], { KILN_DATA: data });
    expect(there.stderr).toBe("");
    expect(there.code).toBe(0);
    expect(there.stdout).toContain("KILN_DATABASE_URL=");
    expect(there.stdout).toMatch(/servers\s+1 rows/);
    // The source is left as it was.
    expect(await summaries(original)).toEqual(before);
    expect(await summaries(postgres)).toEqual(before);

    // Again into the same database: it holds rows now, so nothing is copied.
    const again = runKiln(["db", "migrate-to", postgres], { KILN_DATA: data });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("is not empty");
    expect(await summaries(postgres)).toEqual(before);

    // A panel on the copy: the same password, the same server, new rows get new ids.
    const onPostgres = await panel({ KILN_DATABASE_URL: postgres });
    const listed = (await (await onPostgres.call("GET", "/api/servers")).json()) as { servers: Array<{ id: string; name: string }> };
    expect(listed.servers.map((s) => s.name)).toEqual(["moved"]);
    expect((await onPostgres.call("POST", "/api/roles", { name: "after-the-move", scopes: [] })).status).toBe(201);
    await onPostgres.stop();

    const back = join(tempDir("kiln-back-"), "kiln.db");
    const home = runKiln(["db", "migrate-to", `sqlite:${back}`], { KILN_DATA: data, KILN_DATABASE_URL: postgres });
    expect(home.code).toBe(0);
    const returned = await summaries(back);
    // What the panel on PostgreSQL did (a login, a role, its heartbeats, its attempts at the
    // webhook's dead address) is there too; the rest is as it was.
    const changedThere = ["roles", "activity", "sessions", "one_time_values", "nodes", "webhooks", "webhook_deliveries"];
    const without = (tables: Record<string, unknown>) => Object.fromEntries(Object.entries(tables).filter(([name]) => !changedThere.includes(name)));
    const [unchanged, kept] = [without(returned), without(before)];
    expect(unchanged).toEqual(kept);
    expect((returned.roles as { rows: number }).rows).toBe((before.roles as { rows: number }).rows + 1);
    expect(await summaries(postgres)).toEqual(returned);
  }, 120_000);

  test("a wrong target says how to name one; the database in use is not a target", () => {
    const wrong = runKiln(["db", "migrate-to", "mysql://somewhere"], { KILN_DATA: data });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("usage: kiln db migrate-to postgres://");
    const self = runKiln(["db", "migrate-to", `sqlite:${original}`], { KILN_DATA: data });
    expect(self.code).toBe(2);
    expect(self.stderr).toContain("uses already");
  });
});
