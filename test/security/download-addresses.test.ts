// A step's download (a template's download step, filled from a variable a server's users may set)
// against the addresses the node must not fetch from (daemon/processors/http, daemon/net/
// outbound-guard): spellings of the loopback that Bun's fetch sends there whatever DNS says
// (localhost., x.localhost), the node's own services behind an IPv4 address written inside IPv6,
// clouds' metadata services outside the link-local range, and servers' own addresses. Then a name
// whose resolver answers the node's check with a public address and the fetch with the loopback
// (DNS rebinding): the node connects to the address it checked, and an https download there is
// still checked against the name's certificate. The second part runs in a mount namespace whose
// resolv.conf names a resolver of the test's (test/helpers/pinned-fetch-probe.ts).
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { fetchOk, type FetchRule } from "../../daemon/processors/http";
import { outwardAddress } from "../helpers/outward-address";
import { tempDir } from "../helpers/process";
import { partAvailable } from "../helpers/require-part";

const hits: string[] = [];
const serve = (hostname: string, name: string) => Bun.serve({ hostname, port: 0, fetch: (request) => (hits.push(`${name} ${new URL(request.url).pathname}`), new Response(`${name} answered`)) });
/** A service of the machine's on its loopback only. */
const loopback = serve("127.0.0.1", "loopback");
/** One of the node's own services, on every address. */
const own = serve("0.0.0.0", "own");
/** Anything else on the machine's outward address: allowed. */
const other = serve("0.0.0.0", "other");
const outward = outwardAddress() ?? "127.0.0.1";
afterAll(() => {
  for (const server of [loopback, own, other]) server.stop(true);
});

const rule: FetchRule = { trusted: new Set(), own: { ports: [own.port!], serverRange: [10, 213] }, internal: false };

describe("a step's download", () => {
  test("refuses the loopback however named, the node's own services however written, clouds' metadata and servers' addresses", async () => {
    const refused = [
      `http://localhost.:${loopback.port}/localhost-dot`,
      `http://x.localhost:${loopback.port}/under-localhost`,
      `http://X.LocalHost.:${loopback.port}/under-localhost-dot`,
      `http://[::ffff:${outward}]:${own.port}/own-mapped`,
      `http://100.100.100.200/alibaba`,
      `http://168.63.129.16/azure`,
      `http://[fd00:ec2::254]/aws-v6`,
      `http://10.213.0.2:${loopback.port}/a-server`,
    ];
    for (const url of refused) {
      const error = await fetchOk(url, { outbound: rule, signal: AbortSignal.timeout(5000) }).then(() => null, (e: Error) => e.message);
      expect([url, error]).toEqual([url, expect.stringMatching(/the node does not fetch from (loopback|own-service|metadata|server-network) addresses/)]);
    }
    expect(hits).toEqual([]);
    // What the rule allows still answers.
    expect(await (await fetchOk(`http://${outward}:${other.port}/fine`, { outbound: rule })).text()).toBe("other answered");
  });

  const canRebind = partAvailable("root and unshare, for a resolver of the test's own", () => process.getuid?.() === 0 && Bun.which("unshare") !== null && Bun.which("openssl") !== null);
  test.if(canRebind)("connects to the address it checked: a second answer with the loopback reaches nothing, and https is checked against the name", async () => {
    const dir = tempDir("kiln-rebind-");
    writeFileSync(join(dir, "resolv.conf"), "nameserver 127.77.0.53\n");
    const made = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "1", "-subj", "/CN=secure.test", "-addext", "subjectAltName=DNS:secure.test"], { stderr: "pipe" });
    expect(made.exitCode).toBe(0);
    const tls = Bun.serve({ hostname: "0.0.0.0", port: 0, tls: { cert: Bun.file(join(dir, "cert.pem")), key: Bun.file(join(dir, "key.pem")) }, fetch: (request) => new Response(`tls answered for ${request.headers.get("host")}`) });
    try {
      const probe = join(import.meta.dir, "..", "helpers", "pinned-fetch-probe.ts");
      const urls = [`http://x.rebind.test:${loopback.port}/rebound`, `https://secure.test:${tls.port}/pinned`, `https://other.secure.test:${tls.port}/wrong-name`];
      const script = `mount --bind ${join(dir, "resolv.conf")} /etc/resolv.conf && exec ${process.execPath} ${probe} ${outward} ${urls.join(" ")}`;
      const run = Bun.spawn(["unshare", "-m", "sh", "-c", script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, "cert.pem") }, stdout: "pipe", stderr: "pipe" });
      const lines = (await new Response(run.stdout).text()).trim().split("\n").map((line) => JSON.parse(line) as { url: string; body?: string; error?: string });
      expect(await run.exited).toBe(0);
      const [rebound, pinned, wrongName] = lines;
      // The check saw 203.0.113.99 (nothing answers there); the loopback was never asked.
      expect(rebound?.error).toBeDefined();
      expect(hits.filter((hit) => hit.startsWith("loopback"))).toEqual([]);
      expect(pinned).toEqual({ url: urls[1]!, body: `tls answered for secure.test:${tls.port}` });
      expect(wrongName?.error).toMatch(/altname|ALTNAME/i);
    } finally {
      tls.stop(true);
    }
  }, 30_000);
});
