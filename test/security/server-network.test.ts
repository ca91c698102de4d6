// A server cannot reach its node's services or another server over the network, nor take
// another server's port; it still reaches the internet and is reached on its own ports. The
// attacker holds what a server's user holds: its files and its start. Its script (Perl, which every
// Debian has) runs as the server, in the sandbox, and tries:
// - the node's API and SFTP on the loopback, where the node listens;
// - a service of the node's that listens on every address (as a panel or a remote node's API
//   does), through the loopback, the node's end of the server's link and the node's own address;
// - another server's port on the loopback it would have shared, and that server's own address
//   on a port it did not publish;
// - a link-local address beyond the node, where a cloud's metadata service answers (the
//   machine's credentials);
// - the port another server publishes: it binds it too, yet clients still reach the owner.
// Each attempt prints "ATTACK-WORKED <what>" or "blocked <what>". The "internet" is a network
// namespace beyond the node (test/helpers/wan.ts): the server downloads from it, and a client
// there reaches the server's published TCP and UDP port.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { eventually, echoTemplate, startTestNode, type TestNode } from "../helpers/node";
import { freePort } from "../helpers/process";
import { canMakeWan, startWan, type Wan } from "../helpers/wan";
import { panelWithNode } from "../helpers/panel-node";
import { checkNodes } from "../../server/node-heartbeat";
import { ensureTestImage, hasDocker } from "../helpers/docker";

/** Answers "I am <name>" on TCP and UDP at 0.0.0.0:<port>, and on TCP at 127.0.0.1:<loopback> and 0.0.0.0:<hidden>. */
const SERVE = String.raw`use strict; use IO::Socket::INET; use IO::Select;
my ($name, $port, $loopback, $hidden) = @ARGV; $| = 1;
my @tcp = map { IO::Socket::INET->new(LocalAddr => $_->[0], LocalPort => $_->[1], Listen => 5, ReuseAddr => 1) or die "listen $_->[0]:$_->[1]: $!" } (["0.0.0.0", $port], ["127.0.0.1", $loopback], ["0.0.0.0", $hidden]);
my $udp = IO::Socket::INET->new(LocalAddr => "0.0.0.0", LocalPort => $port, Proto => "udp") or die "udp: $!";
print "serving $name\n";
my $select = IO::Select->new(@tcp, $udp);
while (my @ready = $select->can_read) {
  for my $s (@ready) {
    if ($s == $udp) { my $from = $udp->recv(my $data, 100); $udp->send("I am $name", 0, $from); }
    else { my $c = $s->accept; print $c "I am $name\n"; close $c; }
  }
}
`;

/** The attacks; arguments: what it reaches and where. */
const ATTACK = String.raw`use strict; use IO::Socket::INET; $| = 1;
my %a = @ARGV;
sub reach { my ($what, $host, $port) = @_;
  my $s = IO::Socket::INET->new(PeerAddr => $host, PeerPort => $port, Proto => "tcp", Timeout => 3);
  print $s ? "ATTACK-WORKED $what\n" : "blocked $what\n"; }
open my $route, "<", "/proc/net/route"; my $gateway;
while (<$route>) { my @f = split; if ($f[1] eq "00000000" && $f[2] ne "00000000") { $gateway = join ".", reverse map { hex } $f[2] =~ /(..)/g; } }
print "gateway $gateway\n";
reach("node-api", "127.0.0.1", $a{api});
reach("node-sftp", "127.0.0.1", $a{sftp});
reach("all-addresses-service-loopback", "127.0.0.1", $a{everywhere});
reach("all-addresses-service-gateway", $gateway, $a{everywhere}) if $gateway;
reach("all-addresses-service-node-address", $a{wan}, $a{everywhere});
reach("other-server-loopback", "127.0.0.1", $a{loopback});
reach("other-server-hidden-port", $a{victim}, $a{hidden});
reach("link-local-metadata", $a{meta}, 80);
my $squat = IO::Socket::INET->new(LocalAddr => "0.0.0.0", LocalPort => $a{published}, Listen => 5, ReuseAddr => 1);
my $squatUdp = IO::Socket::INET->new(LocalAddr => "0.0.0.0", LocalPort => $a{published}, Proto => "udp");
print $squat && $squatUdp ? "squatting $a{published}\n" : "no squat: $!\n";
my $s = IO::Socket::INET->new(PeerAddr => $a{wan}, PeerPort => $a{published}, Proto => "tcp", Timeout => 3);
my $line = $s ? <$s> : "nothing\n"; print "public port of the other: $line";
my $web = IO::Socket::INET->new(PeerAddr => $a{far}, PeerPort => 8080, Proto => "tcp", Timeout => 3);
if ($web) { print $web "GET /game.txt HTTP/1.0\r\n\r\n"; my $body = join "", <$web>; print $body =~ /game data/ ? "downloaded\n" : "download broken\n"; } else { print "no download: $!\n"; }
print "attack-done\n";
while (1) { my $c = $squat->accept; print $c "I am the squatter\n"; close $c; }
`;

let t: TestNode;
let wan: Wan;
let url: string;
/** A cloud's metadata service, as far as the network goes: a link-local address beyond the node. */
let metadata: string;
const enabled = canMakeWan();

beforeAll(async () => {
  if (!enabled) return;
  t = await startTestNode();
  wan = await startWan();
  url = await wan.serve({ "game.txt": "game data" });
  metadata = await wan.serveLinkLocal({ "latest/meta-data/iam": "the machine's credentials" });
}, 30_000);
afterAll(async () => {
  if (!enabled) return;
  await t.json("POST", "/daemon/server/attacker/kill?wait=true").catch(() => undefined);
  await t.json("POST", "/daemon/server/victim/kill?wait=true").catch(() => undefined);
  await t.stop();
  await wan.stop();
});

const consoleText = async (id: string) => ((await t.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");

function server(command: string, data: Record<string, number | string>) {
  return { ...echoTemplate({ command }), install: [], data: Object.fromEntries(Object.entries(data).map(([name, value]) => [name, { type: typeof value === "number" ? "integer" : "string", value }])) };
}

/** One TCP line or UDP answer from `host:port`, asked from the wan (the internet) or from the node. */
async function ask(where: "wan" | "node", protocol: "tcp" | "udp", host: string, port: number): Promise<string> {
  const script = protocol === "tcp" ? `my $s = IO::Socket::INET->new(PeerAddr => "${host}", PeerPort => ${port}, Timeout => 3) or exit 1; print scalar <$s>;` : `my $s = IO::Socket::INET->new(PeerAddr => "${host}", PeerPort => ${port}, Proto => "udp") or exit 1; $s->send("hi"); my $r = IO::Select->new($s); exit 1 unless $r->can_read(3); $s->recv(my $d, 100); print "$d\n";`;
  const argv = ["perl", "-MIO::Socket::INET", "-MIO::Select", "-e", script];
  const proc = where === "wan" ? wan.spawn(argv) : Bun.spawn(argv, { stdout: "pipe" });
  return (await new Response(proc.stdout as ReadableStream).text()).trim();
}

describe.if(enabled)("a server's network", () => {
  test("reaches neither the node's services nor another server, takes no other server's port, still reaches the internet", async () => {
    const [published, loopback, hidden, own, everywhere] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    // A service of the node's on every address, as a panel or a remote node's API listens.
    const listener = Bun.listen({ hostname: "0.0.0.0", port: everywhere, socket: { open: (s) => void s.end("the node's service\n"), data() {} } });
    try {
      await t.json("PUT", "/daemon/server/victim", server(`perl serve.pl victim ${published} ${loopback} ${hidden}`, { port: published, loopbackSlot: String(loopback), hiddenSlot: String(hidden) }));
      writeFileSync(t.folder("victim", "serve.pl"), SERVE);
      await t.json("POST", "/daemon/server/victim/start?wait=true");
      await eventually(async () => (await consoleText("victim")).includes("serving victim"), 10_000, "the victim to listen");

      const victimAddress = (t.node as { network?: { server(id: string): { address: string | null } } }).network?.server("victim").address ?? "127.0.0.1";
      const args = { api: t.node.port, sftp: t.node.sftpPort, everywhere, wan: wan.node, loopback, victim: victimAddress, hidden, published, far: new URL(url).hostname, meta: new URL(metadata).hostname };
      await t.json("PUT", "/daemon/server/attacker", server(`perl attack.pl ${Object.entries(args).flat().join(" ")}`, { port: own }));
      writeFileSync(t.folder("attacker", "attack.pl"), ATTACK);
      await t.json("POST", "/daemon/server/attacker/start?wait=true");
      await eventually(async () => (await consoleText("attacker")).includes("attack-done"), 40_000, "the attack to finish");
      const out = await consoleText("attacker");
      expect(out).not.toContain("ATTACK-WORKED");
      for (const what of ["node-api", "node-sftp", "all-addresses-service-loopback", "all-addresses-service-gateway", "all-addresses-service-node-address", "other-server-loopback", "other-server-hidden-port", "link-local-metadata"]) {
        expect(out).toContain(`blocked ${what}`);
      }
      // It may bind what it likes in its own namespace, but the port on the node stays the victim's:
      // from the node, from the internet, and from the squatter itself through the node's address.
      expect(out).toContain(`squatting ${published}`);
      expect(out).toContain("public port of the other: I am victim");
      expect(await ask("node", "tcp", "127.0.0.1", published)).toBe("I am victim");
      expect(await ask("node", "udp", "127.0.0.1", published)).toBe("I am victim");
      expect(await ask("wan", "tcp", wan.node, published)).toBe("I am victim");
      expect(await ask("wan", "udp", wan.node, published)).toBe("I am victim");
      // What is not published is not reachable from the internet: the victim's loopback and hidden ports.
      expect(await ask("wan", "tcp", wan.node, hidden)).toBe("");
      // The internet is still there for it; the metadata service is there for the node itself.
      expect(out).toContain("downloaded");
      expect(await (await fetch(`${metadata}/latest/meta-data/iam`)).text()).toBe("the machine's credentials");
      expect((await t.call("GET", "/daemon")).status).toBe(200);
    } finally {
      listener.stop(true);
    }
  }, 90_000);

  test("a port another server already published is refused at start, saying which", async () => {
    const taken = await freePort();
    await t.json("PUT", "/daemon/server/first", server("sleep 30", { port: taken }));
    await t.json("PUT", "/daemon/server/second", server("sleep 30", { port: taken }));
    await t.json("POST", "/daemon/server/first/start?wait=true");
    try {
      const response = await t.call("POST", "/daemon/server/second/start?wait=true");
      expect(response.status).toBe(409);
      const body = await response.json();
      expect(body.error.code).toBe("ErrPortTaken");
      expect(body.error.metadata).toMatchObject({ port: taken });
      expect((await t.json("GET", "/daemon/server/second/status")).running).toBe(false);
    } finally {
      await t.json("POST", "/daemon/server/first/kill?wait=true");
    }
  }, 30_000);
});

describe("a node that cannot give its servers networks of their own", () => {
  test('isolation "required" refuses to start a server with the catalogue error; "auto" starts it saying it shares the node\'s network', async () => {
    const strict = await startTestNode({ isolation: { mode: "required", nftPath: "/nonexistent/nft" } });
    try {
      await strict.json("PUT", "/daemon/server/strict", server("sh -c 'echo started'", {}));
      const response = await strict.call("POST", "/daemon/server/strict/start?wait=true");
      expect(response.status).toBe(503);
      const body = await response.json();
      expect(body.error.code).toBe("ErrIsolationUnavailable");
      expect(JSON.stringify(body)).not.toContain("/nonexistent");
      expect(await consoleTextOf(strict, "strict")).not.toContain("started\n");
      expect((await strict.json("GET", "/daemon")).isolation).toMatchObject({ mode: "required", network: false });
    } finally {
      await strict.stop();
    }
    const lax = await startTestNode({ isolation: { nftPath: "/nonexistent/nft" } });
    try {
      await lax.json("PUT", "/daemon/server/lax", server("sh -c 'echo started'", {}));
      await lax.json("POST", "/daemon/server/lax/start?wait=true");
      await eventually(async () => (await consoleTextOf(lax, "lax")).includes("started"), 10_000, "the run");
      expect(await consoleTextOf(lax, "lax")).toContain("warning: this server's processes share the node's network: nft (nftables) is not installed");
      // So does a docker server that asks for the node's network, said the same way.
      if (hasDocker()) {
        await lax.json("PUT", "/daemon/server/laxdocker", { ...server("sh -c 'echo started'", {}), environment: { type: "docker", image: await ensureTestImage(), networkMode: "host" } });
        await lax.json("POST", "/daemon/server/laxdocker/start?wait=true");
        await eventually(async () => (await consoleTextOf(lax, "laxdocker")).includes("started"), 20_000, "the container's run");
        expect(await consoleTextOf(lax, "laxdocker")).toContain("warning: this server's processes share the node's network: nft (nftables) is not installed");
        await lax.call("DELETE", "/daemon/server/laxdocker");
      }
      // The node's page in the panel says so (the heartbeat reads the node's status), and not for a node that can.
      const rig = await panelWithNode(lax);
      await checkNodes(rig.panel.db);
      const page = await rig.page(`/node/${rig.nodeId}`, rig.admin.token);
      expect(page.html).toContain('data-testid="network-warning"');
      expect(page.html).toContain("Servers on this node share its network");
      if (enabled) {
        const isolated = await panelWithNode(t);
        await checkNodes(isolated.panel.db);
        expect((await isolated.page(`/node/${isolated.nodeId}`, isolated.admin.token)).html).not.toContain("network-warning");
      }
    } finally {
      await lax.stop();
    }
  }, 30_000);
});

async function consoleTextOf(node: TestNode, id: string): Promise<string> {
  return ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");
}
