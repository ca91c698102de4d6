// The containerscript step's container (an egg's install script): the script runs in a container
// of its own image with the server's folder at /mnt/server and the script at
// /mnt/install/install.sh (read-only), started as `<entrypoint> /mnt/install/install.sh`, as
// Wings starts it; the variables reach it as its environment only. The container is removed
// after, whatever happened.
//
// Who it runs as: root inside the container, as Wings runs installers, because egg install
// scripts install packages (apt, apk) first. What root may do there is cut down to what a
// package manager and file copying need: every capability dropped but ownership, permission
// and user switching ones (no raw sockets, devices, mounts, chroot or kernel tunables),
// no-new-privileges, not privileged, the server's memory, CPU and process limits, and nothing of
// the node mounted but the server's folder and the script. What it wrote is handed to the
// server's user afterwards (by the node when it is root, else by a chown in the same image).
import type Dockerode from "dockerode";
import type { ContainerCreateOptions } from "dockerode";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import type { ResourceLimits } from "../../core/definition";
import { KilnError } from "../../core/errors";
import { attach, dockerAvailable, drainFor, engineError, exitCode, killQuietly, messageOf, pullWithProgress, pumpFrames, removeQuietly, say, statusOf } from "./docker-engine";
import { engineLimits, SERVER_LABEL } from "./docker-options";
import type { OutputSink } from "./types";

export const SCRIPT_SERVER_DIR = "/mnt/server";
const SCRIPT_DIR = "/mnt/install";

/** The capabilities root keeps in an install container: what package managers and copying need. */
export const SCRIPT_CAPABILITIES = ["CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "SETUID", "SETGID", "KILL"];

export interface ScriptContainerSpec {
  docker: Dockerode;
  serverId: string;
  /** Absolute host path of the server's folder. */
  serverDir: string;
  image: string;
  entrypoint: string;
  script: string;
  env: Record<string, string>;
  /** The docker network to join (a step network of Kiln's; never the node's own, "host"). */
  networkMode: string;
  /** The node's resolv.conf file, mounted read-only (the network's embedded DNS may not answer), when it has one to give. */
  resolvConf?: string;
  limits?: ResourceLimits;
  /** "uid:gid" that should own what the script wrote, when the node cannot hand it over itself. */
  chownTo?: string;
  output: OutputSink;
  signal?: AbortSignal;
}

/** The container's create options (pure, unit-tested): the boundary described above. */
export function scriptContainerOptions(spec: Omit<ScriptContainerSpec, "docker" | "script" | "output" | "signal">, scriptDir: string, name: string): ContainerCreateOptions {
  return {
    name,
    Image: spec.image,
    Entrypoint: [spec.entrypoint],
    Cmd: [`${SCRIPT_DIR}/install.sh`],
    Env: Object.entries(spec.env).map(([key, value]) => `${key}=${value}`),
    User: "0:0",
    WorkingDir: SCRIPT_SERVER_DIR,
    Hostname: "installer",
    Labels: { [SERVER_LABEL]: spec.serverId },
    Tty: false,
    OpenStdin: false,
    AttachStdin: false,
    AttachStdout: true,
    AttachStderr: true,
    HostConfig: {
      Mounts: [
        { Type: "bind", Source: spec.serverDir, Target: SCRIPT_SERVER_DIR, ReadOnly: false },
        { Type: "bind", Source: scriptDir, Target: SCRIPT_DIR, ReadOnly: true },
        ...(spec.resolvConf ? [{ Type: "bind" as const, Source: spec.resolvConf, Target: "/etc/resolv.conf", ReadOnly: true }] : []),
      ],
      NetworkMode: spec.networkMode,
      Privileged: false,
      CapDrop: ["ALL"],
      CapAdd: SCRIPT_CAPABILITIES,
      SecurityOpt: ["no-new-privileges"],
      ...engineLimits(spec.limits),
    },
  };
}

async function ensureImage(docker: Dockerode, image: string, output: OutputSink, signal?: AbortSignal): Promise<void> {
  try {
    await docker.getImage(image).inspect();
    return;
  } catch (error) {
    if (statusOf(error) !== 404) throw engineError(`cannot inspect image ${image}`, error);
  }
  try {
    await say(output, `pulling image ${image}`);
    await pullWithProgress(docker, image, output, signal);
  } catch (error) {
    throw new KilnError("ErrDockerNotSupported", { image }, `image ${image} is not on this node and could not be pulled: ${messageOf(error)}`);
  }
}

/** Runs one container to its end, its output to `output`; removed after. Resolves with its exit code. */
async function runToEnd(docker: Dockerode, options: ContainerCreateOptions, output: OutputSink, signal?: AbortSignal): Promise<number | null> {
  let container: Dockerode.Container;
  try {
    container = await docker.createContainer(options);
  } catch (error) {
    throw engineError(`cannot create container ${options.name}`, error);
  }
  const abort = () => void killQuietly(container).catch(() => undefined);
  signal?.addEventListener("abort", abort);
  try {
    const stream = await attach(container, false);
    const drained = pumpFrames(stream, output);
    try {
      await container.start();
    } catch (error) {
      stream.destroy();
      throw engineError(`cannot start container ${options.name}`, error);
    }
    const code = await exitCode(container);
    await drainFor(drained);
    stream.destroy();
    return code;
  } finally {
    signal?.removeEventListener("abort", abort);
    await removeQuietly(container);
  }
}

/** Runs the script; resolves with its exit code (null: the engine lost it). */
export async function runScriptContainer(spec: ScriptContainerSpec): Promise<number | null> {
  const { docker } = spec;
  if (!(await dockerAvailable(docker))) throw new KilnError("ErrDockerNotSupported", undefined, "the containerscript step runs its script in a container, and no Docker Engine answers on this node");
  await ensureImage(docker, spec.image, spec.output, spec.signal);
  const scriptDir = mkdtempSync(join(tmpdir(), "kiln-install-"));
  try {
    chmodSync(scriptDir, 0o755);
    // As Wings: Windows line ends would break the shell's reading of every line.
    writeFileSync(join(scriptDir, "install.sh"), spec.script.replaceAll("\r\n", "\n"), { mode: 0o644 });
    const name = `kiln-${spec.serverId}-install-${randomBytes(4).toString("hex")}`;
    const code = await runToEnd(docker, scriptContainerOptions(spec, scriptDir, name), spec.output, spec.signal);
    if (spec.chownTo && !spec.signal?.aborted) {
      const chown = scriptContainerOptions({ ...spec, networkMode: "none", resolvConf: undefined }, scriptDir, `${name}-chown`);
      await runToEnd(docker, { ...chown, Entrypoint: ["chown", "-R", spec.chownTo, SCRIPT_SERVER_DIR], Cmd: [] }, spec.output);
    }
    return code;
  } finally {
    rmSync(scriptDir, { recursive: true, force: true });
  }
}
