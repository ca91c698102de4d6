// "The internet" for network tests: a network namespace of its own beyond the node, linked to it by
// a veth pair on a /30 of TEST-NET-3 (203.0.113.0/24, never routed for real): the node's end is
// `node`, the far side `far`. Programs started in it (busybox httpd, a game client) are as far
// from the node as a host on the internet: a server behind the node reaches them through the
// node's forwarding and masquerade, and they reach a server only through the ports it published.
// Each wan takes a /30 no other wan on the machine uses (several test processes may run at once),
// and removes those whose process is gone.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./process";
import { partAvailable } from "./require-part";

export interface Wan {
  /** The node's address on the link: where a client on the internet sends to reach a server. */
  node: string;
  /** The far side's address. */
  far: string;
  /** The namespace's name, for `ip netns exec`. */
  name: string;
  /** Runs a program in the far namespace (it is killed by stop()). */
  spawn(argv: string[]): Bun.Subprocess;
  /** Serves `files` over HTTP at http://203.0.113.2:<port>/ (busybox httpd). */
  serve(files: Record<string, string>, port?: number): Promise<string>;
  /**
   * Serves `files` at a link-local address beyond the node (169.254.213.<n>, routed there from the
   * node), where a cloud's metadata service answers: http://169.254.213.<n>/.
   */
  serveLinkLocal(files: Record<string, string>): Promise<string>;
  stop(): Promise<void>;
}

let made = 0;

/** Root, ip and busybox: what a wan needs; skips (or fails under KILN_REQUIRE_ALL) without them. */
export const canMakeWan = () => partAvailable("a network namespace for the test's internet (root, ip, busybox)", () => process.getuid?.() === 0 && Bun.which("ip") !== null && Bun.which("busybox") !== null);

function ip(args: string[]): void {
  const result = Bun.spawnSync(["ip", ...args], { stdout: "ignore", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`ip ${args.join(" ")}: ${result.stderr.toString().trim()}`);
}

/** A new wan on a free /30 of TEST-NET-3. */
export async function startWan(): Promise<Wan> {
  removeLeftovers();
  const name = `kiln-test-wan-${process.pid}-${made}`;
  const link = `ktwan${process.pid % 100_000}x${made}`.slice(0, 15);
  made++;
  ip(["netns", "add", name]);
  const taken = Bun.spawnSync(["ip", "-4", "-o", "address", "show"], { stdout: "pipe" }).stdout.toString();
  const slot = Array.from({ length: 64 }, (_, i) => i).find((i) => !taken.includes(` 203.0.113.${i * 4 + 1}/30`));
  if (slot === undefined) throw new Error("every test wan address is in use");
  const [node, far] = [`203.0.113.${slot * 4 + 1}`, `203.0.113.${slot * 4 + 2}`];
  try {
    ip(["link", "add", link, "type", "veth", "peer", "name", "eth0", "netns", name]);
    ip(["address", "add", `${node}/30`, "dev", link]);
    ip(["link", "set", link, "up"]);
    ip(["-n", name, "link", "set", "lo", "up"]);
    ip(["-n", name, "address", "add", `${far}/30`, "dev", "eth0"]);
    ip(["-n", name, "link", "set", "eth0", "up"]);
  } catch (error) {
    ip(["netns", "delete", name]);
    throw error;
  }
  const procs: Bun.Subprocess[] = [];
  const routes: string[] = [];
  const spawn = (argv: string[]) => {
    const proc = Bun.spawn(["ip", "netns", "exec", name, ...argv], { stdout: "pipe", stderr: "pipe" });
    procs.push(proc);
    return proc;
  };
  async function serveFiles(files: Record<string, string>, host: string, port: number): Promise<string> {
    const root = tempDir("kiln-wan-");
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, ".."), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    spawn(["busybox", "httpd", "-f", "-p", `${host}:${port}`, "-h", root]);
    const url = `http://${host}:${port}`;
    for (let i = 0; i < 50; i++) {
      if (Bun.spawnSync(["ip", "netns", "exec", name, "busybox", "wget", "-q", "-O", "/dev/null", `${url}/${Object.keys(files)[0] ?? ""}`]).exitCode === 0) return url;
      await Bun.sleep(50);
    }
    throw new Error("the wan's httpd did not start");
  }
  return {
    name,
    node,
    far,
    spawn,
    serve(files, port = 8080) {
      return serveFiles(files, far, port);
    },
    async serveLinkLocal(files) {
      // One address per wan (its slot), so wans of several test processes never clash.
      const address = `169.254.213.${slot + 1}`;
      ip(["-n", name, "address", "add", `${address}/32`, "dev", "eth0"]);
      ip(["route", "add", `${address}/32`, "via", far]);
      routes.push(address);
      return serveFiles(files, address, 80);
    },
    async stop() {
      for (const address of routes) Bun.spawnSync(["ip", "route", "delete", `${address}/32`]);
      for (const proc of procs) proc.kill();
      await Promise.all(procs.map((proc) => proc.exited));
      Bun.spawnSync(["ip", "link", "delete", link]);
      Bun.spawnSync(["ip", "netns", "delete", name]);
    },
  };
}

/** Wans of test processes that ended without stopping theirs (their link goes with the namespace). */
function removeLeftovers(): void {
  const names = Bun.spawnSync(["ip", "netns", "list"], { stdout: "pipe" }).stdout.toString().split("\n").map((line) => line.split(" ")[0] ?? "");
  for (const name of names) {
    const pid = Number(/^kiln-test-wan-(\d+)-\d+$/.exec(name)?.[1]);
    if (!pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      Bun.spawnSync(["ip", "netns", "delete", name]);
    }
  }
}
