// The docker environment against a real Docker Engine (skipped with a reason when none answers),
// in what is its own (the container, its user and label, its removal, a slow sink, a busy or stale
// name, a missing image), plus its pure parts: create options, stats arithmetic and the attach
// stream's frames. What every environment promises is ./conformance.test.ts.
import { describe, test, expect, beforeAll, afterAll } from "bun:test";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ContainerStats } from "dockerode";
import { environmentSchema, type DockerEnvironment as DockerSpec } from "../../core/definition";
import { KilnError } from "../../core/errors";
import { DockerEnvironment, dockerClient, dockerAvailable } from "./docker";
import { containerOptions, statsOf, FrameReader, type ContainerInput } from "./docker-options";
import { ServerUsers } from "./server-user";
import { DEFAULT_ISOLATION, DEFAULT_TMP_BYTES } from "./sandbox";
import type { ExitInfo } from "./types";
import { hasDocker, ensureTestImage, TEST_IMAGE } from "../../test/helpers/docker";
import { consoleOf } from "../../test/helpers/environment-console";
import { eventually } from "../../test/helpers/node";

const SOCKET = "/var/run/docker.sock";

function dockerSpec(fields: Partial<DockerSpec> = {}): DockerSpec {
  return environmentSchema.parse({ type: "docker", image: TEST_IMAGE, ...fields }) as DockerSpec;
}

function input(fields: Partial<ContainerInput> = {}): ContainerInput {
  return { name: "kiln-a", serverId: "a", serverDir: "/srv/a", spec: dockerSpec(), argv: ["run"], workingDirectory: "", env: {}, user: "1000:1000", stdin: true, ...fields };
}

function frame(type: number, text: string): Buffer {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header[0] = type;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

describe("containerOptions", () => {
  test("mounts the server folder at /server (and at /pufferpanel, for v3 templates) and nothing else, runs as the given user without privileges, labels the container", () => {
    const options = containerOptions(input({ workingDirectory: "game/bin", env: { A: "1" } }));
    expect(options.WorkingDir).toBe("/server/game/bin");
    expect(options.User).toBe("1000:1000");
    expect(options.Labels).toEqual({ "kiln.server": "a" });
    expect(options.Env).toEqual(["HOME=/server", "A=1"]);
    expect(options.HostConfig?.Mounts).toEqual([
      { Type: "bind", Source: "/srv/a", Target: "/server", ReadOnly: false },
      { Type: "bind", Source: "/srv/a", Target: "/pufferpanel", ReadOnly: false },
    ]);
    expect(options.HostConfig?.Binds).toBeUndefined();
    expect(options.HostConfig?.Privileged).toBe(false);
    expect(options.HostConfig?.CapDrop).toEqual(["ALL"]);
    expect(options.HostConfig?.CapAdd).toBeUndefined();
    expect(options.HostConfig?.SecurityOpt).toEqual(["no-new-privileges"]);
    expect(options.OpenStdin).toBe(true);
    expect(options.Tty).toBe(false);
  });

  test("a host folder bound in is refused: the server sees its own folder only", () => {
    const error = (() => {
      try {
        containerOptions(input({ spec: dockerSpec({ bindings: { "/data/maps": "/maps" } }) }));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(KilnError);
    expect((error as KilnError).code).toBe("ErrPathOutside");
  });

  test("the image is read-only; /tmp and the image's volumes are tmpfs of the memory limit, never one over the server's folder", () => {
    const options = containerOptions(input({ limits: { memoryMiB: 64 }, imageVolumes: ["/data/", "/server", "logs", "/"] }));
    expect(options.HostConfig?.ReadonlyRootfs).toBe(true);
    const size = `rw,exec,nosuid,nodev,size=${64 * 1024 * 1024}`;
    expect(options.HostConfig?.Tmpfs).toEqual({ "/tmp": size, "/data": size, "/logs": size });
    expect(containerOptions(input()).HostConfig?.Tmpfs).toEqual({ "/tmp": `rw,exec,nosuid,nodev,size=${DEFAULT_TMP_BYTES}` });
  });

  test("a working directory cannot lead out of /server", () => {
    expect(containerOptions(input({ workingDirectory: "../../etc" })).WorkingDir).toBe("/server/etc");
    expect(containerOptions(input({ workingDirectory: "" })).WorkingDir).toBe("/server");
  });

  test("port bindings become exposed ports and host bindings; {ip} means every address", () => {
    const spec = dockerSpec({ networkMode: "bridge", portBindings: ["25565", "127.0.0.1:8080:80", "{ip}:27015:27015/udp", "8081:80"] });
    const options = containerOptions(input({ spec }));
    expect(options.HostConfig?.NetworkMode).toBe("bridge");
    expect(options.ExposedPorts).toEqual({ "25565/tcp": {}, "80/tcp": {}, "27015/udp": {} });
    expect(options.HostConfig?.PortBindings).toEqual({
      "25565/tcp": [{ HostIp: "", HostPort: "25565" }],
      "80/tcp": [{ HostIp: "127.0.0.1", HostPort: "8080" }, { HostIp: "", HostPort: "8081" }],
      "27015/udp": [{ HostIp: "", HostPort: "27015" }],
    });
  });

  test("host networking (the default) leaves port bindings out", () => {
    const options = containerOptions(input({ spec: dockerSpec({ portBindings: ["25565"] }) }));
    expect(options.HostConfig?.NetworkMode).toBe("host");
    expect(options.ExposedPorts).toBeUndefined();
    expect(options.HostConfig?.PortBindings).toBeUndefined();
  });

  test("on a network of Kiln's: joined at its address instead of the definition's, ports left to the node's table, the node's resolvers read-only", () => {
    const network = { network: "kiln-srv-k-a", address: "10.213.0.2", resolvConf: "/var/lib/kiln/network/resolv.conf" };
    const options = containerOptions(input({ spec: dockerSpec({ portBindings: ["25565"] }), network }));
    expect(options.HostConfig?.NetworkMode).toBe("kiln-srv-k-a");
    expect(options.NetworkingConfig).toEqual({ EndpointsConfig: { "kiln-srv-k-a": { IPAMConfig: { IPv4Address: "10.213.0.2" } } } });
    expect(options.ExposedPorts).toBeUndefined();
    expect(options.HostConfig?.PortBindings).toBeUndefined();
    expect(options.HostConfig?.Mounts).toContainEqual({ Type: "bind", Source: "/var/lib/kiln/network/resolv.conf", Target: "/etc/resolv.conf", ReadOnly: true });
    // A step's network: no fixed address, and no resolv.conf where the node has none to give.
    const step = containerOptions(input({ network: { network: "kiln-step-k-7", resolvConf: null } }));
    expect(step.HostConfig?.NetworkMode).toBe("kiln-step-k-7");
    expect(step.NetworkingConfig).toBeUndefined();
    expect(step.HostConfig?.Mounts?.map((m) => m.Target)).toEqual(["/server", "/pufferpanel"]);
  });

  test("a named network is joined; overlay and macvlan need one", () => {
    expect(containerOptions(input({ spec: dockerSpec({ networkMode: "bridge", networkName: "games" }) })).HostConfig?.NetworkMode).toBe("games");
    expect(containerOptions(input({ spec: dockerSpec({ networkMode: "macvlan", networkName: "lan" }) })).HostConfig?.NetworkMode).toBe("lan");
    expect(() => containerOptions(input({ spec: dockerSpec({ networkMode: "overlay" }) }))).toThrow(KilnError);
  });

  test("an invalid port binding is refused with the value", () => {
    const spec = dockerSpec({ networkMode: "bridge", portBindings: ["1:2:3:4"] });
    expect(() => containerOptions(input({ spec }))).toThrow(/invalid port binding "1:2:3:4"/);
  });
});

describe("statsOf", () => {
  const sample = (total: number, system: number, preTotal: number, preSystem: number, memory: Record<string, number>) =>
    ({
      cpu_stats: { cpu_usage: { total_usage: total, percpu_usage: [0, 0] }, system_cpu_usage: system, online_cpus: 2 },
      precpu_stats: { cpu_usage: { total_usage: preTotal }, system_cpu_usage: preSystem },
      memory_stats: { usage: 10_000, stats: memory },
    }) as unknown as ContainerStats;

  test("cpu is the share of the system delta times the cpus, two decimals; memory leaves the cache out", () => {
    expect(statsOf(sample(1_500_000, 4_000_000, 1_000_000, 1_000_000, { cache: 4_000 }))).toEqual({ cpu: 33.33, memory: 6_000 });
  });

  test("cgroup v2 reports the cache as inactive_file", () => {
    expect(statsOf(sample(0, 0, 0, 0, { inactive_file: 1_000 })).memory).toBe(9_000);
  });

  test("no previous sample means 0% rather than a made-up figure", () => {
    expect(statsOf(sample(1_500_000, 3_000_000, 0, 0, {})).cpu).toBe(0);
  });
});

describe("FrameReader", () => {
  test("frames split across chunks come out whole, stdout and stderr alike", () => {
    const bytes = Buffer.concat([frame(1, "hello\n"), frame(2, "err\n"), frame(1, "")]);
    const reader = new FrameReader();
    const out = [...reader.push(bytes.subarray(0, 5)), ...reader.push(bytes.subarray(5, 17)), ...reader.push(bytes.subarray(17))];
    expect(out.map(String)).toEqual(["hello\n", "err\n"]);
  });
});

test("a socket where no engine answers: ErrDockerNotSupported", async () => {
  const docker = dockerClient("/nonexistent.sock");
  expect(await dockerAvailable(docker)).toBe(false);
  const dir = mkdtempSync(join(tmpdir(), "kiln-docker-"));
  try {
    const env = new DockerEnvironment({ serverId: "nodocker", serverDir: dir, user: null, spec: dockerSpec(), docker });
    const error = await env.start({ argv: ["true"], workingDirectory: "", env: {}, output: () => {}, onExit: () => {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KilnError);
    expect((error as KilnError).code).toBe("ErrDockerNotSupported");
    expect(await env.reattach({ output: () => {}, onExit: () => {} })).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe.skipIf(!hasDocker())("DockerEnvironment on a real engine", () => {
  const docker = dockerClient(SOCKET);
  const ids: string[] = [];
  const dirs: string[] = [];
  const users = new ServerUsers(DEFAULT_ISOLATION.uidRange);

  beforeAll(async () => {
    await ensureTestImage();
  }, 60_000);

  afterAll(async () => {
    for (const id of ids) {
      const leftovers = await docker.listContainers({ all: true, filters: { label: [`kiln.server=${id}`] } });
      await Promise.all(leftovers.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => {})));
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  function server(fields: Partial<DockerSpec> = {}) {
    const id = `test-${crypto.randomUUID().slice(0, 8)}`;
    const dir = mkdtempSync(join(tmpdir(), "kiln-docker-"));
    ids.push(id);
    dirs.push(dir);
    // As a node gives it: the server's own uid when the tests run as root.
    const user = users.claim(dir);
    const make = () => new DockerEnvironment({ serverId: id, serverDir: dir, user, spec: dockerSpec(fields), docker });
    return { id, dir, user, env: make(), make };
  }

  const containerExists = (name: string) => docker.getContainer(name).inspect().then(() => true, () => false);

  test("the container runs as the server's user, labelled with the server, and is removed once it has ended", async () => {
    const { id, env, user } = server();
    const c = consoleOf();
    await env.start({ argv: ["sh", "-c", "echo ready; while :; do sleep 1; done"], workingDirectory: "", env: {}, ...c });
    await eventually(() => c.text().includes("ready"), 10_000, "start");
    const info = await docker.getContainer(`kiln-${id}`).inspect();
    expect(info.Config.User).toBe(user ? `${user.uid}:${user.gid}` : `${process.getuid!()}:${process.getgid!()}`);
    expect(info.Config.Labels["kiln.server"]).toBe(id);
    await env.kill();
    expect(c.exits).toHaveLength(1);
    expect(await containerExists(`kiln-${id}`)).toBe(false);
  });

  test("a slow sink pauses the stream: never two chunks at once, nothing lost", async () => {
    const { env } = server();
    let text = "";
    let busy = false;
    let overlapped = false;
    const exits: ExitInfo[] = [];
    const output = async (chunk: Uint8Array) => {
      if (busy) overlapped = true;
      busy = true;
      await Bun.sleep(2);
      text += new TextDecoder().decode(chunk);
      busy = false;
    };
    await env.start({ argv: ["sh", "-c", "seq 1 3000; seq 1 3000 >&2"], workingDirectory: "", env: {}, output, onExit: (i) => void exits.push(i) });
    await eventually(() => exits.length > 0, 20_000, "exit");
    expect(overlapped).toBe(false);
    // stdout and stderr reach the engine through separate pipes and may interleave mid-line, so
    // the check is on the bytes, not on whole lines.
    const seq = Array.from({ length: 3000 }, (_, i) => `${i + 1}\n`).join("");
    expect(text.length).toBe(2 * seq.length);
  }, 30_000);

  test("execute: HOME is the server's folder, and the step's container is removed", async () => {
    const { id, env } = server();
    const c = consoleOf();
    expect(await env.execute({ argv: ["sh", "-c", 'echo "home=$HOME"'], workingDirectory: "", env: {}, output: c.output })).toEqual({ code: 0, signal: null });
    expect(c.text()).toContain("home=/server\n");
    expect(await docker.listContainers({ all: true, filters: { label: [`kiln.server=${id}`] } })).toEqual([]);
  });

  test("a container still running under the name blocks a start instead of being killed", async () => {
    const { env, make } = server();
    await env.start({ argv: ["sleep", "60"], workingDirectory: "", env: {}, ...consoleOf() });
    const error = await make().start({ argv: ["true"], workingDirectory: "", env: {}, ...consoleOf() }).catch((e: unknown) => e);
    expect((error as KilnError).code).toBe("ErrServerBusy");
    await env.destroy();
    expect(env.isRunning()).toBe(false);
  });

  test("destroy removes the container, and a stale stopped one is replaced on start", async () => {
    const { id, dir, env } = server();
    await docker.createContainer({ name: `kiln-${id}`, Image: TEST_IMAGE, Cmd: ["true"], Labels: { "kiln.server": id } });
    const c = consoleOf();
    await env.start({ argv: ["sleep", "60"], workingDirectory: "", env: {}, ...c });
    expect((await docker.getContainer(`kiln-${id}`).inspect()).State.Running).toBe(true);
    await env.destroy();
    expect(c.exits).toHaveLength(1);
    expect(await containerExists(`kiln-${id}`)).toBe(false);
    expect(existsSync(dir)).toBe(true); // the server's folder is not the environment's to remove
  });

  test("an image that is not there and cannot be pulled: ErrDockerNotSupported naming it", async () => {
    const { env } = server({ image: "kiln-test/no-such-image" });
    const c = consoleOf();
    const error = await env.start({ argv: ["true"], workingDirectory: "", env: {}, ...c }).catch((e: unknown) => e);
    expect((error as KilnError).code).toBe("ErrDockerNotSupported");
    expect((error as KilnError).metadata).toEqual({ image: "kiln-test/no-such-image" });
    expect(c.text()).toContain("[docker] pulling image kiln-test/no-such-image");
  }, 30_000);
});
