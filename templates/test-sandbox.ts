// Test scaffolding for the template tests (never imported by the panel or the daemon): a server
// folder and binaries folder with the daemon's own standard environment and step processors, so
// a template's steps and run command run exactly as a node would run them.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { commandArgv, runInvocation, variableEnvironment, variableValues, type Step, type Template, type Values } from "../core/definition";
import { DEFAULT_SOURCES, type SourceUrls } from "../daemon/config";
import { StandardEnvironment } from "../daemon/environment/standard";
import { DEFAULT_ISOLATION, probeIsolation } from "../daemon/environment/sandbox";
import { ServerUsers, handOverTree } from "../daemon/environment/server-user";
import type { ExitInfo } from "../daemon/environment/types";
import { Jail } from "../daemon/files/jail";
import { runSteps, type StepContext } from "../daemon/processors";
import { SHIPPED_TEMPLATES } from ".";

export interface Sandbox {
  /** The server's folder (${rootDir}). */
  dir: string;
  /** The node's binaries folder; its bin/ is on PATH. */
  binaries: string;
  bin: string;
  env: StandardEnvironment;
  ctx: StepContext;
  /** Everything printed so far: the daemon's lines (marked "[kiln]") and the processes' output. */
  output: () => string;
  sink: (chunk: Uint8Array) => void;
  steps(steps: Step[], values: Values): Promise<void>;
  exec(line: string, values: Values): Promise<ExitInfo>;
}

/** A fresh server folder under `root` (an empty temporary folder the caller removes). */
export function sandbox(root: string, sources: SourceUrls = DEFAULT_SOURCES, curseforgeKey?: string): Sandbox {
  const dir = join(root, "server");
  const binaries = join(root, "binaries");
  const bin = join(binaries, "bin");
  mkdirSync(dir, { recursive: true });
  mkdirSync(bin, { recursive: true });
  // Sandboxed as a node would (bubblewrap, the server's own uid when root), so a template that only
  // works with the node's rights or files outside its folder fails here too.
  const isolation = probeIsolation(DEFAULT_ISOLATION, root, binaries);
  const user = new ServerUsers(DEFAULT_ISOLATION.uidRange).claim(dir);
  const env = new StandardEnvironment({ serverDir: dir, binPath: bin, isolation, user });
  const jail = new Jail(dir);
  jail.owner = user;
  let text = "";
  const decoder = new TextDecoder();
  const output = (chunk: Uint8Array) => void (text += decoder.decode(chunk));
  const ctx: StepContext = {
    jail,
    binariesDir: binaries,
    sources,
    curseforgeKey,
    log: (line) => void (text += `[kiln] ${line}\n`),
    execute: async (argv, options = {}) => {
      await handOverTree(dir, user);
      return env.execute({ argv, workingDirectory: options.workingDirectory ?? "", env: options.env ?? {}, output });
    },
  };
  return {
    dir, binaries, bin, env, ctx,
    output: () => text,
    sink: output,
    steps: (steps, values) => runSteps(steps, values, ctx).finally(() => handOverTree(dir, user)),
    exec: (line, values) => env.execute({ argv: commandArgv(line, values), workingDirectory: "", env: variableEnvironment(values), output }),
  };
}

export function shipped(name: string): Template {
  const t = SHIPPED_TEMPLATES.find((x) => x.name === name);
  if (!t) throw new Error(`no template ${name}`);
  return t;
}

/** The values the daemon would substitute for a server made from the template as it comes. */
export function defaults(t: Template, rootDir: string): Values {
  return { ...variableValues(t), rootDir, serverId: "0123abcd" };
}

/** Starts the run command as the daemon does; resolves once it runs, with a promise of its exit. */
export async function start(box: Sandbox, t: Template, values: Values): Promise<{ exited: Promise<ExitInfo> }> {
  let done!: (info: ExitInfo) => void;
  const exited = new Promise<ExitInfo>((resolve) => (done = resolve));
  await box.env.start({
    // Kiln's shipped templates give one command line (no v3 list of conditional entries).
    ...runInvocation({ ...t.run, command: t.run.command as string }, values),
    output: box.sink,
    onExit: done,
  });
  return { exited };
}

/** Stops the server the way the template says: its stop command on the console, or its signal. */
export async function stop(box: Sandbox, t: Template): Promise<void> {
  if (t.run.stop) await box.env.sendInput(`${t.run.stop}\n`);
  else await box.env.signal(t.run.stopCode!);
}

export async function waitFor(read: () => string, pattern: RegExp, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pattern.test(read())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; output so far:\n${read()}`);
    await Bun.sleep(20);
  }
}
