import { describe, expect, test } from "bun:test";
import { COLLECT_EVERY_BYTES, FloodCollection, MIN_GAP_MS } from "./flood-collection";

function counted() {
  let clock = 1000;
  let collections = 0;
  const flood = new FloodCollection(() => collections++, () => clock);
  return { flood, collections: () => collections, advance: (ms: number) => (clock += ms) };
}

describe("flood collection", () => {
  test("collects once enough output has passed, whatever the chunk sizes, and counts again from zero", () => {
    const { flood, collections, advance } = counted();
    flood.output(COLLECT_EVERY_BYTES - 1);
    expect(collections()).toBe(0);
    flood.output(1);
    expect(collections()).toBe(1);
    advance(MIN_GAP_MS);
    for (let i = 0; i < 31; i++) flood.output(COLLECT_EVERY_BYTES / 32);
    expect(collections()).toBe(1);
    flood.output(COLLECT_EVERY_BYTES / 32);
    expect(collections()).toBe(2);
  });

  test("many floods at once: collections stay MIN_GAP_MS apart, and the output waiting counts at the next chance", () => {
    const { flood, collections, advance } = counted();
    for (let i = 0; i < 50; i++) flood.output(COLLECT_EVERY_BYTES);
    expect(collections()).toBe(1);
    advance(MIN_GAP_MS - 1);
    flood.output(1);
    expect(collections()).toBe(1);
    advance(1);
    flood.output(1);
    expect(collections()).toBe(2);
  });

  test("quiet servers never cause a collection", () => {
    const { flood, collections, advance } = counted();
    for (let i = 0; i < 1000; i++) {
      flood.output(100);
      advance(1000);
    }
    expect(collections()).toBe(0);
  });
});
