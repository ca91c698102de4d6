// Finds the restic the node runs backups with: the one on the node's PATH when it is recent
// enough, else one installed once into the node's binaries folder from a configurable source
// (restic's release files, bzip2-compressed single binaries), as Java and SteamCMD are.
import { chmod, mkdir, rename, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { downloadToFile } from "../processors/http";

/** The oldest restic Kiln works with (Debian 12's): JSON output, `dump --archive zip`, `forget --group-by ''`. */
export const MIN_RESTIC_VERSION = [0, 14, 0] as const;
/** What a node without a restic of its own installs. */
export const RESTIC_INSTALL_VERSION = "0.17.3";

export interface ResticLocation {
  /** The node's binaries folder (restic goes into its restic/ folder). */
  binariesDir: string;
  /** The base of restic's release downloads: <base>/v<version>/restic_<version>_linux_<arch>.bz2. */
  source: string;
  /** The PATH searched first. */
  path: string;
  log: (line: string) => void;
}

const ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64", arm: "arm", ia32: "386" };

let finding: Promise<string> | null = null;
let foundFor = "";

/** The restic executable to run; the first call may install it (later calls share that). */
export function findRestic(where: ResticLocation): Promise<string> {
  const key = `${where.binariesDir}\0${where.source}\0${where.path}`;
  if (!finding || foundFor !== key) {
    foundFor = key;
    finding = locate(where).catch((error) => {
      finding = null;
      throw error;
    });
  }
  return finding;
}

async function locate(where: ResticLocation): Promise<string> {
  const onPath = Bun.which("restic", { PATH: where.path });
  if (onPath) {
    const version = await versionOf(onPath);
    if (version && atLeast(version, MIN_RESTIC_VERSION)) return onPath;
    where.log(`kiln daemon: the restic on the PATH (${version?.join(".") ?? "unknown version"}) is older than ${MIN_RESTIC_VERSION.join(".")}; using one of the node's own`);
  }
  const installed = join(where.binariesDir, "restic", "restic");
  if (existsSync(installed) && (await versionOf(installed))) return installed;
  return install(where, installed);
}

async function install(where: ResticLocation, target: string): Promise<string> {
  const arch = ARCH[process.arch];
  if (process.platform !== "linux" || !arch) throw new Error(`no restic build is known for ${process.platform}/${process.arch}; install restic on the node's PATH`);
  const url = `${where.source.replace(/\/+$/, "")}/v${RESTIC_INSTALL_VERSION}/restic_${RESTIC_INSTALL_VERSION}_linux_${arch}.bz2`;
  where.log(`kiln daemon: downloading restic ${RESTIC_INSTALL_VERSION} from ${url}`);
  await mkdir(join(where.binariesDir, "restic"), { recursive: true });
  const packed = join(where.binariesDir, "restic", `.download-${randomUUID()}.bz2`);
  const unpacked = `${target}.${randomUUID()}.part`;
  try {
    await downloadToFile(url, packed, { signal: AbortSignal.timeout(30 * 60_000) });
    const bzip2 = Bun.spawn(["bzip2", "-dc", packed], { stdout: Bun.file(unpacked), stderr: "pipe" });
    if ((await bzip2.exited) !== 0) throw new Error(`the restic download could not be unpacked: ${(await new Response(bzip2.stderr).text()).trim()}`);
    await chmod(unpacked, 0o755);
    if (!(await versionOf(unpacked))) throw new Error("the downloaded restic does not run");
    await rename(unpacked, target);
  } finally {
    await rm(packed, { force: true });
    await rm(unpacked, { force: true });
  }
  where.log(`kiln daemon: restic installed in ${target}`);
  return target;
}

/** [major, minor, patch] from `restic version`, or null when it does not answer like restic. */
async function versionOf(path: string): Promise<number[] | null> {
  try {
    const proc = Bun.spawn([path, "version"], { stdout: "pipe", stderr: "ignore", env: {} });
    const text = await new Response(proc.stdout).text();
    if ((await proc.exited) !== 0) return null;
    const match = /^restic (\d+)\.(\d+)\.(\d+)/.exec(text);
    return match ? match.slice(1).map(Number) : null;
  } catch {
    return null;
  }
}

function atLeast(version: number[], min: readonly number[]): boolean {
  for (let i = 0; i < min.length; i++) {
    if (version[i]! !== min[i]!) return version[i]! > min[i]!;
  }
  return true;
}
