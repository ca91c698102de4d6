// A node is another machine: what its status answer says is kept in its row for every panel's
// pages (server/node-memory) and read back through each concern's checks. A node that answers
// markup, wrong shapes or a huge answer gets nothing shown from it, and a huge answer is not
// stored at all (it forgets the last one rather than keep it as current).
import { describe, expect, test } from "bun:test";
import { testPanel } from "../helpers/app";
import { schema } from "../../db";
import { markSeen } from "../../server/services/nodes";
import { keptStatus } from "../../server/node-memory";
import { nodeReport } from "../../server/node-report";
import { nodeIsolation } from "../../server/node-isolation";

describe("a node's status answer, kept for the pages", () => {
  test("markup, wrong shapes and an oversized answer show nothing; a sound answer shows what it says", async () => {
    const panel = await testPanel();
    const [node] = await panel.db.insert(schema.nodes).values({ name: "hostile", publicHost: "127.0.0.1", publicPort: 9, privateHost: "127.0.0.1", privatePort: 9, sftpPort: 1, secret: "x".repeat(32), createdAt: new Date() }).returning();
    const id = node!.id;
    const sound = { version: "0.1.0", os: "linux", arch: "x64", isolation: { mode: "auto", sandboxed: true, problem: null, network: true }, limits: "cgroup2" };
    await markSeen(panel.db, id, keptStatus(sound));
    expect(await nodeReport(panel.db, id)).toEqual({ version: "0.1.0", os: "linux", arch: "x64" });
    expect(await nodeIsolation(panel.db, id)).toEqual({ mode: "auto", sandboxed: true, problem: null, limits: "cgroup2", network: true });

    for (const hostile of [
      { version: "<script>alert(1)</script>", os: "linux", arch: "x64", isolation: { mode: "everything", sandboxed: "yes" } },
      { version: ["0.1.0"], isolation: [] },
      "just a string",
      null,
    ]) {
      await markSeen(panel.db, id, keptStatus(hostile));
      expect(await nodeReport(panel.db, id)).toBeNull();
      expect(await nodeIsolation(panel.db, id)).toBeNull();
    }
    // Fields a page shows are checked one by one: a stray os or arch is left blank, never shown as sent.
    await markSeen(panel.db, id, keptStatus({ ...sound, os: "<b>linux</b>", arch: "x".repeat(100) }));
    expect(await nodeReport(panel.db, id)).toEqual({ version: "0.1.0", os: "", arch: "" });

    await markSeen(panel.db, id, keptStatus(sound));
    await markSeen(panel.db, id, keptStatus({ ...sound, padding: "x".repeat(64 * 1024) }));
    expect((await panel.db.select({ lastStatus: schema.nodes.lastStatus }).from(schema.nodes).get())?.lastStatus).toBeNull();
    expect(await nodeReport(panel.db, id)).toBeNull();
  });
});
