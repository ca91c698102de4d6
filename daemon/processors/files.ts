// The steps that edit the server's folder in place: alterfile, writefile, move, mkdir. Every
// path goes through the jail; a file is rewritten through a temporary file and a rename, so a
// reader (or a crash) never sees it half-written.
import { existsSync, realpathSync } from "node:fs";
import { lstat, mkdir as makeDir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { partialName } from "../files/partial-file";
import type { StepOf } from "../../core/definition/steps";
import type { StepContext } from "./types";

export async function alterfile(step: StepOf<"alterfile">, ctx: StepContext): Promise<void> {
  if (!step.search) throw new Error("alterfile needs something to search for");
  // Edit the file a link inside the folder leads to (the jail has checked it stays inside),
  // rather than replacing the link with a copy.
  const resolved = ctx.jail.resolve(step.file);
  if (!existsSync(resolved)) throw new Error(`file not found: ${step.file}`);
  const path = realpathSync(resolved);
  const before = await readFile(path, "utf8");
  let after: string;
  if (step.regex) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(step.search, "g");
    } catch (e) {
      throw new Error(`invalid regular expression ${step.search}: ${(e as Error).message}`);
    }
    after = before.replace(pattern, step.replace);
  } else {
    // A function replacement, so "$&" and friends in the text are written literally.
    after = before.replaceAll(step.search, () => step.replace);
  }
  const { mode } = await stat(path);
  await writeAtomic(path, after, mode);
}

export async function writefile(step: StepOf<"writefile">, ctx: StepContext): Promise<void> {
  const path = ctx.jail.resolve(step.target);
  await makeDir(dirname(path), { recursive: true });
  await writeAtomic(path, step.text);
}

/** Moves a file or folder; onto an existing folder, it moves into it (as `mv` does). */
export async function move(step: StepOf<"move">, ctx: StepContext): Promise<void> {
  const source = ctx.jail.resolve(step.source);
  let target = ctx.jail.resolve(step.target);
  if (source === ctx.jail.root) throw new Error("cannot move the server's folder itself");
  if (!(await lstat(source).catch(() => null))) throw new Error(`nothing to move at ${step.source}`);
  if ((await stat(target).catch(() => null))?.isDirectory()) {
    target = ctx.jail.resolve(join(step.target, basename(source)));
  }
  await makeDir(dirname(target), { recursive: true });
  await rename(source, target);
}

export async function mkdir(step: StepOf<"mkdir">, ctx: StepContext): Promise<void> {
  await makeDir(ctx.jail.resolve(step.target), { recursive: true });
}

async function writeAtomic(path: string, text: string, mode?: number): Promise<void> {
  const temp = join(dirname(path), partialName(basename(path)));
  try {
    await writeFile(temp, text, { flag: "wx", mode });
    await rename(temp, path);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}
