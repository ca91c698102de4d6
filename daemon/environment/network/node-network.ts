// The node's side of its servers' networks: every server on the node itself gets a network
// namespace of its own (its own loopback, its own ports), linked to the node by a veth pair and
// reaching the internet through the node's nftables table (./ruleset). What a server cannot do
// from there: reach the node's services (API, SFTP, the panel) on any of the node's addresses,
// reach another server's loopback or address, or take a port on the node that another server
// published; it can bind whatever it likes inside its namespace, where only its published ports
// are reachable from outside. Chosen by measurement over pasta and Landlock (docs/sandbox.md,
// docs/benchmarks.md).
//
// Several nodes may run on one machine (tests do): each names its table and namespaces after its
// process and a counter ("kiln-<pid>-<n>"), claims a slot (an address pair, ./addresses) by
// creating the slot's interface, which only one of them can, and removes what a node that died
// without closing left behind (names whose process is gone) when it opens.
//
// A server never publishes a port its node's own machine uses: the node's API and SFTP ports, and
// any port a program of the machine's network listens on (a TCP listener, a bound UDP socket: sshd,
// the panel, another node). A published port takes every connection to the machine on that number,
// from outside and from the node itself (ruleset: any local address, 127.0.0.1 included), so one
// such port would hand the server the connections meant for that program (SFTP logins with their
// passwords, the node's API). The start is refused with ErrPortInUse naming the port and its
// holder (ErrPortInUseUnnamed when no process holds it, as a kernel's socket), as for a server that
// shares the node's network (daemon/net/port-holder).
import { processAlive } from "../../../core/process/alive";
import type Dockerode from "dockerode";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readFile } from "node:fs/promises";
import { KilnError } from "../../../core/errors";
import type { ServerPorts } from "../../../core/definition/server-ports";
import { linkOf, parseRange, SLOT_COUNT, type Link } from "./addresses";
import { run, ToolError, type ToolPaths } from "./commands";
import { systemProgram } from "../sandbox";
import { consoleTable, nodeTable, publishPorts } from "./ruleset";
import { engineNetworkInUse, engineNetworkName, engineNetworkSlot, makeBridge, makeEngineLink, removeEngineLink, removeUnusedEngineLinks, stepNetworkName } from "./engine-link";
import { upstreamResolvConf } from "./resolvers";
import { portHolder, type PortProtocol } from "../../net/port-holder";

export interface NetworkSettings {
  /** The programs, names looked up in the system folders or paths. */
  ipPath: string;
  nftPath: string;
  /** An "a.b.0.0/16" the node's servers take their addresses from. */
  range: string;
  /** The node's data folder: names its docker servers' networks (./engine-link) and keeps their resolv.conf. */
  dataDir: string;
}

/** Whether this node gives its servers networks of their own, and why not. */
export interface NetworkSupport {
  available: boolean;
  /** "unprivileged": the node does not run as root; "missing": ip or nft is not installed; "unusable": they failed here. */
  problem: "unprivileged" | "missing" | "unusable" | null;
  /** In English, for the node's log and the console's warning. */
  reason: string | null;
}

const NETNS_DIR = "/run/netns";
/** Names this node's processes give: "kiln-<pid>-<n>" for a table, "-<slot>" added for a namespace. */
const OWNED = /^kiln-(\d+)-\d+(?:-\d+)?$/;
let opened = 0;

/** A step container's own Engine network (NodeNetwork.stepNetwork), to release once the container is removed. */
export interface StepNetwork {
  network: string;
  /** The node's resolv.conf to mount (the Engine's embedded DNS needs its own iptables rules), or null. */
  resolvConf: string | null;
  release(): Promise<void>;
}

export class NodeNetwork {
  private readonly servers = new Map<string, ServerNetwork>();
  /** Slots this node holds (or tries), so two of its servers never race for one. */
  readonly slots = new Set<number>();
  /** Published port ("tcp/25565") → the server holding it. */
  readonly ports = new Map<string, string>();
  /** The node's own ports (its API, its SFTP), added by the node as its listeners take them: never a server's. */
  readonly nodePorts = new Set<number>();

  private constructor(
    readonly support: NetworkSupport,
    readonly tools: ToolPaths,
    readonly range: [number, number],
    /** The node's table, also the start of its namespaces' names. */
    readonly name: string,
    /** Names the node's docker servers' networks: the same for every run of the node (its data folder's). */
    readonly key: string,
    /**
     * A resolv.conf naming the node's upstream resolvers, mounted into docker servers on their own
     * network (the Engine's embedded DNS needs its own iptables rules); null when the node has none.
     */
    readonly resolvConf: string | null,
  ) {}

  /** Probes and, where it can, sets up the node's table; never throws (the support says why not). */
  static async open(settings: NetworkSettings): Promise<NodeNetwork> {
    const tools = { ip: systemPath(settings.ipPath), nft: systemPath(settings.nftPath) };
    const name = `kiln-${process.pid}-${opened++}`;
    const range = parseRange(settings.range) ?? [10, 213];
    const key = createHash("sha256").update(settings.dataDir).digest("hex").slice(0, 10);
    const refuse = (problem: NetworkSupport["problem"], reason: string) => new NodeNetwork({ available: false, problem, reason }, { ip: tools.ip ?? "ip", nft: tools.nft ?? "nft" }, range, name, key, null);
    if (process.getuid?.() !== 0) return refuse("unprivileged", "the node does not run as root, and a network namespace per server needs it");
    if (!tools.ip || !tools.nft) return refuse("missing", `${!tools.ip ? "ip (iproute2)" : "nft (nftables)"} is not installed`);
    const paths = tools as ToolPaths;
    try {
      await removeLeftovers(paths);
      await run([paths.nft, "-f", "-"], nodeTable(name, `Kiln node, process ${process.pid}`));
      // Forwarding is what carries a server's packets to the internet.
      writeFileSync("/proc/sys/net/ipv4/ip_forward", "1");
      return new NodeNetwork({ available: true, problem: null, reason: null }, paths, range, name, key, writeResolvConf(settings.dataDir));
    } catch (error) {
      return refuse("unusable", `the node cannot set up its servers' networks here (${(error as Error).message})`);
    }
  }

  /** The server's network (made on its first use). */
  server(serverId: string): ServerNetwork {
    let network = this.servers.get(serverId);
    if (!network) this.servers.set(serverId, (network = new ServerNetwork(this, serverId)));
    return network;
  }

  /** Removes the server's network (it was deleted). */
  async forget(serverId: string): Promise<void> {
    await this.servers.get(serverId)?.release();
    this.servers.delete(serverId);
  }

  /**
   * The first slot no one holds, given to `build`, whose link's interface claims it machine-wide:
   * an "exists" from it means another node on this machine holds the slot, and the next is tried.
   */
  async claimSlot(build: (link: Link) => Promise<void>): Promise<Link> {
    for (let slot = 0; slot < SLOT_COUNT; slot++) {
      if (this.slots.has(slot)) continue;
      this.slots.add(slot);
      const link = linkOf(this.range, slot);
      try {
        await build(link);
        return link;
      } catch (error) {
        this.slots.delete(slot);
        if (error instanceof ToolError && error.exists) continue;
        throw new KilnError("ErrIsolationUnavailable", undefined, `the server's network could not be made: ${(error as Error).message}`);
      }
    }
    throw new KilnError("ErrIsolationUnavailable", undefined, "every address of the node's range is taken");
  }

  /**
   * A network of its own for one step's container (an install script, a docker server's step
   * command), removed by `release` once the container is gone. Step containers used to share one
   * bridge, and frames within a bridge never pass the node's table unless the machine sends bridged
   * traffic through its IP hooks (br_netfilter): two servers' install scripts running at once could
   * reach each other. Alone on its bridge, whatever a step sends is routed by the node and meets its
   * table: the internet yes, the node and every server no.
   */
  async stepNetwork(docker: Dockerode, serverId: string): Promise<StepNetwork> {
    await this.engineReady(docker);
    const link = await this.claimSlot((candidate) => makeEngineLink(docker, this.tools, stepNetworkName(this.key, candidate.slot), candidate, this.key, serverId));
    const name = stepNetworkName(this.key, link.slot);
    return {
      network: name,
      resolvConf: this.resolvConf,
      release: async () => {
        await removeEngineLink(docker, this.tools, name, link);
        this.slots.delete(link.slot);
      },
    };
  }

  private engineCleaned: Promise<void> | null = null;

  /**
   * Removes the server networks of this node's that no container uses any more, once, before the
   * first Docker server's network is made: a node that runs no Docker server never loads the Engine
   * client (it weighs on the process's memory).
   */
  engineReady(docker: Dockerode): Promise<void> {
    this.engineCleaned ??= removeUnusedEngineLinks(docker, this.tools, this.key, this.range, this.slots).catch(() => undefined);
    return this.engineCleaned;
  }

  /**
   * Removes every namespace and the table (the node stops). A docker server's network stays while
   * its container runs: the container outlives the node, and the node's next run takes it up again.
   */
  async close(): Promise<void> {
    if (!this.support.available) return;
    await Promise.all([...this.servers.values()].map((network) => network.release({ keepEngineNetwork: true })));
    this.servers.clear();
    await run([this.tools.nft, "delete", "table", "inet", this.name]).catch(() => undefined);
  }
}

/**
 * One server's network: a namespace for processes on the node itself, or a bridge the Engine uses
 * for a docker server (./engine-link); made on first need, its ports published at each start.
 */
export class ServerNetwork {
  private link: Link | null = null;
  /** What the link is: a namespace's veth pair, or the bridge of the Engine network named here. */
  private engine: { docker: Dockerode; name: string } | null = null;
  private making: Promise<Link> | null = null;
  private published: ServerPorts = { tcp: [], udp: [] };
  private consolePorts: number[] = [];

  constructor(
    private readonly node: NodeNetwork,
    readonly serverId: string,
  ) {}

  /** The server's address on its link, once its namespace (or Engine network) exists. */
  get address(): string | null {
    return this.link?.server ?? null;
  }

  /** The node's end of the link, once it exists. */
  get gateway(): string | null {
    return this.link?.host ?? null;
  }

  /**
   * The namespace's path for nsenter, making it first if need be. A docker server's network is let
   * go first, but never under its running container (a step on the node itself, SteamCMD, waits
   * for it to stop: ErrServerBusy), which would be cut off from its clients.
   */
  async ensure(): Promise<string> {
    if (this.link && !this.engine && existsSync(this.path(this.link))) return this.path(this.link);
    if (this.engine) {
      if (await engineNetworkInUse(this.engine.docker, this.engine.name)) throw new KilnError("ErrServerBusy", { state: "running" }, "the server's container is running on its network; a step that runs on the node itself waits until it stops");
      await this.release();
    }
    this.making ??= this.make().finally(() => (this.making = null));
    this.link = await this.making;
    return this.path(this.link);
  }

  /**
   * The Engine network a docker server's container joins and its address there: this node's from
   * an earlier run when there is one (its container may still run), else made now.
   */
  async ensureEngine(docker: Dockerode): Promise<{ network: string; address: string; resolvConf: string | null }> {
    await this.node.engineReady(docker);
    const name = engineNetworkName(this.node.key, this.serverId);
    // Checked at each use: an administrator's `docker network prune` removes it while the server is stopped.
    const current = this.link && this.engine?.name === name && (await engineNetworkSlot(docker, name, this.node.range)) === this.link.slot;
    let link = this.link;
    if (!current || !link) {
      if (this.link) await this.release();
      this.making ??= this.makeEngine(docker, name).finally(() => (this.making = null));
      link = this.link = await this.making;
      this.engine = { docker, name };
    }
    return { network: name, address: link.server, resolvConf: this.node.resolvConf };
  }

  /**
   * Publishes the server's ports on the node (replacing those of its last start) and opens the
   * network console's ports to the node's end of the link. ErrPortTaken when another server on
   * this node holds one of them, ErrPortInUse (or ErrPortInUseUnnamed) when the node's machine
   * uses one (the header says why); nothing changes then. The link is made first when there is
   * none (a namespace: a docker server's network is made by ensureEngine, before this).
   */
  async publish(ports: ServerPorts, consolePorts: number[]): Promise<void> {
    for (const [protocol, list] of [["tcp", ports.tcp], ["udp", ports.udp]] as const) {
      for (const port of list) {
        const holder = this.node.ports.get(`${protocol}/${port}`);
        if (holder !== undefined && holder !== this.serverId) throw new KilnError("ErrPortTaken", { port, protocol }, `port ${protocol}/${port} is published by another server on this node`);
      }
    }
    await assertNotMachines(ports, this.node.nodePorts);
    const link = this.link ?? (await this.ensure(), this.link!);
    try {
      await run([this.node.tools.nft, "-f", "-"], publishPorts(this.node.name, this.published, ports, link.server));
    } catch (error) {
      const port = ports.tcp[0] ?? ports.udp[0] ?? 0;
      if (error instanceof ToolError && error.exists) throw new KilnError("ErrPortTaken", { port, protocol: "tcp" }, `a port of ${this.serverId} is published by another server on this machine: ${error.message}`);
      throw error;
    }
    this.forgetPorts();
    for (const port of ports.tcp) this.node.ports.set(`tcp/${port}`, this.serverId);
    for (const port of ports.udp) this.node.ports.set(`udp/${port}`, this.serverId);
    this.published = ports;
    // A container's namespace exists once it runs: its rule is made then (consoleInto).
    if (this.engine) this.consolePorts = consolePorts;
    else if (consolePorts.join() !== this.consolePorts.join()) {
      await run([this.node.tools.ip, "netns", "exec", this.name(link), ...consoleScript(this.node.tools.nft)], consoleTable(link.host, link.server, consolePorts));
      this.consolePorts = consolePorts;
    }
  }

  /**
   * Opens the network console's ports on a docker server's loopback to the node's end of the link,
   * inside the namespace of its container's process `pid` (made by the Engine at each start; the
   * container has no capability to change it).
   */
  async consoleInto(pid: number): Promise<void> {
    const link = this.link;
    if (!this.engine || !link || this.consolePorts.length === 0) return;
    await run([systemProgram("nsenter"), `--net=/proc/${pid}/ns/net`, ...consoleScript(this.node.tools.nft)], consoleTable(link.host, link.server, this.consolePorts));
  }

  /**
   * Takes the link and its ports away: the namespace, or the Engine network and its bridge (kept
   * with `keepEngineNetwork` when the node stops while a container runs on it, which outlives it).
   */
  async release(options: { keepEngineNetwork?: boolean } = {}): Promise<void> {
    const link = this.link ?? (await this.making?.catch(() => null)) ?? null;
    if (!link) return;
    const engine = this.engine;
    this.link = null;
    this.engine = null;
    await run([this.node.tools.nft, "-f", "-"], publishPorts(this.node.name, this.published, { tcp: [], udp: [] }, link.server)).catch(() => undefined);
    this.forgetPorts();
    this.published = { tcp: [], udp: [] };
    this.consolePorts = [];
    if (engine) {
      if (!options.keepEngineNetwork || !(await engineNetworkInUse(engine.docker, engine.name))) await removeEngineLink(engine.docker, this.node.tools, engine.name, link);
    } else {
      await run([this.node.tools.ip, "link", "delete", link.interface]).catch(() => undefined);
      await run([this.node.tools.ip, "netns", "delete", this.name(link)]).catch(() => undefined);
    }
    this.node.slots.delete(link.slot);
  }

  private forgetPorts(): void {
    for (const [key, holder] of this.node.ports) if (holder === this.serverId) this.node.ports.delete(key);
  }

  private name(link: Link): string {
    return `${this.node.name}-${link.slot}`;
  }

  private path(link: Link): string {
    return `${NETNS_DIR}/${this.name(link)}`;
  }

  /** Claims a free slot, makes the namespace and the link, addresses and routes them. */
  private make(): Promise<Link> {
    const { ip } = this.node.tools;
    return this.node.claimSlot(async (link) => {
      const namespace = this.name(link);
      try {
        // One batch: the namespace, the link into it, the node's end addressed and up.
        await run([ip, "-batch", "-"], `netns add ${namespace}\nlink add ${link.interface} type veth peer name eth0 netns ${namespace}\naddress add ${link.host}/30 dev ${link.interface}\nlink set ${link.interface} up\n`);
      } catch (error) {
        await run([ip, "netns", "delete", namespace]).catch(() => undefined);
        throw error;
      }
      try {
        // Lets a client on the node's loopback reach a published port (DNAT to the server, masquerade back).
        writeFileSync(`/proc/sys/net/ipv4/conf/${link.interface}/route_localnet`, "1");
        await run([ip, "-netns", namespace, "-batch", "-"], `link set lo up\naddress add ${link.server}/30 dev eth0\nlink set eth0 up\nroute add default via ${link.host}\n`);
      } catch (error) {
        await run([ip, "link", "delete", link.interface]).catch(() => undefined);
        await run([ip, "netns", "delete", namespace]).catch(() => undefined);
        throw error;
      }
    });
  }

  /** The Engine network of an earlier run taken up again (its bridge made anew if it was lost), else a slot claimed for a new one. */
  private async makeEngine(docker: Dockerode, name: string): Promise<Link> {
    const earlier = await engineNetworkSlot(docker, name, this.node.range);
    if (earlier !== null && !this.node.slots.has(earlier)) {
      const link = linkOf(this.node.range, earlier);
      this.node.slots.add(earlier);
      const bridge = await run([this.node.tools.ip, "-d", "link", "show", link.interface]).catch(() => "");
      if (/\bbridge\b/.test(bridge) || (await makeBridge(this.node.tools, link).then(() => true, () => false))) return link;
      this.node.slots.delete(earlier);
    }
    if (earlier !== null) await removeEngineLink(docker, this.node.tools, name, linkOf(this.node.range, earlier));
    return this.node.claimSlot((link) => makeEngineLink(docker, this.node.tools, name, link, this.node.key, this.serverId));
  }
}

/** Run in a server's namespace: the DNAT to its loopback needs route_localnet on its end of the link, then the rule (consoleTable) on stdin. */
function consoleScript(nft: string): string[] {
  return [systemProgram("sh"), "-c", `echo 1 > /proc/sys/net/ipv4/conf/eth0/route_localnet && exec ${nft} -f -`];
}

/** TCP sockets in LISTEN and UDP sockets bound without a peer (state "07") take a port's new connections. */
const LISTENING = { tcp: "0A", udp: "07" } as const;

/** The ports programs of the node's machine listen on, by protocol: /proc/net's four tables, read once. */
async function machinePorts(): Promise<Record<PortProtocol, Set<number>>> {
  const held = { tcp: new Set<number>(), udp: new Set<number>() };
  const tables = (["tcp", "tcp6", "udp", "udp6"] as const).map(async (table) => [table, await readFile(`/proc/net/${table}`, "utf8").catch(() => "")] as const);
  for (const [table, text] of await Promise.all(tables)) {
    const protocol = table.startsWith("tcp") ? "tcp" : "udp";
    for (const line of text.split("\n").slice(1)) {
      // sl local_address rem_address st …: the local address ends in ":<port in hex>".
      const [, local, , state] = line.trim().split(/\s+/);
      if (!local || state !== LISTENING[protocol]) continue;
      held[protocol].add(parseInt(local.slice(local.lastIndexOf(":") + 1), 16));
    }
  }
  return held;
}

/** Refuses `ports` when one is the node's own (`nodePorts`) or one a program of the machine listens on, naming it and its holder. */
async function assertNotMachines(ports: ServerPorts, nodePorts: ReadonlySet<number>): Promise<void> {
  if (ports.tcp.length + ports.udp.length === 0) return;
  const held = await machinePorts();
  for (const [protocol, list] of [["tcp", ports.tcp], ["udp", ports.udp]] as const) {
    for (const port of list) {
      // The node itself holds these (its listeners are also in the tables): named without a search.
      if (nodePorts.has(port)) throw new KilnError("ErrPortInUse", { port, protocol, process: `${ownName()} (pid ${process.pid})` }, `port ${port} is the node's own (its API or SFTP port)`);
      if (!held[protocol].has(port)) continue;
      const holder = await portHolder(port, protocol);
      if (holder) throw new KilnError("ErrPortInUse", { port, protocol, process: `${holder.name} (pid ${holder.pid})` }, `port ${port}/${protocol} is in use on the node's machine by ${holder.name} (pid ${holder.pid})`);
      throw new KilnError("ErrPortInUseUnnamed", { port, protocol }, `port ${port}/${protocol} is in use on the node's machine by a socket no process the node can see holds`);
    }
  }
}

/** The node's own program name as the kernel keeps it (as port-holder names a holder). */
function ownName(): string {
  try {
    return readFileSync("/proc/self/comm", "utf8").replace(/[\u0000-\u001f\u007f]/g, "").trim() || "kiln";
  } catch {
    return "kiln";
  }
}

/** The node's upstream resolvers as a file a container can mount, or null when it has none a container could reach. */
function writeResolvConf(dataDir: string): string | null {
  const text = upstreamResolvConf();
  if (text === null) return null;
  const folder = join(dataDir, "network");
  mkdirSync(folder, { recursive: true, mode: 0o755 });
  const file = join(folder, "resolv.conf");
  writeFileSync(file, text, { mode: 0o644 });
  return file;
}

/** A program by absolute path: as given when it has a slash, else looked up in the system folders. */
function systemPath(program: string): string | null {
  if (program.includes("/")) return existsSync(program) ? program : null;
  return Bun.which(program, { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" });
}

/** Tables and namespaces of Kiln nodes whose process is gone. */
async function removeLeftovers(tools: ToolPaths): Promise<void> {
  const tables = (await run([tools.nft, "list", "tables", "inet"]).catch(() => "")).split("\n").map((line) => line.trim().split(/\s+/)[2] ?? "");
  for (const table of tables) {
    const owner = OWNED.exec(table);
    if (owner && !processAlive(Number(owner[1]))) await run([tools.nft, "delete", "table", "inet", table]).catch(() => undefined);
  }
  const namespaces = (await run([tools.ip, "netns", "list"]).catch(() => "")).split("\n").map((line) => line.trim().split(/\s+/)[0] ?? "");
  for (const namespace of namespaces) {
    const owner = OWNED.exec(namespace);
    if (owner && !processAlive(Number(owner[1]))) await run([tools.ip, "netns", "delete", namespace]).catch(() => undefined);
  }
}
