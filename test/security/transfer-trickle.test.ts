// Attack: a hostile or broken source node answers a move's reads a byte at a time, each byte just
// before the target's stall timer (a minute) would end the read. A file, or the manifest, then
// never ends: the pull, the move and the target's hold on the server lasted until an administrator
// cancelled. Now a file's read must keep a least pace over a sliding window after its first
// (daemon/transfer/read-pace.ts) and the manifest's read must end within a time, or the pull fails
// with ErrTransferFailed, hangs up on the source, and keeps no half-written file. The node's values
// (64 KiB/s over 30 s, six hours, a minute) are shortened here through the pull's options.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import { manifestDigest } from "../../core/transfer/digest";
import { TRANSFER_SOURCE_PATHS, type ManifestEntry, type PullProgress } from "../../core/transfer/wire";
import { TransferPulls } from "../../daemon/transfer";
import { MANIFEST_MS, type PullOptions } from "../../daemon/transfer/pull";
import { READ_PACE } from "../../daemon/transfer/read-pace";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";

let node: TestNode;
const TARGET_ID = "trickled";
const TICKET = randomBytes(32).toString("base64url");
/** A byte every DRIP_MS: well inside the stall time, far below the floor. */
const DRIP_MS = 100;
const OPTIONS: PullOptions = { stallMs: 1000, pace: { floorBytesPerSecond: 1024, windowMs: 1000 }, manifestMs: 2000 };

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const manifestOf = (entries: ManifestEntry[]) => ({ entries, totalBytes: entries.reduce((sum, e) => sum + (e.type === "file" ? e.size : 0), 0), digest: manifestDigest(entries) });

beforeAll(async () => {
  node = await startTestNode();
  await node.json("PUT", `/daemon/server/${TARGET_ID}`, echoTemplate());
});
afterAll(() => node?.stop());

/** `bytes` in pieces of `size`: see chunks(). */
const drip = (bytes: Uint8Array, everyMs: number, size: number, hungUp?: () => void) => chunks(Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size)), everyMs, hungUp);

/** One of `pieces` every `everyMs`; `hungUp` is called when the reader goes away before the end. */
function chunks(pieces: Uint8Array[], everyMs: number, hungUp: () => void = () => undefined): ReadableStream<Uint8Array> {
  let timer: ReturnType<typeof setInterval>;
  let sent = 0;
  return new ReadableStream({
    start(controller) {
      timer = setInterval(() => {
        if (sent >= pieces.length) {
          clearInterval(timer);
          controller.close();
          return;
        }
        controller.enqueue(pieces[sent++]!);
      }, everyMs);
    },
    cancel() {
      clearInterval(timer);
      hungUp();
    },
  });
}

/** A source answering the manifest and file routes as `answer` says. */
function source(answer: (path: string) => Response) {
  return Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 0, fetch: (request) => answer(new URL(request.url).pathname) });
}

/** Pulls from `server` with OPTIONS; the progress once it stopped copying, and how long that took. */
async function pull(server: ReturnType<typeof source>, waitMs: number): Promise<{ progress: PullProgress; ms: number }> {
  rmSync(node.folder(TARGET_ID), { recursive: true, force: true });
  mkdirSync(node.folder(TARGET_ID), { recursive: true });
  const pulls = new TransferPulls(node.node.manager, OPTIONS);
  const started = Date.now();
  pulls.start(TARGET_ID, { source: `http://127.0.0.1:${server.port}`, ticket: TICKET });
  let progress!: PullProgress;
  try {
    await eventually(() => (progress = pulls.progress(TARGET_ID)).state !== "copying", waitMs, "the pull to end");
  } finally {
    await pulls.cancel(TARGET_ID);
  }
  return { progress, ms: Date.now() - started };
}

test("the node's own pace and manifest time are the documented ones", () => {
  expect(READ_PACE).toEqual({ floorBytesPerSecond: 64 * 1024, windowMs: 30_000 });
  expect(MANIFEST_MS).toBe(6 * 60 * 60_000);
});

test("a file dripped a byte at a time fails the pull within the window, and nothing half-written is kept", async () => {
  const bytes = randomBytes(100_000);
  let hungUp = false;
  const server = source((path) =>
    path === TRANSFER_SOURCE_PATHS.manifest
      ? Response.json(manifestOf([{ path: "world.dat", type: "file", mode: 0o644, size: bytes.length, sha256: sha(bytes) }]))
      : new Response(drip(bytes, DRIP_MS, 1, () => (hungUp = true))),
  );
  try {
    // Before: the file would have taken 100,000 × 100 ms; the pull was still copying at the wait's end.
    const { progress, ms } = await pull(server, 6000);
    expect([progress.state, progress.error]).toEqual(["failed", "ErrTransferFailed"]);
    // The grace window, a window short of the floor, a check's delay, and slack for a loaded machine.
    expect(ms).toBeLessThan(4000);
    expect(progress.bytes).toBeLessThan(100);
    expect(readdirSync(node.folder(TARGET_ID))).toEqual([]);
    await eventually(() => hungUp, 2000, "the target to hang up on the source");
  } finally {
    server.stop(true);
  }
}, 30_000);

test("a manifest that trickles spaces forever fails the pull at its time, and nothing is written", async () => {
  const server = source((path) => {
    if (path !== TRANSFER_SOURCE_PATHS.manifest) return new Response("not asked", { status: 500 });
    // What a source hashing a file sends (a space now and then), without end.
    return new Response(new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"entries":['));
        const timer = setInterval(() => {
          try {
            controller.enqueue(new TextEncoder().encode(" "));
          } catch {
            clearInterval(timer);
          }
        }, DRIP_MS * 3);
      },
    }));
  });
  try {
    const { progress, ms } = await pull(server, 6000);
    expect([progress.state, progress.error]).toEqual(["failed", "ErrTransferFailed"]);
    expect(ms).toBeGreaterThanOrEqual(OPTIONS.manifestMs!);
    expect(ms).toBeLessThan(OPTIONS.manifestMs! + 2000);
    expect(readdirSync(node.folder(TARGET_ID))).toEqual([]);
  } finally {
    server.stop(true);
  }
}, 30_000);

test("a source that keeps the pace is not cut, however long its file takes; a slow manifest within its time passes", async () => {
  // 512 bytes every 100 ms (5 KiB/s, five times the floor) for three windows.
  const bytes = randomBytes(15_360);
  const server = source((path) => {
    if (path !== TRANSFER_SOURCE_PATHS.manifest) return new Response(drip(bytes, DRIP_MS, 512));
    // Spaces, far below a file's floor, while the source hashes (1.2 s, more than a window), then the list.
    const encode = (text: string) => new TextEncoder().encode(text);
    const list = JSON.stringify(manifestOf([{ path: "world.dat", type: "file", mode: 0o644, size: bytes.length, sha256: sha(bytes) }]));
    return new Response(chunks([...Array.from({ length: 6 }, () => encode(" ")), encode(list)], DRIP_MS * 2), { headers: { "content-type": "application/json" } });
  });
  try {
    const { progress, ms } = await pull(server, 15_000);
    expect([progress.state, progress.error]).toEqual(["done", undefined]);
    expect(ms).toBeGreaterThan(2 * OPTIONS.pace!.windowMs);
    expect(readFileSync(join(node.folder(TARGET_ID), "world.dat")).equals(bytes)).toBe(true);
  } finally {
    server.stop(true);
  }
}, 30_000);
