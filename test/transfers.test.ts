// Moving a server between real nodes: a stopped server's folder copied file by file and checked,
// the row switched and the source's copy gone; a running server moved with keepRunning (copied
// while it runs, stopped only for the final sync, started on the target); a cancelled move and a
// target killed with SIGKILL half-way (a `kiln daemon` process) each leave the server on the
// source as it was, and a retry completes with equal checksums.
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { and, eq } from "drizzle-orm";
import { schema } from "../db";
import { panelWithTwoNodes, addNodeRow, jsonInit, type PanelWithNode } from "./helpers/panel-node";
import { eventually as waitFor, type TestNode } from "./helpers/node";
import { fileSha256 } from "./helpers/checksums";
import { KILN, freePort, startKiln, tempDir } from "./helpers/process";
import { echoTemplate } from "./helpers/node";
import { callOperation, jsonInit as nodeJson } from "../server/daemon-client";
import { reconcileNode } from "../server/services/servers";

let ctx: PanelWithNode;
let second: TestNode;
let nodeB: number;
panelWithTwoNodes((made) => ({ ctx, second, nodeB } = made));

const call = (method: string, path: string, body?: unknown) => ctx.panel.request(path, { token: ctx.admin.token, ...jsonInit(method, body) });
const folderOn = (dataDir: string, id: string) => join(dataDir, "servers", id);
const nodeOf = async (id: string) => (await ctx.panel.db.select().from(schema.servers).where(eq(schema.servers.id, id)).get())!.nodeId;

/** Every file under `root` by relative path, with its SHA-256. */
function checksums(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (!stat) continue;
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) out[relative(root, path)] = fileSha256(path);
    }
  };
  walk(root);
  return out;
}

/** The server's install (it runs straight after creation) has written its file, so the folder holds still. */
async function installed(folder: string): Promise<void> {
  await waitFor(() => existsSync(join(folder, "motd.txt")), 30_000, "the install");
  await Bun.sleep(200);
}

function fill(folder: string, bigMiB: number): void {
  mkdirSync(join(folder, "world", "region"), { recursive: true });
  writeFileSync(join(folder, "server.properties"), "motd=moved\n");
  writeFileSync(join(folder, "world", "level.dat"), randomBytes(4096));
  writeFileSync(join(folder, "world", "region", "r.0.0.mca"), randomBytes(bigMiB * 1024 * 1024));
}

async function finished(id: string, timeoutMs = 120_000): Promise<{ state: string; error: string | null; bytes: number; totalBytes: number }> {
  let last: { state: string; error: string | null; bytes: number; totalBytes: number } | null = null;
  await waitFor(async () => {
    last = (await (await call("GET", `/api/servers/${id}/transfer`)).json()) as typeof last;
    return last !== null && !["copying", "syncing", "starting"].includes(last.state);
  }, timeoutMs);
  return last!;
}

describe("moving a server", () => {
  test("a stopped server's files arrive checked, the row moves, the source's copy is gone", async () => {
    const id = await ctx.createServer("move-stopped");
    const source = folderOn(ctx.node.config.dataDir, id);
    await installed(source);
    fill(source, 20);
    const before = checksums(source);
    const started = await call("POST", `/api/servers/${id}/transfer`, { node: nodeB });
    expect(started.status, await started.clone().text()).toBe(202);
    expect((await call("POST", `/api/servers/${id}/transfer`, { node: nodeB })).status).toBe(409);
    const end = await finished(id);
    expect(end).toMatchObject({ state: "done", error: null });
    expect(end.bytes).toBe(end.totalBytes);
    expect(await nodeOf(id)).toBe(nodeB);
    expect(checksums(folderOn(second.config.dataDir, id))).toEqual(before);
    expect(existsSync(source)).toBe(false);
    // The server works where it is now.
    expect((await call("GET", `/proxy/daemon/server/${id}/file/server.properties`)).status).toBe(200);
    // A copy a move leaves on the other node (its node did not answer at the time) goes at its next reconcile.
    const sourceRow = (await ctx.panel.db.select().from(schema.nodes).where(eq(schema.nodes.id, ctx.nodeId)).get())!;
    expect((await callOperation(sourceRow, "createServer", { id }, nodeJson({ ...echoTemplate(), id }))).status).toBe(201);
    await reconcileNode(ctx.panel.db, sourceRow, () => undefined);
    expect((await callOperation(sourceRow, "definition", { id })).status).toBe(404);
  }, 60_000);

  test("hard links and special files the move cannot carry are named on its row, its activity and the Admin tab", async () => {
    const id = await ctx.createServer("move-left-out");
    const source = folderOn(ctx.node.config.dataDir, id);
    await installed(source);
    writeFileSync(join(source, "shared.dat"), "two names");
    linkSync(join(source, "shared.dat"), join(source, "shared-too.dat"));
    expect(Bun.spawnSync(["mkfifo", join(source, "console.pipe")]).exitCode).toBe(0);
    expect((await call("POST", `/api/servers/${id}/transfer`, { node: nodeB })).status).toBe(202);
    const end = (await finished(id)) as Awaited<ReturnType<typeof finished>> & { skipped: unknown };
    expect(end).toMatchObject({ state: "done", error: null });
    expect(end.skipped).toEqual({ count: 3, paths: [{ path: "console.pipe", kind: "special" }, { path: "shared-too.dat", kind: "hardlink" }, { path: "shared.dat", kind: "hardlink" }] });
    const [event] = await ctx.panel.db.select().from(schema.activity).where(and(eq(schema.activity.event, "server.transfer.completed"), eq(schema.activity.serverId, id))).all();
    expect(JSON.parse(String(event!.properties))).toMatchObject({ skipped: 3 });
    const { html } = await ctx.page(`/server/${id}?tab=admin`, ctx.admin.token);
    expect(html).toContain("could not carry hard links");
    expect(html).toContain("console.pipe, shared-too.dat, shared.dat");
  }, 60_000);

  test("keepRunning: a running server is copied while it runs, stopped for the final sync, and started on the target", async () => {
    const id = await ctx.createServer("move-running");
    await installed(folderOn(ctx.node.config.dataDir, id));
    fill(folderOn(ctx.node.config.dataDir, id), 5);
    expect((await call("POST", `/proxy/daemon/server/${id}/start?wait=true`)).status).toBeLessThan(300);
    expect((await call("POST", `/api/servers/${id}/transfer`, { node: ctx.nodeId === await nodeOf(id) ? nodeB : ctx.nodeId, keepRunning: true })).status).toBe(202);
    expect((await finished(id)).state).toBe("done");
    expect(await nodeOf(id)).toBe(nodeB);
    const status = (await (await call("GET", `/proxy/daemon/server/${id}/status`)).json()) as { running: boolean };
    expect(status.running).toBe(true);
    await call("POST", `/proxy/daemon/server/${id}/kill?wait=true`);
  }, 60_000);

  test("a cancelled move leaves the server on the source as it was, and the target holds no copy", async () => {
    const id = await ctx.createServer("move-cancelled");
    const source = folderOn(ctx.node.config.dataDir, id);
    await installed(source);
    fill(source, 300);
    const before = checksums(source);
    expect((await call("POST", `/api/servers/${id}/transfer`, { node: nodeB })).status).toBe(202);
    await waitFor(async () => (((await (await call("GET", `/api/servers/${id}/transfer`)).json()) as { bytes: number }).bytes > 0), 60_000);
    expect((await call("DELETE", `/api/servers/${id}/transfer`)).status).toBe(202);
    const end = await finished(id);
    expect(end).toMatchObject({ state: "cancelled", error: "ErrTransferCancelled" });
    expect(await nodeOf(id)).toBe(ctx.nodeId);
    expect(checksums(source)).toEqual(before);
    expect(existsSync(folderOn(second.config.dataDir, id))).toBe(false);
  }, 120_000);

  test("a target killed half-way leaves the source intact; a retry to it completes with equal checksums", async () => {
    const port = await freePort();
    const secret = randomBytes(24).toString("base64url");
    const data = tempDir("kiln-target-");
    const env = { KILN_DAEMON_SECRET: secret, KILN_DAEMON_PORT: String(port), KILN_DAEMON_HOST: "127.0.0.1", KILN_DAEMON_SFTP_PORT: "0", KILN_DAEMON_DATA: data };
    let target = await startKiln([...KILN, "daemon"], env, /node listening on/);
    const nodeC = await addNodeRow(ctx.panel, "node-c", port, secret);
    const id = await ctx.createServer("move-killed");
    const source = folderOn(ctx.node.config.dataDir, id);
    await installed(source);
    fill(source, 200);
    const before = checksums(source);
    try {
      expect((await call("POST", `/api/servers/${id}/transfer`, { node: nodeC })).status).toBe(202);
      await waitFor(async () => (((await (await call("GET", `/api/servers/${id}/transfer`)).json()) as { bytes: number }).bytes > 0), 60_000);
      target.proc.kill("SIGKILL");
      const end = await finished(id);
      expect(end.state).toBe("failed");
      expect(await nodeOf(id)).toBe(ctx.nodeId);
      expect(checksums(source)).toEqual(before);
      // The node comes back (same data folder): the retry completes.
      target = await startKiln([...KILN, "daemon"], env, /node listening on/);
      expect((await call("POST", `/api/servers/${id}/transfer`, { node: nodeC })).status).toBe(202);
      expect((await finished(id)).state).toBe("done");
      expect(await nodeOf(id)).toBe(nodeC);
      expect(checksums(folderOn(data, id))).toEqual(before);
    } finally {
      target.proc.kill("SIGKILL");
    }
  }, 240_000);
});
