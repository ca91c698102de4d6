// An egg's install script runs as root in a container (daemon/environment/script-container). The
// attacker writes the script (a template they import, a variable it reads) and aims it at the
// node: its API and SFTP on the loopback, and a service of the node's on every address through
// the container's gateway and the node's own address. A docker server in network mode "host"
// used to hand its install container the node's network. Every attempt must fail, and the script
// must still download from the internet (a namespace beyond the node: test/helpers/wan.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eventually, startTestNode, type TestNode } from "../helpers/node";
import { hasDocker } from "../helpers/docker";
import { ensureEggImages, EGG_INSTALLER_IMAGE, EGG_RUNTIME_IMAGE } from "../helpers/egg-images";
import { freePort } from "../helpers/process";
import { canMakeWan, startWan, type Wan } from "../helpers/wan";

const enabled = hasDocker() && canMakeWan();
let t: TestNode;
let wan: Wan;
let url: string;

beforeAll(async () => {
  if (!enabled) return;
  await ensureEggImages();
  t = await startTestNode();
  wan = await startWan();
  url = await wan.serve({ "server.jar": "the game's jar" });
}, 120_000);
afterAll(async () => {
  if (!enabled) return;
  await t.stop();
  await wan.stop();
});

describe.if(enabled)("an install container", () => {
  for (const environment of [{ type: "docker", image: EGG_RUNTIME_IMAGE, conventions: "egg", networkMode: "host" }, { type: "standard" }]) {
    test(`of a ${environment.type} server${environment.networkMode ? ` in network mode ${environment.networkMode}` : ""} reaches nothing of the node, and still downloads`, async () => {
      const everywhere = await freePort();
      const listener = Bun.listen({ hostname: "0.0.0.0", port: everywhere, socket: { open: (s) => void s.end("the node's service\n"), data() {} } });
      const script = `#!/bin/ash
try() { what=$1; shift; if echo | nc -w 3 "$@" >/dev/null 2>&1; then echo "ATTACK-WORKED $what"; else echo "blocked $what"; fi; }
gateway=$(ip route | awk '/default/ { print $3 }')
{
echo "gateway $gateway"
try node-api 127.0.0.1 ${t.node.port}
try node-sftp 127.0.0.1 ${t.node.sftpPort}
try all-addresses-loopback 127.0.0.1 ${everywhere}
try all-addresses-gateway "$gateway" ${everywhere}
try all-addresses-node-address ${wan.node} ${everywhere}
# HTTP by hand: the image's static busybox cannot resolve names without the libraries its wget looks for.
printf 'GET /server.jar HTTP/1.0\r\n\r\n' | nc -w 5 ${new URL(url).hostname} ${new URL(url).port} | sed '1,/^\r$/d' > /mnt/server/server.jar && [ -s /mnt/server/server.jar ] && echo downloaded
echo install-done
} > /mnt/server/report.txt 2>&1
`;
      const id = `installer-${environment.type}`;
      const template = { display: "install network", install: [{ type: "containerscript", image: EGG_INSTALLER_IMAGE, entrypoint: "ash", script }], run: { command: "true" }, data: {}, environment };
      try {
        await t.json("PUT", `/daemon/server/${id}`, template);
        expect((await t.call("POST", `/daemon/server/${id}/install?wait=true`)).status).toBe(204);
        const folder = t.folder(id);
        const report = readFileSync(join(folder, "report.txt"), "utf8");
        expect(report).toContain("install-done");
        expect(report).not.toContain("ATTACK-WORKED");
        for (const what of ["node-api", "node-sftp", "all-addresses-loopback", "all-addresses-gateway", "all-addresses-node-address"]) expect(report).toContain(`blocked ${what}`);
        expect(report).toContain("downloaded");
        expect(readFileSync(join(folder, "server.jar"), "utf8")).toBe("the game's jar");
      } finally {
        listener.stop(true);
      }
    }, 120_000);
  }

  test("of one server cannot reach another's running at the same moment, and leaves no network behind", async () => {
    // Each install container is alone on a network of its own: what it sends another is routed by
    // the node and meets its table. On one shared bridge it went straight across wherever the
    // machine does not pass bridged frames through its IP hooks (br_netfilter's setting, off on
    // many machines): the test turns that off while it runs, to be such a machine.
    const bridgedThroughIp = "/proc/sys/net/bridge/bridge-nf-call-iptables";
    const before = existsSync(bridgedThroughIp) ? readFileSync(bridgedThroughIp, "utf8") : null;
    if (before !== null) writeFileSync(bridgedThroughIp, "0");
    try {
      await installsAtOnce();
    } finally {
      if (before !== null) writeFileSync(bridgedThroughIp, before);
    }
  }, 180_000);
});

/** Two servers' install containers at once: the second tries the first's listening port. */
async function installsAtOnce(): Promise<void> {
  const suffix = Math.random().toString(36).slice(2, 8);
  const [listener, attacker] = [`step-listener-${suffix}`, `step-attacker-${suffix}`];
  const install = (id: string, script: string) => t.json("PUT", `/daemon/server/${id}`, { display: id, install: [{ type: "containerscript", image: EGG_INSTALLER_IMAGE, entrypoint: "ash", script }], run: { command: "true" }, data: {}, environment: { type: "docker", image: EGG_RUNTIME_IMAGE, conventions: "egg", networkMode: "host" } });
  await install(
    listener,
    `#!/bin/ash
printf '#!/bin/ash\necho the-listening-installer\n' > /mnt/server/answer.sh && chmod 755 /mnt/server/answer.sh
nc -ll -p 7777 -e /mnt/server/answer.sh &
address=$(ip -4 addr show eth0 | awk '/inet / { split($2, a, "/"); print a[1] }')
sleep 1
# It answers on its own address: the attacker's "blocked" below is the network's doing.
echo | nc -w 3 "$address" 7777 > /mnt/server/self.txt
echo "$address" > /mnt/server/address.txt
i=0; while [ ! -f /mnt/server/done ] && [ $i -lt 900 ]; do sleep 0.1; i=$((i+1)); done
kill $!
`,
  );
  const listening = t.call("POST", `/daemon/server/${listener}/install?wait=true`);
  const addressFile = join(t.folder(listener), "address.txt");
  await eventually(async () => existsSync(addressFile), 60_000, "the listening install container to say its address");
  const address = readFileSync(addressFile, "utf8").trim();
  expect(address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  expect(readFileSync(join(t.folder(listener), "self.txt"), "utf8")).toContain("the-listening-installer");

  await install(attacker, `#!/bin/ash\nif echo | nc -w 3 ${address} 7777 | grep -q the-listening-installer; then echo ATTACK-WORKED; else echo blocked; fi > /mnt/server/report.txt\n`);
  expect((await t.call("POST", `/daemon/server/${attacker}/install?wait=true`)).status).toBe(204);
  writeFileSync(join(t.folder(listener), "done"), "");
  expect((await listening).status).toBe(204);
  expect(readFileSync(join(t.folder(attacker), "report.txt"), "utf8").trim()).toBe("blocked");

  // Each step's network went with its container (the server's own network stays for its runs).
  for (const id of [listener, attacker]) {
    const left = Bun.spawnSync(["docker", "network", "ls", "--format", "{{.Name}}", "--filter", `label=kiln.server=${id}`]).stdout.toString().split("\n");
    expect(left.filter((name) => name.startsWith("kiln-step-"))).toEqual([]);
  }
}
