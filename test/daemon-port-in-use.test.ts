// A server that shares the node's network (here: a host process on a node without nftables) is
// not started onto a port another program holds: the start is refused with ErrPortInUse naming
// the port, its protocol and the program holding it, and once the port is free it starts. The
// holders are real processes this test runs, found by the node through /proc.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Subprocess } from "bun";
import { decodeDaemonLine } from "../core/live/daemon-message";
import { assertPortsFree, portHolder } from "../daemon/net/port-holder";
import { echoTemplate, eventually, startTestNode, type TestNode } from "./helpers/node";

const holders: Subprocess[] = [];
afterEach(() => {
  for (const holder of holders.splice(0)) holder.kill();
});

/** A separate process holding a port (TCP listening, or UDP bound) on every IPv4 address; its port and pid. */
async function holdPort(protocol: "tcp" | "udp"): Promise<{ port: number; pid: number; name: string; proc: Subprocess }> {
  const script =
    protocol === "tcp"
      ? "const s = require('node:net').createServer(); s.listen(0, '0.0.0.0', () => console.log(s.address().port));"
      : "const s = require('node:dgram').createSocket('udp4'); s.bind(0, '0.0.0.0', () => console.log(s.address().port));";
  const proc = Bun.spawn([process.execPath, "-e", `${script} setTimeout(() => {}, 60000);`], { stdout: "pipe" });
  holders.push(proc);
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the holder exited before it held a port");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  // The name the kernel keeps for the holder ("bun", or the executable's own name).
  const name = readFileSync(`/proc/${proc.pid}/comm`, "utf8").trim();
  return { port: Number(text.trim()), pid: proc.pid, name, proc };
}

describe("portHolder and assertPortsFree", () => {
  test("a UDP port is traced to the process holding it, and refuses a server's ports", async () => {
    const held = await holdPort("udp");
    expect(await portHolder(held.port, "udp")).toEqual({ pid: held.pid, name: held.name });
    // Only a TCP listener counts for TCP: nothing listens there.
    expect(await portHolder(held.port, "tcp")).toBeNull();
    const refusal = await assertPortsFree({ tcp: [], udp: [held.port] }).then(() => null, (error: unknown) => error);
    expect(refusal).toMatchObject({ code: "ErrPortInUse", metadata: { port: held.port, protocol: "udp", process: `${held.name} (pid ${held.pid})` } });
  });

  test("free ports pass", async () => {
    const held = await holdPort("tcp");
    held.proc.kill();
    await held.proc.exited;
    await assertPortsFree({ tcp: [held.port], udp: [held.port] });
  });
});

describe("a server's start on a port in use", () => {
  let node: TestNode;
  // No nft: the node's servers share its network, as on a node without nftables.
  beforeAll(async () => {
    node = await startTestNode({ stopTimeoutMs: 2000, isolation: { nftPath: "/nonexistent/nft" } });
  });
  afterAll(() => node.stop());

  const consoleLines = async (id: string) => ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("").split("\n");

  test("is refused naming the port, its protocol and the holder; once the port is free it starts", async () => {
    const held = await holdPort("tcp");
    const template = echoTemplate({ command: "sleep 60", stop: "" });
    const port = { display: "Port", desc: "", type: "integer", value: String(held.port), required: true, userEdit: true };
    await node.json("PUT", "/daemon/server/held", { ...template, data: { ...template.data, port } });

    const refused = await node.call("POST", "/daemon/server/held/start?wait=true");
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as { error: { code: string; msg: string; metadata: Record<string, unknown> } };
    const named = `${held.name} (pid ${held.pid})`;
    expect(body.error.code).toBe("ErrPortInUse");
    expect(body.error.metadata).toEqual({ port: held.port, protocol: "tcp", process: named });
    expect(body.error.msg).toBe(`Port ${held.port}/tcp is already in use on this node by ${named}: stop that program or give the server another port`);
    expect((await node.json("GET", "/daemon/server/held/status")).running).toBe(false);

    // The console says why, as a message each reader sees in their language.
    const said = (await consoleLines("held")).map((line) => decodeDaemonLine(line).message).find((m) => m?.key === "daemon.startFailed");
    expect(said?.values?.reason).toEqual({ key: "errors.ErrPortInUse", values: { port: held.port, protocol: "tcp", process: named } });

    held.proc.kill();
    await held.proc.exited;
    await node.json("POST", "/daemon/server/held/start?wait=true");
    await eventually(async () => (await node.json("GET", "/daemon/server/held/status")).running === true, 5000, "the server running");
    await node.json("POST", "/daemon/server/held/kill?wait=true");
  });
});
