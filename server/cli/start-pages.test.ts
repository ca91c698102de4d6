// Which mappings a started process gives back: the executable's read-only ones, nothing else.
// That the pages really go, and the process still answers after, is tested on the built
// executable in test/build.test.ts.
import { expect, test } from "bun:test";
import { readFileSync, readlinkSync } from "node:fs";
import { executableMappings } from "./start-pages";

const MAPS = `
55d4c0a00000-55d4c2e00000 r--p 00000000 fd:01 1234   /opt/kiln/kiln
55d4c2e00000-55d4c8000000 r-xp 02400000 fd:01 1234   /opt/kiln/kiln
55d4c8000000-55d4c8200000 rw-p 07600000 fd:01 1234   /opt/kiln/kiln
55d4c8200000-55d4c8400000 r--p 07800000 fd:01 1234   /opt/kiln/kiln (deleted)
7f1a00000000-7f1a00200000 r-xp 00000000 fd:01 99     /usr/lib/x86_64-linux-gnu/libc.so.6
7f1a00200000-7f1a00400000 rw-p 00000000 00:00 0
7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0      [stack]
`;

test("only the executable's read-only mappings are chosen, as start and length", () => {
  expect(executableMappings(MAPS, "/opt/kiln/kiln")).toEqual([
    [0x55d4c0a00000n, 0x2400000n],
    [0x55d4c2e00000n, 0x5200000n],
  ]);
});

test("an executable replaced on disk while running is still its own", () => {
  expect(executableMappings(MAPS, "/opt/kiln/kiln (deleted)")).toEqual([[0x55d4c8200000n, 0x200000n]]);
});

test("a path that is only a prefix of another mapping's is not taken for it", () => {
  expect(executableMappings(MAPS, "/opt/kiln/kil")).toEqual([]);
  expect(executableMappings("garbage\n\n- r--p", "/opt/kiln/kiln")).toEqual([]);
});

test("this process's own executable has read-only mappings to give back", () => {
  const own = executableMappings(readFileSync("/proc/self/maps", "utf8"), readlinkSync("/proc/self/exe"));
  expect(own.length).toBeGreaterThan(0);
  for (const [, length] of own) expect(length % 4096n).toBe(0n);
});
