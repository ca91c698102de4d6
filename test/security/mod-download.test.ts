// A file host that answers an add-on download slowly on purpose: one that sends nothing is given up
// after the stall limit, and one that drips a byte just often enough never to stall is given up
// once the download has had its time (a base plus its announced size at the slowest rate allowed),
// so a change, and a version switch whose server waits stopped, never hangs on a host. Real HTTP.
import { afterAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { checkedDownload, DOWNLOAD_LIMITS, type DownloadLimits } from "../../daemon/mods/download";

const BYTES = Buffer.from("PK a plugin's fifty bytes, dripped one at a time.\n");
const host = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const path = new URL(req.url).pathname;
    if (path === "/silent.jar") return new Promise<Response>(() => undefined);
    // A byte every 50 ms: never a pause the stall limit sees.
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await Bun.sleep(50);
        if (at >= BYTES.length) return controller.close();
        controller.enqueue(BYTES.subarray(at, ++at));
      },
    });
    return new Response(body);
  },
});
afterAll(() => host.stop(true));
const origin = `http://127.0.0.1:${host.port}`;
const file = (name: string) => ({ url: `${origin}/${name}`, fileName: name, size: BYTES.length, sha512: createHash("sha512").update(BYTES).digest("hex") });
/** The node's limits, scaled down so the test takes a second: a 1 s stall, 300 ms plus 0.1 KiB a second. */
const limits: DownloadLimits = { stallMs: 1000, baseMs: 300, minBytesPerSecond: 102.4 };

async function drain(name: string, with_: DownloadLimits): Promise<unknown> {
  try {
    for await (const _ of checkedDownload(file(name), [origin], undefined, with_));
    return "finished";
  } catch (error) {
    return error;
  }
}

test("a host that drips bytes too slowly to ever stall is given up once the download has had its time", async () => {
  const started = Date.now();
  // 300 ms + 51 bytes at 102.4 a second: about 0.8 s, where the drip takes 2.6 s.
  expect(await drain("drip.jar", limits)).toMatchObject({ code: "ErrModSourceUnavailable", metadata: { reason: "the download was slower than 0.1 KiB/s" } });
  expect(Date.now() - started).toBeLessThan(3000);
});

test("the same drip within its time finishes, checked by its hash", async () => {
  expect(await drain("drip.jar", { ...limits, baseMs: 4000 })).toBe("finished");
});

test("a host that answers nothing is given up after the stall limit", async () => {
  const started = Date.now();
  expect(await drain("silent.jar", { ...limits, baseMs: 60_000 })).toMatchObject({ code: "ErrModSourceUnavailable", metadata: { reason: "no answer" } });
  expect(Date.now() - started).toBeLessThan(3000);
});

test("the node's own limits: 64 KiB/s after a minute, a 30 s stall", () => {
  expect(DOWNLOAD_LIMITS).toEqual({ stallMs: 30_000, baseMs: 60_000, minBytesPerSecond: 64 * 1024 });
});
