// Attack: a co-user with putServerFiles or manageMods sends an upload a byte now and then. The
// node serves with no idle timeout, so the upload lasted as long as he liked, holding its partial
// file, the server's modpack place, and the server's change count: an administrator's move of the
// server waited 5 s for running changes and failed (ErrServerBusy) for as long as he kept sending.
// Now every body the node reads keeps a pace (daemon/http/paced-body: nothing for a minute, or
// under 1 KiB/s over a minute, ends it with ErrUploadStalled; shortened here through the node's
// options), and a move's offer ends uploads in flight on its server (ErrTransferInProgress) instead
// of failing. Either way nothing of the upload is kept and its places are given back.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { isPartialName } from "../../daemon/files/partial-file";
import { echoTemplate, startTestNode, type TestNode } from "../helpers/node";

let paced: TestNode;
let moving: TestNode;

beforeAll(async () => {
  [paced, moving] = await Promise.all([
    startTestNode({ uploadPace: { stallMs: 1_000, floorBytesPerSecond: 1024, windowMs: 2_000 } }),
    // The node's own pace (a minute): only the move ends a trickle here.
    startTestNode(),
  ]);
  for (const [node, id] of [[paced, "trickled"], [moving, "moved"]] as const) await node.json("PUT", `/daemon/server/${id}`, echoTemplate());
});
afterAll(async () => {
  await Promise.all([paced?.stop(), moving?.stop()]);
});

interface RawCall {
  socket: Socket;
  /** Everything the node answered until it closed the connection. */
  answer: Promise<string>;
  send(bytes: string): void;
}

/** A request written by hand on a socket of its own: its head now, its body as the test sends it (chunked). */
function rawCall(node: TestNode, method: string, path: string, contentType: string, extra: Record<string, string> = {}): RawCall {
  const url = `${node.node.url}${path}`;
  const host = new URL(url).host;
  const socket = connect(node.node.port, "127.0.0.1");
  let received = "";
  const answer = new Promise<string>((resolve) => {
    socket.on("data", (data) => (received += data.toString("latin1")));
    socket.on("close", () => resolve(received));
    socket.on("error", () => resolve(received));
  });
  const headers = { host, "content-type": contentType, "transfer-encoding": "chunked", ...node.nodeHeaders(method, url), ...extra };
  socket.write(`${method} ${path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join("\r\n")}\r\n\r\n`);
  return {
    socket,
    answer,
    send: (bytes) => {
      if (!socket.destroyed) socket.write(`${Buffer.byteLength(bytes).toString(16)}\r\n${bytes}\r\n`);
    },
  };
}

const BOUNDARY = "trickle-boundary";
const PART_HEAD = `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="big.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`;

/** Sends a byte every `everyMs` until stopped; the call's answer (or "" when none came within `withinMs`). */
async function trickled(call: RawCall, everyMs: number, withinMs: number): Promise<string> {
  const timer = setInterval(() => call.send("x"), everyMs);
  try {
    return await Promise.race([call.answer, Bun.sleep(withinMs).then(() => "")]);
  } finally {
    clearInterval(timer);
    call.socket.destroy();
  }
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
const codeOf = (answer: string) => /"code":"(\w+)"/.exec(answer)?.[1];
const partials = (node: TestNode, id: string) => readdirSync(node.folder(id)).filter(isPartialName);

test("an upload that stops sending is ended, its partial file removed", async () => {
  const call = rawCall(paced, "PUT", "/daemon/server/trickled/file/stalled.bin", `multipart/form-data; boundary=${BOUNDARY}`);
  call.send(PART_HEAD + "x".repeat(4096));
  await Bun.sleep(300);
  expect(partials(paced, "trickled")).toHaveLength(1);
  // Nothing more is sent: the node's stall timer (1 s here) ends it.
  const answer = await trickled(call, 60_000, 8_000);
  expect({ status: statusOf(answer), code: codeOf(answer) }).toEqual({ status: 408, code: "ErrUploadStalled" });
  expect(partials(paced, "trickled")).toEqual([]);
  expect(readdirSync(paced.folder("trickled"))).not.toContain("stalled.bin");
}, 20_000);

test("an upload sending a byte every 200 ms is ended by the least pace", async () => {
  const call = rawCall(paced, "PUT", "/daemon/server/trickled/file/slow.bin", `multipart/form-data; boundary=${BOUNDARY}`);
  call.send(PART_HEAD);
  const answer = await trickled(call, 200, 10_000);
  expect({ status: statusOf(answer), code: codeOf(answer) }).toEqual({ status: 408, code: "ErrUploadStalled" });
  expect(partials(paced, "trickled")).toEqual([]);
}, 20_000);

test("a trickled modpack upload is ended and gives its place back", async () => {
  const call = rawCall(paced, "POST", "/daemon/server/trickled/mods/packs/uploads", "application/octet-stream");
  call.send("PK");
  const answer = await trickled(call, 200, 10_000);
  expect({ status: statusOf(answer), code: codeOf(answer) }).toEqual({ status: 408, code: "ErrUploadStalled" });
  // The co-users' place is free again: a whole upload is taken.
  const again = await paced.call("POST", "/daemon/server/trickled/mods/packs/uploads", "PK whole");
  expect(again.status).toBe(201);
}, 20_000);

test("a move's offer ends the uploads in flight on its server instead of failing", async () => {
  const file = rawCall(moving, "PUT", "/daemon/server/moved/file/held.bin", `multipart/form-data; boundary=${BOUNDARY}`);
  file.send(PART_HEAD);
  const pack = rawCall(moving, "POST", "/daemon/server/moved/mods/packs/uploads", "application/octet-stream");
  pack.send("PK");
  const fileAnswer = trickled(file, 200, 15_000);
  const packAnswer = trickled(pack, 200, 15_000);
  await Bun.sleep(1_000);
  expect(partials(moving, "moved")).toHaveLength(1);
  const started = Date.now();
  const offer = await moving.call("POST", "/daemon/server/moved/transfer/offer");
  expect({ status: offer.status, body: await offer.json() }).toEqual({ status: 200, body: { ticket: expect.any(String) } });
  expect(Date.now() - started).toBeLessThan(4_000);
  for (const answer of [await fileAnswer, await packAnswer]) expect({ status: statusOf(answer), code: codeOf(answer) }).toEqual({ status: 409, code: "ErrTransferInProgress" });
  expect(partials(moving, "moved")).toEqual([]);
  // The move was given up: the server takes changes again, and its modpack place is free.
  await moving.call("DELETE", "/daemon/server/moved/transfer/offer");
  expect((await moving.call("POST", "/daemon/server/moved/mods/packs/uploads", "PK whole")).status).toBe(201);
}, 30_000);
