// Range on a file read through the panel, as whoever may read files sends it: malformed, huge,
// negative, reversed, many, past the end. Never a 5xx and never a byte outside the file: the
// whole file, its asked part, or 416 with the catalogue's error and the file's size. The denylist
// and the right to read files hold whatever the range.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { templateSchema } from "../../core/definition";
import { putTemplate } from "../../server/services/templates";
import { echoTemplate } from "../helpers/node";
import { servedPanelWithServer, type ServedPanel } from "../helpers/panel-node";

const SIZE = 64 * 1024 + 1;
const content = randomBytes(SIZE);
let rig: ServedPanel;
let reader: { token: string };
let outsider: { token: string };
let id = "";
beforeAll(async () => {
  rig = await servedPanelWithServer("ranged");
  await putTemplate(rig.ctx.panel.db, "echo", templateSchema.parse({ ...echoTemplate(), fileDenylist: ["secret.txt"] }));
  id = await rig.ctx.createServer("ranged-denied");
  writeFileSync(join(rig.node.folder(id), "world.bin"), content);
  writeFileSync(join(rig.node.folder(id), "secret.txt"), "hidden");
  reader = await rig.ctx.userWith(id, { viewServerFiles: true });
  outsider = await rig.ctx.userWith(id, { viewServer: true });
});
afterAll(() => rig.stop());

const read = (file: string, token: string, range: string) =>
  fetch(`http://127.0.0.1:${rig.server.port}/proxy/daemon/server/${id}/file/${file}`, { headers: { cookie: `kiln=${token}`, range } });

test("hostile ranges: the whole file, its part, or 416 with the size; never more, never a 5xx", async () => {
  const ranges = [
    "bytes=99999999999999999999-",
    "bytes=-99999999999999999999",
    "bytes=0-99999999999999999999999999",
    "bytes=-1-5",
    "bytes=5-1",
    "bytes=--5",
    "bytes=1e3-2e3",
    "bytes=0x10-0x20",
    "bytes= 1-2",
    "bytes=",
    "bytes",
    "=0-1",
    "items=0-1",
    `bytes=${SIZE}-`,
    "bytes=-0",
    `bytes=${Array.from({ length: 800 }, (_, i) => `${i * 2}-${i * 2}`).join(",")}`,
    "bytes=0-1,0-1,0-1",
    `bytes=0-${"9".repeat(5000)}`,
  ];
  for (const range of ranges) {
    const res = await read("world.bin", reader.token, range);
    const body = Buffer.from(await res.arrayBuffer());
    const shown = range.slice(0, 40);
    expect({ shown, server: res.status < 500 }).toEqual({ shown, server: true });
    if (res.status === 416) {
      expect([shown, res.headers.get("content-range"), JSON.parse(body.toString()).error.code]).toEqual([shown, `bytes */${SIZE}`, "ErrFieldNotBetween"]);
    } else if (res.status === 206) {
      const [, start, end, size] = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.headers.get("content-range") ?? "")!.map(Number);
      expect([shown, size, end! < SIZE, body.equals(content.subarray(start, end! + 1))]).toEqual([shown, SIZE, true, true]);
    } else {
      expect([shown, res.status, body.equals(content)]).toEqual([shown, 200, true]);
    }
  }
});

test("a range does not open a denied file, nor a file to a user who may not read files", async () => {
  const denied = await read("secret.txt", reader.token, "bytes=0-3");
  expect(denied.status).toBe(403);
  expect(await denied.text()).not.toContain("hidden");
  const outside = await read("world.bin", outsider.token, "bytes=0-3");
  expect(outside.status).toBe(403);
});
