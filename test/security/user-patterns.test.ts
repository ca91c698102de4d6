// Attack: regular expressions written by a template's author, run on text a user or a server's
// output supplies. A pattern that backtracks (^\w*\w*\w*\w*$ passed the old ReDoS check; a
// 370-character value held the event loop 0.8 s, 4096 characters would take hours) must not
// stall the panel or the node: a variable's rules, a "regex:" ready marker, an alterfile search and
// a configfile "regex:" ifValue all run on RE2's linear-time engine (core/patterns). Each attack
// runs against a real `kiln panel` process (panel and local node), so a stalled event loop shows
// as calls made meanwhile that are not answered; the process is killed after each test.
import { afterEach, describe, expect, test } from "bun:test";
import { KILN, freePort, startKiln, tempDir } from "../helpers/process";
import { echoTemplate } from "../helpers/node";

const ADMIN = { email: "admin@example.com", password: "a-long-password" };
/** How long a call made while an attack runs may take on a busy 2-core machine. */
const PROMPT_MS = 1500;
/** A stalled process never answers; the test gives up on a call after this. */
const GIVE_UP_MS = 8000;

let panel: Awaited<ReturnType<typeof startKiln>> | undefined;
let base = "";
let token = "";

afterEach(async () => {
  panel?.proc.kill("SIGKILL");
  await panel?.proc.exited;
  panel = undefined;
});

async function startPanel(): Promise<void> {
  const port = await freePort();
  panel = await startKiln([...KILN, "panel"], { KILN_DATA: tempDir("kiln-patterns-"), KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0", KILN_ADMIN_EMAIL: ADMIN.email, KILN_ADMIN_PASSWORD: ADMIN.password }, /local node listening on/);
  base = `http://127.0.0.1:${port}`;
  token = (await (await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) })).json()).session;
}

/** A call with its time; a call the process does not answer within GIVE_UP_MS has status 0. */
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; ms: number; body: any }> {
  const started = performance.now();
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(GIVE_UP_MS),
    });
    const text = await res.text();
    return { status: res.status, ms: performance.now() - started, body: text ? JSON.parse(text) : null };
  } catch {
    return { status: 0, ms: performance.now() - started, body: null };
  }
}

/** Calls to the panel and to the node made while `attack` runs: both must be answered promptly. */
async function whileAttacking<T>(attack: Promise<T>, serverId: string): Promise<T> {
  await Bun.sleep(50);
  const [nodes, status] = await Promise.all([call("GET", "/api/nodes"), call("GET", `/proxy/daemon/server/${serverId}/status`)]);
  expect({ nodes: nodes.status, status: status.status }).toEqual({ nodes: 200, status: 200 });
  expect(nodes.ms).toBeLessThan(PROMPT_MS);
  expect(status.ms).toBeLessThan(PROMPT_MS);
  return attack;
}

/**
 * The file once the install's last step wrote it (`done` says so), asked every 100 ms: the install
 * runs behind the creation, for as long as the machine takes. Each read must be answered within
 * GIVE_UP_MS (a stalled node fails it); the install has GIVE_UP_MS after the first read.
 */
async function installedFile(serverId: string, path: string, done: (text: string) => boolean): Promise<string> {
  const deadline = Date.now() + GIVE_UP_MS;
  for (;;) {
    const answer = await fetch(`${base}/proxy/daemon/server/${serverId}/file/${path}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(GIVE_UP_MS) });
    const text = await answer.text();
    if ((answer.ok && done(text)) || Date.now() > deadline) return text;
    await Bun.sleep(100);
  }
}

async function createServer(template: unknown, variables: Record<string, string> = {}): Promise<string> {
  expect((await call("PUT", "/api/templates/patterns", template)).status).toBe(200);
  const nodes = (await call("GET", "/api/nodes")).body as Array<{ id: number }>;
  const created = await call("POST", "/api/servers", { name: `p${Date.now()}`, node: nodes[0]!.id, template: "patterns", environment: { type: "standard" }, variables });
  expect(created.status).toBe(201);
  return created.body.id;
}

const variable = (rules?: unknown) => ({ display: "Name", desc: "", type: "string", value: "abc", required: true, userEdit: true, ...(rules ? { rules } : {}) });

describe("a variable's pattern", () => {
  test("^\\w*\\w*\\w*\\w*$ against a 4096-character value is answered at once; the panel and the node answer meanwhile", async () => {
    await startPanel();
    const id = await createServer({ ...echoTemplate(), data: { greeting: variable({ pattern: "^\\w*\\w*\\w*\\w*$" }) } });
    // 4096 characters, the most a one-line value may hold.
    const hostile = `${"a".repeat(4095)}!`;
    const update = await whileAttacking(call("POST", `/proxy/daemon/server/${id}/data`, { data: { greeting: hostile } }), id);
    expect({ status: update.status, code: update.body?.error?.code }).toEqual({ status: 400, code: "ErrFieldPatternMismatch" });
    expect(update.ms).toBeLessThan(PROMPT_MS);
    // The panel checks a new server's values as well.
    const nodes = (await call("GET", "/api/nodes")).body as Array<{ id: number }>;
    const created = await call("POST", "/api/servers", { name: "hostile", node: nodes[0]!.id, template: "patterns", environment: { type: "standard" }, variables: { greeting: hostile } });
    expect({ status: created.status, code: created.body?.error?.code }).toEqual({ status: 400, code: "ErrFieldPatternMismatch" });
    expect(created.ms).toBeLessThan(PROMPT_MS);
    // A value that matches still passes, and is stored.
    expect((await call("POST", `/proxy/daemon/server/${id}/data`, { data: { greeting: "a".repeat(4096) } })).status).toBe(204);
  }, 60_000);

  test("a pattern the engine cannot run in linear time (look-around, back-references) is refused by field when the template is saved", async () => {
    await startPanel();
    for (const [pattern, field] of [["^(?=a)\\w+$", "data.greeting.rules"], ["^(a)\\1$", "data.greeting.rules"], ["(?<=a)b", "data.greeting.rules"]] as const) {
      const res = await call("PUT", "/api/templates/refused", { ...echoTemplate(), data: { greeting: variable({ pattern }) } });
      expect({ pattern, status: res.status, code: res.body?.error?.code, field: res.body?.error?.metadata?.field }).toEqual({ pattern, status: 400, code: "ErrTemplateFieldInvalid", field });
    }
    const marker = await call("PUT", "/api/templates/refused", { ...echoTemplate({ readyMarkers: ["regex:(?!x)done"] }) });
    expect({ status: marker.status, code: marker.body?.error?.code, field: marker.body?.error?.metadata?.field }).toEqual({ status: 400, code: "ErrTemplateFieldInvalid", field: "run.readyMarkers.0" });
    expect((await call("GET", "/api/templates/refused")).status).toBe(404);
  }, 60_000);
});

describe("a template's patterns on text the server or its users write", () => {
  // JavaScriptCore gives up on some exponential shapes after a second or so; this polynomial one
  // it runs to the end (hours at 4096 characters).
  const SLOW = "^\\w*\\w*\\w*\\w*$";
  const LINE = `${"a".repeat(4095)}!`;

  test("a regex: ready marker tried against a crafted console line does not stall the node", async () => {
    await startPanel();
    // The echo template prints motd.txt, which its install writes from the variable.
    const id = await createServer({ ...echoTemplate({ readyMarkers: [`regex:${SLOW}`] }), install: [{ type: "writefile", target: "motd.txt", text: "${greeting}" }] }, { greeting: LINE });
    expect((await call("POST", `/proxy/daemon/server/${id}/start`)).status).toBeLessThan(300);
    // The console shows the line before the marker is tried on it; once shown, the node must still answer.
    const deadline = Date.now() + 15_000;
    while (!JSON.stringify((await call("GET", `/proxy/daemon/server/${id}/console`)).body ?? "").includes(LINE) && Date.now() < deadline) await Bun.sleep(100);
    await whileAttacking(Promise.resolve(), id);
    expect((await call("GET", `/proxy/daemon/server/${id}/status`)).body).toMatchObject({ running: true });
    await call("POST", `/proxy/daemon/server/${id}/kill`);
  }, 60_000);

  test("an alterfile search run over a file holding a user's value does not stall the node", async () => {
    await startPanel();
    const template = {
      ...echoTemplate(),
      install: [
        { type: "writefile", target: "motd.txt", text: "${greeting}" },
        { type: "alterfile", file: "motd.txt", regex: true, search: SLOW, replace: "x" },
        // Run only once the search above has finished.
        { type: "alterfile", file: "motd.txt", regex: false, search: "!", replace: "?" },
      ],
    };
    const id = await createServer(template, { greeting: LINE });
    // The install runs now, in the background of the creation.
    await whileAttacking(Promise.resolve(), id);
    expect(await installedFile(id, "motd.txt", (text) => text.endsWith("?"))).toBe(LINE.replace("!", "?"));
  }, 60_000);

  test("a configfile regex: ifValue tried against a user's value does not stall the node", async () => {
    await startPanel();
    const template = {
      ...echoTemplate(),
      install: [
        { type: "writefile", target: "config.json", text: '{"motd": "${greeting}"}' },
        { type: "configfile", file: "config.json", parser: "json", replace: [{ match: "motd", value: "replaced", ifValue: `regex:${SLOW}` }, { match: "done", value: "yes" }] },
      ],
    };
    const id = await createServer(template, { greeting: LINE });
    await whileAttacking(Promise.resolve(), id);
    expect(JSON.parse(await installedFile(id, "config.json", (text) => text.includes('"done"')))).toEqual({ motd: LINE, done: "yes" });
  }, 60_000);
});
