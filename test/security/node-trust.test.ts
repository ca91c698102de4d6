// Attacks on the seam between panel and node (docs/security.md, "Panel and node"): a token caught
// on its way to a node, replayed to it, to another path or to another node; a listener put where
// the node is reached; a nodes.edit holder moving a node, re-pointing its backup targets, reading
// their passwords or recovering servers the panel never made; backup targets aimed at the node's
// own loopback or services in every spelling. Each is refused and changes nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";
import { loginAs } from "../helpers/app";
import { formInit, jsonInit, panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { startTestNode, echoTemplate, type TestNode } from "../helpers/node";
import { errorOf } from "../helpers/refusal";
import { hasRestic } from "../helpers/require-part";
import { hasOutwardAddress, outwardAddress } from "../helpers/outward-address";

let ctx: PanelWithNode;
/** Same secret as the panel's node, but its config names another node id. */
let twin: TestNode;
/** Another node with a secret of its own. */
let other: TestNode;
let serverId: string;

beforeAll(async () => {
  ctx = await panelWithNode();
  serverId = await ctx.createServer("trusted");
  twin = await startTestNode({ secret: ctx.node.config.secret, id: ctx.nodeId + 98 });
  other = await startTestNode();
});
afterAll(async () => {
  await Promise.all([ctx.node.stop(), twin.stop(), other.stop()]);
});

const row = async () => (await ctx.panel.db.select().from(schema.nodes).where(eq(schema.nodes.id, ctx.nodeId)).get())!;
const pointNodeAt = async (port: number) => await ctx.panel.db.update(schema.nodes).set({ privateHost: "127.0.0.1", privatePort: port }).where(eq(schema.nodes.id, ctx.nodeId)).run();

interface Caught {
  method: string;
  path: string;
  authorization: string;
}

describe("a node token caught on its way", () => {
  test("is good once, for its request only, and for no other node", async () => {
    // A party on the path between panel and node: it passes everything on and keeps the tokens.
    const caught: Caught[] = [];
    const relay = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (request) => {
        const url = new URL(request.url);
        const authorization = request.headers.get("authorization");
        if (authorization) caught.push({ method: request.method, path: `${url.pathname}${url.search}`, authorization });
        const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
        return fetch(`${ctx.node.node.url}${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body });
      },
    });
    await pointNodeAt(relay.port!);
    try {
      expect((await ctx.panel.request(`/proxy/daemon/server/${serverId}`, { token: ctx.admin.token })).status).toBe(200);
      expect((await ctx.page(`/node/${ctx.nodeId}`, ctx.admin.token)).status).toBe(200);
    } finally {
      await pointNodeAt(ctx.node.node.port);
      relay.stop(true);
    }
    expect(caught.length).toBeGreaterThanOrEqual(2);
    for (const { method, path, authorization } of caught) {
      const replay = (base: string, to = path) => fetch(`${base}${to}`, { method, headers: { authorization } });
      // The same request again, at once: the node remembers the token.
      expect([path, (await replay(ctx.node.node.url)).status]).toEqual([path, 401]);
      // Another path or method with it.
      expect((await replay(ctx.node.node.url, `/daemon/server/${serverId}/files`)).status).toBe(401);
      expect((await fetch(`${ctx.node.node.url}${path}`, { method: "DELETE", headers: { authorization } })).status).toBe(401);
      // Another node: one with the same secret that is another node id, one with its own secret.
      expect((await replay(twin.node.url)).status).toBe(401);
      expect((await replay(other.node.url)).status).toBe(401);
    }
    // Control: the same request with a token of its own is answered.
    expect((await ctx.node.fetch(`${ctx.node.node.url}/daemon/server/${serverId}`)).status).toBe(200);
    expect(existsSync(join(ctx.node.config.dataDir, "servers", `${serverId}.json`))).toBe(true);
  });

  test("a listener put where the node is reached never receives a token: the panel refuses to talk to it", async () => {
    const heard: Array<{ path: string; authorization: string | null }> = [];
    const listener = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (request) => {
        const url = new URL(request.url);
        heard.push({ path: url.pathname, authorization: request.headers.get("authorization") });
        // It answers everything as a node would, and the challenge with a made-up proof.
        return Response.json(url.pathname.endsWith("/proof") ? { proof: "A".repeat(43) } : {});
      },
    });
    await pointNodeAt(listener.port!);
    try {
      expect(await errorOf(await ctx.panel.request(`/proxy/daemon/server/${serverId}`, { token: ctx.admin.token }))).toEqual({ status: 502, code: "ErrNodeUnverified" });
      expect(await errorOf(await ctx.panel.request(`/proxy/daemon/server/${serverId}/data`, { token: ctx.admin.token }))).toEqual({ status: 502, code: "ErrNodeUnverified" });
      expect((await ctx.page(`/node/${ctx.nodeId}`, ctx.admin.token)).status).toBe(200);
    } finally {
      await pointNodeAt(ctx.node.node.port);
      listener.stop(true);
    }
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.filter((h) => h.authorization !== null)).toEqual([]);
    expect(heard.every((h) => h.path === "/kiln-node/proof")).toBe(true);
  });
});

describe("nodes.edit is not an administrator", () => {
  const body = async () => {
    const r = await row();
    return { name: r.name, publicHost: r.publicHost, publicPort: r.publicPort, privateHost: r.privateHost, privatePort: r.privatePort, sftpPort: r.sftpPort, internalHost: r.internalHost ?? "" };
  };

  test("moving a node (its private or public address, its ports) is refused, by the API and the form; renaming is not", async () => {
    const editor = await loginAs(ctx.panel.db, [SCOPES.nodesView, SCOPES.nodesEdit]);
    const before = await row();
    for (const change of [{ privateHost: "127.0.0.2" }, { privatePort: 9 }, { publicHost: "phish.example.net" }, { sftpPort: 2222 }, { publicPort: 1 }, { internalHost: "10.0.0.9" }]) {
      expect(await errorOf(await ctx.panel.request(`/api/nodes/${ctx.nodeId}`, { token: editor.token, ...jsonInit("PUT", { ...await body(), ...change }) }))).toEqual({ status: 403, code: "ErrMissingScope" });
      const form = Object.fromEntries(Object.entries({ ...await body(), ...change }).map(([k, v]) => [k, String(v)]));
      expect((await ctx.panel.request(`/node/${ctx.nodeId}`, { token: editor.token, ...formInit(form) })).status).toBe(403);
      expect(await row()).toEqual(before);
    }
    // The node's page shows the address fields read-only to them.
    const page = (await ctx.page(`/node/${ctx.nodeId}`, editor.token)).html;
    for (const field of ["publicHost", "privateHost", "privatePort", "sftpPort"]) expect(page).toMatch(new RegExp(`<input[^>]*readOnly=""[^>]*name="${field}"`));
    const renamed = await ctx.panel.request(`/api/nodes/${ctx.nodeId}`, { token: editor.token, ...jsonInit("PUT", { ...await body(), name: "renamed" }) });
    expect(renamed.status).toBe(200);
    expect((await row()).name).toBe("renamed");
    expect((await ctx.panel.request(`/api/nodes/${ctx.nodeId}`, { token: ctx.admin.token, ...jsonInit("PUT", { ...await body(), name: before.name }) })).status).toBe(200);
  });

  test("backup targets, their repository passwords and recovery are an administrator's", async () => {
    const editor = await loginAs(ctx.panel.db, [SCOPES.nodesView, SCOPES.nodesEdit]);
    const targetsFile = join(ctx.node.config.dataDir, "backups", "targets.json");
    const read = () => (existsSync(targetsFile) ? readFileSync(targetsFile, "utf8") : null);
    const before = read();
    const address = outwardAddress() ?? "192.0.2.1";
    const s3 = { endpoint: `http://${address}:9000`, bucket: "mine", accessKeyId: "k", secretAccessKey: "s" };
    for (const [path, init] of [
      [`/node/${ctx.nodeId}/backup-targets/s3`, formInit(s3)],
      [`/node/${ctx.nodeId}/backup-targets/sftp/delete`, formInit({})],
      [`/node/${ctx.nodeId}/backup-targets/local/recover`, formInit({})],
      [`/node/${ctx.nodeId}/backup-targets/local/password`, {}],
    ] as const) {
      const response = await ctx.panel.request(path, { token: editor.token, ...init });
      expect([path, response.status]).toEqual([path, 403]);
      expect(await response.text()).not.toMatch(/[A-Za-z0-9_-]{43}/);
    }
    expect(read()).toEqual(before);
    expect((await ctx.page(`/node/${ctx.nodeId}`, editor.token)).html).not.toContain('data-testid="backup-targets"');
    expect((await ctx.page(`/node/${ctx.nodeId}`, ctx.admin.token)).html).toContain('data-testid="backup-targets"');
  });
});

describe("where a backup target may lead", () => {
  const hasAddress = hasOutwardAddress();
  const key = "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----";
  const targetsFile = () => join(ctx.node.config.dataDir, "backups", "targets.json");
  const read = () => (existsSync(targetsFile()) ? readFileSync(targetsFile(), "utf8") : null);

  test.skipIf(!hasAddress)("not to loopback in any spelling, link-local, nor this machine's own node services", async () => {
    const address = outwardAddress()!;
    const before = read();
    const own = [ctx.node.node.port, ctx.node.node.sftpPort];
    const endpoints = ["http://127.0.0.1:9000", "http://127.1:9000", "http://2130706433:9000", "http://0x7f.0.0.1:9000", "http://017700000001:9000", "http://[::1]:9000", "http://[::ffff:127.0.0.1]:9000", "http://0.0.0.0:9000", "http://localhost:9000", "http://169.254.169.254", "http://[fe80::1]:9000", ...own.map((port) => `http://${address}:${port}`)];
    for (const endpoint of endpoints) {
      const response = await ctx.node.call("PUT", "/daemon/backup-targets/s3", { endpoint, bucket: "kiln", accessKeyId: "a", secretAccessKey: "b" });
      expect([endpoint, await errorOf(response)]).toEqual([endpoint, { status: 400, code: "ErrAddressRefused" }]);
    }
    for (const [host, port] of [["127.0.0.1", 22], ["127.1", 22], ["[::1]", 22], ["localhost", 22], ["0.0.0.0", 22], ...own.map((p) => [address, p] as const)] as const) {
      const response = await ctx.node.call("PUT", "/daemon/backup-targets/sftp", { host, port, user: "kiln", path: "/srv/restic", privateKey: key });
      expect([host, port, await errorOf(response)]).toEqual([host, port, { status: 400, code: "ErrAddressRefused" }]);
    }
    expect(read()).toEqual(before);
    // Through the node page's form the refusal is said in the card.
    const page = await ctx.panel.request(`/node/${ctx.nodeId}/backup-targets/s3`, { token: ctx.admin.token, ...formInit({ endpoint: "http://2130706433:9000", bucket: "kiln", accessKeyId: "a", secretAccessKey: "b" }) });
    expect(page.status).toBe(400);
    expect(read()).toEqual(before);
  });

  test.skipIf(!hasAddress)("a stored key or secret does not follow a target to a new place", async () => {
    const address = outwardAddress()!;
    const sftp = { host: address, port: 2022, user: "kiln", path: "/srv/restic" };
    expect((await ctx.node.call("PUT", "/daemon/backup-targets/sftp", { ...sftp, privateKey: key })).status).toBe(200);
    // The same place again without the key keeps it; a new folder, user, port or host without it is refused.
    expect((await ctx.node.call("PUT", "/daemon/backup-targets/sftp", sftp)).status).toBe(200);
    const before = read();
    for (const moved of [{ path: "/srv/other" }, { user: "other" }, { port: 2023 }]) {
      expect(await errorOf(await ctx.node.call("PUT", "/daemon/backup-targets/sftp", { ...sftp, ...moved }))).toEqual({ status: 400, code: "ErrFieldRequired" });
    }
    expect(read()).toEqual(before);
    const s3 = { endpoint: `http://${address}:9000`, bucket: "kiln", path: "a", accessKeyId: "k" };
    expect((await ctx.node.call("PUT", "/daemon/backup-targets/s3", { ...s3, secretAccessKey: "secret" })).status).toBe(200);
    const withS3 = read();
    for (const moved of [{ bucket: "elsewhere" }, { path: "b" }, { endpoint: `http://${address}:9001` }]) {
      expect(await errorOf(await ctx.node.call("PUT", "/daemon/backup-targets/s3", { ...s3, ...moved }))).toEqual({ status: 400, code: "ErrFieldRequired" });
    }
    expect(read()).toEqual(withS3);
    for (const kind of ["sftp", "s3"]) expect((await ctx.node.call("DELETE", `/daemon/backup-targets/${kind}`)).status).toBe(204);
  });
});

describe.skipIf(!hasRestic())("recovery", () => {
  test("makes only servers the panel knows on the node: a definition planted in the repository stays there", async () => {
    // A server the panel never made, backed up into the node's repository, then gone from the node.
    expect((await ctx.node.call("PUT", "/daemon/server/planted", { ...echoTemplate(), run: { ...echoTemplate().run, autostart: true } })).status).toBe(201);
    writeFileSync(ctx.node.folder("planted", "payload.txt"), "planted");
    expect((await ctx.node.call("POST", "/daemon/server/planted/backups?wait=true")).ok).toBe(true);
    expect((await ctx.node.call("DELETE", "/daemon/server/planted")).status).toBe(204);
    const response = await ctx.panel.request(`/node/${ctx.nodeId}/backup-targets/local/recover`, { token: ctx.admin.token, ...formInit({}) });
    expect(response.status).toBe(303);
    expect(existsSync(join(ctx.node.config.dataDir, "servers", "planted.json"))).toBe(false);
    // The panel's own server is still there, as it was.
    expect(existsSync(join(ctx.node.config.dataDir, "servers", `${serverId}.json`))).toBe(true);
  }, 60_000);
});
