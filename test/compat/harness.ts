// Compatibility runs: a real panel served over HTTP with a real node behind it, an administrator
// who logs in with a password, and a table of calls made exactly as one of PufferPanel's clients
// makes them (method, path, query, headers, body). Each row is one test, in order, sharing what
// earlier rows learnt (ids, tokens) through `state`; a row checks the fields that client reads.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createUser } from "../../server/services/users";
import { SCOPES } from "../../core/scopes";
import { servePanel } from "../../server/serve";
import { panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { eventually, type SocketMessage } from "../helpers/node";

export const ADMIN = { username: "compat-admin", email: "compat-admin@example.com", password: "compat-password-1" };

export interface Compat {
  ctx: PanelWithNode;
  base: string;
  /** What earlier rows found out: the session, ids of what they created, and so on. */
  state: Record<string, any>;
}

export interface Answer {
  status: number;
  /** The body parsed as JSON when it is JSON, else its text ("" when empty). */
  body: any;
  headers: Headers;
}

export interface Call {
  /** The client's method (e.g. "getServers"), and which of its calls when it makes several. */
  name: string;
  method: string;
  path: (c: Compat) => string;
  /** JSON body; a string is sent as it is (text/plain), as axios and fetch send strings. */
  body?: (c: Compat) => unknown;
  /** Headers beyond those the client adds to every call. */
  headers?: (c: Compat) => Record<string, string>;
  /** Checks the answer the way the client reads it; may record into state. */
  check: (answer: Answer, c: Compat) => void | Promise<void>;
  /**
   * Set where Kiln deliberately answers otherwise than the client expects (the reason): the row
   * then checks Kiln's own answer, and the client's call does not count as passing.
   */
  differs?: string;
}

/** Starts the panel and node, creates the administrator, and registers one test per call. */
export function runCalls(client: string, calls: Call[], clientHeaders: (c: Compat, path: string) => Record<string, string | undefined>): Compat {
  const c: Compat = { ctx: undefined as never, base: "", state: {} };
  let server: ReturnType<typeof servePanel>;
  beforeAll(async () => {
    c.ctx = await panelWithNode();
    await createUser(c.ctx.panel.db, { ...ADMIN, scopes: [SCOPES.admin] });
    server = servePanel(c.ctx.panel.app, { port: 0, hostname: "127.0.0.1" });
    c.base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    for (const id of Object.values(c.state.servers ?? {}) as string[]) await c.ctx.node.call("POST", `/daemon/server/${id}/kill`).catch(() => undefined);
    server?.stop(true);
    await c.ctx?.node.stop();
  });
  for (const call of calls) {
    test(`${client}: ${call.name} — ${call.method}${call.differs ? ` (differs: ${call.differs})` : ""}`, async () => {
      const answer = await send(c, call, clientHeaders);
      await call.check(answer, c);
    }, 30_000);
  }
  return c;
}

async function send(c: Compat, call: Call, clientHeaders: (c: Compat, path: string) => Record<string, string | undefined>): Promise<Answer> {
  const body = call.body?.(c);
  const path = call.path(c);
  const headers = { ...clientHeaders(c, path), ...call.headers?.(c) } as Record<string, string>;
  let payload: BodyInit | undefined;
  if (typeof body === "string") payload = body;
  else if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(c.base + path, { method: call.method, headers, body: payload });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text === "" ? "" : JSON.parse(text);
  } catch {
    // not JSON: the text itself
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** Where Kiln asks more than PufferPanel: a new OAuth2 client needs the account's current password (a session alone makes none). */
export const NEEDS_PASSWORD = "a new OAuth2 client needs the account's current password";

/** The refusal of a call that left out the account's password. */
export function refusedWithoutPassword(answer: Answer): void {
  ok(answer, 400);
  expect(answer.body.error).toMatchObject({ code: "ErrFieldRequired", metadata: { field: "password" } });
}

/** A 2xx answer (or exactly `status`), the body shown when it is not. */
export function ok(answer: Answer, status?: number): void {
  if (status !== undefined) expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  else expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
}

/** A socket opened the way a client opens it, collecting what arrives. */
export async function openSocket(url: string, headers: Record<string, string>): Promise<{ ws: WebSocket; messages: SocketMessage[]; next: (test: (m: SocketMessage) => boolean, what: string) => Promise<SocketMessage> }> {
  const ws = new WebSocket(url, { headers } as unknown as string[]);
  const messages: SocketMessage[] = [];
  ws.onmessage = (event) => messages.push(JSON.parse(String(event.data)));
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = (event) => reject(new Error(`socket refused: ${(event as ErrorEvent).message ?? ""}`));
  });
  return {
    ws,
    messages,
    async next(check, what) {
      await eventually(() => messages.some(check), 8000, `${what}; got ${JSON.stringify(messages).slice(-600)}`);
      return messages.find(check)!;
    },
  };
}

/** Each dotted path of `value` has the given typeof (what a client relies on when it reads it). */
export function expectTypes(value: unknown, types: Record<string, string>): void {
  for (const [path, type] of Object.entries(types)) {
    let found: any = value;
    for (const key of path.split(".")) found = found?.[key];
    expect(`${path}: ${typeof found}`).toBe(`${path}: ${type}`);
  }
}
