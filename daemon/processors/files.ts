// The steps that edit the server's folder in place: alterfile, writefile, move, mkdir. They use
// the file API's own operations (daemon/files/operations.ts): every path is resolved once, by
// the kernel, beneath the server's folder, and acted on through the folder it opened, so a folder
// the server's process swaps for a link out meanwhile is never followed. A file is rewritten
// through a temporary file and a rename, so a reader (or a crash) never sees it half-written.
import { closeSync, readFileSync } from "node:fs";
import { posix } from "node:path";
import type { StepOf } from "../../core/definition/steps";
import { KilnError } from "../../core/errors";
import { compilePattern, PatternError, type UserPattern } from "../../core/patterns";
import { legacyAlterfile } from "./alterfile-legacy";
import type { Jail } from "../files/jail";
import { openRegularFile } from "../files/open-regular";
import { isFolder, makeFolder, renamePath, statPath, writeAtomically } from "../files/operations";
import { refuseLinksLeadingOut } from "../files/moved-links";
import type { StepContext } from "./types";
import { expandWildcard, hasWildcard } from "./glob";
import { message } from "../../core/live/daemon-message";

export async function alterfile(step: StepOf<"alterfile">, ctx: StepContext): Promise<void> {
  if (!step.search) throw new Error("alterfile needs something to search for");
  ctx.denylist?.check(ctx.jail, step.file);
  const { text: before, path } = readForEdit(ctx.jail, step.file);
  let after: string;
  if (step.regex) {
    after = replaceByPattern(step.search, step.replace, before);
  } else {
    // A function replacement, so "$&" and friends in the text are written literally.
    after = before.replaceAll(step.search, () => step.replace);
  }
  // The temporary file takes the mode of the file it replaces.
  await writeAtomically(ctx.jail, path, [Buffer.from(after)]);
}

/** Every match of `search` in `text` replaced, on RE2's linear-time engine (core/patterns): the file may hold what a user wrote. */
function replaceByPattern(search: string, replace: string, text: string): string {
  let pattern: UserPattern;
  try {
    pattern = compilePattern(search);
  } catch (e) {
    if (!(e instanceof PatternError)) throw e;
    const legacy = legacyAlterfile(search, replace, text);
    if (legacy === null) throw new Error(`invalid regular expression ${search}: ${e.reason}`);
    return legacy;
  }
  return pattern.replaceAll(text, replace);
}

/**
 * The text of `file` and where it really lies: a link inside the folder is followed (by the
 * kernel, beneath the root), so the file it leads to is edited rather than the link replaced by
 * a copy. A file with more than one name is refused (openRegularFile): it may be a hard link to
 * a file outside, whose content must neither be read nor copied in. (The configfile step edits
 * files the same way, with `maxBytes` as its bound.)
 */
export function readForEdit(jail: Jail, file: string, maxBytes = Infinity): { text: string; path: string } {
  let opened: ReturnType<typeof openRegularFile>;
  try {
    opened = openRegularFile(jail, file);
  } catch (error) {
    if (error instanceof KilnError && error.code === "ErrNotFound") throw new KilnError("ErrNotFound", { path: file }, `file not found: ${file}`);
    throw error;
  }
  try {
    if (opened.stats.size > maxBytes) throw new Error(`${file} is larger than ${maxBytes} bytes`);
    return { text: readFileSync(opened.fd, "utf8"), path: jail.realRelative(`/proc/self/fd/${opened.fd}`, file) };
  } finally {
    closeSync(opened.fd);
  }
}

export async function writefile(step: StepOf<"writefile">, ctx: StepContext): Promise<void> {
  ctx.denylist?.check(ctx.jail, step.target);
  makeParent(ctx.jail, step.target);
  await writeAtomically(ctx.jail, step.target, [Buffer.from(step.text)]);
}

/**
 * Moves a file or folder; onto an existing folder, it moves into it (as `mv` does). A source
 * with wildcards (PufferPanel v3: "paper-*.jar") moves each match; none is nothing to do, as in v3.
 */
export async function move(step: StepOf<"move">, ctx: StepContext): Promise<void> {
  if (hasWildcard(step.source)) {
    const matches = expandWildcard(ctx.jail, step.source);
    if (matches.length === 0) ctx.log(message("daemon.step.nothingToMove", { source: step.source }));
    if (matches.length > 1 && !isFolder(ctx.jail, ctx.jail.normalize(step.target))) throw new Error(`${matches.length} files match ${step.source}; they can only move into a folder`);
    for (const source of matches) await move({ ...step, source }, ctx);
    return;
  }
  const source = ctx.jail.normalize(step.source);
  if (source === "") throw new KilnError("ErrNoPermission", { path: step.source }, "cannot move the server's folder itself");
  try {
    statPath(ctx.jail, source, false);
  } catch (error) {
    if (error instanceof KilnError && error.code === "ErrNotFound") throw new KilnError("ErrNotFound", { path: step.source }, `nothing to move at ${step.source}`);
    throw error;
  }
  let target = ctx.jail.normalize(step.target);
  if (target === "" || isFolder(ctx.jail, target)) target = posix.join(target, posix.basename(source));
  ctx.denylist?.checkMove(ctx.jail, source, target);
  makeParent(ctx.jail, target);
  // Whoever moves it, a relative link may not end up pointing out of the folder (files/moved-links).
  refuseLinksLeadingOut(ctx.jail, source, target);
  renamePath(ctx.jail, source, target);
}

export async function mkdir(step: StepOf<"mkdir">, ctx: StepContext): Promise<void> {
  ctx.denylist?.check(ctx.jail, step.target);
  makeFolder(ctx.jail, step.target);
}

/** Creates the folders `path` needs to exist in. */
export function makeParent(jail: Jail, path: string): void {
  const parent = posix.dirname(jail.normalize(path));
  if (parent !== ".") makeFolder(jail, parent);
}
