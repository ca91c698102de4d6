// /proxy/daemon/server/{id}/*: the panel checks the caller's
// permission for the call (./proxy-rules), then streams the request to the server's node and the
// answer back. Variables a user may not edit stay hidden from and closed to non-admins.
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import type { ServerDefinition } from "../../core/definition";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { requireLogin } from "../middleware/require";
import { answerBounds, callNode, NODE_TIMEOUTS } from "../daemon-client";
import { authorize, fetchDefinition, recordAddress, serverNode, speaksForOwners, type ServerAccess } from "../services/servers";
import { PROXY_SERVER_PREFIX as PREFIX, proxyCall } from "./proxy-rules";
import { OWNERS_CALL_HEADER, proxiedOperation, type NodeOperationName } from "../../core/contract";
import { forgetTaskSaver, runTaskNow, saveTask } from "../services/tasks";
import { assertMayChangeData, assertReplacementKeepsAllocations, visibleValues } from "../services/servers/variables";
import { proxySocketData, type ProxySocketData } from "../live-proxy/socket-data";
import { followRights, takeDownloadPlace } from "../live-proxy/open-streams";
import { isSameOrigin } from "../middleware/origin";
import { hashToken } from "../services/sessions";
import { backupBy } from "../services/backups";
import { recordOperation } from "../services/activity/operations";
import { recordBounds } from "../services/servers/bounds";

const SOCKET_PREFIX = "/proxy/daemon/socket/";
/**
 * Request headers worth passing on (If-Range with Range: a resumed download gets the rest of the
 * version it began only; If-Match, If-Unmodified-Since: a save replaces only the version it was
 * edited from); cookies and the caller's authorization never are.
 */
const FORWARD_REQUEST = ["content-type", "content-length", "accept", "range", "if-range", "if-match", "if-unmodified-since"];
/** Never the node's cache-control: a server's files are private and change under the browser (PROXIED_RESPONSE_HEADERS). */
const FORWARD_RESPONSE = ["content-type", "content-length", "content-disposition", "content-range", "accept-ranges", "last-modified", "etag"];
/** A power action with wait=true lasts as long as the stop does (a kill after 60 s) plus a start. */
const WAIT_TIMEOUT_MS = 150_000;
/** Task calls that save or run operations: the panel checks each operation against the caller's rights first. */
const TASK_CHANGE = /^\/tasks(?:\/([^/]+))?(\/run)?$/;
/**
 * What a node answers is never run as a page of the panel's origin: a file's bytes are the user's
 * (an uploaded .html or .svg opened from a link), and a node is a machine the panel reaches, not
 * one it vouches for (a node an operator added, or one taken over, answering text/html with a
 * script). Every proxied answer is sandboxed (no script, an origin of its own) and never sniffed
 * into something executable.
 */
/**
 * Content types a browser may run as a script or apply as a stylesheet, in any spelling
 * (`text/javascript1.5`, `application/x-ecmascript`); a list of types (`text/plain, text/javascript`)
 * is read by its last, so any list is one. Tested on the whole value: a list whose first type has
 * parameters (`text/plain; charset=utf-8, text/javascript`) is read by its last too (Chromium runs it).
 */
const RUNNABLE_TYPE = /script|css|,/i;
/**
 * A file's bytes are private to those who may read the server, and change under the browser (the
 * game, SFTP, another user): never kept by the browser or a shared cache, so an editor never
 * opens a stale copy to save over a newer one, and nothing stays readable after logout.
 */
const PROXIED_RESPONSE_HEADERS = { "content-security-policy": "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'", "x-content-type-options": "nosniff", "cache-control": "private, no-store" };

export function proxyRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.use(`${PREFIX}*`, requireLogin());
  app.use(`${SOCKET_PREFIX}*`, requireLogin());

  // PufferPanel's daemon root, which puffMob asks through the proxy (GET /proxy/daemon/) to see
  // that the daemon answers: {message: "daemon is running"}, and 204 to HEAD, as its daemon does.
  for (const root of ["/proxy/daemon", "/proxy/daemon/"]) {
    // Hono answers HEAD through the GET route (the request itself still says HEAD).
    app.get(root, requireLogin(), (c) => (c.req.raw.method === "HEAD" ? c.body(null, 204) : c.json({ message: "daemon is running" })));
  }

  app.get(`${SOCKET_PREFIX}:id{[A-Za-z0-9_-]+}`, async (c) => {
    const id = c.req.param("id");
    // A browser sends cookies with a cross-site socket handshake; only our own pages may open one.
    if (!isSameOrigin(c, deps.config.trustProxy)) throw new KilnError("ErrNoPermission", { reason: "cross-origin" });
    const access = await authorize(deps.db, c.get("user")!, id, "view");
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") throw new KilnError("ErrFieldRequired", { field: "upgrade" }, "a WebSocket upgrade is required");
    const server = c.env as Bun.Server<ProxySocketData> | undefined;
    // The session is kept as its hash: the socket is re-checked against it while open (live-proxy/revocation).
    const data = await proxySocketData(deps.db, id, hashToken(c.get("sessionToken")!), access, await serverNode(deps.db, id));
    if (server?.upgrade(c.req.raw, { data })) return new Response(null);
    throw new KilnError("ErrSocketFailed");
  });

  app.all(`${PREFIX}:id{[A-Za-z0-9_-]+}/*`, (c) => proxy(c));
  app.all(`${PREFIX}:id{[A-Za-z0-9_-]+}`, (c) => proxy(c));

  async function proxy(c: Context<KilnEnv>): Promise<Response> {
    // Read as the same-origin rule reads it (middleware/changes-state): one reading, one decision.
    const call = proxyCall(c.req.path, new URL(c.req.url).pathname);
    if (!call) throw new KilnError("ErrNotFound");
    const { id, rest } = call;
    const operation = proxiedOperation(c.req.method, rest);
    if (!operation) throw new KilnError("ErrNotFound", { path: rest });
    const access = await authorize(deps.db, c.get("user")!, id, operation.proxy.needs);
    const task = c.req.method === "GET" || c.req.method === "DELETE" ? null : TASK_CHANGE.exec(rest);
    if (task) return taskCall(c, id, access, task[1] === undefined ? null : decodeURIComponent(task[1]), task[2] !== undefined);

    const isData = rest === "/data";
    let body: BodyInit | null = c.req.raw.body;
    let parsed: unknown;
    // Small JSON bodies that change variables are read here: non-admins may only touch the ones
    // marked userEdit, and the panel keeps the list's address in step.
    if (c.req.method === "POST" && (isData || rest === "")) {
      body = await c.req.text();
      parsed = safeJson(body);
      if (isData) await assertMayChangeData(deps.db, access, id, parsed);
      else await assertReplacementKeepsAllocations(deps.db, id, parsed);
    }
    if (c.req.method === "GET" && isData && !access.admin) return c.json({ data: await visibleValues(deps.db, id, access) });
    // A small body the activity log reads properties from (a move's paths, a console command) is
    // read here and passed on as read; an upload streams through unread.
    if (typeof body !== "string" && operation.activity && !operation.streamsBody && c.req.method !== "GET" && c.req.method !== "HEAD") body = await c.req.text();

    const node = await serverNode(deps.db, id);
    const headers = new Headers();
    for (const name of FORWARD_REQUEST) {
      const value = c.req.header(name);
      if (value) headers.set(name, value);
    }
    // Who makes a backup is the panel's to say, never the caller's (the node records it).
    if (c.req.method === "POST" && rest === "/backups") headers.set("x-kiln-by", backupBy(c.get("user")!));
    // The node keeps a place for the owner's and administrators' calls (core/contract's keptForOwners).
    if (operation.keptForOwners && await speaksForOwners(deps.db, c.get("user")!, access, id)) headers.set(OWNERS_CALL_HEADER, "1");
    const search = new URL(c.req.url).search;
    const long = operation.timeout === "transfer";
    const waits = c.req.query("wait") === "true";
    // Bun closes a connection idle for 10 s; a power action that waits, or an extract, may be quiet for longer.
    if (waits || long) (c.env as Bun.Server<unknown> | undefined)?.timeout?.(c.req.raw, 0);
    // A download (a read whose answer has no bound: a file, a zip, a backup) lasts as long as its
    // data: it takes one of the caller's download places before the node is asked, and is held to
    // the rights that started it until its last byte, as a live socket is (live-proxy/open-streams).
    const download = c.req.method === "GET" && long && !operation.proxy.changesState;
    const release = download ? takeDownloadPlace(deps.db, c.get("user")!.id, id, operation.name) : () => undefined;
    // Ends the node's request when the caller loses the right to what it streams.
    const cut = new AbortController();
    const response = await callNode(node, `/daemon/server/${id}${rest}${search}`, {
      method: c.req.method,
      headers,
      body: c.req.method === "GET" || c.req.method === "HEAD" ? undefined : body,
      signal: AbortSignal.any([c.req.raw.signal, cut.signal]),
      timeoutMs: waits && !long ? WAIT_TIMEOUT_MS : NODE_TIMEOUTS[operation.timeout ?? "quick"],
      bounds: answerBounds(operation.timeout),
      // @ts-expect-error Bun's fetch needs duplex for a streamed request body
      duplex: "half",
    }).catch((error: unknown) => {
      release();
      throw error;
    });
    if (!download || !response.body) release();
    const answer = download && response.body ? followRights(deps.db, { sessionHash: hashToken(c.get("sessionToken")!), serverId: id, needs: operation.proxy.needs }, response.body, () => cut.abort(), release) : response.body;
    try {
      return new Response(answer, { status: response.status, headers: await answerHeaders(c, operation.name, id, rest, isData, parsed, body, response) });
    } catch (error) {
      // No answer leaves: the download's place and the node's request go with it.
      await answer?.cancel().catch(() => undefined);
      throw error;
    }
  }

  /** What the panel records of a node's answer, and the headers the browser gets with it. */
  async function answerHeaders(c: Context<KilnEnv>, name: NodeOperationName, id: string, rest: string, isData: boolean, parsed: unknown, body: BodyInit | null, response: Response): Promise<Headers> {
    if (response.ok && c.req.method === "POST" && parsed && typeof parsed === "object") {
      const data = isData ? await fetchDefinition(deps.db, id).catch(() => null) : (parsed as ServerDefinition);
      if (data?.data) await recordAddress(deps.db, id, data);
      // A whole definition an administrator had the node take: its bounds are the panel's copy now.
      if (!isData) await recordBounds(deps.db, id, parsed);
    }
    // A deleted task's saver goes with it (services/tasks/savers): a later task a node reports under that id is no one's.
    const deletedTask = name === "deleteTask" && response.ok ? TASK_CHANGE.exec(rest)?.[1] : undefined;
    if (deletedTask !== undefined) await forgetTaskSaver(deps.db, id, safeDecode(deletedTask));
    if (response.ok && c.req.method !== "HEAD") await recordOperation(name, { path: `/daemon/server/${id}${rest}`, query: new URL(c.req.url).searchParams, body: typeof body === "string" ? body : undefined, contentType: response.headers.get("content-type") });
    const out = new Headers();
    for (const name of FORWARD_RESPONSE) {
      const value = response.headers.get(name);
      if (value) out.set(name, value);
    }
    for (const [name, value] of Object.entries(PROXIED_RESPONSE_HEADERS)) out.set(name, value);
    // A page of the panel loads scripts and styles from its own origin ('self'): an uploaded .js or
    // .css served as one would be a script any page could be made to load. Shown as text instead.
    if (RUNNABLE_TYPE.test(out.get("content-type") ?? "")) out.set("content-type", "text/plain; charset=utf-8");
    return out;
  }

  async function taskCall(c: Context<KilnEnv>, id: string, access: ServerAccess, taskId: string | null, run: boolean): Promise<Response> {
    if (run) {
      await runTaskNow(deps.db, access, id, taskId!);
      return c.body(null, 202);
    }
    const parsed = safeJson(await c.req.text());
    if (parsed === undefined) throw new KilnError("ErrInvalidJson");
    const saved = await saveTask(deps.db, c.get("user")!, access, id, taskId, parsed);
    return taskId === null ? c.json({ id: saved }, 201) : c.body(null, 204);
  }

  return app;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
