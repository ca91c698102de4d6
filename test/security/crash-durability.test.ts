// Crash durability: a real `kiln panel` (with its local node) is killed with SIGKILL at a random
// moment while servers, templates, tasks and uploads are being written through its HTTP API, then
// started again, round after round. After every restart: every write that was acknowledged is
// there, the database passes its integrity check, no server folder holds an unfinished upload,
// and the panel's servers and the node's definitions match one to one, with a log line for what
// the start-up cleaned or reconciled. In the runner's PostgreSQL pass the panel keeps its data in
// PostgreSQL, and the same holds there.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { KILN, freePort, startKiln, tempDir } from "../helpers/process";
import { echoTemplate, eventually } from "../helpers/node";
import pg from "pg";
import { freshPostgresDatabase, onPostgres } from "../helpers/database";

const ROUNDS = 10;
/**
 * Rounds stop early once this much time has gone (the machine is shared), but never below
 * MIN_ROUNDS; the PostgreSQL pass, a second run of the same loop, takes a quarter.
 */
const BUDGET_MS = onPostgres() ? 15_000 : 60_000;
const MIN_ROUNDS = onPostgres() ? 2 : 5;
const ADMIN = { email: "admin@example.com", password: "a-long-password" };

type Panel = Awaited<ReturnType<typeof startKiln>>;

const data = tempDir("kiln-crash-");
const nodeServers = join(data, "node", "servers");
const database = join(data, "kiln.db");
/** The PostgreSQL database (a schema of its own) in the runner's PostgreSQL pass. */
const postgres = onPostgres() ? await freshPostgresDatabase() : undefined;

/** Rows of the panel's database, read directly (the panel is down or busy). */
async function query<T>(sql: string): Promise<T[]> {
  if (postgres) {
    const client = new pg.Client({ connectionString: postgres });
    await client.connect();
    try {
      return (await client.query(sql)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const db = new Database(database, { readonly: true });
  try {
    return db.query(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** What the panel acknowledged, and so must still hold after any crash. */
const acked = {
  /** servers created, with no deletion asked for since */
  servers: new Set<string>(),
  /** servers whose deletion was answered */
  deleted: new Set<string>(),
  templates: new Set<string>(),
  /** task id → server id */
  tasks: new Map<string, string>(),
  /** "server/file" → sha256 */
  uploads: new Map<string, string>(),
};
/** Servers a deletion was asked for: they may or may not survive a crash, so nothing else uses them. */
const doomed = new Set<string>();

let base = "";
let token = "";
let nodeId = 0;

async function start(): Promise<Panel> {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  return startKiln([...KILN, "panel"], { KILN_DATA: data, KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0", KILN_ADMIN_EMAIL: ADMIN.email, KILN_ADMIN_PASSWORD: ADMIN.password, ...(postgres ? { KILN_DATABASE_URL: postgres } : {}) }, /local node listening on/);
}

function call(method: string, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${base}${path}`, { method, ...init, headers: { authorization: `Bearer ${token}`, ...init.headers }, signal: AbortSignal.timeout(15_000) });
}

const json = (body: unknown): RequestInit => ({ headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const pick = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];
const usable = () => [...acked.servers].filter((id) => !doomed.has(id));
const sha = (bytes: Uint8Array | Buffer) => createHash("sha256").update(bytes).digest("hex");

/** Set once the round's panel is killed: a worker with nothing to do (no server to delete yet) stops too. */
let killed = false;

/** Runs `step` again and again until the panel stops answering (it was killed). */
async function worker(step: () => Promise<void>): Promise<void> {
  try {
    while (!killed) await step();
  } catch {
    // the connection died with the panel
  }
}

function workers(round: number): Promise<void>[] {
  let n = 0;
  const creator = (w: number) => async () => {
    const res = await call("POST", "/api/servers", json({ name: `c${round}-${w}-${n++}`, node: nodeId, template: "echo", environment: { type: "standard" } }));
    if (res.status === 201) acked.servers.add(((await res.json()) as { id: string }).id);
  };
  const deleter = async () => {
    const id = pick(usable().slice(1)); // the first server keeps the slow uploads company
    if (!id) return void (await Bun.sleep(20));
    doomed.add(id);
    const res = await call("DELETE", `/api/servers/${id}`);
    if (res.status === 204) {
      acked.servers.delete(id);
      acked.deleted.add(id);
    }
  };
  const templater = async () => {
    const name = `crash-${round}-${n++}`;
    const res = await call("PUT", `/api/templates/${name}`, json({ ...echoTemplate(), name }));
    if (res.ok) acked.templates.add(name);
  };
  const tasker = async () => {
    const id = pick(usable());
    if (!id) return void (await Bun.sleep(20));
    const res = await call("POST", `/proxy/daemon/server/${id}/tasks`, json({ name: `t${round}-${n++}`, cronSchedule: null, operations: [{ type: "console", command: "say hi" }] }));
    if (res.status === 201) acked.tasks.set(((await res.json()) as { id: string }).id, id);
  };
  const uploader = async () => {
    const id = pick(usable());
    if (!id) return void (await Bun.sleep(20));
    const name = `up-${round}-${n++}.bin`;
    const bytes = randomBytes(64 * 1024 + Math.floor(Math.random() * 1024 * 1024));
    const form = new FormData();
    form.append("file", new Blob([bytes]), name);
    const res = await call("PUT", `/proxy/daemon/server/${id}/file/${name}`, { body: form });
    if (res.ok) acked.uploads.set(`${id}/${name}`, sha(bytes));
  };
  // An upload that never ends: the kill always finds one half written.
  const slowUploader = async () => {
    const id = usable()[0]!;
    const boundary = "crashboundary";
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\n\r\n`));
        for (;;) {
          controller.enqueue(randomBytes(16 * 1024));
          await Bun.sleep(10);
        }
      },
    });
    // @ts-expect-error duplex for a streamed request body
    await call("PUT", `/proxy/daemon/server/${id}/file/slow-${round}.bin`, { headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body, duplex: "half" });
  };
  return [creator(1), creator(2), creator(3), deleter, templater, tasker, uploader, uploader, slowUploader].map(worker);
}

/** Every file under the node's server folders whose name marks an unfinished write. */
function partialFiles(folder = nodeServers): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /kiln-partial$|\.part$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Half-written definition and task files (writeJsonAtomically's temporaries). */
const jsonTemporaries = () =>
  [nodeServers, join(data, "node", "tasks")].filter(existsSync).flatMap((folder) => readdirSync(folder).filter((name) => /\.json\.\d+\.\d+\.tmp$/.test(name)));

const definitionIds = () => readdirSync(nodeServers).filter((name) => name.endsWith(".json")).map((name) => name.slice(0, -5)).sort();

const rows = () => query<{ id: string; state: string }>("select id, state from servers order by id");

/** Checked while the panel is down: what SQLite itself says of the file the crash left (PostgreSQL keeps its own integrity). */
function checkDatabase(): void {
  if (postgres) return;
  const db = new Database(database);
  try {
    expect(db.query("pragma integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
    expect(db.query("pragma foreign_key_check").all()).toEqual([]);
  } finally {
    db.close();
  }
}

/** Ids the restarted panel must say it reconciled: rows a crash left unfinished, and definitions it had rolled back. */
async function leftUnfinished(): Promise<string[]> {
  const unfinished = (await query<{ id: string }>("select id from servers where state <> 'ready'")).map((r) => r.id);
  const known = new Set((await query<{ id: string }>("select id from servers")).map((r) => r.id));
  const issued = new Set((await query<{ id: string }>("select id from issued_server_ids")).map((r) => r.id));
  const orphans = definitionIds().filter((id) => !known.has(id) && issued.has(id));
  return [...unfinished, ...orphans];
}

async function checkAcknowledged(): Promise<void> {
  const listed = new Set<string>();
  for (let page = 1; ; page++) {
    const body = (await (await call("GET", `/api/servers?limit=100&page=${page}`)).json()) as { servers: Array<{ id: string }> };
    for (const server of body.servers) listed.add(server.id);
    if (body.servers.length < 100) break;
  }
  // A server whose deletion was asked for but not answered may be gone: the crash-time reconcile finishes it.
  for (const id of usable()) expect(listed.has(id)).toBe(true);
  for (const id of acked.deleted) expect(listed.has(id) || existsSync(join(nodeServers, `${id}.json`))).toBe(false);
  for (const name of acked.templates) expect((await call("GET", `/api/templates/${name}`)).status).toBe(200);
  const tasksOf = new Map<string, Record<string, unknown>>();
  for (const [taskId, serverId] of acked.tasks) {
    if (!acked.servers.has(serverId) || doomed.has(serverId)) continue;
    if (!tasksOf.has(serverId)) tasksOf.set(serverId, ((await (await call("GET", `/proxy/daemon/server/${serverId}/tasks`)).json()) as { tasks: Record<string, unknown> }).tasks);
    expect(Object.keys(tasksOf.get(serverId)!)).toContain(taskId);
  }
  for (const [key, hash] of acked.uploads) {
    const [serverId, name] = key.split("/") as [string, string];
    if (doomed.has(serverId)) continue;
    expect(sha(readFileSync(join(nodeServers, serverId, name)))).toBe(hash);
  }
}

test("kill -9 at random moments: nothing acknowledged is lost, the database is intact, no upload is left half written, panel and node agree", async () => {
  const began = Date.now();
  let panel = await start();
  let partialsCleaned = 0;
  let reconciled = 0;
  try {
    token = ((await (await fetch(`${base}/auth/login`, { method: "POST", ...json(ADMIN) })).json()) as { session: string }).session;
    expect((await call("PUT", "/api/templates/echo", json(echoTemplate()))).ok).toBe(true);
    nodeId = ((await (await call("GET", "/api/nodes")).json()) as Array<{ id: number }>)[0]!.id;
    const first = await call("POST", "/api/servers", json({ name: "keeper", node: nodeId, template: "echo", environment: { type: "standard" } }));
    acked.servers.add(((await first.json()) as { id: string }).id);

    let round = 0;
    for (; round < ROUNDS && (round < MIN_ROUNDS || Date.now() - began < BUDGET_MS); round++) {
      killed = false;
      const createdBefore = acked.servers.size + acked.deleted.size;
      const running = workers(round);
      // Killed at a random moment once the never-ending upload has reached the disk.
      // Its own partial file (.slow-<round>.bin.<uuid>.kiln-partial), not another upload's, which
      // may finish before the kill.
      await eventually(() => partialFiles().some((path) => path.includes(`/.slow-${round}.bin.`)), 15_000, "the slow upload to begin");
      // And one creation acknowledged in this round (the workers go on making more): on a busy
      // machine a kill right after the upload began left whole rounds without one, and the run
      // then proved nothing about creations.
      await eventually(() => acked.servers.size + acked.deleted.size > createdBefore, 15_000, "a server creation to be acknowledged in this round");
      await Bun.sleep(Math.random() * 1000);
      panel.proc.kill("SIGKILL");
      killed = true;
      await panel.proc.exited;
      await Promise.all(running);

      checkDatabase();
      const partial = partialFiles();
      expect(partial.length).toBeGreaterThan(0); // the never-ending upload, at least
      const unfinished = await leftUnfinished();

      panel = await start();
      // The node clears temporaries while it boots, before it says it is listening.
      expect(partialFiles()).toEqual([]);
      expect(jsonTemporaries()).toEqual([]);
      const owners = new Set(partial.map((path) => path.slice(nodeServers.length + 1).split("/")[0]!));
      for (const id of owners) expect(panel.output()).toMatch(new RegExp(`unfinished upload\\(s\\) left by a crash in server ${id}`));
      partialsCleaned += partial.length;

      // The reconcile runs with the first heartbeat, right after start.
      await eventually(async () => {
        const now = await rows();
        return now.every((r) => r.state === "ready") && JSON.stringify(now.map((r) => r.id)) === JSON.stringify(definitionIds());
      }, 10_000, `panel rows and node definitions to match after round ${round}`);
      for (const id of unfinished) await eventually(() => panel.output().includes(`server ${id} on node`) || panel.output().includes(`removed server ${id} from node`), 5000, `a log line for server ${id}`);
      reconciled += unfinished.length;

      await checkAcknowledged();
    }
    console.log(`crash-durability: ${round} rounds in ${Math.round((Date.now() - began) / 1000)} s; ${acked.servers.size + acked.deleted.size} servers, ${acked.templates.size} templates, ${acked.tasks.size} tasks, ${acked.uploads.size} uploads acknowledged; ${partialsCleaned} unfinished files cleaned, ${reconciled} servers reconciled`);
    expect(acked.servers.size + acked.deleted.size).toBeGreaterThan(round);
    expect(acked.deleted.size).toBeGreaterThan(0);
    expect(acked.uploads.size).toBeGreaterThan(0);
    expect(acked.tasks.size).toBeGreaterThan(0);
  } finally {
    panel.proc.kill("SIGKILL");
    await panel.proc.exited;
  }
}, 150_000);
