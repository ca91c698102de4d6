// The docker environment's pure parts: a definition's environment turned into Docker Engine
// create options, the engine's stats answer turned into Kiln's numbers, and the attach stream's
// 8-byte frame headers taken apart. No I/O here, so all of it is unit-tested without an engine.
import { posix } from "node:path";
import type { ContainerCreateOptions, ContainerStats, PortBinding as DockerPortBinding } from "dockerode";
import { parsePortBinding, DEFAULT_BIND_HOST, limitBytes, limitOf, type DockerEnvironment as DockerSpec, type ResourceLimits } from "../../core/definition";
import { KilnError } from "../../core/errors";
import type { ProcessStats } from "./types";
import { DEFAULT_TMP_BYTES } from "./sandbox";

/** Where the server's folder appears inside the container (its ${rootDir}). */
export const CONTAINER_ROOT = "/server";
export const SERVER_LABEL = "kiln.server";
/** PufferPanel's container path of the server's folder. */
export const PUFFERPANEL_ROOT = "/pufferpanel";
/** Where the egg runtime images keep the server's folder (conventions "egg"). */
export const EGG_ROOT = "/home/container";

/** The server's folder inside the container, as the environment's conventions place it. */
export function containerRoot(spec: Pick<DockerSpec, "conventions">): string {
  return spec.conventions === "egg" ? EGG_ROOT : CONTAINER_ROOT;
}

export interface ContainerInput {
  name: string;
  serverId: string;
  /** Absolute host path of the server's folder. */
  serverDir: string;
  spec: DockerSpec;
  argv: string[];
  /** Relative to the server's folder, already checked to stay inside it. */
  workingDirectory: string;
  env: Record<string, string>;
  /** "uid:gid" the process runs as. */
  user: string;
  /** The main process reads console input; one-off steps do not. */
  stdin: boolean;
  /** The server's resource limits (the disk space is measured by the node, not the Engine). */
  limits?: ResourceLimits;
  /** A network of Kiln's the container joins instead of the definition's (./network/engine-link). */
  network?: KilnNetwork;
  /** The folders the image declares as volumes (its config's `Volumes`): each becomes a tmpfs. */
  imageVolumes?: string[];
}

/** A Kiln network for a container: the server's own (at its address) or a step's own. */
export interface KilnNetwork {
  network: string;
  /** The container's fixed address on it (a server's own network has one address for it). */
  address?: string;
  /** A resolv.conf of the node's to mount (the Engine's embedded DNS needs its own iptables rules). */
  resolvConf: string | null;
}

export function containerOptions(input: ContainerInput): ContainerCreateOptions {
  const { spec } = input;
  // The server sees its own folder and nothing else of the node. A host folder bound in would be
  // outside every boundary the node draws (and a link in the server's folder could name anything).
  const extra = Object.keys(spec.bindings)[0];
  if (extra !== undefined) throw new KilnError("ErrPathOutside", { path: extra }, `the docker environment binds ${extra}; a server may only see its own folder`);
  const root = containerRoot(spec);
  // Egg images run their own entrypoint, which reads STARTUP; an argv (a step's command) replaces it.
  const egg = spec.conventions === "egg";
  // HOME defaults to the server's folder: the daemon's uid has no home (or passwd entry) in the image.
  const env = { HOME: root, ...input.env };
  const kiln = input.network;
  const networkMode = kiln ? kiln.network : networkModeOf(spec);
  // Docker ignores published ports with host (and none) networking; leaving them out keeps the
  // create call from warning about them. On a Kiln network the node's table publishes them.
  const ports = kiln || networkMode === "host" || networkMode === "none" ? null : portOptions(spec.portBindings);
  const mounts = [
    ...(egg ? [EGG_ROOT] : [CONTAINER_ROOT, PUFFERPANEL_ROOT]).map((Target) => ({ Type: "bind" as const, Source: input.serverDir, Target, ReadOnly: false })),
    ...(kiln?.resolvConf ? [{ Type: "bind" as const, Source: kiln.resolvConf, Target: "/etc/resolv.conf", ReadOnly: true }] : []),
  ];
  return {
    name: input.name,
    Image: spec.image,
    ...(egg ? (input.argv.length ? { Entrypoint: input.argv.slice(0, 1), Cmd: input.argv.slice(1) } : {}) : { Cmd: input.argv }),
    // Normalized against "/" first, so no ".." can lead out of the mounted folder.
    WorkingDir: posix.join(root, posix.normalize(`/${input.workingDirectory}`).slice(1)),
    Env: Object.entries(env).map(([key, value]) => `${key}=${value}`),
    User: input.user,
    Labels: { [SERVER_LABEL]: input.serverId },
    Tty: false,
    OpenStdin: input.stdin,
    StdinOnce: false,
    AttachStdin: input.stdin,
    AttachStdout: true,
    AttachStderr: true,
    ...(ports ? { ExposedPorts: ports.exposed } : {}),
    ...(kiln?.address ? { NetworkingConfig: { EndpointsConfig: { [kiln.network]: { IPAMConfig: { IPv4Address: kiln.address } } } } } : {}),
    HostConfig: {
      // Mounts rather than Binds: a missing host folder is an error instead of a root-owned new one,
      // and a ":" in a path cannot split the binding.
      // The same folder also at /pufferpanel, where PufferPanel's containers see it, so v3
      // templates that write that path (7 Days to Die's "+force_install_dir /pufferpanel") work.
      // With the egg conventions, at /home/container only, where egg images look for it.
      Mounts: mounts,
      // The server's disk space is its folder: a byte written anywhere else in the container went
      // to the Engine's storage, outside the limit and unseen by the node (its writable layer,
      // /tmp and /var/tmp of the image; an image's VOLUME, an anonymous volume left behind at
      // every start). So the image is read-only, as Wings runs egg images, and /tmp and each
      // volume the image declares are tmpfs sized like the sandbox's /tmp (its memory limit),
      // charged to its memory and gone with the container.
      ReadonlyRootfs: true,
      Tmpfs: scratchFolders(input.imageVolumes ?? [], mounts.map((mount) => mount.Target), limitBytes(input.limits, "memoryMiB") ?? DEFAULT_TMP_BYTES),
      NetworkMode: networkMode,
      // The same boundary the sandbox draws for host processes: no privileges, no capabilities,
      // no gaining any through setuid programs in the image.
      Privileged: false,
      CapDrop: ["ALL"],
      SecurityOpt: ["no-new-privileges"],
      ...(ports ? { PortBindings: ports.bindings } : {}),
      ...engineLimits(input.limits),
    },
  };
}

/**
 * The container's writable folders besides the server's own: /tmp and the image's volumes, each a
 * tmpfs of `bytes` (Docker copies the image's files there first). A volume at one of `mounted`
 * (the server's folder) is that mount already; the Engine would refuse a second one there.
 */
export function scratchFolders(imageVolumes: string[], mounted: string[], bytes: number): Record<string, string> {
  const folders: Record<string, string> = {};
  for (const folder of ["/tmp", ...imageVolumes.map((volume) => posix.resolve("/", volume))]) {
    if (folder !== "/" && !mounted.includes(folder)) folders[folder] = `rw,exec,nosuid,nodev,size=${bytes}`;
  }
  return folders;
}

/**
 * The limits as the Engine enforces them: memory without swap on top (MemorySwap equal to
 * Memory), CPU as a share of cores (NanoCpus: 1e9 is one core), and the container's process count.
 */
export function engineLimits(limits: ResourceLimits | undefined): { Memory?: number; MemorySwap?: number; NanoCpus?: number; PidsLimit?: number } {
  const memory = limitBytes(limits, "memoryMiB");
  const cpu = limitOf(limits, "cpuPercent");
  const processes = limitOf(limits, "processes");
  return {
    ...(memory === null ? {} : { Memory: memory, MemorySwap: memory }),
    ...(cpu === null ? {} : { NanoCpus: cpu * 10_000_000 }),
    ...(processes === null ? {} : { PidsLimit: processes }),
  };
}

/** Bridge-like modes attach to the named network when one is given; overlay and macvlan need one. */
export function networkModeOf(spec: DockerSpec): string {
  switch (spec.networkMode) {
    case "host":
    case "none":
      return spec.networkMode;
    case "bridge":
      return spec.networkName || "bridge";
    case "overlay":
    case "macvlan":
      if (!spec.networkName) throw new KilnError("ErrFieldRequired", { field: "environment.networkName" }, `network mode ${spec.networkMode} needs a network name`);
      return spec.networkName;
  }
}

export function portOptions(values: string[]): { exposed: Record<string, object>; bindings: Record<string, DockerPortBinding[]> } {
  const exposed: Record<string, object> = {};
  const bindings: Record<string, DockerPortBinding[]> = {};
  for (const value of values) {
    const binding = parsePortBinding(value);
    if (!binding) {
      throw new KilnError("ErrFieldNotBetween", { field: "environment.portBindings", value }, `invalid port binding "${value}" (expected host:outside:inside/protocol)`);
    }
    const key = `${binding.inside}/${binding.protocol}`;
    exposed[key] = {};
    // "{ip}" means every address of the node, which Docker spells as an empty HostIp.
    const hostIp = binding.host === DEFAULT_BIND_HOST ? "" : binding.host;
    (bindings[key] ??= []).push({ HostIp: hostIp, HostPort: String(binding.outside) });
  }
  return { exposed, bindings };
}

/** CPU as percent of one core (the engine's two samples), memory without the page cache. */
export function statsOf(stats: ContainerStats): ProcessStats {
  const cpu = stats.cpu_stats;
  const pre = stats.precpu_stats;
  const cpuDelta = cpu.cpu_usage.total_usage - (pre?.cpu_usage?.total_usage ?? 0);
  const systemDelta = (cpu.system_cpu_usage ?? 0) - (pre?.system_cpu_usage ?? 0);
  const cpus = cpu.online_cpus || cpu.cpu_usage.percpu_usage?.length || 1;
  const hasPrevious = Boolean(pre?.system_cpu_usage);
  const percent = hasPrevious && systemDelta > 0 && cpuDelta > 0 ? (cpuDelta / systemDelta) * cpus * 100 : 0;
  const memory = stats.memory_stats;
  // cgroup v1 reports the page cache as "cache", cgroup v2 as "inactive_file".
  const raw = memory?.stats as Record<string, number | undefined> | undefined;
  const cache = raw?.cache ?? raw?.inactive_file ?? 0;
  return { cpu: Math.round(percent * 100) / 100, memory: Math.max(0, (memory?.usage ?? 0) - cache) };
}

/**
 * Takes apart the attach stream of a container without a tty: frames of an 8-byte header (stream
 * type, three zero bytes, big-endian payload length) then the payload. Chunks may split frames.
 */
export class FrameReader {
  private pending: Buffer = Buffer.alloc(0);

  /** The payloads completed by this chunk, in order; stdout and stderr alike. */
  push(chunk: Uint8Array): Buffer[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : Buffer.from(chunk);
    const payloads: Buffer[] = [];
    let offset = 0;
    while (this.pending.length - offset >= 8) {
      const size = this.pending.readUInt32BE(offset + 4);
      if (this.pending.length - offset - 8 < size) break;
      if (size > 0) payloads.push(this.pending.subarray(offset + 8, offset + 8 + size));
      offset += 8 + size;
    }
    this.pending = this.pending.subarray(offset);
    return payloads;
  }
}
