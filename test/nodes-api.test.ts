// /api/nodes against a real node: create, list with status from a heartbeat, update, delete,
// deployment, validation and scope refusals.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { testPanel, loginAs, type TestPanel } from "./helpers/app";
import { startTestNode, type TestNode } from "./helpers/node";
import { SCOPES } from "../core/scopes";
import { checkNodes } from "../server/node-heartbeat";
import { ensureLocalNode } from "../server/services/nodes";
import { schema } from "../db";

let panel: TestPanel;
let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(() => node.stop());
beforeEach(async () => {
  panel = await testPanel();
});

const json = (method: string, body?: unknown) => ({ method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
const errorOf = async (res: Response) => ({ status: res.status, code: (await res.json()).error?.code });
const input = (over: Record<string, unknown> = {}) => ({ name: "east-1", publicHost: "games.example.com", publicPort: 8081, privateHost: "127.0.0.1", privatePort: node.node.port, sftpPort: 5657, ...over });

describe("nodes API", () => {
  test("create, list, read, update, delete; ports are numbers; status comes from the heartbeat", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.nodesView, SCOPES.nodesEdit, SCOPES.nodesDeploy]);
    const created = await panel.request("/api/nodes", { token, ...json("POST", input({ publicPort: "8081" })) });
    expect(created.status).toBe(201);
    const { id, ...view } = await created.json();
    expect(view).toMatchObject({ name: "east-1", publicPort: 8081, privatePort: node.node.port, internalHost: null, isLocal: false });
    expect(view).not.toHaveProperty("secret");

    // The new node's secret is the panel's; make the test node's secret match it for the heartbeat.
    const row = (await panel.db.select().from(schema.nodes).all())[0]!;
    const matching = await startTestNode({ secret: row.secret });
    try {
      // Moving a node is an administrator's (docs/security.md): nodes.edit is refused, the administrator is not.
      const move = json("PUT", input({ privatePort: matching.node.port, internalHost: "10.0.0.5" }));
      expect(await errorOf(await panel.request(`/api/nodes/${id}`, { token, ...move }))).toEqual({ status: 403, code: "ErrMissingScope" });
      const admin = await loginAs(panel.db, [SCOPES.admin]);
      expect((await panel.request(`/api/nodes/${id}`, { token: admin.token, ...move })).status).toBe(200);
      await checkNodes(panel.db);
      const list = await (await panel.request("/api/nodes", { token })).json();
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ id, status: "online", internalHost: "10.0.0.5" });
    } finally {
      await matching.stop();
    }
    await checkNodes(panel.db);
    const deployment = await (await panel.request(`/api/nodes/${id}/deployment`, { token })).json();
    expect(deployment).toMatchObject({ configPath: "/etc/kiln/daemon.json", command: "kiln daemon", config: { id, secret: row.secret, sftpPort: 5657, panelUrl: "http://localhost" } });
    expect((await panel.request(`/api/nodes/${id}`, { token, method: "DELETE" })).status).toBe(204);
    expect(await errorOf(await panel.request(`/api/nodes/${id}`, { token }))).toEqual({ status: 404, code: "ErrNotFound" });
  });

  test("a node that does not answer is offline", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.nodesView, SCOPES.nodesEdit]);
    await panel.request("/api/nodes", { token, ...json("POST", input({ privatePort: 1 })) });
    await checkNodes(panel.db);
    expect((await (await panel.request("/api/nodes", { token })).json())[0].status).toBe("offline");
  });

  test("bad input answers the catalogue's field errors and changes nothing", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.nodesView, SCOPES.nodesEdit]);
    expect(await errorOf(await panel.request("/api/nodes", { token, ...json("POST", input({ publicHost: "not a host!" })) }))).toEqual({ status: 400, code: "ErrFieldIsInvalidHost" });
    expect(await errorOf(await panel.request("/api/nodes", { token, ...json("POST", input({ privatePort: 70000 })) }))).toEqual({ status: 400, code: "ErrFieldTooLarge" });
    expect(await errorOf(await panel.request("/api/nodes", { token, ...json("POST", input({ name: "a/b" })) }))).toEqual({ status: 400, code: "ErrFieldHasURICharacters" });
    expect(await errorOf(await panel.request("/api/nodes", { token, ...json("POST", input({ name: "" })) }))).toEqual({ status: 400, code: "ErrFieldRequired" });
    expect(await (await panel.request("/api/nodes", { token })).json()).toEqual([]);
    await panel.request("/api/nodes", { token, ...json("POST", input()) });
    expect(await errorOf(await panel.request("/api/nodes", { token, ...json("POST", input()) }))).toEqual({ status: 409, code: "ErrDuplicateNodeName" });
  });

  test("the local node row is created once and brought up to date on each start", async () => {
    const first = await ensureLocalNode(panel.db, { privatePort: 4000, sftpPort: 5657, secret: "s1-s1-s1-s1-s1-s1" });
    const second = await ensureLocalNode(panel.db, { privatePort: 4001, sftpPort: 5657, secret: "s2-s2-s2-s2-s2-s2" });
    expect(second.id).toBe(first.id);
    expect(second).toMatchObject({ name: "local", isLocal: true, privateHost: "127.0.0.1", privatePort: 4001, secret: "s2-s2-s2-s2-s2-s2", publicHost: "{ip}" });
    expect(await panel.db.select().from(schema.nodes).all()).toHaveLength(1);
  });

  test("each call refuses a caller without its scope", async () => {
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    const { id } = await (await panel.request("/api/nodes", { token: admin.token, ...json("POST", input()) })).json();
    const viewer = await loginAs(panel.db, [SCOPES.nodesView]);
    const nobody = await loginAs(panel.db, []);
    expect(await errorOf(await panel.request("/api/nodes", { token: nobody.token }))).toEqual({ status: 403, code: "ErrMissingScope" });
    expect(await errorOf(await panel.request(`/api/nodes/${id}`, { token: nobody.token }))).toEqual({ status: 403, code: "ErrMissingScope" });
    expect(await errorOf(await panel.request("/api/nodes", { token: viewer.token, ...json("POST", input({ name: "x" })) }))).toEqual({ status: 403, code: "ErrMissingScope" });
    expect(await errorOf(await panel.request(`/api/nodes/${id}`, { token: viewer.token, ...json("PUT", input()) }))).toEqual({ status: 403, code: "ErrMissingScope" });
    expect(await errorOf(await panel.request(`/api/nodes/${id}`, { token: viewer.token, method: "DELETE" }))).toEqual({ status: 403, code: "ErrMissingScope" });
    expect(await errorOf(await panel.request(`/api/nodes/${id}/deployment`, { token: viewer.token }))).toEqual({ status: 403, code: "ErrMissingScope" });
    expect((await panel.request(`/api/nodes/${id}/deployment`, { token: admin.token })).status).toBe(200);
  });
});
