// Every operation the daemon proxy offers, read from the node contract's table
// (core/contract/node-operations), attacked by whoever holds the most that still falls short: a
// user holding every server right but the one it needs (every right, for an administrator's
// operation), and a user holding every right on a server of their own but no row on this one.
// Each attempt, and its HEAD for a GET, is refused with the catalogue's ErrNoPermission and never
// reaches the node: a recorder in front of the real node sees every call the panel makes. An
// operation added to the table is attacked here without a line written for it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestNode, type TestNode } from "../helpers/node";
import { panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { recordNodeCalls, type NodeRecorder } from "../helpers/node-recorder";
import { PROXIED_OPERATIONS } from "../../core/contract/node-operations";
import { SERVER_FLAGS } from "../../core/scopes";

/** A value for each kind of path parameter the table uses; a parameter it does not know fails the test. */
const PARAMETERS: Record<string, string> = { taskId: "task-1", backup: "backup-1", list: "whitelist", name: "Steve" };

let node: TestNode;
let ctx: PanelWithNode;
let recorder: NodeRecorder;
let id: string;
let other: string;

beforeAll(async () => {
  node = await startTestNode();
  ctx = await panelWithNode(node);
  id = await ctx.createServer("attacked");
  other = await ctx.createServer("the-attackers-own");
  recorder = await recordNodeCalls(ctx);
});
afterAll(async () => {
  recorder?.stop();
  await node.call("POST", `/daemon/server/${id}/kill`);
  await node.stop();
});

/** The operation's path under the proxy for server `serverId`, every parameter filled in. */
function proxyPath(path: string, serverId: string): string {
  return path
    .replace(/^\/daemon\//, "/proxy/daemon/")
    .replace(":id", serverId)
    .replace(/:([A-Za-z]+)/g, (_, name: string) => {
      if (!(name in PARAMETERS)) throw new Error(`no value for the path parameter :${name}`);
      return PARAMETERS[name]!;
    })
    .replace("*", "nothing-here");
}

async function call(token: string, method: string, path: string): Promise<{ status: number; code?: string }> {
  const hasBody = method !== "GET" && method !== "HEAD";
  const res = await ctx.panel.request(path, { token, method, headers: hasBody ? { "content-type": "application/json" } : undefined, body: hasBody ? "{}" : undefined });
  const text = await res.text();
  const code = text.startsWith("{") ? (JSON.parse(text) as { error?: { code?: string } }).error?.code : undefined;
  return { status: res.status, code };
}

describe("every proxied operation", () => {
  test("the table's operations are all attacked", () => {
    expect(PROXIED_OPERATIONS.length).toBeGreaterThan(40);
    for (const op of PROXIED_OPERATIONS) expect(proxyPath(op.path, "x")).not.toContain(":");
  });

  test("the recorder sees what the panel asks the node (the checks below can fail)", async () => {
    recorder.reached.length = 0;
    expect((await call(ctx.admin.token, "GET", `/proxy/daemon/server/${id}/status`)).status).toBe(200);
    expect(recorder.reached).toEqual([`GET /daemon/server/${id}/status`]);
  });

  // A node is reached, not vouched for: whatever it answers (a rogue node's text/html with a
  // script) is sandboxed and never sniffed, on every operation, files or not.
  test("every answer through the proxy is sandboxed and not sniffed, whatever the node said", async () => {
    for (const op of PROXIED_OPERATIONS.filter((o) => o.method === "GET")) {
      // Sent as the panel's own page would (a GET that changes state needs it), so the node answers.
      const res = await ctx.panel.request(proxyPath(op.path, id), { token: ctx.admin.token, headers: { origin: "http://localhost" } });
      await res.arrayBuffer();
      const csp = res.headers.get("content-security-policy") ?? "";
      expect({ op: op.name, sandboxed: csp.startsWith("sandbox"), nosniff: res.headers.get("x-content-type-options") }).toEqual({ op: op.name, sandboxed: true, nosniff: "nosniff" });
    }
  });

  // The panel's pages load scripts and styles from its own origin: a file of a user's served as one
  // would be a script any page could be made to load.
  test("a user's .js, .mjs and .css files come back as text, never as a script or a stylesheet", async () => {
    for (const name of ["x.js", "x.mjs", "x.css"]) {
      const form = new FormData();
      form.append("file", new Blob(["alert(document.domain)"]), name);
      expect((await ctx.panel.request(`/proxy/daemon/server/${id}/file/${name}`, { token: ctx.admin.token, method: "PUT", body: form, headers: { origin: "http://localhost" } })).status).toBe(200);
      const res = await ctx.panel.request(`/proxy/daemon/server/${id}/file/${name}`, { token: ctx.admin.token });
      await res.arrayBuffer();
      expect({ name, type: res.headers.get("content-type") }).toEqual({ name, type: "text/plain; charset=utf-8" });
    }
  });

  for (const op of PROXIED_OPERATIONS) {
    const methods = op.method === "GET" ? ["GET", "HEAD"] : [op.method];
    test(`${op.name}: ${op.method} ${op.path} needs ${op.proxy.needs}; one right short is refused and the node never asked`, async () => {
      const short = op.proxy.needs === "view" || op.proxy.needs === "admin" ? SERVER_FLAGS : SERVER_FLAGS.filter((flag) => flag !== op.proxy.needs);
      const oneShort = op.proxy.needs === "view" ? null : await ctx.userWith(id, Object.fromEntries(short.map((flag) => [flag, true])));
      const stranger = await ctx.userWith(other, Object.fromEntries(SERVER_FLAGS.map((flag) => [flag, true])));
      recorder.reached.length = 0;
      for (const attacker of [oneShort, stranger]) {
        if (attacker === null) continue;
        for (const method of methods) {
          const answer = await call(attacker.token, method, proxyPath(op.path, id));
          // A HEAD has no body to carry the code: its status says it.
          expect({ method, ...answer }).toEqual(method === "HEAD" ? { method, status: 403, code: undefined } : { method, status: 403, code: "ErrNoPermission" });
        }
      }
      expect(recorder.reached).toEqual([]);
    });
  }
});
