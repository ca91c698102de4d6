// The docker environment: the server runs in a container named kiln-<serverId> on the node's
// Docker Engine, its folder bind-mounted at /server. Containers outlive the daemon, so a restarted
// daemon picks a running one back up (reattach); everything else is removed once it has ended.
import type Dockerode from "dockerode";
import type { Duplex } from "node:stream";
import { randomBytes } from "node:crypto";
import type { DockerEnvironment as DockerSpec, ResourceLimits } from "../../core/definition";
import { KilnError } from "../../core/errors";
import { Jail } from "../files/jail";
import type { ServerUser } from "./server-user";
import { workingDir } from "./host-process";
import type { ProcessEnvironment, StartSpec, RunSpec, ExitInfo, ProcessStats, OutputSink } from "./types";
import { containerOptions, containerRoot, statsOf, SERVER_LABEL, type KilnNetwork } from "./docker-options";
import { dockerAvailable, attach, pumpFrames, drainFor, exitCode, pullWithProgress, say, killQuietly, removeQuietly, statusOf, messageOf, engineError, requireEngine, assertNamedNetwork } from "./docker-engine";

export { dockerClient, dockerAvailable, engineAnswers, requireEngine } from "./docker-engine";

export interface DockerEnvironmentOptions {
  serverId: string;
  /** Absolute host path of the server's folder. */
  serverDir: string;
  /** The server's own user when the node runs as root; null: the node's user. */
  user: ServerUser | null;
  spec: DockerSpec;
  docker: Dockerode;
  /** The server's limits as its definition says now (each container is made with them). */
  limits?: () => ResourceLimits | undefined;
  /**
   * Kiln's networks, where the node makes them and the definition asks for the node's own network
   * (mode host): the server's container joins a network of its own, each step's container one of
   * its own too (released once the container is removed).
   */
  networks?: KilnNetworks;
}

export interface KilnNetworks {
  main(docker: Dockerode): Promise<KilnNetwork>;
  steps(docker: Dockerode): Promise<KilnNetwork & { release(): Promise<void> }>;
  /** The main container runs as `pid`: what needs its namespace is set up in it (a network console on its loopback). Never throws. */
  started(pid: number): Promise<void>;
}

interface Running {
  container: Dockerode.Container;
  stream: Duplex;
  /** Settles once the exit has been reported and the container removed. */
  done: Promise<void>;
}

export class DockerEnvironment implements ProcessEnvironment {
  readonly type = "docker" as const;
  readonly rootDir: string;
  private readonly name: string;
  private main: Running | null = null;
  private readonly steps = new Set<Dockerode.Container>();
  /** Gives up the image pulls under way (a kill ends them: ./docker-engine pullWithProgress). */
  private pulls = new AbortController();

  constructor(private readonly options: DockerEnvironmentOptions) {
    this.name = `kiln-${options.serverId}`;
    this.rootDir = containerRoot(options.spec);
  }

  async start(spec: StartSpec): Promise<void> {
    if (this.main) throw new KilnError("ErrServerBusy", { state: "running" }, `container ${this.name} is already running`);
    await this.requireEngine();
    await this.ensureImage(spec.output);
    await this.removeStale();
    const container = await this.create(this.name, spec, true, await this.options.networks?.main(this.options.docker));
    // Attached before start, so not a byte of early output is lost.
    const stream = await attach(container, true).catch(async (error: unknown) => {
      await removeQuietly(container);
      throw engineError(`cannot attach to container ${this.name}`, error);
    });
    const drained = pumpFrames(stream, spec.output);
    try {
      await container.start();
    } catch (error) {
      stream.destroy();
      await removeQuietly(container);
      throw engineError(`cannot start container ${this.name}`, error);
    }
    this.follow(container, stream, drained, spec.onExit);
    // The Kiln network's part that lives in the container's namespace (gone already: nothing to do).
    const pid = this.options.networks ? ((await container.inspect().catch(() => null))?.State.Pid ?? 0) : 0;
    if (pid > 0) await this.options.networks!.started(pid);
  }

  isRunning(): boolean {
    return this.main !== null;
  }

  async sendInput(text: string): Promise<void> {
    const stream = this.main?.stream;
    if (!stream?.writable) return; // not running, or ending right now
    await new Promise<void>((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve())));
  }

  async signal(signal: number | NodeJS.Signals): Promise<void> {
    if (this.main) await killQuietly(this.main.container, String(signal));
  }

  async kill(): Promise<void> {
    this.pulls.abort();
    this.pulls = new AbortController();
    await Promise.all([...this.steps].map((step) => killQuietly(step)));
    const main = this.main;
    if (!main) return;
    await killQuietly(main.container);
    await main.done;
  }

  async stats(): Promise<ProcessStats> {
    const container = this.main?.container;
    if (!container) return { cpu: 0, memory: 0 };
    try {
      return statsOf(await container.stats({ stream: false }));
    } catch {
      // the container ended between the check and the call; its exit is reported separately
      return { cpu: 0, memory: 0 };
    }
  }

  async execute(spec: RunSpec): Promise<ExitInfo> {
    await this.requireEngine();
    await this.ensureImage(spec.output);
    const network = await this.options.networks?.steps(this.options.docker);
    try {
      return await this.executeOn(spec, network);
    } finally {
      await network?.release();
    }
  }

  private async executeOn(spec: RunSpec, network: KilnNetwork | undefined): Promise<ExitInfo> {
    const container = await this.create(`${this.name}-step-${randomBytes(4).toString("hex")}`, spec, false, network);
    this.steps.add(container);
    try {
      const stream = await attach(container, false);
      const drained = pumpFrames(stream, spec.output);
      try {
        await container.start();
      } catch (error) {
        stream.destroy();
        throw engineError("cannot start the step's container", error);
      }
      const code = await exitCode(container);
      await drainFor(drained);
      stream.destroy();
      return { code, signal: null };
    } finally {
      this.steps.delete(container);
      await removeQuietly(container);
    }
  }

  async reattach(spec: Omit<StartSpec, "argv" | "workingDirectory" | "env">): Promise<boolean> {
    if (this.main || !(await dockerAvailable(this.options.docker))) return false;
    const container = this.options.docker.getContainer(this.name);
    const info = await container.inspect().catch(() => null);
    if (!info?.State.Running) return false;
    // No logs replay: the console buffer was lost with the old daemon, and replaying everything
    // since the container started could be megabytes.
    const stream = await attach(container, true);
    this.follow(container, stream, pumpFrames(stream, spec.output), spec.onExit);
    return true;
  }

  async destroy(): Promise<void> {
    if (!(await dockerAvailable(this.options.docker))) return; // no engine: there is no container to remove
    // By label, so step containers left behind by a daemon that died mid-step go too.
    const leftovers = await this.options.docker.listContainers({ all: true, filters: { label: [`${SERVER_LABEL}=${this.options.serverId}`] } });
    await Promise.all(leftovers.map((info) => removeQuietly(this.options.docker.getContainer(info.Id))));
    await this.main?.done;
  }

  /** Waits for the container's end, then removes it and reports the exit, exactly once. */
  private follow(container: Dockerode.Container, stream: Duplex, drained: Promise<void>, onExit: StartSpec["onExit"]): void {
    const running: Running = { container, stream, done: Promise.resolve() };
    running.done = (async () => {
      const code = await exitCode(container);
      await drainFor(drained);
      stream.destroy();
      const memoryLimit = (await container.inspect().catch(() => null))?.State.OOMKilled === true;
      // Removed before onExit, so a restart that onExit triggers never meets the old container.
      await removeQuietly(container);
      if (this.main === running) this.main = null;
      try {
        onExit(memoryLimit ? { code, signal: null, memoryLimit } : { code, signal: null });
      } catch (error) {
        console.error(`docker: exit handler of ${this.name} failed:`, error);
      }
    })();
    this.main = running;
  }

  private requireEngine(): Promise<void> {
    return requireEngine(this.options.docker);
  }

  private async ensureImage(output: OutputSink): Promise<void> {
    const image = this.options.spec.image;
    try {
      await this.options.docker.getImage(image).inspect();
      return;
    } catch (error) {
      if (statusOf(error) !== 404) throw engineError(`cannot inspect image ${image}`, error);
    }
    try {
      await say(output, `pulling image ${image}`);
      await pullWithProgress(this.options.docker, image, output, this.pulls.signal);
    } catch (error) {
      throw new KilnError("ErrDockerNotSupported", { image }, `image ${image} is not on this node and could not be pulled: ${messageOf(error)}`);
    }
  }

  /** A container left from before (a daemon that died before removing it) would block the name. */
  private async removeStale(): Promise<void> {
    const container = this.options.docker.getContainer(this.name);
    const info = await container.inspect().catch(() => null);
    if (!info) return;
    if (info.State.Running) throw new KilnError("ErrServerBusy", { state: "running" }, `container ${this.name} is still running; the daemon should reattach to it`);
    await removeQuietly(container);
  }

  private async create(name: string, spec: RunSpec, stdin: boolean, network: KilnNetwork | undefined): Promise<Dockerode.Container> {
    const { serverId, serverDir, spec: environment, docker } = this.options;
    // The jail refuses a working directory that climbs out; creating it here keeps it owned by the
    // server's user instead of the root-owned folder the engine would make.
    const own = this.options.user;
    const hostDir = workingDir(serverDir, spec.workingDirectory, own);
    // The server's own uid when the node is root (never root itself), else the node's user.
    const user = own ? `${own.uid}:${own.gid}` : `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`;
    // A network the definition names is joined only under that exact name (assertNamedNetwork).
    const named = environment.networkMode === "host" || environment.networkMode === "none" ? "" : environment.networkName;
    if (!network && named) await assertNamedNetwork(docker, named);
    // Each volume the image declares becomes a tmpfs (containerOptions): read now, as created from.
    const image = await docker.getImage(environment.image).inspect().catch((error: unknown) => {
      throw engineError(`cannot inspect image ${environment.image}`, error);
    });
    const imageVolumes = Object.keys(image.Config?.Volumes ?? {});
    const options = containerOptions({ name, serverId, serverDir, spec: environment, argv: spec.argv, workingDirectory: new Jail(serverDir).relative(hostDir), env: spec.env, user, stdin, limits: this.options.limits?.(), network, imageVolumes });
    try {
      return await docker.createContainer(options);
    } catch (error) {
      throw engineError(`cannot create container ${name}`, error);
    }
  }
}
