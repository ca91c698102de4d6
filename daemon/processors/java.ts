// The javadl step: an Eclipse Temurin JDK (8, 11, 16, 17, 21 or 25) from the Adoptium API, unpacked once
// per node into <binaries>/java<version> and exposed as <binaries>/bin/java<version>, which
// templates put on PATH or call directly.
import { randomUUID } from "node:crypto";
import { readlinkSync } from "node:fs";
import { mkdir, rename, rm, symlink } from "node:fs/promises";
import { join } from "node:path";
import { JAVA_VERSIONS, type StepOf } from "../../core/definition/steps";
import { ensureTool } from "./binaries";
import type { StepContext } from "./types";
import { message } from "../../core/live/daemon-message";

/** Node's names for CPU architectures → Adoptium's. */
const ARCHITECTURES: Partial<Record<NodeJS.Architecture, string>> = { x64: "x64", arm64: "aarch64" };

export async function javadl(step: StepOf<"javadl">, ctx: StepContext): Promise<void> {
  const arch = ARCHITECTURES[process.arch];
  if (!arch) throw new Error(`no Java builds are offered for this node's processor (${process.arch})`);
  // The version may have come from a variable (v3's "${javaversion}"): checked again here.
  const version = Number(String(step.version).trim());
  if (!(JAVA_VERSIONS as readonly number[]).includes(version)) throw new Error(`"${step.version}" is not a Java version javadl offers (${JAVA_VERSIONS.join(", ")})`);
  const name = `java${version}`;
  const url = `${ctx.sources.java}/v3/binary/latest/${version}/ga/linux/${arch}/jdk/hotspot/normal/eclipse`;
  const downloaded = await ensureTool({ label: `Java ${version}`, url, dir: join(ctx.binariesDir, name), strip: 1, marker: "bin/java" }, ctx);
  if (!downloaded) ctx.log(message("daemon.step.javaInstalled", { version: String(version) }));
  await linkCommand(join(ctx.binariesDir, "bin"), name, `../${name}/bin/java`);
}

/** Points bin/<name> at `target` (relative, so the binaries folder can move), replacing it atomically. */
async function linkCommand(binDir: string, name: string, target: string): Promise<void> {
  const link = join(binDir, name);
  if (currentTarget(link) === target) return;
  await mkdir(binDir, { recursive: true });
  const temp = join(binDir, `.${name}.${randomUUID()}.part`);
  try {
    await symlink(target, temp);
    await rename(temp, link);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

function currentTarget(link: string): string | undefined {
  try {
    return readlinkSync(link);
  } catch {
    return undefined;
  }
}
