// A 200 MB file uploaded through the panel's proxy to the node and downloaded back, against a
// real `kiln panel` process (panel plus local node): the bytes arrive intact and the process's
// peak memory (VmHWM) grows by far less than the file, so nothing holds the file whole.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { openSync, readFileSync, statSync, writeSync, closeSync } from "node:fs";
import { join } from "node:path";
import { KILN, freePort, startKiln, tempDir } from "./helpers/process";
import { echoTemplate } from "./helpers/node";

const SIZE = 200 * 1024 * 1024;
/** What the panel may grow by while moving the file: a small fraction of it. */
const MAX_GROWTH_BYTES = 64 * 1024 * 1024;
const ADMIN = { email: "admin@example.com", password: "a-long-password" };
const data = tempDir("kiln-large-");
let panel: Awaited<ReturnType<typeof startKiln>>;
let base = "";
let token = "";

const call = (method: string, path: string, init: RequestInit = {}) => fetch(`${base}${path}`, { method, ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
const peakRss = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${panel.proc.pid}/status`, "utf8"))![1]) * 1024;

beforeAll(async () => {
  const port = await freePort();
  panel = await startKiln([...KILN, "panel"], { KILN_DATA: data, KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0", KILN_ADMIN_EMAIL: ADMIN.email, KILN_ADMIN_PASSWORD: ADMIN.password }, /local node listening on/);
  base = `http://127.0.0.1:${port}`;
  token = (await (await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) })).json()).session;
});
afterAll(() => panel.proc.kill("SIGTERM"));

function writeSample(path: string): string {
  const hash = createHash("sha256");
  const fd = openSync(path, "w");
  const block = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < SIZE / block.length; i++) {
    block.fill(i % 251);
    block.writeUInt32LE(i, 0);
    writeSync(fd, block);
    hash.update(block);
  }
  closeSync(fd);
  return hash.digest("hex");
}

test("200 MB up and down through the proxy: intact, and the panel's memory stays flat", async () => {
  expect((await call("PUT", "/api/templates/echo", { headers: { "content-type": "application/json" }, body: JSON.stringify(echoTemplate()) })).status).toBe(200);
  const nodes = (await (await call("GET", "/api/nodes")).json()) as Array<{ id: number }>;
  const created = await call("POST", "/api/servers", { headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "big files", node: nodes[0]!.id, template: "echo", environment: { type: "standard" } }) });
  expect(created.status).toBe(201);
  const { id } = await created.json();

  const sample = join(tempDir("kiln-sample-"), "world.bin");
  const expected = writeSample(sample);
  // Warm up the routes once so what follows measures the file, not the first request's code paths.
  const warm = new FormData();
  warm.append("file", new Blob(["warm"]), "warm.txt");
  expect((await call("PUT", `/proxy/daemon/server/${id}/file/warm.txt`, { body: warm })).status).toBe(200);
  await (await call("GET", `/proxy/daemon/server/${id}/file/warm.txt`)).text();
  const before = peakRss();

  const form = new FormData();
  form.append("file", Bun.file(sample), "world.bin");
  const put = await call("PUT", `/proxy/daemon/server/${id}/file/world.bin`, { body: form });
  expect(put.status).toBe(200);
  expect((await put.json()).size).toBe(SIZE);
  expect(statSync(join(data, "node", "servers", id, "world.bin")).size).toBe(SIZE);

  const got = await call("GET", `/proxy/daemon/server/${id}/file/world.bin`);
  expect(got.status).toBe(200);
  expect(got.headers.get("content-security-policy")).toContain("sandbox");
  const hash = createHash("sha256");
  let received = 0;
  for await (const chunk of got.body!) {
    hash.update(chunk);
    received += chunk.byteLength;
  }
  expect(received).toBe(SIZE);
  expect(hash.digest("hex")).toBe(expected);

  const growth = peakRss() - before;
  console.log(`panel peak memory grew by ${(growth / 1024 / 1024).toFixed(1)} MiB moving ${SIZE / 1024 / 1024} MiB each way`);
  expect(growth).toBeLessThan(MAX_GROWTH_BYTES);
}, 120_000);
