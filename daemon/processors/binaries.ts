// Tools a node installs once into its binaries folder and shares between servers (Java builds,
// SteamCMD): downloaded as a tar.gz, unpacked safely, and skipped when already there. Two
// servers installing the same tool at once share one download.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { extractTarGz } from "./archive";
import { downloadToFile } from "./http";
import type { StepContext } from "./types";
import { message } from "../../core/live/daemon-message";

export interface Tool {
  /** Shown on the console, e.g. "Java 17". */
  label: string;
  url: string;
  /** The folder the tool lives in, inside the binaries folder. */
  dir: string;
  /** Leading folders of the archive to drop. */
  strip: number;
  /** A file, relative to `dir`, whose presence means the tool is installed. */
  marker: string;
}

const installing = new Map<string, Promise<void>>();

/** Installs the tool unless its marker file exists; resolves true when it downloaded it. */
export async function ensureTool(tool: Tool, ctx: StepContext): Promise<boolean> {
  if (existsSync(join(tool.dir, tool.marker))) return false;
  let pending = installing.get(tool.dir);
  if (!pending) {
    pending = install(tool, ctx).finally(() => installing.delete(tool.dir));
    installing.set(tool.dir, pending);
  }
  await pending;
  return true;
}

async function install(tool: Tool, ctx: StepContext): Promise<void> {
  ctx.log(message("daemon.step.downloadingTool", { tool: tool.label, url: tool.url }));
  await mkdir(ctx.binariesDir, { recursive: true });
  // A folder without its marker is a broken install (someone removed files): start afresh.
  await rm(tool.dir, { recursive: true, force: true });
  const archive = join(ctx.binariesDir, `.download-${randomUUID()}.tar.gz`);
  try {
    await downloadToFile(tool.url, archive, ctx);
    await extractTarGz(archive, tool.dir, tool.strip, `the ${tool.label} archive`);
  } finally {
    await rm(archive, { force: true });
  }
  if (!existsSync(join(tool.dir, tool.marker))) {
    await rm(tool.dir, { recursive: true, force: true });
    throw new Error(`the downloaded ${tool.label} has no ${tool.marker}`);
  }
  ctx.log(message("daemon.step.toolInstalled", { tool: tool.label, folder: tool.dir }));
}
