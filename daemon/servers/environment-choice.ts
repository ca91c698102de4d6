// Which ProcessEnvironment a server's definition gets (standard, tty or docker, as it names), built
// with what the node decided when it started: its sandbox, the server's user, its limiter, its
// servers' networks. A changed definition (or a changed variable its docker image or ports name)
// takes effect at the next start or install (refresh), never under a running process. Also owns the
// node-side environment that steps which must run on the node itself (SteamCMD) use, whatever the
// server's environment, and the server's own network where its processes run on the node.
import { join } from "node:path";
import { variableValues, type Environment, type ServerDefinition, type Values } from "../../core/definition";
import { substituteDockerEnvironment } from "../../core/definition/docker-values";
import type { ServerPorts } from "../../core/definition/server-ports";
import type { ConsoleAddress } from "../../core/definition/console-address";
import { message, type DaemonMessage } from "../../core/live/daemon-message";
import { reasonMessage } from "../http/errors";
import { createEnvironment, type EnvironmentDeps, type ProcessEnvironment } from "../environment";
import { StandardEnvironment } from "../environment/standard";
import { containerRoot } from "../environment/docker-options";
import type { Isolation } from "../environment/sandbox";
import type { ServerUser } from "../environment/server-user";
import type { HostLimiter } from "../environment/host-limits";
import type { NodeNetwork, ServerNetwork } from "../environment/network";
import { requireEngine, type KilnNetworks } from "../environment/docker";
import { consoleOnLoopback, throughServerAddress } from "./launch-plan";
import { assertPortsFree } from "../net/port-holder";

/** What the node decided for its servers' environments (the parts of ServerDeps this needs). */
export interface EnvironmentChoiceDeps {
  serverId: string;
  serverDir: string;
  binariesDir: string;
  docker: EnvironmentDeps["docker"];
  isolation: Isolation;
  user: ServerUser | null;
  limiter: HostLimiter;
  network?: NodeNetwork | null;
  /** The server's console, for what the node says of its environment. */
  log?: (line: DaemonMessage) => void;
}

/**
 * Whether a server's processes get a network of their own where the node makes them: those on the
 * node itself, and a docker server whose definition asks for the node's own network (mode host,
 * as PufferPanel's Docker templates do), which would otherwise put it beside the node's API and
 * SFTP. A docker server on an Engine network (bridge, a named one) keeps the Engine's.
 */
export function takesOwnNetwork(environment: Environment): boolean {
  return environment.type !== "docker" || environment.networkMode === "host";
}

export class EnvironmentChoice {
  private env: ProcessEnvironment | null = null;
  /** The environment spec `env` was made for, as JSON: a new one is made only when it differs. */
  private key = "";
  /** Runs steps that must run on the node itself (SteamCMD), whatever the server's environment. */
  readonly host: StandardEnvironment;

  constructor(
    private readonly deps: EnvironmentChoiceDeps,
    /** The server's definition as it is now (it changes under this object). */
    private readonly definition: () => ServerDefinition,
  ) {
    this.env = this.make(this.spec());
    this.host = new StandardEnvironment(this.hostOptions());
  }

  /** The environment the server's processes run in now. */
  get current(): ProcessEnvironment {
    return this.env!;
  }

  /** The server's user, when the node runs as root; the manager gives its uid back on delete. */
  get user(): ServerUser | null {
    return this.deps.user;
  }

  /**
   * The server's variables with its folder as its process sees it (${rootDir}) and its id. While
   * the environment is being made, the folder as a docker container or the node sees it.
   */
  values(): Values {
    const def = this.definition();
    const rootDir = this.env?.rootDir ?? (def.environment.type === "docker" ? containerRoot(def.environment) : this.deps.serverDir);
    return { ...variableValues(def), rootDir, serverId: this.deps.serverId };
  }

  /** A changed definition (or a changed variable its docker image names) takes effect here. */
  refresh(): void {
    const spec = this.spec();
    if (JSON.stringify(spec) === this.key) return;
    this.env = this.make(spec);
  }

  private make(spec: Environment): ProcessEnvironment {
    this.key = JSON.stringify(spec);
    return createEnvironment(spec, { ...this.hostOptions(), serverId: this.deps.serverId, docker: this.deps.docker, kilnNetworks: this.kilnNetworks(spec) });
  }

  /** For a docker server that takes a network of its own: its container joins it, each step's container a network of its own. */
  private kilnNetworks(spec: Environment): KilnNetworks | undefined {
    const node = this.deps.network;
    if (!node || spec.type !== "docker" || !takesOwnNetwork(spec)) return undefined;
    return {
      main: (docker) => node.server(this.deps.serverId).ensureEngine(docker),
      steps: (docker) => node.stepNetwork(docker, this.deps.serverId),
      // The server runs on without it when the rule cannot be made, and its console says why.
      started: (pid) => node.server(this.deps.serverId).consoleInto(pid).catch((error: unknown) => this.deps.log?.(message("daemon.consoleUnreachable", { reason: reasonMessage(error) }))),
    };
  }

  /**
   * The environment as it runs: a docker image and port bindings with the variables substituted
   * (within what users may change: core/definition/docker-values). A refused value falls back to
   * the definition as written until a start or an install checks it and says why.
   */
  private spec(): Environment {
    const def = this.definition();
    const env = def.environment;
    if (env.type !== "docker") return env;
    try {
      return substituteDockerEnvironment(env, def, this.values());
    } catch (error) {
      if (this.env) throw error;
      return env;
    }
  }

  private hostOptions() {
    const { serverId, serverDir, binariesDir, isolation, user, limiter, network } = this.deps;
    return { serverDir, binPath: join(binariesDir, "bin"), isolation, user, limits: { limiter, serverId, current: () => this.definition().limits }, network: network ? network.server(serverId) : undefined };
  }

  /** The server's own network, where it takes one (takesOwnNetwork) and the node makes them. */
  ownNetwork(): ServerNetwork | null {
    return this.deps.network && takesOwnNetwork(this.definition().environment) ? this.deps.network.server(this.deps.serverId) : null;
  }

  /**
   * Publishes the ports the server's variables name (its namespace made first if need be) and
   * says where the node reaches its network console: a console on the server's loopback is
   * reached through the server's address, which leads there (daemon/environment/network/ruleset).
   * A server without a network of its own has its ports checked free on the machine instead
   * (daemon/net/port-holder).
   */
  async openNetwork(ports: ServerPorts, consoleAt: ConsoleAddress | null): Promise<(ConsoleAddress & { shownAs?: string }) | null> {
    const own = this.ownNetwork();
    if (!own) {
      // Sharing the machine's network, the server meets every other program's ports: one already
      // held refuses the start here, naming its holder, rather than failing inside the server.
      await assertPortsFree(ports);
      return consoleAt;
    }
    if (this.definition().environment.type === "docker") {
      // The container's network, made before its ports are published to it.
      await requireEngine(this.deps.docker());
      await own.ensureEngine(this.deps.docker());
    }
    const onLoopback = consoleOnLoopback(consoleAt);
    await own.publish(ports, onLoopback ? [consoleAt.port] : []);
    // The address exists once publish has made the namespace.
    return onLoopback ? throughServerAddress(consoleAt, own.address!) : consoleAt;
  }

  /**
   * Says on the console when this server's processes run without the sandbox (isolation "auto"
   * on a node that cannot build one; a docker server is fenced in by the Engine instead) or share
   * the node's network (where the node cannot make networks; for a docker server in mode host too).
   */
  warnIfUnsandboxed(log: (line: DaemonMessage) => void): void {
    const { isolation } = this.deps;
    const environment = this.definition().environment;
    const sharesNetwork = isolation.network && !isolation.network.available && takesOwnNetwork(environment);
    // A docker server in network mode host on a node that cannot make networks shares it too, whatever the mode.
    if (environment.type === "docker") {
      if (sharesNetwork) log(message("daemon.networkShared", { reason: isolation.network?.reason ?? "" }));
      return;
    }
    if (isolation.mode === "required") return;
    if (!isolation.sandbox) log(isolation.problem === "missing" ? message("daemon.sandboxMissing") : message("daemon.sandboxUnusable", { detail: isolation.detail ?? "" }));
    if (sharesNetwork) log(message("daemon.networkShared", { reason: isolation.network?.reason ?? "" }));
  }
}
