import { describe, expect, test } from "bun:test";
import { jsonObjectsAt } from "./snapshot-files";

/** The text as a stream cut into pieces of `size` bytes (multi-byte characters cut too). */
function streamOf(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, (at += size)));
    },
  });
}

describe("jsonObjectsAt (restic find --json, read as it comes)", () => {
  const entries = [
    { path: "/a", type: "file", uid: 1000, links: 1 },
    { path: '/we}ird{ "name" \\ ]x[', type: "file", uid: 0, links: 2 },
    { path: "/dir/ü€😀", type: "dir", uid: 0 },
  ];
  const document = JSON.stringify([{ matches: entries, hits: 3, snapshot: "abc" }]);

  for (const size of [1, 2, 3, 7, 64, 1 << 20]) {
    test(`every entry, whole and in order, whatever the pieces (${size} bytes)`, async () => {
      const found: unknown[] = [];
      for await (const object of jsonObjectsAt(streamOf(document, size), 4)) found.push(object);
      expect(found).toEqual(entries);
    });
  }

  test("nothing at that depth, nothing found", async () => {
    const found: unknown[] = [];
    for await (const object of jsonObjectsAt(streamOf(JSON.stringify([{ matches: [], hits: 0 }]), 5), 4)) found.push(object);
    expect(found).toEqual([]);
  });
});
