// Limits: a server cannot take more of its node than an administrator gave it.
// Its processes are held to their memory, CPU and process limits (by the node's cgroups, or the
// Docker Engine), so a memory hog is ended and a fork bomb runs out of processes while the node
// goes on answering; its folder cannot grow past its disk space through any write Kiln makes
// (upload, SFTP, extraction, install steps), and a server that writes past it itself is stopped
// by the next measurement and cannot start until files are deleted. Only an administrator sets
// limits. The bombs here are bounded, so a broken limit fails the test instead of the machine.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestNode, echoTemplate, eventually, type TestNode } from "../helpers/node";
import { hasDocker, ensureTestImage } from "../helpers/docker";
import { dockerClient } from "../../daemon/environment/docker";
import { probeLimits } from "../../daemon/environment/host-limits";
import { rawTar } from "../../daemon/files/extract-test-archives";
import { panelWithNode, formInit, jsonInit } from "../helpers/panel-node";
import { loginAs } from "../helpers/app";
import { hasSftpClient, sftpBatch, sftpRig } from "../helpers/sftp";
import { call, ssh2Sftp } from "../helpers/ssh2-client";
import { tempDir } from "../helpers/process";
import { SCOPES } from "../../core/scopes";
import { checkNodes } from "../../server/node-heartbeat";
import type { ResourceLimits, TemplateInput } from "../../core/definition";

const MIB = 1024 * 1024;
/** Starts 200 sleeping processes one after another: far past a limit of 16, harmless without one. */
const FORK_BOMB = "i=0; while [ $i -lt 200 ]; do sleep 30 & i=$((i+1)); done; echo all-forked $i";
/** Doubles a string up to 256 MiB (some 3 times that in use): far past 32 MiB, bearable without a limit. */
const MEMORY_HOG = "a=x; i=0; while [ $i -lt 28 ]; do a=$a$a; i=$((i+1)); done; echo hog-survived";

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({ diskCheckMs: 1000 });
});
afterAll(() => t.stop());

function definition(command: string, limits: ResourceLimits, environment?: TemplateInput["environment"]): TemplateInput {
  return { ...echoTemplate({ command, stop: undefined }, environment), install: [], limits };
}

async function consoleText(id: string): Promise<string> {
  return (await t.json("GET", `/daemon/server/${id}/console`)).logs.join("");
}

async function upload(id: string, path: string, content: Uint8Array<ArrayBuffer>): Promise<Response> {
  const form = new FormData();
  form.append("file", new Blob([content]), "x");
  return t.fetch(`${t.node.url}/daemon/server/${id}/file/${path}`, { method: "PUT", body: form });
}

/**
 * Waits for the measurement that follows Kiln's writes to find the folder below `bytes`: a walk
 * that ran during a refused write may have seen part of it.
 */
async function settledBelow(id: string, bytes: number): Promise<void> {
  await eventually(async () => ((await t.json("GET", `/daemon/server/${id}/stats`)).disk ?? Infinity) < bytes, 10_000, "the folder's measurement");
}

async function expectQuotaError(response: Response): Promise<void> {
  expect(response.status).toBe(507);
  expect((await response.json()).error.code).toBe("ErrDiskQuotaExceeded");
}

/** The node answers its status within a second, several times over, while `id`'s bomb goes on. */
async function nodeKeepsAnswering(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const started = Date.now();
    expect((await t.call("GET", "/daemon")).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    await Bun.sleep(200);
  }
}

const cgroupFile = (controller: string, id: string, file: string) => {
  const mechanism = t.node.limiter.mechanism;
  const folder = mechanism === "cgroup2" ? join("/sys/fs/cgroup/kiln", id) : join("/sys/fs/cgroup", controller, "kiln", id);
  return readFileSync(join(folder, file), "utf8").trim();
};

const root = process.getuid?.() === 0;

describe("processes on the node itself", () => {
  test("the node says how it holds servers to their limits, and it is a cgroup when it runs as root", async () => {
    const status = await t.json("GET", "/daemon");
    expect(status.limits).toBe(probeLimits());
    if (root) expect(["cgroup2", "cgroup1"]).toContain(status.limits);
  });

  test.skipIf(!root)("a fork bomb runs out of processes at the limit and the node keeps answering", async () => {
    await t.json("PUT", "/daemon/server/bomb", definition(`sh -c '${FORK_BOMB}; sleep 30'`, { processes: 16, cpuPercent: 50 }));
    await t.json("POST", "/daemon/server/bomb/start?wait=true");
    try {
      await nodeKeepsAnswering();
      await eventually(async () => /Cannot fork|can't fork|Resource temporarily unavailable/i.test(await consoleText("bomb")), 10_000, "the fork to fail");
      expect(await consoleText("bomb")).not.toContain("all-forked");
      expect(Number(cgroupFile("pids", "bomb", "pids.max"))).toBe(16);
      expect(Number(cgroupFile("pids", "bomb", "pids.current"))).toBeLessThanOrEqual(16);
      // CPU: half a core, as the quota of its period.
      if (t.node.limiter.mechanism === "cgroup1") expect(cgroupFile("cpu", "bomb", "cpu.cfs_quota_us")).toBe("50000");
      else expect(cgroupFile("cpu", "bomb", "cpu.max")).toBe("50000 100000");
    } finally {
      await t.json("POST", "/daemon/server/bomb/kill?wait=true").catch(() => undefined);
      await t.call("DELETE", "/daemon/server/bomb");
    }
  }, 60_000);

  test.skipIf(!root)("a memory hog is ended at its memory limit", async () => {
    await t.json("PUT", "/daemon/server/hog", definition(`sh -c '${MEMORY_HOG}'`, { memoryMiB: 32 }));
    await t.json("POST", "/daemon/server/hog/start?wait=true");
    try {
      await eventually(async () => (await consoleText("hog")).includes("the server was ended by its memory limit: it needed more than 32 MiB"), 30_000, "the hog to be killed by its limit");
      expect(await consoleText("hog")).not.toContain("hog-survived");
      const limit = cgroupFile("memory", "hog", t.node.limiter.mechanism === "cgroup1" ? "memory.limit_in_bytes" : "memory.max");
      expect(Number(limit)).toBe(32 * MIB);
      expect((await t.call("GET", "/daemon")).status).toBe(200);
    } finally {
      await t.json("POST", "/daemon/server/hog/kill?wait=true").catch(() => undefined);
      await t.call("DELETE", "/daemon/server/hog");
    }
  }, 60_000);
});

describe("a docker server", () => {
  test.skipIf(!hasDocker())("the Engine holds it: memory hog killed, fork bomb capped, CPU share set, the node keeps answering", async () => {
    const image = await ensureTestImage();
    const docker = { type: "docker" as const, image, networkMode: "host" as const };
    await t.json("PUT", "/daemon/server/dbomb", definition(`sh -c '${FORK_BOMB}; sleep 30'`, { processes: 16, cpuPercent: 50, memoryMiB: 64 }, docker));
    await t.json("POST", "/daemon/server/dbomb/start?wait=true");
    try {
      const info = await dockerClient(t.config.dockerSocket).getContainer("kiln-dbomb").inspect();
      expect(info.HostConfig.PidsLimit).toBe(16);
      expect(info.HostConfig.NanoCpus).toBe(500_000_000);
      expect(info.HostConfig.Memory).toBe(64 * MIB);
      await nodeKeepsAnswering();
      await eventually(async () => /can't fork|Cannot fork|Resource temporarily unavailable/i.test(await consoleText("dbomb")), 20_000, "the fork to fail");
      expect(await consoleText("dbomb")).not.toContain("all-forked");
    } finally {
      await t.json("POST", "/daemon/server/dbomb/kill?wait=true").catch(() => undefined);
      await t.call("DELETE", "/daemon/server/dbomb");
    }

    await t.json("PUT", "/daemon/server/dhog", definition(`sh -c '${MEMORY_HOG}'`, { memoryMiB: 32 }, docker));
    await t.json("POST", "/daemon/server/dhog/start?wait=true");
    try {
      // The Engine says OOMKilled (its exit code is 137, 128 + SIGKILL): the console names the limit.
      await eventually(async () => (await consoleText("dhog")).includes("the server was ended by its memory limit: it needed more than 32 MiB"), 30_000, "the container to be killed by its limit");
      expect(await consoleText("dhog")).not.toContain("hog-survived");
    } finally {
      await t.json("POST", "/daemon/server/dhog/kill?wait=true").catch(() => undefined);
      await t.call("DELETE", "/daemon/server/dhog");
    }
  }, 120_000);
});

describe("disk space", () => {
  const folderOf = (id: string) => t.folder(id);
  /** What is in the folder, hidden files (partial uploads, staging folders) included. */
  const entries = (id: string) => readdirSync(folderOf(id)).sort();

  test("an upload past it is refused and leaves nothing behind; one that fits is written", async () => {
    await t.json("PUT", "/daemon/server/up", definition("true", { diskMiB: 1 }));
    await expectQuotaError(await upload("up", "big.bin", new Uint8Array(2 * MIB)));
    expect(entries("up")).toEqual([]);
    await settledBelow("up", 100_000);
    expect((await upload("up", "small.bin", new Uint8Array(100_000))).status).toBe(200);
    expect(statSync(join(folderOf("up"), "small.bin")).size).toBe(100_000);
    await t.call("DELETE", "/daemon/server/up");
  });

  test("an extraction past it is refused and nothing is half-extracted", async () => {
    await t.json("PUT", "/daemon/server/unpack", definition("true", { diskMiB: 1 }));
    // Small packed, 3 MiB unpacked: the upload fits, the content does not.
    const archive = Bun.gzipSync(new Uint8Array(rawTar([{ name: "a.txt", data: "first" }, { name: "zeros.bin", data: Buffer.alloc(3 * MIB) }])));
    expect((await upload("unpack", "big.tar.gz", archive)).status).toBe(200);
    const before = entries("unpack");
    await expectQuotaError(await t.call("GET", "/daemon/server/unpack/extract/big.tar.gz"));
    expect(entries("unpack")).toEqual(before);
    await t.call("DELETE", "/daemon/server/unpack");
  });

  test("install steps past it fail: a download and a written file", async () => {
    const body = new Uint8Array(2 * MIB);
    const site = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(body) });
    try {
      const download: TemplateInput = { ...definition("true", { diskMiB: 1 }), install: [{ type: "download", files: [`http://127.0.0.1:${site.port}/big.bin`] }] };
      await t.json("PUT", "/daemon/server/steps", download);
      expect((await t.call("POST", "/daemon/server/steps/install?wait=true")).status).toBeGreaterThanOrEqual(400);
      expect(entries("steps").filter((name) => name.includes("big.bin"))).toEqual([]);
      await settledBelow("steps", 100_000);

      // 900 KB uploaded fits; a step writing 300 KB more does not.
      expect((await upload("steps", "world.dat", new Uint8Array(900_000))).status).toBe(200);
      const writefile: TemplateInput = { ...definition("true", { diskMiB: 1 }), install: [{ type: "writefile", target: "more.txt", text: "x".repeat(300_000) }] };
      await t.json("POST", "/daemon/server/steps", writefile);
      expect((await t.call("POST", "/daemon/server/steps/install?wait=true")).status).toBeGreaterThanOrEqual(400);
      expect(existsSync(join(folderOf("steps"), "more.txt"))).toBe(false);
      expect(await consoleText("steps")).toContain("disk space");
    } finally {
      site.stop(true);
      await t.call("DELETE", "/daemon/server/steps");
    }
  });

  test("a server that writes past it is stopped by the measurement, and cannot start again until files are deleted", async () => {
    await t.json("PUT", "/daemon/server/filler", definition("sh -c 'head -c 3000000 /dev/zero > filler.bin; echo filled; exec sleep 600'", { diskMiB: 1 }));
    await t.json("POST", "/daemon/server/filler/start?wait=true");
    await eventually(async () => !(await t.json("GET", "/daemon/server/filler/status")).running, 15_000, "the measurement to stop the server");
    expect(await consoleText("filler")).toMatch(/the server's files take \d+ MiB, more than its disk space of 1 MiB: stopping the server/);

    await expectQuotaError(await t.call("POST", "/daemon/server/filler/start?wait=true"));
    expect((await t.json("GET", "/daemon/server/filler/status")).running).toBe(false);
    expect((await t.json("GET", "/daemon/server/filler/stats")).disk).toBeGreaterThan(MIB);

    expect((await t.call("DELETE", "/daemon/server/filler/file/filler.bin")).status).toBe(204);
    // Room again: it starts (and fills its folder again, to be stopped again).
    expect((await t.call("POST", "/daemon/server/filler/start?wait=true")).status).toBe(204);
    await t.json("POST", "/daemon/server/filler/kill?wait=true");
    await t.call("DELETE", "/daemon/server/filler");
  }, 60_000);

  test.skipIf(!hasSftpClient())("an SFTP put past it is refused, and the folder stays within it", async () => {
    const rig = await sftpRig();
    try {
      const id = await rig.createServer("sftp quota");
      const current = await rig.daemon.json("GET", `/daemon/server/${id}`);
      expect((await rig.daemon.call("POST", `/daemon/server/${id}`, { ...current, limits: { diskMiB: 1 } })).status).toBe(204);
      const local = tempDir("kiln-sftp-quota-");
      writeFileSync(join(local, "big.bin"), new Uint8Array(3 * MIB));
      const result = await sftpBatch(rig.node.sftpPort, { email: rig.admin.email, serverId: id, password: "password123" }, ["put big.bin"], local);
      expect(result.code).not.toBe(0);
      expect(`${result.out}${result.err}`).toMatch(/ErrDiskQuotaExceeded|Failure/);
      const written = rig.folder(id, "big.bin");
      expect(existsSync(written) ? statSync(written).size : 0).toBeLessThanOrEqual(MIB);
    } finally {
      await rig.stop();
    }
  }, 60_000);

  test("after one refused write, later writes to that file and its close are refused too: a small last piece cannot make a holed file look uploaded", async () => {
    const rig = await sftpRig();
    try {
      const id = await rig.createServer("sftp quota pieces");
      const current = await rig.daemon.json("GET", `/daemon/server/${id}`);
      expect((await rig.daemon.call("POST", `/daemon/server/${id}`, { ...current, limits: { diskMiB: 1 } })).status).toBe(204);
      const { client, sftp } = await ssh2Sftp(rig.node.sftpPort, { email: rig.admin.email, serverId: id, password: "password123" });
      try {
        const handle = await call<Buffer>((cb) => sftp.open("/pieces.bin", "w", cb));
        await expect(call((cb) => sftp.write(handle, Buffer.alloc(2 * MIB, 1), 0, 2 * MIB, 0, (error) => cb(error)))).rejects.toThrow(/ErrDiskQuotaExceeded/);
        // Ten bytes would fit; after the refusal they are refused as well, and so is the close.
        await expect(call((cb) => sftp.write(handle, Buffer.alloc(10, 2), 0, 10, 3 * MIB, (error) => cb(error)))).rejects.toThrow(/ErrDiskQuotaExceeded/);
        await expect(call((cb) => sftp.close(handle, cb))).rejects.toThrow(/ErrDiskQuotaExceeded/);
        // The handle is gone all the same, and a new file may still take what is left.
        await expect(call((cb) => sftp.fstat(handle, cb))).rejects.toThrow();
        const small = await call<Buffer>((cb) => sftp.open("/small.txt", "w", cb));
        await call((cb) => sftp.write(small, Buffer.from("fits"), 0, 4, 0, (error) => cb(error)));
        await call((cb) => sftp.close(small, cb));
      } finally {
        client.end();
      }
      expect(statSync(rig.folder(id, "pieces.bin")).size).toBeLessThanOrEqual(MIB);
    } finally {
      await rig.stop();
    }
  }, 60_000);
});

describe("who sets limits", () => {
  test("an administrator, at creation and on the admin card; nobody else, by any route", async () => {
    const ctx = await panelWithNode(t);
    const id = await ctx.createServer("limited", { limits: { memoryMiB: 512, diskMiB: 100 } });
    expect((await t.json("GET", `/daemon/server/${id}`)).limits).toEqual({ memoryMiB: 512, diskMiB: 100 });

    // A creator who is not an administrator: refused, nothing made.
    const serversBefore = (await t.json("GET", "/daemon/server")).servers.length;
    const creator = await loginAs(ctx.panel.db, [SCOPES.serversCreate]);
    const refused = await ctx.panel.request("/api/servers", { token: creator.token, ...jsonInit("POST", { name: "greedy", node: ctx.nodeId, template: "echo", limits: { memoryMiB: 0 } }) });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.metadata.field).toBe("limits");
    const form = await ctx.panel.request("/addserver", { token: creator.token, ...formInit({ name: "greedy", node: String(ctx.nodeId), template: "echo", environment: "standard", diskMiB: "0" }) });
    expect(form.status).toBe(403);
    expect((await t.json("GET", "/daemon/server")).servers).toHaveLength(serversBefore);

    // A user holding every flag of the server: the admin card's form, the definition and the data route change nothing.
    const user = await ctx.userWith(id, { editServerData: true, editServerUsers: true, installServer: true, startServer: true, stopServer: true, sendServerConsole: true, viewServerConsole: true, viewServerStats: true, viewServerFiles: true, putServerFiles: true, deleteServer: true, sftpServer: true });
    expect((await ctx.panel.request(`/server/${id}/limits`, { token: user.token, ...formInit({ memoryMiB: "0", diskMiB: "0" }) })).status).toBe(403);
    const definitionNow = await t.json("GET", `/daemon/server/${id}`);
    expect((await ctx.panel.request(`/proxy/daemon/server/${id}`, { token: user.token, ...jsonInit("POST", { ...definitionNow, limits: {} }) })).status).toBe(403);
    await ctx.panel.request(`/proxy/daemon/server/${id}/data`, { token: user.token, ...jsonInit("POST", { data: {}, limits: {} }) });
    expect((await t.json("GET", `/daemon/server/${id}`)).limits).toEqual({ memoryMiB: 512, diskMiB: 100 });

    // The administrator's card: the form's values become the limits (an empty field: none).
    const saved = await ctx.panel.request(`/server/${id}/limits`, { token: ctx.admin.token, ...formInit({ memoryMiB: "1024", cpuPercent: "150", processes: "", diskMiB: "0" }) });
    expect(saved.status).toBe(303);
    expect((await t.json("GET", `/daemon/server/${id}`)).limits).toEqual({ memoryMiB: 1024, cpuPercent: 150 });
    const bad = await ctx.panel.request(`/server/${id}/limits`, { token: ctx.admin.token, ...formInit({ memoryMiB: "-5", cpuPercent: "", processes: "", diskMiB: "" }) });
    expect(bad.status).toBe(400);
    expect((await t.json("GET", `/daemon/server/${id}`)).limits).toEqual({ memoryMiB: 1024, cpuPercent: 150 });

    // Shown: on the admin card to the admin, and on the stats (what the stats tab draws from).
    expect((await ctx.page(`/server/${id}?tab=admin`, ctx.admin.token)).html).toContain('data-testid="limits-form"');
    expect((await t.json("GET", `/daemon/server/${id}/stats`)).limits).toEqual({ memoryMiB: 1024, cpuPercent: 150 });
    await ctx.panel.request(`/api/servers/${id}`, { token: ctx.admin.token, method: "DELETE" });
  });

  test("the node's page says how the node enforces limits", async () => {
    const ctx = await panelWithNode(t);
    await checkNodes(ctx.panel.db);
    const page = await ctx.page(`/node/${ctx.nodeId}`, ctx.admin.token);
    expect(page.status).toBe(200);
    const expected = { cgroup2: "through cgroups (v2)", cgroup1: "through cgroups (v1)", prlimit: "through prlimit", none: "are not enforced" }[t.node.limiter.mechanism];
    expect(page.html).toContain('data-testid="limits-mechanism"');
    expect(page.html).toContain(expected);
  });
});
