// A route-walking attack: every route of the panel (the operations list and every route the app
// mounts, the screens' form routes included) and of the node's API gets malformed input: bodies
// of the wrong kind (multipart, broken multipart, invalid JSON, a JSON array, wrong types, 2 MB),
// prototype keys, malformed ids (`__proto__`, `constructor`, `%zz`, huge numbers, long and
// traversing path segments) and bad paging. No answer may be a 5xx, every error a program gets
// must be a catalogue { error: { code, msg } }, and no answer may carry a stack or a host path.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ERROR_CODES } from "../../core/errors";
import { OPERATIONS } from "../../server/api-docs/operations";
import { createSession, findSessionUser } from "../../server/services/sessions";
import { panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { testPanel } from "../helpers/app";
import { echoTemplate, type TestNode } from "../helpers/node";
import { putTemplate } from "../../server/services/templates";
import { createDaemonApp, type DaemonAppDeps } from "../../daemon/app";
import { DEFAULT_THROTTLE, LoginThrottle } from "../../server/services/auth/throttle";

const LONG = "a".repeat(300);
/** Ids and path segments as an attacker spells them. */
const MALFORMED = ["__proto__", "constructor", "toString", "%zz", "99999999999999999999", "-1", "1.5", LONG, `..%2F..%2F${LONG}%2F..`, "%2e%2e%2f%2e%2e%2fetc%2fpasswd"];
const PAGING = ["page=99999999999999999999", "page=-1", "page=abc", "page=1e400", "limit=0", "limit=99999999999", "limit=abc", "page=9007199254740993&limit=100"];
const BIG = JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) });

interface Attempt {
  label: string;
  headers?: Record<string, string>;
  body?: BodyInit;
}

function multipart(): FormData {
  const form = new FormData();
  form.set("x", "y");
  form.set("file", new Blob(["content"]), "f.txt");
  return form;
}

/** The bodies every state-changing route gets. */
function bodies(): Attempt[] {
  const json = (label: string, body: string): Attempt => ({ label, headers: { "content-type": "application/json" }, body });
  return [
    { label: "no body" },
    { label: "multipart", body: multipart() },
    { label: "broken multipart", headers: { "content-type": "multipart/form-data; boundary=zz" }, body: "--zz\r\ngarbage" },
    { label: "multipart without boundary", headers: { "content-type": "multipart/form-data" }, body: "garbage" },
    json("invalid JSON", "{"),
    json("JSON array", "[]"),
    json("JSON string", '"x"'),
    json("wrong types", JSON.stringify({ email: 1, password: [], username: {}, name: true, value: { a: 1 }, token: 7, data: "x", operations: "x", cronSchedule: 5, node: "x", template: [], environment: 3, scopes: "admin", response: "x", repository: 9, path: {}, paths: "x" })),
    json("prototype keys", '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"toString":1,"hasOwnProperty":1}'),
    { label: "text", headers: { "content-type": "text/plain" }, body: "%zz\u0000" },
    { label: "urlencoded with prototype keys", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "__proto__=x&constructor=y&email=%zz" },
  ];
}

/** Paths that are programs' (JSON errors); the rest are pages (HTML or a redirect is fine). */
const MACHINE = /^\/(api|proxy|oauth2|assets|static|theme|i18n|daemon)(\/|$)/;
/** The auth routes answer a page to a form post and JSON to a program. */
const FORM_OR_JSON = /^\/auth\//;

function fill(path: string, value: (name: string) => string): string {
  return path
    .replace(/\{([A-Za-z]+)\}/g, (_, name: string) => value(name))
    .replace(/:([A-Za-z]+)(\{[^}]*\})?/g, (_, name: string) => value(name))
    .replace(/\*$/, value("rest"));
}

interface Route {
  method: string;
  path: string;
}

function uniqueRoutes(routes: Route[]): Route[] {
  const seen = new Map<string, Route>();
  for (const r of routes) if (r.method !== "ALL" && r.method !== "HEAD") seen.set(`${r.method.toUpperCase()} ${r.path}`, { method: r.method.toUpperCase(), path: r.path });
  return [...seen.values()];
}

class Findings {
  readonly problems: string[] = [];
  count = 0;
  constructor(private readonly leaks: RegExp[]) {}

  async check(method: string, what: string, path: string, response: Response, formBody: boolean): Promise<void> {
    this.count++;
    const text = await response.text();
    const type = response.headers.get("content-type") ?? "";
    const say = (problem: string): void => void this.problems.push(`${what} → ${response.status} ${problem}: ${text.slice(0, 200)}`);
    if (response.status >= 500) say("server error");
    if (response.status < 400) return;
    for (const leak of this.leaks) {
      const at = text.search(leak);
      if (at >= 0) this.problems.push(`${what} → ${response.status} leaks ${leak}: …${text.slice(Math.max(0, at - 150), at + 150)}…`);
    }
    const program = MACHINE.test(path) || (FORM_OR_JSON.test(path) && method !== "GET" && !formBody);
    if (!program && type.includes("text/html")) return;
    if (!type.includes("application/json")) return say("is not JSON");
    const body = JSON.parse(text);
    // RFC 6749 section 5.2 gives the token endpoint its own error shape.
    if (path === "/oauth2/token") {
      if (typeof body.error !== "string") say("is not an OAuth2 error");
      return;
    }
    if (!ERROR_CODES.includes(body?.error?.code) || typeof body.error.msg !== "string") say("is not a catalogue error");
  }
}

function leakPatterns(...dirs: string[]): RegExp[] {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return [...dirs.map((d) => new RegExp(escape(d))), /\/tmp\//, /\/var\/lib/, /node_modules\//, /\/work\//, /\bat .*:\d+:\d+/, /\bat [\w.<>]+ \(/, /ENOENT|ENAMETOOLONG|EACCES|ENOTDIR|EISDIR|SQLITE/];
}

/**
 * The node's routes as its app declares them. Building the app only registers routes (nothing
 * is called), so the list comes from an app with no parts; the calls go to the real node.
 */
function daemonRoutes(): Route[] {
  const app = createDaemonApp({ credentials: { secret: "x".repeat(16) }, backups: {}, mods: {} } as unknown as DaemonAppDeps);
  return app.routes;
}

/** The body every malformed path of a screen's form route is sent with, and the paths every body is (the walk below says why). */
const PAGE_FORM = "urlencoded with prototype keys";
const EVERY_BODY = ["__proto__", "99999999999999999999"];

const isFormBody = (a: Attempt) => a.body instanceof FormData || (a.headers?.["content-type"] ?? "").includes("urlencoded");

describe("the panel's routes", () => {
  let ctx: PanelWithNode;
  let serverId: string;

  beforeAll(async () => {
    ctx = await panelWithNode();
    serverId = await ctx.createServer("walked");
    // The walk sends hundreds of wrong codes and passwords; the login throttle's refusals are
    // answers like any other, but its growing waits (up to 4 s each) would only make the walk slow.
    ctx.panel.deps.throttle = new LoginThrottle(DEFAULT_THROTTLE, Date.now, async () => undefined);
  }, 30_000);
  afterAll(() => ctx.node.stop());

  test("no malformed input gets a 5xx, an uncatalogued error, a stack or a host path", async () => {
    const findings = new Findings(leakPatterns(ctx.node.config.dataDir, process.cwd()));
    const routes = uniqueRoutes([...ctx.panel.app.routes, ...OPERATIONS]).filter((r) => !r.path.startsWith("/proxy/daemon/socket"));
    const serverScoped = /^\/(api\/servers|server|proxy\/daemon\/server)\/[:{]id/;

    // An admin session, made again when a route (logout, reauth, a password change) ended it.
    let token = await createSession(ctx.panel.db, ctx.admin.userId);
    async function send(method: string, path: string, attempt: Attempt): Promise<void> {
      if (!(await findSessionUser(ctx.panel.db, token))) token = await createSession(ctx.panel.db, ctx.admin.userId);
      const init: RequestInit & { token: string } = { method, token, headers: { accept: "application/json", ...attempt.headers } };
      if (method !== "GET" && attempt.body !== undefined) init.body = attempt.body;
      const response = await ctx.panel.request(path, init);
      await findings.check(method, `${method} ${path.slice(0, 120)} [${attempt.label}]`, path, response, isFormBody(attempt));
    }

    for (const route of routes) {
      const paths = new Set(MALFORMED.map((v) => fill(route.path, () => v)));
      // With the real server, the malformed part reaches the node. Deleting it would end the walk.
      const onServer = serverScoped.test(route.path) && !/delete/i.test(`${route.method} ${route.path}`);
      if (onServer) {
        for (const v of MALFORMED) paths.add(fill(route.path, (name) => (name === "id" ? serverId : v)));
      }
      const first = [...paths][0]!;
      if (route.method === "GET") {
        for (const path of paths) await send("GET", path, { label: "plain" });
        for (const query of PAGING) await send("GET", `${first}${first.includes("?") ? "&" : "?"}${query}`, { label: query });
        continue;
      }
      // A screen's form route answers with its whole page, the refusal drawn in it (the template
      // list for a refused import): 8–27 ms a page with React's development build, which the
      // in-process panel keeps, and half the walk's time when every malformed path met every body.
      // Such a route gets every body on two malformed paths (and on the real server's): a name
      // (`__proto__`, most often refused as an id before a body is read) and a number (past an
      // id's syntax, so the body is parsed and the lookup misses); and every malformed path with
      // the body a browser's form sends (urlencoded, with prototype keys and a broken escape). On
      // a whole walk, every answer this leaves out had the status and kind of the same path's
      // with that form or of the same body's on one of those two paths (8,560 pairs, none
      // otherwise). Every route still meets every malformed id and every body kind; the programs'
      // routes (JSON answers, under a millisecond each) keep every pair.
      const page = !MACHINE.test(route.path) && !FORM_OR_JSON.test(route.path);
      const everyBody = new Set(EVERY_BODY.flatMap((v) => [fill(route.path, () => v), ...(onServer ? [fill(route.path, (name) => (name === "id" ? serverId : v))] : [])]));
      for (const path of paths) {
        for (const attempt of bodies()) {
          if (page && !everyBody.has(path) && attempt.label !== PAGE_FORM) continue;
          await send(route.method, path, attempt);
        }
      }
      // With its length, as every client sends a whole body (the node's walk below goes through
      // fetch, which adds it): app.request does not, and hono's body limit then copies an unsized
      // body through a stream, which made these 2 MB a fifth of the walk's time. The unsized path
      // is still walked, by every smaller body above.
      await send(route.method, first, { label: "2 MB JSON", headers: { "content-type": "application/json", "content-length": String(BIG.length) }, body: BIG });
    }
    await ctx.panel.request(`/proxy/daemon/server/${serverId}/kill`, { method: "POST", token: ctx.admin.token });
    expect(findings.problems).toEqual([]);
    expect(findings.count).toBeGreaterThan(1000);
    expect(bodies().map((body) => body.label)).toContain(PAGE_FORM);
    for (const value of EVERY_BODY) expect(MALFORMED).toContain(value);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 600_000);
});

describe("the node's API", () => {
  let node: TestNode;
  let serverId: string;

  beforeAll(async () => {
    const ctx = await panelWithNode();
    node = ctx.node;
    serverId = await ctx.createServer("walked-on-node");
  }, 30_000);
  afterAll(() => node.stop());

  test("no malformed input gets a 5xx, an uncatalogued error, a stack or a host path", async () => {
    const findings = new Findings(leakPatterns(node.config.dataDir, process.cwd()));
    const routes = uniqueRoutes(daemonRoutes()).filter((r) => !r.path.startsWith("/daemon/socket"));

    async function send(method: string, path: string, attempt: Attempt): Promise<void> {
      const response = await node.fetch(`${node.node.url}${path}`, { method, headers: attempt.headers, body: method === "GET" ? undefined : attempt.body });
      await findings.check(method, `${method} ${path.slice(0, 120)} [${attempt.label}]`, path, response, false);
    }

    for (const route of routes) {
      const paths = new Set(MALFORMED.map((v) => fill(route.path, () => v)));
      if (/^\/daemon\/server\/:id/.test(route.path) && route.method !== "DELETE") {
        for (const v of MALFORMED) paths.add(fill(route.path, (name) => (name === "id" ? serverId : v)));
      }
      for (const path of paths) {
        if (route.method === "GET") await send("GET", path, { label: "plain" });
        else for (const attempt of bodies()) await send(route.method, path, attempt);
      }
      if (route.method !== "GET") await send(route.method, [...paths][0]!, { label: "2 MB JSON", headers: { "content-type": "application/json" }, body: BIG });
    }
    await node.call("POST", `/daemon/server/${serverId}/kill`);
    expect(findings.problems).toEqual([]);
    expect(findings.count).toBeGreaterThan(300);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 600_000);
});

describe("failures the node reports", () => {
  test("a failed install step and a start of a missing program name no host path, in the answer or on the console", async () => {
    const ctx = await panelWithNode();
    try {
      const template = echoTemplate({ command: "./no-such-program --flag" });
      // A name longer than any file system allows: the write fails inside the server's folder.
      template.install = [{ type: "writefile", target: LONG, text: "x" }];
      await putTemplate(ctx.panel.db, "echo", template);
      const id = await ctx.createServer("failing");
      const call = (action: string) => ctx.panel.request(`/proxy/daemon/server/${id}/${action}?wait=true`, { method: "POST", token: ctx.admin.token });
      const answers = [await call("install"), await call("start")];
      const lines = await (await ctx.panel.request(`/proxy/daemon/server/${id}/console`, { token: ctx.admin.token })).json();
      const text = [...(await Promise.all(answers.map((a) => a.text()))), JSON.stringify(lines)].join("\n");
      for (const answer of answers) expect(answer.status).toBeGreaterThanOrEqual(400);
      // The failures are reported, in words…
      expect(text).toContain("too long");
      expect(text).toContain("no-such-program");
      // …and never with the node's folders or a system call's own message.
      for (const leak of leakPatterns(ctx.node.config.dataDir, process.cwd())) expect({ leak: String(leak), found: leak.test(text) }).toEqual({ leak: String(leak), found: false });
    } finally {
      await ctx.node.stop();
    }
  }, 60_000);
});

describe("the OAuth2 token endpoint", () => {
  test("malformed Basic headers answer an OAuth2 error, never a 500", async () => {
    const panel = await testPanel();
    const headers = ["Basic", "Basic !!!", "Basic " + btoa("%zz:%zz"), "Basic " + btoa("no-colon"), "Basic " + btoa("\u00ff:\u00fe"), "Basic " + "A".repeat(100_000), "basic  ===", "Basic " + btoa("id:%E0%A4%A")];
    for (const authorization of headers) {
      const res = await panel.request("/oauth2/token", { method: "POST", headers: { authorization, "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials" });
      expect({ authorization: authorization.slice(0, 40), status: res.status < 500 }).toEqual({ authorization: authorization.slice(0, 40), status: true });
      expect(typeof (await res.json()).error).toBe("string");
    }
  });
});
