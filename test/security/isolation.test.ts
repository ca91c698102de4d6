// A server cannot reach its node. The attacker holds what a server's user holds: they may upload
// files and start the server. Their script is uploaded through the files API and run as the
// server; it tries to read the node secret, the definitions, the panel's database and another
// server's folder, to plant a program in the shared binaries, and to signal and trace the daemon.
// Every attempt must fail, the daemon must go on answering, and the process must not be root.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chownSync, existsSync, linkSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestNode, echoTemplate, eventually, uploadFile, type TestNode } from "../helpers/node";
import { tempDir } from "../helpers/process";
import { hasDocker, ensureTestImage } from "../helpers/docker";
import { DEFAULT_ISOLATION } from "../../daemon/environment/sandbox";
import { dockerClient } from "../../daemon/environment/docker";
import { panelWithNode } from "../helpers/panel-node";
import { checkNodes } from "../../server/node-heartbeat";

const [FIRST_UID, LAST_UID] = DEFAULT_ISOLATION.uidRange;
const PANEL_SECRET_TEXT = "panel database: every account's password hash";
const PRIVATE_TEXT = "the other server's private world";

/** The attack: each line prints "ATTACK-WORKED <what>" or "blocked <what>". */
function attackScript(paths: { secretFile: string; definition: string; database: string; other: string; bin: string; daemonPid: number }): string {
  return `#!/bin/sh
echo "uid=$(id -u)"
try() { what=$1; shift; if "$@" >/dev/null 2>&1; then echo "ATTACK-WORKED $what"; else echo "blocked $what"; fi; }
try secret-file cat '${paths.secretFile}'
try definition cat '${paths.definition}'
try database cat '${paths.database}'
try other-server-list ls '${paths.other}'
try other-server-read cat '${paths.other}/private.txt'
try binaries-write sh -c "echo 'echo pwned' > '${paths.bin}/java'"
try signal-daemon kill -9 ${paths.daemonPid}
try see-daemon test -e /proc/${paths.daemonPid}
try trace-daemon python3 -c 'import ctypes,sys; sys.exit(0 if ctypes.CDLL(None).ptrace(16, ${paths.daemonPid}, 0, 0) == 0 else 1)'
try root-dir-list ls /root
echo "environment: $(env | tr '\\n' ' ')"
echo attack-done
`;
}

let parent: string;
let t: TestNode;
let secretFile: string;

beforeAll(async () => {
  // The node's data folder inside the panel's, as the panel's local node keeps it.
  parent = tempDir("kiln-isolation-");
  t = await startTestNode({ dataDir: join(parent, "node") });
  secretFile = join(parent, "node", "secret");
  writeFileSync(secretFile, t.config.secret, { mode: 0o600 });
  writeFileSync(join(parent, "kiln.db"), PANEL_SECRET_TEXT);
});
afterAll(() => t.stop());


async function consoleText(node: TestNode, id: string): Promise<string> {
  return (await node.json("GET", `/daemon/server/${id}/console`)).logs.join("");
}

/** Creates a server whose run command is `sh attack.sh`, uploads the script and runs it to its end. */
async function runAttack(node: TestNode, id: string, environment?: Parameters<typeof echoTemplate>[1]): Promise<string> {
  await node.json("PUT", `/daemon/server/${id}`, { ...echoTemplate({ command: "sh attack.sh" }, environment), install: [] });
  const dataDir = node.config.dataDir;
  const script = attackScript({
    secretFile,
    definition: join(dataDir, "servers", `${id}.json`),
    database: join(parent, "kiln.db"),
    other: join(dataDir, "servers", "victim"),
    bin: join(dataDir, "binaries", "bin"),
    daemonPid: process.pid,
  });
  await uploadFile(node, id, "attack.sh", script);
  await node.json("POST", `/daemon/server/${id}/start?wait=true`);
  await eventually(async () => (await consoleText(node, id)).includes("attack-done"), 20_000, "the attack to finish");
  return consoleText(node, id);
}

describe("a server's process against its node (bubblewrap)", () => {
  test("reads nothing of the node, the panel or another server, plants nothing, cannot signal or trace the daemon", async () => {
    await t.json("PUT", "/daemon/server/victim", echoTemplate());
    await uploadFile(t, "victim", "private.txt", PRIVATE_TEXT);

    const out = await runAttack(t, "attacker");
    expect(out).not.toContain("ATTACK-WORKED");
    for (const what of ["secret-file", "definition", "database", "other-server-list", "other-server-read", "binaries-write", "signal-daemon", "see-daemon", "trace-daemon", "root-dir-list"]) {
      expect(out).toContain(`blocked ${what}`);
    }
    expect(out).not.toContain(t.config.secret);
    expect(out).not.toContain(PANEL_SECRET_TEXT);
    expect(out).not.toContain(PRIVATE_TEXT);
    expect(out).not.toContain("without a sandbox");

    // Its own uid from the node's range: neither root nor the daemon's, and another than the victim's.
    const uid = Number(/uid=(\d+)/.exec(out)?.[1]);
    expect(uid).not.toBe(0);
    expect(uid).not.toBe(process.getuid!());
    expect(uid).toBeGreaterThanOrEqual(FIRST_UID);
    expect(uid).toBeLessThanOrEqual(LAST_UID);
    expect(statSync(t.folder("attacker")).uid).toBe(uid);
    expect(statSync(t.folder("victim")).uid).not.toBe(uid);
    // What the node writes for the server (an upload, a folder, an install step's file) becomes
    // the server's own, so the server may change what it was given.
    const folder = t.folder("attacker");
    expect(statSync(join(folder, "attack.sh")).uid).toBe(uid);
    expect((await t.fetch(`${t.node.url}/daemon/server/attacker/file/made/here?folder=true`, { method: "PUT" })).status).toBe(204);
    expect(statSync(join(folder, "made")).uid).toBe(uid);
    expect(statSync(join(folder, "made/here")).uid).toBe(uid);
    await t.json("POST", "/daemon/server/attacker", echoTemplate({ command: "sh attack.sh" }));
    await t.json("POST", "/daemon/server/attacker/install?wait=true");
    expect(statSync(join(folder, "motd.txt")).uid).toBe(uid);

    expect(existsSync(join(t.config.dataDir, "binaries", "bin", "java"))).toBe(false);
    const status = await t.json("GET", "/daemon");
    expect(status.isolation).toEqual({ mode: "auto", sandboxed: true, problem: null, network: true });
  }, 30_000);

  test("a stop signal reaches the command inside the sandbox, not only the sandbox", async () => {
    await t.json("PUT", "/daemon/server/trapper", { ...echoTemplate({ command: "sh trap.sh", stop: "", stopCode: 15 }), install: [] });
    await uploadFile(t, "trapper", "trap.sh", "trap 'echo saved the world; exit 0' TERM\necho ready\nwhile :; do sleep 0.1; done\n");
    await t.json("POST", "/daemon/server/trapper/start?wait=true");
    await eventually(async () => (await consoleText(t, "trapper")).includes("ready"), 10_000, "ready");
    await t.json("POST", "/daemon/server/trapper/stop?wait=true");
    const out = await consoleText(t, "trapper");
    expect(out).toContain("saved the world");
    expect(out).toContain("exited with code 0");
  }, 20_000);
});

describe("a folder from before isolation", () => {
  test("its contents are handed to the server's user by the jail's walk: a planted hard link to a host file stays the host's", async () => {
    const node = await startTestNode();
    const hostFile = join(node.config.dataDir, "host-file.txt");
    try {
      await node.json("PUT", "/daemon/server/veteran", { ...echoTemplate({ command: "sh -c 'echo uid=$(id -u); echo finished'" }), install: [] });
      await node.stop();
      // As it was when the server ran as root: the folder and its files the node's, plus a hard
      // link its process planted to a host file.
      const folder = node.folder("veteran");
      writeFileSync(hostFile, "the node's own file");
      writeFileSync(join(folder, "world.dat"), "the server's own data");
      linkSync(hostFile, join(folder, "planted"));
      chownSync(folder, 0, 0);
      const again = await node.restart();
      try {
        await again.json("POST", "/daemon/server/veteran/start?wait=true");
        await eventually(async () => (await consoleText(again, "veteran")).includes("finished"), 10_000, "the run");
        const uid = statSync(folder).uid;
        expect(uid).toBeGreaterThanOrEqual(FIRST_UID);
        expect(statSync(join(folder, "world.dat")).uid).toBe(uid);
        expect(statSync(hostFile).uid).toBe(0);
      } finally {
        await again.stop();
      }
    } finally {
      await node.stop().catch(() => undefined);
    }
  }, 30_000);
});

describe("a node that cannot build a sandbox", () => {
  test('isolation "required" refuses to start the server with the catalogue error', async () => {
    const node = await startTestNode({ isolation: { mode: "required", bwrapPath: "/nonexistent/bwrap" } });
    try {
      await node.json("PUT", "/daemon/server/strict", echoTemplate());
      const response = await node.call("POST", "/daemon/server/strict/start?wait=true");
      expect(response.status).toBe(503);
      const body = await response.json();
      expect(body.error.code).toBe("ErrIsolationUnavailable");
      expect(JSON.stringify(body)).not.toContain("/nonexistent");
      expect((await node.json("GET", "/daemon/server/strict/status")).running).toBe(false);
      expect((await node.json("GET", "/daemon")).isolation).toEqual({ mode: "required", sandboxed: false, problem: "missing", network: true });
    } finally {
      await node.stop();
    }
  });

  test('isolation "auto" starts it with a warning line, still as the server\'s own user', async () => {
    const node = await startTestNode({ isolation: { bwrapPath: "/nonexistent/bwrap" } });
    try {
      await node.json("PUT", "/daemon/server/lax", { ...echoTemplate({ command: "sh -c 'echo uid=$(id -u); echo finished'" }), install: [] });
      await node.json("POST", "/daemon/server/lax/start?wait=true");
      await eventually(async () => (await consoleText(node, "lax")).includes("finished"), 10_000, "the run");
      const out = await consoleText(node, "lax");
      expect(out).toContain("warning: this server's processes run without a sandbox: bubblewrap is not installed");
      const uid = Number(/uid=(\d+)/.exec(out)?.[1]);
      expect(uid).toBeGreaterThanOrEqual(FIRST_UID);
      expect((await node.json("GET", "/daemon")).isolation).toEqual({ mode: "auto", sandboxed: false, problem: "missing", network: true });
    } finally {
      await node.stop();
    }
  });
});

describe("the node's page in the panel", () => {
  test("warns when the node cannot sandbox its servers, and not when it can", async () => {
    const unsandboxed = await startTestNode({ isolation: { bwrapPath: "/nonexistent/bwrap" } });
    try {
      const rig = await panelWithNode(unsandboxed);
      // The heartbeat asks the node's status, as it does every 30 s.
      await checkNodes(rig.panel.db);
      const warned = await rig.page(`/node/${rig.nodeId}`, rig.admin.token);
      expect(warned.status).toBe(200);
      expect(warned.html).toContain('data-testid="isolation-warning"');
      expect(warned.html).toContain("Servers on this node run without a sandbox");
      expect(warned.html).toContain("bubblewrap is not installed on the node");

      const sandboxed = await panelWithNode(t);
      await checkNodes(sandboxed.panel.db);
      expect((await sandboxed.page(`/node/${sandboxed.nodeId}`, sandboxed.admin.token)).html).not.toContain("isolation-warning");
    } finally {
      await unsandboxed.stop();
    }
  });
});

describe("a docker server against its node", () => {
  test.skipIf(!hasDocker())("runs as the server's uid without privileges, capabilities or extra mounts", async () => {
    const image = await ensureTestImage();
    await t.json("PUT", "/daemon/server/boxed", { ...echoTemplate({ command: "sh -c 'echo uid=$(id -u); grep CapEff /proc/self/status; while read l; do [ \"$l\" = quit ] && exit 0; done'" }, { type: "docker", image, networkMode: "host" }), install: [] });
    await t.json("POST", "/daemon/server/boxed/start?wait=true");
    try {
      await eventually(async () => (await consoleText(t, "boxed")).includes("CapEff"), 20_000, "the container's output");
      const out = await consoleText(t, "boxed");
      const folderUid = statSync(t.folder("boxed")).uid;
      expect(folderUid).toBeGreaterThanOrEqual(FIRST_UID);
      expect(out).toContain(`uid=${folderUid}`);
      expect(out).toMatch(/CapEff:\s+0+\n/);

      const info = await dockerClient(t.config.dockerSocket).getContainer("kiln-boxed").inspect();
      expect(info.Config.User).toBe(`${folderUid}:${folderUid}`);
      expect(info.HostConfig.Privileged).toBe(false);
      expect(info.HostConfig.CapDrop).toEqual(["ALL"]);
      expect(info.HostConfig.CapAdd ?? []).toEqual([]);
      expect(info.HostConfig.SecurityOpt).toEqual(["no-new-privileges"]);
      expect(info.HostConfig.Binds ?? []).toEqual([]);
      // The server's own folder only, at /server and at /pufferpanel (PufferPanel v3 templates' path),
      // and on a network of its own the node's resolvers, read-only.
      const resolvConf = (t.node as { network?: { support: { available: boolean }; resolvConf: string | null } }).network;
      const folders = info.Mounts.filter((m) => m.Destination !== "/etc/resolv.conf");
      expect(folders.map((m) => m.Destination).sort()).toEqual(["/pufferpanel", "/server"]);
      expect(new Set(folders.map((m) => m.Source))).toEqual(new Set([t.folder("boxed")]));
      const resolvers = info.Mounts.filter((m) => m.Destination === "/etc/resolv.conf");
      if (resolvConf?.support.available && resolvConf.resolvConf) expect(resolvers).toMatchObject([{ Source: join(t.config.dataDir, "network", "resolv.conf"), RW: false }]);
      else expect(resolvers).toEqual([]);
    } finally {
      await t.json("POST", "/daemon/server/boxed/kill?wait=true").catch(() => undefined);
    }
  }, 60_000);

  test("a definition that binds a host folder into the container does not start", async () => {
    const image = await ensureTestImage().catch(() => "kiln-test/busybox");
    mkdirSync(join(parent, "host-folder"), { recursive: true });
    await t.json("PUT", "/daemon/server/binder", { ...echoTemplate({}, { type: "docker", image, networkMode: "host", bindings: { [join(parent, "host-folder")]: "/host" } } as never), install: [] });
    const response = await t.call("POST", "/daemon/server/binder/start?wait=true");
    expect((await response.json()).error.code).toBe("ErrPathOutside");
  });
});
