// "The internet" for network tests: a network namespace of its own beyond the node, linked to it by
// a veth pair on TEST-NET-3 (203.0.113.0/24, never routed for real): the node is 203.0.113.1 there,
// the far side 203.0.113.2. Programs started in it (busybox httpd, a game client) are as far from
// the node as a host on the internet: a server behind the node reaches them through the node's
// forwarding and masquerade, and they reach a server only through the ports it published.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./process";
import { partAvailable } from "./require-part";

export const WAN_NODE = "203.0.113.1";
export const WAN_FAR = "203.0.113.2";

export interface Wan {
  /** The namespace's name, for `ip netns exec`. */
  name: string;
  /** Runs a program in the far namespace (it is killed by stop()). */
  spawn(argv: string[]): Bun.Subprocess;
  /** Serves `files` over HTTP at http://203.0.113.2:<port>/ (busybox httpd). */
  serve(files: Record<string, string>, port?: number): Promise<string>;
  stop(): Promise<void>;
}

let made = 0;

/** Root, ip and busybox: what a wan needs; skips (or fails under KILN_REQUIRE_ALL) without them. */
export const canMakeWan = () => partAvailable("a network namespace for the test's internet (root, ip, busybox)", () => process.getuid?.() === 0 && Bun.which("ip") !== null && Bun.which("busybox") !== null);

function ip(args: string[]): void {
  const result = Bun.spawnSync(["ip", ...args], { stdout: "ignore", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`ip ${args.join(" ")}: ${result.stderr.toString().trim()}`);
}

/** One wan per process at a time: the addresses are fixed. */
export async function startWan(): Promise<Wan> {
  const name = `kiln-test-wan-${process.pid}-${made}`;
  const link = `ktwan${process.pid % 100_000}`;
  made++;
  ip(["netns", "add", name]);
  const procs: Bun.Subprocess[] = [];
  try {
    ip(["link", "add", link, "type", "veth", "peer", "name", "eth0", "netns", name]);
    ip(["address", "add", `${WAN_NODE}/24`, "dev", link]);
    ip(["link", "set", link, "up"]);
    ip(["-n", name, "link", "set", "lo", "up"]);
    ip(["-n", name, "address", "add", `${WAN_FAR}/24`, "dev", "eth0"]);
    ip(["-n", name, "link", "set", "eth0", "up"]);
  } catch (error) {
    ip(["netns", "delete", name]);
    throw error;
  }
  const spawn = (argv: string[]) => {
    const proc = Bun.spawn(["ip", "netns", "exec", name, ...argv], { stdout: "pipe", stderr: "pipe" });
    procs.push(proc);
    return proc;
  };
  return {
    name,
    spawn,
    async serve(files, port = 8080) {
      const root = tempDir("kiln-wan-");
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(root, path, ".."), { recursive: true });
        writeFileSync(join(root, path), text);
      }
      spawn(["busybox", "httpd", "-f", "-p", `${WAN_FAR}:${port}`, "-h", root]);
      const url = `http://${WAN_FAR}:${port}`;
      for (let i = 0; i < 50; i++) {
        if (Bun.spawnSync(["ip", "netns", "exec", name, "busybox", "wget", "-q", "-O", "/dev/null", `${url}/${Object.keys(files)[0] ?? ""}`]).exitCode === 0) return url;
        await Bun.sleep(50);
      }
      throw new Error("the wan's httpd did not start");
    },
    async stop() {
      for (const proc of procs) proc.kill();
      await Promise.all(procs.map((proc) => proc.exited));
      Bun.spawnSync(["ip", "link", "delete", link]);
      Bun.spawnSync(["ip", "netns", "delete", name]);
    },
  };
}
