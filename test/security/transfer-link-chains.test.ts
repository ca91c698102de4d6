// Attack: a hostile source sends a manifest of link chains, each link sorted before the one its
// text goes through (`a00_00 -> a00_01/d/..`, `a00_01 -> a00_02/d/..`, …, 39 deep, the kernel
// follows 40). The target made links in rounds, each round trying every link still refused, all in
// one go on the node's one thread: 3,900 such links held it (every server's console, API and
// heartbeat on the node) for 8 to 16 s, and 39,000 for over 100 s. Links are now made a few
// hundred per turn of the event loop, in MAX_LINK_ROUNDS rounds at most (a deeper chain is refused,
// ErrTransferManifest), and the checks after them take turns too.
import { longestStall } from "../helpers/thread-stall";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readlinkSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { compareManifestPaths, manifestDigest } from "../../core/transfer/digest";
import type { ManifestEntry, PullProgress } from "../../core/transfer/wire";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";

let node: TestNode;
const TARGET_ID = "chained";

beforeAll(async () => {
  node = await startTestNode();
  await node.json("PUT", `/daemon/server/${TARGET_ID}`, echoTemplate());
});
afterAll(() => node?.stop());

/** `chains` chains of `depth` links, each going through the next (sorted after it), the last to "d/..". */
function chained(chains: number, depth: number): ManifestEntry[] {
  const entries: ManifestEntry[] = [{ path: "d", type: "dir", mode: 0o755 }];
  for (let c = 0; c < chains; c++) {
    const name = (k: number) => `a${String(c).padStart(4, "0")}_${String(k).padStart(2, "0")}`;
    for (let k = 0; k < depth; k++) entries.push({ path: name(k), type: "symlink", target: k < depth - 1 ? `${name(k + 1)}/d/..` : "d/.." });
  }
  return entries.sort((a, b) => compareManifestPaths(a.path, b.path));
}

/** Pulls `entries` from a source serving them; the pull's end and the longest the node's event loop was held meanwhile. */
async function pull(entries: ManifestEntry[]): Promise<{ progress: PullProgress; longestHold: number }> {
  rmSync(node.folder(TARGET_ID), { recursive: true, force: true });
  mkdirSync(node.folder(TARGET_ID), { recursive: true });
  const manifest = JSON.stringify({ entries, totalBytes: 0, digest: manifestDigest(entries) });
  const source = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(manifest) });
  try {
    let progress!: PullProgress;
    const longestHold = await longestStall(async () => {
      const started = await node.call("POST", `/daemon/server/${TARGET_ID}/transfer/pull`, { source: `http://127.0.0.1:${source.port}`, ticket: randomBytes(32).toString("base64url") });
      expect(started.status).toBe(202);
      await eventually(async () => (progress = await node.json("GET", `/daemon/server/${TARGET_ID}/transfer/pull`)).state !== "copying", 120_000, "the pull to end");
    });
    return { progress, longestHold };
  } finally {
    source.stop(true);
  }
}

test("3,900 chained links never hold the node's thread for long, and a chain deeper than the rounds is refused", async () => {
  const { progress, longestHold } = await pull(chained(100, 39));
  expect([progress.state, progress.error]).toEqual(["failed", "ErrTransferManifest"]);
  expect(longestHold).toBeLessThan(1500);
}, 180_000);

test("a short chain against the manifest's order is still made", async () => {
  const { progress } = await pull(chained(2, 3));
  expect([progress.state, progress.error]).toEqual(["done", undefined]);
  expect(readlinkSync(join(node.folder(TARGET_ID), "a0001_00"))).toBe("a0001_01/d/..");
}, 60_000);
