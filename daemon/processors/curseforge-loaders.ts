// How the curseforge step readies a modpack's mod loader, as PufferPanel's daemon does
// (operations/curseforge): an installer the pack ships is run; otherwise Forge's installer is
// fetched from Forge's Maven and run, and Fabric's server launcher fetched from Fabric's meta API
// (or, where Fabric has none for the versions, its installer run). Kiln also installs NeoForge
// named by the pack, from NeoForge's Maven, where PufferPanel stops with "unsupported server
// type". Versions come from the pack, so each is checked to be a version before it goes into a
// URL or a file name.
import { z } from "../../core/zod";
import type { Jail } from "../files/jail";
import { readFolder } from "../files/listing";
import { removePath, renamePath } from "../files/operations";
import { downloadIntoJail, fetchJson } from "./http";
import type { StepContext } from "./types";
import { message } from "../../core/live/daemon-message";

const VERSION = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;
/** PufferPanel's test for a shipped installer (unanchored, so NeoForge's installer matches too). */
const SHIPPED_INSTALLER = /forge-.*-installer\.jar/;

/** `text` when it is a version (letters, digits, ".", "_", "+", "-"); else the step fails naming it. */
export function packVersion(text: string, what: string): string {
  if (!VERSION.test(text)) throw new Error(`the modpack names ${what} "${text.slice(0, 80)}", which is not a version`);
  return text;
}

/** An installer jar the pack put in the server's folder, if any. */
export function shippedInstaller(jail: Jail): string | undefined {
  return readFolder(jail, "").filter((entry) => entry.stats.isFile() && SHIPPED_INSTALLER.test(entry.name)).map((entry) => entry.name).sort()[0];
}

function removeIfThere(jail: Jail, path: string): void {
  try {
    removePath(jail, path);
  } catch {
    // not there: nothing to remove
  }
}

function isFile(jail: Jail, path: string): boolean {
  try {
    return readFolder(jail, "").some((entry) => entry.name === path && entry.stats.isFile());
  } catch {
    return false;
  }
}

/** Runs a Forge or NeoForge installer with --installServer, then tidies up as PufferPanel does. */
export async function runInstaller(jar: string, java: string, ctx: StepContext): Promise<void> {
  ctx.log(message("daemon.step.runningInstaller", { jar }));
  const exit = await ctx.execute([java, "-jar", jar, "--installServer"]);
  ctx.log(message("daemon.step.installerExit", { code: String(exit.code) }));
  if (exit.code !== 0) throw new Error(`the installer ${jar} exited with code ${exit.code}`);
  removeIfThere(ctx.jail, jar);
  removeIfThere(ctx.jail, `${jar}.log`);
  // Before Minecraft 1.17 Forge leaves its server as a jar of its own (or a shim): server.jar.
  for (const candidate of [jar.replace("-installer", ""), jar.replace("-installer", "-shim")]) {
    if (isFile(ctx.jail, candidate)) renamePath(ctx.jail, candidate, "server.jar");
  }
}

export async function installForge(minecraft: string, version: string, java: string, ctx: StepContext): Promise<void> {
  const full = `${packVersion(minecraft, "the Minecraft version")}-${packVersion(version, "the Forge version")}`;
  const jar = `forge-${full}-installer.jar`;
  const url = `${ctx.sources.forge}/net/minecraftforge/forge/${full}/${jar}`;
  ctx.log(message("daemon.step.downloadingForgeInstaller", { url }));
  await downloadIntoJail(url, ctx.jail, jar, ctx);
  await runInstaller(jar, java, ctx);
}

export async function installNeoForge(version: string, java: string, ctx: StepContext): Promise<void> {
  const jar = `neoforge-${packVersion(version, "the NeoForge version")}-installer.jar`;
  const url = `${ctx.sources.neoforge}/releases/net/neoforged/neoforge/${version}/${jar}`;
  ctx.log(message("daemon.step.downloadingNeoforgeInstaller", { url }));
  await downloadIntoJail(url, ctx.jail, jar, ctx);
  await runInstaller(jar, java, ctx);
}

const installersSchema = z.array(z.object({ url: z.string(), version: z.string(), stable: z.boolean() }));

/**
 * Fabric: its server launcher for these versions as server.jar; where Fabric has none (404), its
 * installer run with -downloadMinecraft, whose launcher becomes server.jar. Without an installer
 * version from the pack, the newest stable one (as Fabric's own site picks).
 */
export async function installFabric(minecraft: string, loader: string, installerVersion: string | undefined, java: string, ctx: StepContext): Promise<void> {
  packVersion(minecraft, "the Minecraft version");
  packVersion(loader, "the Fabric loader version");
  const installers = await fetchJson(`${ctx.sources.fabric}/v2/versions/installer`, installersSchema, ctx);
  const installer = installerVersion ? installers.find((i) => i.version === packVersion(installerVersion, "the Fabric installer version")) : installers.find((i) => i.stable);
  if (!installer) throw new Error(installerVersion ? `Fabric lists no installer ${installerVersion}` : "Fabric lists no stable installer");
  const launcher = `${ctx.sources.fabric}/v2/versions/loader/${minecraft}/${loader}/${installer.version}/server/jar`;
  ctx.log(message("daemon.step.downloadingFabricLauncher", { url: launcher }));
  try {
    await downloadIntoJail(launcher, ctx.jail, "server.jar", ctx);
    return;
  } catch (error) {
    if (!(error instanceof Error && / HTTP 404$/.test(error.message))) throw error;
  }
  ctx.log(message("daemon.step.fabricNoLauncher", { url: installer.url }));
  await downloadIntoJail(installer.url, ctx.jail, "fabric-installer.jar", ctx);
  const exit = await ctx.execute([java, "-jar", "fabric-installer.jar", "server", "-mcversion", minecraft, "-loader", loader, "-downloadMinecraft"]);
  ctx.log(message("daemon.step.installerExit", { code: String(exit.code) }));
  if (exit.code !== 0) throw new Error(`the Fabric installer exited with code ${exit.code}`);
  removeIfThere(ctx.jail, "fabric-installer.jar");
  removeIfThere(ctx.jail, "server.jar");
  renamePath(ctx.jail, "fabric-server-launch.jar", "server.jar");
}
