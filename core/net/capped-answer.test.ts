import { expect, test } from "bun:test";
import { readCapped } from "./capped-answer";

const stream = (chunks: number, size: number, fail = false) => {
  let sent = 0;
  return {
    pulled: () => sent,
    body: new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === chunks) return fail ? controller.error(new Error("cut")) : controller.close();
        sent++;
        controller.enqueue(new Uint8Array(size).fill(0x61));
      },
    }),
  };
};

test("an answer within the cap is read whole", async () => {
  expect((await readCapped(new Response("hello"), 5))?.toString()).toBe("hello");
  expect((await readCapped(new Response(null), 5))?.length).toBe(0);
});

test("an answer past the cap is refused as it comes: reading stops at the cap, not at the end", async () => {
  const endless = stream(1_000_000, 1024);
  expect(await readCapped(new Response(endless.body), 10 * 1024)).toBeNull();
  expect(endless.pulled()).toBeLessThan(20);
});

test("a Content-Length past the cap is refused before anything is read", async () => {
  const body = stream(10, 1024);
  expect(await readCapped(new Response(body.body, { headers: { "content-length": String(1024 * 1024) } }), 1024)).toBeNull();
  expect(body.pulled()).toBeLessThanOrEqual(1);
});

test("an answer that breaks off rejects", async () => {
  await expect(readCapped(new Response(stream(2, 10, true).body), 1024)).rejects.toThrow();
});
