// A download cut short on a slow link is resumed where it stopped: the node answers one byte range
// of a file (Range, If-Range; daemon/files/byte-range), through the panel's proxy as it is.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { servedPanelWithServer, type ServedPanel } from "./helpers/panel-node";

const SIZE = 3 * 1024 * 1024 + 123;
const content = randomBytes(SIZE);
let rig: ServedPanel;
let url = "";
let cookie = "";
beforeAll(async () => {
  rig = await servedPanelWithServer("ranged");
  writeFileSync(join(rig.node.folder(rig.id), "world.bin"), content);
  url = `http://127.0.0.1:${rig.server.port}/proxy/daemon/server/${rig.id}/file/world.bin`;
  cookie = `kiln=${rig.ctx.admin.token}`;
});
afterAll(() => rig.stop());

const get = (headers: Record<string, string> = {}, method = "GET") => fetch(url, { method, headers: { cookie, ...headers } });
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

test("the whole file says it takes ranges; a range from a byte to the end, a suffix, a span", async () => {
  const whole = await get();
  expect([whole.status, whole.headers.get("accept-ranges")]).toEqual([200, "bytes"]);
  expect((await bytes(whole)).equals(content)).toBe(true);
  const cases: Array<[string, number, number]> = [
    ["bytes=1000000-", 1_000_000, SIZE - 1],
    ["bytes=-4096", SIZE - 4096, SIZE - 1],
    ["bytes=10-19", 10, 19],
    ["bytes=0-0", 0, 0],
    // Past the end: up to the end.
    [`bytes=${SIZE - 5}-${SIZE + 1000}`, SIZE - 5, SIZE - 1],
  ];
  for (const [range, start, end] of cases) {
    const res = await get({ range });
    expect([range, res.status, res.headers.get("content-range")]).toEqual([range, 206, `bytes ${start}-${end}/${SIZE}`]);
    expect((await bytes(res)).equals(content.subarray(start, end + 1))).toBe(true);
  }
});

test("a download broken off half way is finished from where it stopped, to the same bytes", async () => {
  const first = await get();
  const reader = first.body!.getReader();
  const received: Buffer[] = [];
  let length = 0;
  while (length < SIZE / 2) {
    const { value } = await reader.read();
    received.push(Buffer.from(value!));
    length += value!.length;
  }
  await reader.cancel();
  const rest = await get({ range: `bytes=${length}-`, "if-range": first.headers.get("last-modified")! });
  expect(rest.status).toBe(206);
  received.push(await bytes(rest));
  expect(Buffer.concat(received).equals(content)).toBe(true);
});

test("If-Range naming another version of the file answers the whole file", async () => {
  const res = await get({ range: "bytes=100-", "if-range": new Date(statSync(join(rig.node.folder(rig.id), "world.bin")).mtimeMs - 60_000).toUTCString() });
  expect(res.status).toBe(200);
  expect((await bytes(res)).length).toBe(SIZE);
});

test("HEAD with a range: the range's headers and length, no body", async () => {
  const res = await get({ range: "bytes=100-199" }, "HEAD");
  expect([res.status, res.headers.get("content-range"), res.headers.get("content-length"), (await bytes(res)).length]).toEqual([206, `bytes 100-199/${SIZE}`, "100", 0]);
});
