// Attacks on what a node's new machine fetches from the panel: the kiln
// executable and the node's config (which holds its secret). Only a user holding nodes.deploy, or
// the install command's token of that very node, gets either; nothing else opens them, and the
// token opens nothing else: not another node, not the API, not a node's own daemon.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { startTestNode, type TestNode } from "../helpers/node";
import { tempDir } from "../helpers/process";
import { errorOf } from "../helpers/refusal";
import { SCOPES, ALL_SCOPES } from "../../core/scopes";
import { signNodeToken } from "../../core/node-token";
import { createNode, deleteNode, ensureLocalNode, getNodeRow, nodeDeployment, type NodeInput } from "../../server/services/nodes";
import { DEPLOY_TOKEN_TTL_S, signDeployToken } from "../../server/services/nodes/deploy-token";

let panel: TestPanel;
let a: number;
let b: number;
beforeAll(async () => {
  const executable = join(tempDir("kiln-exe-"), "kiln");
  writeFileSync(executable, "#!/bin/sh\necho kiln\n");
  panel = await testPanel({ executable });
  const input = (name: string): NodeInput => ({ name, publicHost: "games.example.com", publicPort: 8081, privateHost: "10.0.0.4", privatePort: 8081, sftpPort: 5657 });
  a = (await createNode(panel.db, input("node-a"))).id;
  b = (await createNode(panel.db, input("node-b"))).id;
});

const FILES = (id: number | string) => [`/api/nodes/${id}/kiln`, `/api/nodes/${id}/deployment/config`];
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
/** The token the node page's install command carries for this node. */
const installToken = async (id: number) => /Bearer (kd1\.[^'"]+)"/.exec(nodeDeployment(await getNodeRow(panel.db, id), "http://localhost").install)![1]!;

describe("who may fetch a node's executable and config", () => {
  test("anonymous: refused as logged out, for a node that exists and for one that does not", async () => {
    for (const id of [a, 999, "abc", "-1"]) {
      for (const path of FILES(id)) expect(await errorOf(await panel.request(path))).toEqual({ status: 401, code: "ErrSessionTimedOut" });
    }
  });

  test("a user holding every scope but nodes.deploy (and not admin) is refused", async () => {
    const almost = await loginAs(panel.db, ALL_SCOPES.filter((s) => s !== SCOPES.nodesDeploy && s !== SCOPES.admin));
    for (const path of FILES(a)) expect(await errorOf(await panel.request(path, { token: almost.token }))).toEqual({ status: 403, code: "ErrMissingScope" });
    const nobody = await loginAs(panel.db, []);
    for (const path of FILES(a)) expect(await errorOf(await panel.request(path, { token: nobody.token }))).toEqual({ status: 403, code: "ErrMissingScope" });
  });

  test("nodes.deploy gets both; an id that is not a node is not found", async () => {
    const deployer = await loginAs(panel.db, [SCOPES.nodesDeploy]);
    for (const path of FILES(a)) expect((await panel.request(path, { token: deployer.token })).status).toBe(200);
    for (const id of [999, "abc", "1.5", "0"]) {
      for (const path of FILES(id)) expect(await errorOf(await panel.request(path, { token: deployer.token }))).toEqual({ status: 404, code: "ErrNotFound" });
    }
  });
});

// The local node runs with the panel: its secret is the panel machine's, and nodes.deploy would
// sign the panel's node calls with it (SFTP login checks, task checks, events) as that node.
describe("the local node", () => {
  test("has no deployment: its config, secret and install token are given to nobody, administrators included", async () => {
    const local = await ensureLocalNode(panel.db, { privatePort: 8090, sftpPort: 5690, secret: "the-panel-machines-local-secret-1234567890" });
    const deployer = await loginAs(panel.db, [SCOPES.nodesView, SCOPES.nodesDeploy]);
    for (const token of [deployer.token, (await loginAs(panel.db, [SCOPES.admin])).token]) {
      for (const path of [`/api/nodes/${local.id}/deployment`, `/api/nodes/${local.id}/deployment/config`]) {
        const res = await panel.request(path, { token });
        const text = await res.text();
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expect(text).not.toContain("the-panel-machines-local-secret");
      }
    }
    expect(() => nodeDeployment(local, "http://localhost")).toThrow();
  });
});

describe("the install command's token", () => {
  test("opens its own node's files, never another node's (not even with the id rewritten)", async () => {
    const tokenA = await installToken(a);
    const [kiln, config] = await Promise.all(FILES(a).map((path) => panel.request(path, bearer(tokenA))));
    expect([kiln!.status, config!.status]).toEqual([200, 200]);
    expect((await config!.json()).secret).toBe((await getNodeRow(panel.db, a)).secret);
    for (const path of FILES(b)) expect(await errorOf(await panel.request(path, bearer(tokenA)))).toEqual({ status: 401, code: "ErrInvalidCredentials" });
    const rewritten = tokenA.replace(`kd1.${a}.`, `kd1.${b}.`);
    for (const path of FILES(b)) expect(await errorOf(await panel.request(path, bearer(rewritten)))).toEqual({ status: 401, code: "ErrInvalidCredentials" });
  });

  test("a lapsed token, one made to last too long, a forged or tampered one, and one of a deleted node are refused", async () => {
    const row = await getNodeRow(panel.db, a);
    const lapsed = signDeployToken(row, Date.now() - (DEPLOY_TOKEN_TTL_S + 60) * 1000);
    const tooLong = signDeployToken(row, Date.now() + 24 * 3600 * 1000);
    const forged = signDeployToken({ id: a, secret: "not-the-node-secret-at-all" });
    const good = await installToken(a);
    const tampered = `${good.slice(0, -2)}${good.endsWith("AA") ? "BB" : "AA"}`;
    const quoted = `kd1.${a}.1'$(id)\`id\`.x.y`;
    for (const token of [lapsed, tooLong, forged, tampered, quoted, `kd1.${"9".repeat(5000)}`]) {
      for (const path of FILES(a)) expect(await errorOf(await panel.request(path, bearer(token)))).toEqual({ status: 401, code: "ErrInvalidCredentials" });
    }
    const gone = await createNode(panel.db, { name: "gone", publicHost: "h.example", publicPort: 1, privateHost: "10.0.0.9", privatePort: 1, sftpPort: 1 });
    const goneToken = await installToken(gone.id);
    await deleteNode(panel.db, gone.id);
    for (const path of FILES(gone.id)) expect(await errorOf(await panel.request(path, bearer(goneToken)))).toEqual({ status: 401, code: "ErrInvalidCredentials" });
  });

  test("opens nothing else on the panel: no API call, no page, not the deployment (with the secret) itself", async () => {
    const tokenA = await installToken(a);
    for (const path of [`/api/nodes/${a}/deployment`, `/api/nodes/${a}`, "/api/nodes", "/api/servers", "/api/self"]) {
      expect((await panel.request(path, bearer(tokenA))).status).toBe(401);
    }
    const page = await panel.request(`/node/${a}`, { ...bearer(tokenA), headers: { authorization: `Bearer ${tokenA}`, accept: "text/html" } });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/auth/login");
  });

  test("a node call token (signed with the same secret) is no deployment token, and the node refuses a deployment token", async () => {
    const callToken = signNodeToken((await getNodeRow(panel.db, a)).secret, { direction: "to-panel", nodeId: a, method: "GET", target: FILES(a)[0]! });
    for (const path of FILES(a)) expect(await errorOf(await panel.request(path, bearer(callToken)))).toEqual({ status: 401, code: "ErrSessionTimedOut" });
    const node: TestNode = await startTestNode();
    try {
      const deploy = signDeployToken({ id: 1, secret: node.config.secret });
      const res = await fetch(`${node.node.url}/daemon`, bearer(deploy));
      expect(res.status).toBe(401);
      expect((await node.fetch(`${node.node.url}/daemon`)).status).toBe(200);
    } finally {
      await node.stop();
    }
  });
});

describe("building the executable from a checkout (a minute of the machine's CPU)", () => {
  test("only someone who may deploy starts it: not a viewer, not a page view, not anonymous or a wrong token, not a cross-site form", async () => {
    // A checkout whose build.ts leaves a mark when it runs, and never makes the executable.
    const root = tempDir("kiln-checkout-");
    const mark = join(root, "built");
    writeFileSync(join(root, "build.ts"), `require("node:fs").writeFileSync(${JSON.stringify(mark)}, "ran"); process.exit(1);`);
    const built = await testPanel({ executable: join(root, "dist", "kiln"), executableBuild: root });
    const node = (await createNode(built.db, { name: "east", publicHost: "games.example.com", publicPort: 8081, privateHost: "10.0.0.4", privatePort: 8081, sftpPort: 5657 })).id;
    const viewer = await loginAs(built.db, ALL_SCOPES.filter((s) => s !== SCOPES.nodesDeploy && s !== SCOPES.admin));
    const form = (token?: string, origin = "http://localhost") => built.request(`/node/${node}/build-executable`, { token, method: "POST", headers: { origin, "content-type": "application/x-www-form-urlencoded" }, body: "" });
    expect((await form(viewer.token)).status).toBe(403);
    expect((await form()).status).toBeGreaterThanOrEqual(300);
    expect((await built.request(`/node/${node}`, { token: viewer.token })).status).toBe(200);
    expect((await built.request(`/api/nodes/${node}/kiln`)).status).toBe(401);
    expect((await built.request(`/api/nodes/${node}/kiln`, bearer(`kd1.${node}.0.forged`))).status).toBe(401);
    const deployer = await loginAs(built.db, [SCOPES.nodesView, SCOPES.nodesDeploy]);
    expect((await form(deployer.token, "https://evil.example")).status).toBe(403);
    await Bun.sleep(500);
    expect(await Bun.file(mark).exists()).toBe(false);
    // The one who may, may.
    expect((await form(deployer.token)).status).toBe(303);
    const deadline = Date.now() + 10_000;
    while (!(await Bun.file(mark).exists())) {
      expect(Date.now()).toBeLessThan(deadline);
      await Bun.sleep(100);
    }
  });
});

afterAll(() => panel.db.$kiln.close());
