// The Docker Engine calls the docker environment makes, wrapped for its needs: reaching the engine,
// attaching and reading framed output with backpressure, waiting for an exit, pulling an image
// with progress on the console, and kill/remove that accept "already gone".
import type Dockerode from "dockerode";
import type { Duplex } from "node:stream";
import { KilnError } from "../../core/errors";
import type { OutputSink } from "./types";
import { FrameReader } from "./docker-options";

const PING_TIMEOUT_MS = 2000;
/** After a container ended, how long its last output may take to arrive before the exit is reported anyway. */
const DRAIN_TIMEOUT_MS = 2000;
const REMOVAL_WAIT_MS = 5000;

export function dockerClient(socketPath: string): Dockerode {
  // Loaded on first use: dockerode and its dependencies cost a node that never runs a container
  // about 20 MB of memory (bench/daemon-idle.ts).
  const Client = require("dockerode") as typeof Dockerode;
  return new Client({ socketPath });
}

/**
 * Whether an engine answers on the socket, asked without loading dockerode: the panel's
 * heartbeat asks this of every node, most of which may never run a container.
 */
export async function engineAnswers(socketPath: string): Promise<boolean> {
  try {
    const response = await fetch("http://docker/_ping", { unix: socketPath, signal: AbortSignal.timeout(PING_TIMEOUT_MS) });
    return response.ok;
  } catch {
    return false;
  }
}

/** Whether an engine answers; a socket that accepts but never replies counts as none. */
export async function dockerAvailable(docker: Dockerode): Promise<boolean> {
  // dockerode's ping takes an abortSignal, which its type declarations leave out.
  const ping = docker.ping.bind(docker) as (options: { abortSignal: AbortSignal }) => Promise<unknown>;
  try {
    await ping({ abortSignal: AbortSignal.timeout(PING_TIMEOUT_MS) });
    return true;
  } catch {
    return false;
  }
}

/**
 * Refuses a Docker network a definition names unless the Engine has one under exactly that name
 * and it is not one of Kiln's (ErrNotFound naming environment.networkName): the Engine also takes
 * a network's id, or any prefix of it, for its name, which would let a definition join a network
 * it cannot spell (another server's own network, a step's).
 */
export async function assertNamedNetwork(docker: Dockerode, name: string): Promise<void> {
  const info = (await docker
    .getNetwork(name)
    .inspect()
    .catch(() => null)) as { Name?: string; Labels?: Record<string, string> | null } | null;
  const kilns = !info || /^kiln/i.test(info.Name ?? "") || Object.keys(info.Labels ?? {}).some((label) => label.startsWith("kiln."));
  if (!info || info.Name !== name || kilns) throw new KilnError("ErrNotFound", { field: "environment.networkName" }, `the node's Docker Engine has no network named ${name}`);
}

/** ErrDockerNotSupported unless the node's Engine answers. */
export async function requireEngine(docker: Dockerode): Promise<void> {
  if (!(await dockerAvailable(docker))) throw new KilnError("ErrDockerNotSupported", undefined, "no Docker Engine answers on this node");
}

/** A hijacked connection: stdin and the framed stdout/stderr travel over the one socket. */
export async function attach(container: Dockerode.Container, stdin: boolean): Promise<Duplex> {
  const stream = await container.attach({ stream: true, stdin, stdout: true, stderr: true, hijack: true });
  return stream as unknown as Duplex;
}

/** Reads frames into the sink; async iteration stops reading while the sink's promise is pending. */
export async function pumpFrames(stream: Duplex, output: OutputSink): Promise<void> {
  const frames = new FrameReader();
  try {
    for await (const chunk of stream) {
      for (const payload of frames.push(chunk as Uint8Array)) {
        const wait = output(payload);
        if (wait) await wait;
      }
    }
  } catch {
    // the connection went away; the container's exit is reported by wait()
  }
}

export async function drainFor(drained: Promise<void>): Promise<void> {
  let timer: Timer | undefined;
  await Promise.race([drained, new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_TIMEOUT_MS)))]);
  clearTimeout(timer);
}

export async function exitCode(container: Dockerode.Container): Promise<number | null> {
  for (;;) {
    try {
      const result = (await container.wait()) as { StatusCode?: number };
      return result.StatusCode ?? null;
    } catch {
      // The engine connection dropped mid-wait. A container that still runs is waited for again
      // (removing it would kill a healthy server); otherwise the engine's last record is the answer.
      const info = await container.inspect().catch(() => null);
      if (!info) return null;
      if (!info.State.Running) return info.State.ExitCode;
      await Bun.sleep(1000);
    }
  }
}

/**
 * Pulls `image`, one console line per layer's change of state. `signal` gives the pull up (the
 * Engine ends a pull whose caller went away): a registry may hold its answer for as long as it
 * likes, and the start or install waiting on it holds the server's power queue meanwhile.
 */
export async function pullWithProgress(docker: Dockerode, image: string, output: OutputSink, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  const stream = (await docker.pull(image, signal ? { abortSignal: signal } : {})) as NodeJS.ReadableStream & { destroy?(error?: Error): void };
  const giveUp = () => stream.destroy?.(new Error("the pull was given up"));
  signal?.addEventListener("abort", giveUp);
  try {
    await readPull(stream, output);
  } finally {
    signal?.removeEventListener("abort", giveUp);
  }
  signal?.throwIfAborted();
}

async function readPull(stream: NodeJS.ReadableStream, output: OutputSink): Promise<void> {
  const lastStatus = new Map<string, string>();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += String(chunk);
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.trim()) continue;
      const event = JSON.parse(line) as { status?: string; id?: string; error?: string };
      if (event.error) throw new Error(event.error);
      // One line per change of a layer's state, not one per progress tick.
      const key = event.id ?? "";
      if (!event.status || lastStatus.get(key) === event.status) continue;
      lastStatus.set(key, event.status);
      await say(output, event.id ? `${event.id}: ${event.status}` : event.status);
    }
  }
}

export async function say(output: OutputSink, line: string): Promise<void> {
  await output(new TextEncoder().encode(`[docker] ${line}\n`));
}

/** Kill answers 404 or 409 when the container is already gone or stopped, which is what we wanted. */
export async function killQuietly(container: Dockerode.Container, signal?: string): Promise<void> {
  try {
    await container.kill(signal ? { signal } : {});
  } catch (error) {
    if (statusOf(error) !== 404 && statusOf(error) !== 409) throw engineError("cannot signal the container", error);
  }
}

/**
 * Resolves once the container is gone, so the name is free for the next start. Its anonymous
 * volumes go with it (an install image's VOLUME would otherwise stay on the node's disk, outside
 * every server's space, one more at each run).
 */
export async function removeQuietly(container: Dockerode.Container): Promise<void> {
  try {
    await container.remove({ force: true, v: true });
  } catch (error) {
    if (statusOf(error) === 404) return; // already gone
    if (statusOf(error) !== 409) {
      console.error(`docker: cannot remove container ${container.id}:`, messageOf(error));
      return;
    }
    // 409: someone else's removal is in progress (a second environment object, `docker rm`).
    const deadline = Date.now() + REMOVAL_WAIT_MS;
    while (Date.now() < deadline && (await container.inspect().then(() => true, () => false))) await Bun.sleep(50);
  }
}

export function statusOf(error: unknown): number | undefined {
  return (error as { statusCode?: number } | null)?.statusCode;
}

export function messageOf(error: unknown): string {
  return ((error as Error)?.message ?? String(error)).trim();
}

export function engineError(what: string, error: unknown): KilnError {
  return new KilnError("ErrGeneric", undefined, `${what}: ${messageOf(error)}`);
}
