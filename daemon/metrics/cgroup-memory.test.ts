// The node's memory as its cgroup limits it, read from a cgroup tree laid out in a folder as the
// kernel lays it out (v1's memory controller, and v2), so every case is tried on any machine.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../test/helpers/process";
import { cgroupMemory } from "./cgroup-memory";

function tree(files: Record<string, string>): string {
  const root = tempDir("kiln-cgroup-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("a node's memory from its cgroup", () => {
  test("v1: the tightest limit from its cgroup up, its use less the inactive file cache", () => {
    const root = tree({
      "memory/memory.limit_in_bytes": "9223372036854771712\n",
      "memory/lxc/memory.limit_in_bytes": "4294967296\n",
      "memory/lxc/memory.usage_in_bytes": "1073741824\n",
      "memory/lxc/memory.stat": "cache 500\ntotal_inactive_file 73741824\n",
      "memory/lxc/node/memory.limit_in_bytes": "9223372036854771712\n",
    });
    expect(cgroupMemory(root, "5:memory:/lxc/node\n0::/\n")).toEqual({ limitBytes: 4294967296, usedBytes: 1000000000 });
  });

  test("v2: memory.max and memory.current; \"max\" is no limit", () => {
    const root = tree({ "memory.max": "max\n", "slice/memory.max": "2147483648\n", "slice/memory.current": "1000\n", "slice/memory.stat": "anon 900\ninactive_file 100\n" });
    expect(cgroupMemory(root, "0::/slice\n")).toEqual({ limitBytes: 2147483648, usedBytes: 900 });
    expect(cgroupMemory(tree({ "memory.max": "max\n" }), "0::/\n")).toBeNull();
  });

  test("no limit anywhere, or nothing to read: none", () => {
    expect(cgroupMemory(tree({ "memory/memory.limit_in_bytes": "9223372036854771712\n" }), "4:memory:/\n")).toBeNull();
    expect(cgroupMemory(tree({}), "")).toBeNull();
  });
});
