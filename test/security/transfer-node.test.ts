// Attack: moving a server between nodes, at the nodes. The source's node-to-node routes open with
// the offer's ticket and nothing else (no ticket, a wrong, revoked or expired one, or the panel's
// own token: 401), and only the offered server's folder, through its jail (no path out, no link
// out, no hard link, not another server's folder). A hostile source (a small server answering as
// a source would, but lying) cannot make the target write outside its server's folder, keep a file
// whose bytes are not the manifest's, or leave a partial file behind: the pull fails with a
// catalogue error and the folder holds nothing half-written.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import type { Server } from "bun";
import { ERROR_CODES } from "../../core/errors";
import { manifestDigest } from "../../core/transfer/digest";
import { TRANSFER_SOURCE_PATHS, type ManifestEntry, type PullProgress } from "../../core/transfer/wire";
import { TransferOffers, TransferPulls } from "../../daemon/transfer";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";
import { tempDir } from "../helpers/process";

let node: TestNode;
const SOURCE_ID = "offered";
const OTHER_ID = "neighbour";
const TARGET_ID = "pulling";
const outside = tempDir("kiln-transfer-outside-");
writeFileSync(join(outside, "secret.txt"), "host secret");

const folderOf = (id: string) => node.folder(id);
const sha = (bytes: string | Uint8Array) => createHash("sha256").update(bytes).digest("hex");

beforeAll(async () => {
  node = await startTestNode();
  for (const id of [SOURCE_ID, OTHER_ID, TARGET_ID]) {
    await node.json("PUT", `/daemon/server/${id}`, echoTemplate());
    mkdirSync(folderOf(id), { recursive: true });
  }
  writeFileSync(join(folderOf(SOURCE_ID), "mine.txt"), "offered content");
  mkdirSync(join(folderOf(SOURCE_ID), "sub"));
  writeFileSync(join(folderOf(OTHER_ID), "theirs.txt"), "the neighbour's");
  // What a server process could plant: links out of the folder, and a hard link to a host file.
  symlinkSync(outside, join(folderOf(SOURCE_ID), "out-dir"));
  symlinkSync(join(outside, "secret.txt"), join(folderOf(SOURCE_ID), "out-file"));
  symlinkSync(`../${OTHER_ID}`, join(folderOf(SOURCE_ID), "neighbour-link"));
  linkSync(join(outside, "secret.txt"), join(folderOf(SOURCE_ID), "hard.txt"));
});
afterAll(() => node?.stop());

/** A catalogue error body with this status and code, naming no host folder. */
async function expectRefusal(response: Response, status: number, code?: string): Promise<void> {
  const text = await response.text();
  const body = JSON.parse(text);
  expect([response.status, ERROR_CODES.includes(body.error?.code)]).toEqual([status, true]);
  if (code) expect(body.error.code).toBe(code);
  for (const secret of [node.config.dataDir, outside, "host secret", "the neighbour's"]) expect(text).not.toContain(secret);
}

const sourceUrl = (path: string) => `${node.node.url}${path}`;
const withTicket = (ticket: string) => ({ headers: { authorization: `Bearer ${ticket}` } });

describe("the source's routes", () => {
  let ticket: string;
  beforeAll(async () => {
    ticket = (await node.json("POST", `/daemon/server/${SOURCE_ID}/transfer/offer`)).ticket;
  });

  test("only the offer's ticket opens them: none, a wrong one, the panel's token or another scheme is 401", async () => {
    const manifest = sourceUrl(TRANSFER_SOURCE_PATHS.manifest);
    const file = sourceUrl(`${TRANSFER_SOURCE_PATHS.file}?path=mine.txt`);
    for (const url of [manifest, file]) {
      await expectRefusal(await fetch(url), 401, "ErrInvalidCredentials");
      await expectRefusal(await fetch(url, withTicket(randomBytes(32).toString("base64url"))), 401, "ErrInvalidCredentials");
      await expectRefusal(await fetch(url, withTicket(`${ticket}x`)), 401, "ErrInvalidCredentials");
      await expectRefusal(await fetch(url, { headers: { authorization: `Basic ${ticket}` } }), 401, "ErrInvalidCredentials");
      // A valid, fresh panel-signed token for exactly this request opens nothing here.
      await expectRefusal(await node.fetch(url), 401, "ErrInvalidCredentials");
    }
    expect(await (await fetch(file, withTicket(ticket))).text()).toBe("offered content");
  });

  test("the manifest lists the offered folder only: no link out, no hard link, nothing of another server", async () => {
    const manifest = await (await fetch(sourceUrl(TRANSFER_SOURCE_PATHS.manifest), withTicket(ticket))).json();
    expect(manifest.entries).toEqual([
      { path: "mine.txt", type: "file", mode: expect.any(Number), size: 15, sha256: sha("offered content") },
      { path: "sub", type: "dir", mode: expect.any(Number) },
    ]);
    expect(manifest.digest).toBe(manifestDigest(manifest.entries));
  });

  test("the file route reads nothing outside the folder, and no folder", async () => {
    const read = (path: string) => fetch(sourceUrl(`${TRANSFER_SOURCE_PATHS.file}?path=${encodeURIComponent(path)}`), withTicket(ticket));
    for (const path of ["../offered/mine.txt", `../${OTHER_ID}/theirs.txt`, "/etc/passwd", join(outside, "secret.txt"), "sub/../../neighbour/theirs.txt", "a\\..\\..\\x", "", "sub", ".", "missing.txt", "mine.txt\0"]) {
      await expectRefusal(await read(path), 404);
    }
    // Links out and a hard link to a host file: the jail refuses them.
    for (const path of ["out-dir/secret.txt", "out-file", `neighbour-link/theirs.txt`, "hard.txt"]) await expectRefusal(await read(path), 403, "ErrPathOutside");
    // The query is bounded (a path longer than any name may be; Bun itself refuses far longer
    // request lines), and one path only.
    await expectRefusal(await read("a/".repeat(2100)), 400, "ErrFieldTooLarge");
    expect((await read("a/".repeat(10_000))).status).toBe(431);
    await expectRefusal(await fetch(sourceUrl(`${TRANSFER_SOURCE_PATHS.file}?path=mine.txt&path=mine.txt`), withTicket(ticket)), 400);
    await expectRefusal(await fetch(sourceUrl(TRANSFER_SOURCE_PATHS.file), withTicket(ticket)), 400);
    // A path named by its bytes (a long path of raw bytes) is judged as the same path: nothing outside, one path only.
    const byBytes = (path: string) => fetch(sourceUrl(`${TRANSFER_SOURCE_PATHS.file}?bytes=${Buffer.from(path).toString("base64url")}`), withTicket(ticket));
    for (const path of ["../offered/mine.txt", "/etc/passwd", "sub/../../neighbour/theirs.txt", ""]) await expectRefusal(await byBytes(path), 404);
    expect((await byBytes("mine.txt")).status).toBe(200);
    await expectRefusal(await fetch(sourceUrl(`${TRANSFER_SOURCE_PATHS.file}?path=mine.txt&bytes=bWluZS50eHQ`), withTicket(ticket)), 400);
    await expectRefusal(await fetch(sourceUrl(`${TRANSFER_SOURCE_PATHS.file}?bytes=bWluZS50eHQ=`), withTicket(ticket)), 400);
  });

  test("a revoked or replaced ticket no longer opens anything", async () => {
    const second = (await node.json("POST", `/daemon/server/${SOURCE_ID}/transfer/offer`)).ticket;
    await expectRefusal(await fetch(sourceUrl(TRANSFER_SOURCE_PATHS.manifest), withTicket(ticket)), 401, "ErrInvalidCredentials");
    expect((await fetch(sourceUrl(TRANSFER_SOURCE_PATHS.manifest), withTicket(second))).status).toBe(200);
    expect((await node.call("DELETE", `/daemon/server/${SOURCE_ID}/transfer/offer`)).status).toBe(204);
    await expectRefusal(await fetch(sourceUrl(TRANSFER_SOURCE_PATHS.manifest), withTicket(second)), 401, "ErrInvalidCredentials");
  });

  test("a ticket expires after 24 hours", () => {
    let now = 1_000_000;
    const offers = new TransferOffers(() => now);
    const ticket = offers.offer("s");
    expect(offers.serverFor(ticket)).toBe("s");
    now += 24 * 60 * 60 * 1000 - 1;
    expect(offers.serverFor(ticket)).toBe("s");
    now += 1;
    expect(offers.serverFor(ticket)).toBeNull();
  });
});

/** A source that answers what it is told to, recording what it was asked. */
interface Hostile {
  url: string;
  server: Server<unknown>;
  asked: string[];
}

function hostileSource(answer: (url: URL, request: Request) => Response | Promise<Response>): Hostile {
  const asked: string[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    fetch: (request) => {
      const url = new URL(request.url);
      asked.push(`${url.pathname}${url.search} ${request.headers.get("authorization") ?? ""}`);
      return answer(url, request);
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, server, asked };
}

/** A manifest whose totals and digest are right, so the target looks further. */
function manifestOf(entries: ManifestEntry[]) {
  return { entries, totalBytes: entries.reduce((sum, e) => sum + (e.type === "file" ? e.size : 0), 0), digest: manifestDigest(entries) };
}

/** Every entry under the data folder's servers (partial files would show here). */
function serversTree(): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(node.config.dataDir, "servers", rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      out.push(path);
      if (entry.isDirectory()) walk(path);
    }
  };
  walk("");
  return out.sort();
}

const TICKET = randomBytes(32).toString("base64url");

async function pullFrom(source: Hostile, prune = false): Promise<PullProgress> {
  const response = await node.call("POST", `/daemon/server/${TARGET_ID}/transfer/pull`, { source: source.url, ticket: TICKET, prune });
  expect(response.status).toBe(202);
  let last!: PullProgress;
  await eventually(async () => (last = await node.json("GET", `/daemon/server/${TARGET_ID}/transfer/pull`)).state !== "copying", 15_000, "the pull to end");
  return last;
}

describe("a hostile source", () => {
  let before: string[];
  beforeAll(() => {
    rmSync(folderOf(TARGET_ID), { recursive: true, force: true });
    mkdirSync(folderOf(TARGET_ID));
    before = serversTree();
  });

  /** Nothing was written anywhere: no file, no partial file, not beside the folder, not outside. */
  function expectNothingWritten(): void {
    expect(serversTree()).toEqual(before);
    expect(readdirSync(outside)).toEqual(["secret.txt"]);
    expect(existsSync(join(node.config.dataDir, "x"))).toBe(false);
  }

  const badManifests: [string, unknown][] = [
    ["a path climbing out", manifestOf([{ path: "../x", type: "file", mode: 0o644, size: 1, sha256: sha("x") }])],
    ["a path climbing out half way", manifestOf([{ path: "a", type: "dir", mode: 0o755 }, { path: "a/../../x", type: "file", mode: 0o644, size: 1, sha256: sha("x") }])],
    ["an absolute path", manifestOf([{ path: join(outside, "x"), type: "file", mode: 0o644, size: 1, sha256: sha("x") }])],
    ["a NUL byte", manifestOf([{ path: "x\0y", type: "file", mode: 0o644, size: 1, sha256: sha("x") }])],
    // A backslash is a byte of a Linux name ("..\\x" is one name, carried: security/transfer-odd-names); these spellings are not names.
    ["a second spelling of a name (escapes that spell UTF-8)", manifestOf([{ path: "\uEFC3\uEFA9", type: "file", mode: 0o644, size: 1, sha256: sha("x") }])],
    ["a name over 255 bytes on disk", manifestOf([{ path: "\uEFE9".repeat(256), type: "file", mode: 0o644, size: 1, sha256: sha("x") }])],
    ["a link spelled with escapes that spell UTF-8", manifestOf([{ path: "l", type: "symlink", target: "\uEFC3\uEFA9" }])],
    ["an entry below a link", manifestOf([{ path: "a", type: "symlink", target: "." }, { path: "a/x", type: "file", mode: 0o644, size: 1, sha256: sha("x") }])],
    ["an absolute link", manifestOf([{ path: "l", type: "symlink", target: outside }])],
    ["a path named twice", manifestOf([{ path: "x", type: "dir", mode: 0o755 }, { path: "x", type: "dir", mode: 0o755 }])],
    ["setuid bits", manifestOf([{ path: "x", type: "dir", mode: 0o4755 }])],
    ["a digest that does not match", { ...manifestOf([{ path: "x", type: "dir", mode: 0o755 }]), digest: "0".repeat(64) }],
    ["a total that does not match", { ...manifestOf([{ path: "x", type: "file", mode: 0o644, size: 1, sha256: sha("x") }]), totalBytes: 0 }],
    ["more than 100,000 entries", manifestOf(Array.from({ length: 100_001 }, (_, i) => ({ path: `d${String(i).padStart(6, "0")}`, type: "dir" as const, mode: 0o755 })))],
    ["not JSON", "{"],
  ];

  for (const [what, manifest] of badManifests) {
    test(`a manifest with ${what} is refused before anything is written`, async () => {
      const source = hostileSource((url) => (url.pathname === TRANSFER_SOURCE_PATHS.manifest ? new Response(typeof manifest === "string" ? manifest : JSON.stringify(manifest)) : new Response("x")));
      try {
        const progress = await pullFrom(source);
        expect([progress.state, progress.error]).toEqual(["failed", "ErrTransferManifest"]);
        expect(source.asked.every((line) => line.startsWith(TRANSFER_SOURCE_PATHS.manifest))).toBe(true);
        expectNothingWritten();
      } finally {
        source.server.stop(true);
      }
    });
  }

  test("a link that leads out as the kernel follows it is never made", async () => {
    // By spelling "s/s/../.." stays inside; with s -> "." it climbs above the folder.
    const source = hostileSource(() => new Response(JSON.stringify(manifestOf([{ path: "a", type: "symlink", target: "s/s/../../x" }, { path: "s", type: "symlink", target: "." }]))));
    try {
      const progress = await pullFrom(source);
      expect([progress.state, progress.error]).toEqual(["failed", "ErrTransferManifest"]);
      expect(existsSync(join(folderOf(TARGET_ID), "a"))).toBe(false);
    } finally {
      source.server.stop(true);
      rmSync(folderOf(TARGET_ID), { recursive: true, force: true });
      mkdirSync(folderOf(TARGET_ID));
    }
  });

  test("a link made inside by one pull is not turned outward by the next (a folder or link it goes through changed)", async () => {
    // First pull: z -> e/f, so "z/../../…" climbs back to the folder itself. The final sync (or a
    // resumed pull) then makes z a folder, or a link one level up: the same text now climbs above
    // the folder, into the neighbour's.
    const out = `z/../../${OTHER_ID}/theirs.txt`;
    const first = manifestOf([{ path: "a", type: "symlink", target: out }, { path: "e", type: "dir", mode: 0o755 }, { path: "e/f", type: "dir", mode: 0o755 }, { path: "z", type: "symlink", target: "e/f" }]);
    const seconds = [
      manifestOf([{ path: "a", type: "symlink", target: out }, { path: "e", type: "dir", mode: 0o755 }, { path: "e/f", type: "dir", mode: 0o755 }, { path: "z", type: "dir", mode: 0o755 }]),
      manifestOf([{ path: "a", type: "symlink", target: out }, { path: "e", type: "dir", mode: 0o755 }, { path: "e/f", type: "dir", mode: 0o755 }, { path: "z", type: "symlink", target: "e" }]),
    ];
    for (const second of seconds) {
      let manifest: unknown = first;
      const source = hostileSource(() => Response.json(manifest));
      try {
        expect((await pullFrom(source)).state).toBe("done");
        manifest = second;
        const progress = await pullFrom(source, true);
        expect([progress.state, progress.error]).toEqual(["failed", "ErrTransferManifest"]);
        expect(() => readFileSync(join(folderOf(TARGET_ID), "a"), "utf8")).toThrow();
      } finally {
        source.server.stop(true);
        rmSync(folderOf(TARGET_ID), { recursive: true, force: true });
        mkdirSync(folderOf(TARGET_ID));
      }
    }
  });

  test("a file whose bytes differ from its hash is not kept, nor its partial file", async () => {
    const source = hostileSource((url) =>
      url.pathname === TRANSFER_SOURCE_PATHS.manifest ? Response.json(manifestOf([{ path: "world.dat", type: "file", mode: 0o644, size: 5, sha256: sha("hello") }])) : new Response("HELLO"),
    );
    try {
      const progress = await pullFrom(source);
      expect([progress.state, progress.error]).toEqual(["failed", "ErrTransferChecksum"]);
      expect(source.asked).toContain(`${TRANSFER_SOURCE_PATHS.file}?path=world.dat Bearer ${TICKET}`);
      expectNothingWritten();
    } finally {
      source.server.stop(true);
    }
  });

  test("a file longer than declared is cut off at once, however long it goes on", async () => {
    const source = hostileSource((url) => {
      if (url.pathname === TRANSFER_SOURCE_PATHS.manifest) return Response.json(manifestOf([{ path: "small.txt", type: "file", mode: 0o644, size: 10, sha256: sha("0123456789") }]));
      const endless = new ReadableStream({ pull: (controller) => controller.enqueue(new Uint8Array(64 * 1024)) });
      return new Response(endless);
    });
    try {
      const progress = await pullFrom(source);
      expect([progress.state, progress.error]).toEqual(["failed", "ErrTransferChecksum"]);
      expectNothingWritten();
    } finally {
      source.server.stop(true);
    }
  });

  test("a file shorter than declared is not kept", async () => {
    const source = hostileSource((url) =>
      url.pathname === TRANSFER_SOURCE_PATHS.manifest ? Response.json(manifestOf([{ path: "short.txt", type: "file", mode: 0o644, size: 10, sha256: sha("0123456789") }])) : new Response("01234"),
    );
    try {
      expect((await pullFrom(source)).error).toBe("ErrTransferChecksum");
      expectNothingWritten();
    } finally {
      source.server.stop(true);
    }
  });

  test("a source that refuses the ticket fails the pull; its own manifest refusal is passed on", async () => {
    const response = await node.call("POST", `/daemon/server/${TARGET_ID}/transfer/pull`, { source: node.node.url, ticket: TICKET });
    expect(response.status).toBe(202);
    let last!: PullProgress;
    await eventually(async () => (last = await node.json("GET", `/daemon/server/${TARGET_ID}/transfer/pull`)).state !== "copying", 15_000, "the pull to end");
    expect([last.state, last.error]).toEqual(["failed", "ErrTransferFailed"]);
    const tooMany = hostileSource(() => Response.json({ error: { code: "ErrTransferManifest", msg: "…", metadata: { reason: "more than 100000 entries" } } }, { status: 502 }));
    try {
      expect((await pullFrom(tooMany)).error).toBe("ErrTransferManifest");
      expectNothingWritten();
    } finally {
      tooMany.server.stop(true);
    }
  });

  test("a source that redirects does not get the ticket sent elsewhere", async () => {
    const elsewhere = hostileSource(() => new Response("{}"));
    const source = hostileSource(() => Response.redirect(`${elsewhere.url}${TRANSFER_SOURCE_PATHS.manifest}`, 302));
    try {
      expect((await pullFrom(source)).state).toBe("failed");
      expect(elsewhere.asked).toEqual([]);
      expectNothingWritten();
    } finally {
      source.server.stop(true);
      elsewhere.server.stop(true);
    }
  });

  test("a source that stalls mid-file fails the pull, and its partial file is removed", async () => {
    const bytes = randomBytes(200_000);
    const source = hostileSource((url) => {
      if (url.pathname === TRANSFER_SOURCE_PATHS.manifest) return Response.json(manifestOf([{ path: "slow.bin", type: "file", mode: 0o644, size: bytes.length, sha256: sha(bytes) }]));
      // Half the file, then silence with the connection open.
      return new Response(new ReadableStream({ start: (controller) => controller.enqueue(bytes.subarray(0, 100_000)) }));
    });
    // The node's own minute, shortened for the test.
    const pulls = new TransferPulls(node.node.manager, { stallMs: 500 });
    try {
      pulls.start(TARGET_ID, { source: source.url, ticket: TICKET });
      let progress!: PullProgress;
      await eventually(() => (progress = pulls.progress(TARGET_ID)).state !== "copying", 10_000, "the stalled pull to fail");
      expect([progress.state, progress.error, progress.bytes]).toEqual(["failed", "ErrTransferStalled", 100_000]);
      expectNothingWritten();
    } finally {
      source.server.stop(true);
    }
  });

  test("a pull into a running server is refused", async () => {
    await node.json("POST", `/daemon/server/${TARGET_ID}/start`);
    try {
      await eventually(async () => (await node.json("GET", `/daemon/server/${TARGET_ID}/status`)).running, 5000, "the server to run");
      const response = await node.call("POST", `/daemon/server/${TARGET_ID}/transfer/pull`, { source: "http://127.0.0.1:1", ticket: TICKET });
      await expectRefusal(response, 409, "ErrServerBusy");
    } finally {
      await node.call("POST", `/daemon/server/${TARGET_ID}/kill?wait=true`);
    }
  });
});
