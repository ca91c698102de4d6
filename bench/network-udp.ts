// bench/network-udp: what a server's own network costs game traffic. A UDP echo server (a game
// server's stand-in, C) answers a client on "the internet" (a network namespace beyond the node,
// test/helpers/wan.ts) that sends to the node's address on the server's port, through:
// - none: the echo server in the node's own network (what Kiln did before);
// - netns: Kiln's mechanism, the server's namespace with its veth and the node's nftables DNAT and
//   masquerade (daemon/environment/network), made by the node's own code;
// - pasta: Debian's passt package, a user-mode network stack that forwards the port into a
//   namespace of its own (what rootless Podman uses).
// Landlock has network rules for TCP bind and connect only (no UDP, no addresses): it would cost
// UDP nothing and protect nothing, so it is not measured (docs/sandbox.md).
// Latency: round trips of 64-byte datagrams one at a time (median, p99). Throughput: 1200-byte
// datagrams with 32 in flight for a few seconds (echoed per second, Mbit/s each way). The rounds
// alternate the mechanisms so all meet the same machine load. Needs root, ip, nft, cc, pasta.
//   bun bench/network-udp.ts [rounds=3]
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NodeNetwork } from "../daemon/environment/network";
import { DEFAULT_NETWORK_RANGE } from "../daemon/environment/network/addresses";
import { startWan, type Wan } from "../test/helpers/wan";
import { machine, median, percentile, table } from "./lib/figures";

const ROUNDS = Number(process.argv[2] ?? 3);
const PINGS = 2000;
const SECONDS = 3;
const WINDOW = 32;
const here = import.meta.dir;

for (const tool of ["cc", "ip", "nft", "pasta"]) {
  if (!Bun.which(tool)) {
    console.log(`${tool} is not installed (Debian: gcc, iproute2, nftables, passt)`);
    process.exit(1);
  }
}
const build = mkdtempSync(join(tmpdir(), "kiln-bench-udp-"));
for (const name of ["udp-echo", "udp-client"]) {
  const cc = Bun.spawnSync(["cc", "-O2", "-o", join(build, name), join(here, "lib", `${name}.c`)], { stderr: "pipe" });
  if (cc.exitCode !== 0) throw new Error(`cc ${name}: ${cc.stderr}`);
}
const echo = join(build, "udp-echo");
const client = join(build, "udp-client");

const network = await NodeNetwork.open({ ipPath: "ip", nftPath: "nft", range: DEFAULT_NETWORK_RANGE, dataDir: build });
if (!network.support.available) throw new Error(`no server networks here: ${network.support.reason}`);
const wan: Wan = await startWan();

interface Mechanism {
  name: string;
  port: number;
  start(): Promise<Bun.Subprocess>;
}

async function started(proc: Bun.Subprocess): Promise<Bun.Subprocess> {
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const { value } = await reader.read();
  if (!new TextDecoder().decode(value).includes("echoing")) throw new Error("the echo server did not start");
  reader.releaseLock();
  return proc;
}

const server = network.server("bench");
const namespace = await server.ensure();
await server.publish({ tcp: [], udp: [27962] }, []);

const mechanisms: Mechanism[] = [
  { name: "none (the node's network)", port: 27961, start: async () => started(Bun.spawn([echo, "27961"], { stdout: "pipe" })) },
  { name: "netns + veth + nftables (Kiln)", port: 27962, start: async () => started(Bun.spawn(["nsenter", `--net=${namespace}`, echo, "27962"], { stdout: "pipe" })) },
  { name: "pasta (passt)", port: 27963, start: async () => started(Bun.spawn(["pasta", "--runas", "0", "--quiet", "--config-net", "--udp-ports", "27963", "--tcp-ports", "none", "--foreground", "--", echo, "27963"], { stdout: "pipe", stderr: "ignore" })) },
];

async function inWan(argv: string[]): Promise<string> {
  const proc = wan.spawn(argv);
  return new Response(proc.stdout as ReadableStream).text();
}

const results = new Map<string, { rtt: number[]; lost: number; rates: number[] }>();
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const mechanism of mechanisms) {
      console.error(`round ${round + 1}: ${mechanism.name}`);
      const proc = await mechanism.start();
      await Bun.sleep(300);
      try {
        const entry = results.get(mechanism.name) ?? { rtt: [], lost: 0, rates: [] };
        results.set(mechanism.name, entry);
        const latency = (await inWan([client, "latency", wan.node, String(mechanism.port), String(PINGS)])).trim().split("\n");
        entry.rtt.push(...latency.filter((l) => l !== "lost").map(Number));
        entry.lost += latency.filter((l) => l === "lost").length;
        const out = await inWan([client, "throughput", wan.node, String(mechanism.port), String(SECONDS), String(WINDOW)]);
        const [, , , echoed, , seconds] = out.trim().split(" ");
        entry.rates.push(Number(echoed) / Number(seconds));
      } finally {
        proc.kill();
        await proc.exited;
      }
    }
  }
  console.log(machine());
  console.log(`UDP echo from a client beyond the node; ${ROUNDS} rounds × ${PINGS} round trips, and ${SECONDS} s of 1200-byte datagrams with ${WINDOW} in flight per round`);
  const baseline = results.get(mechanisms[0]!.name)!;
  table(
    ["mechanism", "RTT median", "RTT p99", "lost", "echoed/s (median round)", "Mbit/s each way", "throughput vs none"],
    mechanisms.map((m) => {
      const r = results.get(m.name)!;
      const rate = median(r.rates);
      return [m.name, `${median(r.rtt).toFixed(0)} µs`, `${percentile(r.rtt, 99).toFixed(0)} µs`, r.lost, rate.toFixed(0), ((rate * 1200 * 8) / 1e6).toFixed(0), `${((rate / median(baseline.rates)) * 100).toFixed(0)} %`];
    }),
  );
  // What a server's first start pays for its network: the namespace, its link, its ports.
  const setups: number[] = [];
  for (let i = 0; i < 10; i++) {
    const started = performance.now();
    const own = network.server(`setup-${i}`);
    await own.ensure();
    await own.publish({ tcp: [28000 + i], udp: [28000 + i] }, []);
    setups.push(performance.now() - started);
  }
  const teardown = performance.now();
  for (let i = 0; i < 10; i++) await network.forget(`setup-${i}`);
  console.log(`a server's network made (namespace, veth, addresses, ports): median ${median(setups).toFixed(1)} ms, max ${Math.max(...setups).toFixed(1)} ms over 10; removed in ${((performance.now() - teardown) / 10).toFixed(1)} ms each`);
} finally {
  await network.close();
  await wan.stop();
}
