// Runs a server's steps: its install, pre-start and post-stop steps and a scheduled task's steps.
// Each run gets a step context (the folder, the console, a way to run a command in the server's
// environment or on the node, an install script's own container, an image pull) and an abort
// signal that a kill or a delete trips. It sees the server only through StepHost, what steps
// may read or change; the power queue and the server's state are not its business.
import type { OutputSink, ProcessEnvironment } from "../environment";
import type { EnvironmentDeps } from "../environment";
import { checkVariableValue, type ServerDefinition, type Step, type Values } from "../../core/definition";
import { evaluateCondition } from "../../core/definition/conditions";
import { eggFacts } from "../../core/definition/egg-facts";
import { splitWordNames } from "../../core/definition/word-split";
import { message, type DaemonMessage } from "../../core/live/daemon-message";
import { imagePuller } from "../processors/dockerpull";
import { conditionFacts } from "../processors/condition-facts";
import type { StepContext } from "../processors/types";
import type { CurseForgeKey, SourceUrls } from "../config";
import type { Jail } from "../files/jail";
import type { FileDenylist } from "../files/denylist";
import { handOverTree, type ServerUser } from "../environment/server-user";
import { runScriptContainer } from "../environment/script-container";
import { assertNamedNetwork, dockerAvailable } from "../environment/docker-engine";
import { networkModeOf } from "../environment/docker-options";
import type { NodeNetwork } from "../environment/network";
import { takesOwnNetwork } from "./environment-choice";

/**
 * The step runners (downloads, archives, config-file formats and their libraries) load when a
 * server first runs a step, not with the node: an idle node does not hold them.
 */
const stepRunners = () => import("../processors");

/** What the node gives every server's steps: its config and the parts it shares. */
export interface StepNode {
  binariesDir: string;
  sources: SourceUrls;
  docker: EnvironmentDeps["docker"];
  /** Where the node makes networks: each install container then runs on a network of its own. */
  network?: NodeNetwork | null;
  /** The server's own user when the node runs as root: what steps wrote becomes its. */
  user: ServerUser | null;
  extractLimits?: StepContext["extractLimits"];
  curseforgeKey?: CurseForgeKey;
  /** Where steps' downloads may lead (daemon/processors/http). */
  outbound?: StepContext["outbound"];
}

/** The server as its steps see it. */
export interface StepHost {
  readonly id: string;
  readonly jail: Jail;
  /** The definition as it is now; a step's variables change it (keepDefinition). */
  definition(): ServerDefinition;
  /** Takes a definition a step changed, and keeps it on disk. */
  keepDefinition(next: ServerDefinition): void;
  values(): Values;
  /** The values, each checked against its variable first (a value that would break a command stops the step). */
  checkedValues(): Values;
  /** The server's environment now (it is made again when the definition changes). */
  environment(): ProcessEnvironment;
  /** The node itself, for steps that run there (SteamCMD). */
  readonly nodeEnvironment: ProcessEnvironment;
  /** Where a step's process writes: the server's console, through its output throttle. */
  readonly output: OutputSink;
  /** A line marked as the daemon's own on the server's console. */
  log(line: DaemonMessage): void;
  /** The template's fileDenylist as it is now. */
  denylist(): FileDenylist;
}

export type StepPhase = "install" | "preStart" | "postStop";

export class StepRunner {
  /** Step runs going on now (install, pre/post-run, tasks): abort() ends them. */
  private readonly runs = new Set<AbortController>();

  constructor(
    private readonly host: StepHost,
    private readonly node: StepNode,
  ) {}

  /** Aborts every step run going on (a kill, a delete). */
  abort(): void {
    for (const run of this.runs) run.abort();
  }

  /** The steps of one phase in order, their lines on the console marked with the phase. */
  async runSteps(steps: Step[], phase: StepPhase): Promise<void> {
    if (steps.length === 0) return;
    const processors = await stepRunners();
    await this.withStepContext((line) => this.host.log(message("daemon.phaseLine", { phase: message(`daemon.phase.${phase}`), line })), undefined, (context) =>
      processors.runSteps(steps, this.host.checkedValues(), context, { onVariables: (variables) => this.keepVariables(variables) }),
    );
  }

  /**
   * One step of a scheduled task, with the server's variables substituted; `log` writes the task's
   * lines. `extra`: the values of the trigger that started the run (trigger.0, …), plain text.
   */
  runTaskStep(step: Step, log: (line: DaemonMessage) => void, signal: AbortSignal, extra: Values = {}): Promise<void> {
    return this.withStepContext(log, signal, async (withoutDenylist) => {
      // A task is a user's hands: its file steps keep to the template's fileDenylist.
      const context = { ...withoutDenylist, denylist: this.host.denylist() };
      const values = { ...this.host.checkedValues(), ...extra };
      if (!evaluateCondition(step.if, conditionFacts(values, context))) return log(message("daemon.stepSkippedCondition", { type: step.type, condition: step.if ?? "" }));
      const { variables } = await (await stepRunners()).runStepWithValues(step, values, context);
      if (variables) this.keepVariables(variables);
    });
  }

  /** Files steps wrote as the node become the server's before any of its processes runs. */
  handOver(): Promise<void> {
    return handOverTree(this.host.jail.root, this.node.user);
  }

  /**
   * Variables a step set (PufferPanel v3's outputVariable) become the definition's: an existing
   * variable takes the value (checked as any value is), a new one is added as the template's own
   * (not editable by users), as v3 keeps them with the server.
   */
  private keepVariables(variables: Record<string, string>): void {
    const next = structuredClone(this.host.definition());
    for (const [name, value] of Object.entries(variables)) {
      const variable = Object.hasOwn(next.data, name) ? next.data[name]! : { display: name, desc: "", type: "string" as const, value: "", required: false, userEdit: false };
      next.data[name] = { ...variable, value: checkVariableValue(name, { ...variable, required: false }, value) };
    }
    this.host.keepDefinition(next);
  }

  private async withStepContext(log: (line: DaemonMessage) => void, outer: AbortSignal | undefined, work: (context: StepContext) => Promise<void>): Promise<void> {
    const run = new AbortController();
    this.runs.add(run);
    const signal = outer ? AbortSignal.any([outer, run.signal]) : run.signal;
    const { host, node } = this;
    const context: StepContext = {
      jail: host.jail,
      binariesDir: node.binariesDir,
      sources: node.sources,
      log,
      execute: async (argv, options = {}) => {
        await this.handOver();
        return (options.host ? host.nodeEnvironment : host.environment()).execute({ argv, workingDirectory: options.workingDirectory ?? "", env: options.env ?? {}, output: host.output });
      },
      signal,
      outbound: node.outbound,
      extractLimits: node.extractLimits,
      environmentType: host.definition().environment.type,
      serverId: host.id,
      curseforgeKey: typeof node.curseforgeKey === "function" ? await node.curseforgeKey() : node.curseforgeKey,
      splitWords: splitWordNames(host.definition()),
      placeholders: { facts: eggFacts(host.values(), host.definition().limits, host.id), dockerInterface: await this.dockerInterface() },
      runScript: (spec) => this.runScript(spec, signal),
      pullImage: host.definition().environment.type === "docker" ? imagePuller(node.docker, host.definition(), () => host.checkedValues(), log) : undefined,
    };
    try {
      await work(context);
    } finally {
      this.runs.delete(run);
      await this.handOver();
    }
  }

  /**
   * A containerscript step's container, on this node's engine whatever the server's environment,
   * on the network installNetwork gives it; what it wrote is the server's user's afterwards
   * (handOver when the node is root, else a chown by the node's own uid).
   */
  private async runScript(spec: { image: string; entrypoint: string; script: string; env: Record<string, string> }, signal: AbortSignal): Promise<number | null> {
    const uid = process.getuid?.() ?? 0;
    const network = await this.installNetwork();
    try {
      return await runScriptContainer({
        ...spec,
        networkMode: network.networkMode,
        resolvConf: network.resolvConf,
        docker: this.node.docker(),
        serverId: this.host.id,
        serverDir: this.host.jail.root,
        limits: this.host.definition().limits,
        chownTo: uid === 0 ? undefined : `${uid}:${process.getgid?.() ?? uid}`,
        output: this.host.output,
        signal,
      });
    } finally {
      await network.release();
    }
  }

  /**
   * Where an install container runs: a network of its own where the node makes networks
   * (NodeNetwork.stepNetwork), else the server's docker network or the engine's default bridge;
   * never the node's own network (host), whose loopback holds the node's API and SFTP.
   */
  private async installNetwork(): Promise<{ networkMode: string; resolvConf?: string; release(): Promise<void> }> {
    const { network } = this.node;
    // No engine: the container step says so itself (runScriptContainer).
    if (network && (await dockerAvailable(this.node.docker()))) {
      const own = await network.stepNetwork(this.node.docker(), this.host.id);
      return { networkMode: own.network, resolvConf: own.resolvConf ?? undefined, release: () => own.release() };
    }
    const env = this.host.definition().environment;
    const mode = env.type === "docker" ? networkModeOf(env) : "bridge";
    if (env.type === "docker" && env.networkName && mode === env.networkName) await assertNamedNetwork(this.node.docker(), mode);
    return { networkMode: mode === "host" || mode.startsWith("container:") ? "bridge" : mode, release: async () => undefined };
  }

  /**
   * The node's address as the server's process reaches it (an egg's {{config.docker.interface}},
   * where a proxy finds the servers it fronts on their published ports): the node's end of the
   * server's own network (environment-choice's takesOwnNetwork), the gateway of a docker server's
   * bridge network, else the loopback it shares with the node.
   */
  private async dockerInterface(): Promise<string> {
    const env = this.host.definition().environment;
    const { network } = this.node;
    if (env.type === "docker" && network && takesOwnNetwork(env) && (await dockerAvailable(this.node.docker()))) {
      const own = network.server(this.host.id);
      await own.ensureEngine(this.node.docker());
      return own.gateway ?? "127.0.0.1";
    }
    if (env.type !== "docker" || env.networkMode === "host" || env.networkMode === "none") return "127.0.0.1";
    try {
      const network = await this.node.docker().getNetwork(env.networkName || "bridge").inspect();
      return (network as { IPAM?: { Config?: Array<{ Gateway?: string }> } }).IPAM?.Config?.find((c) => c.Gateway)?.Gateway ?? "127.0.0.1";
    } catch {
      return "127.0.0.1";
    }
  }
}
