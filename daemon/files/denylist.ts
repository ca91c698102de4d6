// A template's fileDenylist (an egg's file_denylist): files the file manager and SFTP refuse to
// open, write, rename to or from, copy, archive or unpack onto. gitignore patterns, as Wings
// reads them ("*.jar", "/config.yml", "logs/", "!keep.jar"), matched with the `ignore` package.
// A path is judged as asked and, where it exists, as the kernel resolves it, so a link to a
// denied file does not open it. The server's own steps (install, configfile) are not limited:
// the denylist keeps users' hands off files the template manages.
import ignore, { type Ignore } from "ignore";
import { closeSync } from "node:fs";
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";
import { O_PATH } from "./openat2";

export class FileDenylist {
  private readonly matcher: Ignore | null;

  constructor(patterns: readonly string[] | undefined) {
    const usable = (patterns ?? []).map((p) => p.trim()).filter((p) => p !== "" && !p.startsWith("#"));
    this.matcher = usable.length ? ignore().add(usable) : null;
  }

  /** Whether the jail-relative, normalized path is denied (the folder itself never is). */
  denies(path: string): boolean {
    if (!this.matcher || path === "") return false;
    return this.matcher.ignores(path);
  }

  /** Whether a path, as asked or as it resolves, is denied. */
  blocks(jail: Jail, path: string): boolean {
    if (!this.matcher) return false;
    const normal = jail.normalize(path);
    return this.denies(normal) || this.denies(realPath(jail, normal) ?? "");
  }

  /** Throws ErrFileDenied for the first of `paths` that is denied. */
  check(jail: Jail, ...paths: string[]): void {
    const found = paths.find((path) => this.blocks(jail, path));
    if (found !== undefined) throw denied(found);
  }

  /** Whether there is anything to check at all (most templates have no denylist). */
  get empty(): boolean {
    return this.matcher === null;
  }
}

export function denied(path: string): KilnError {
  return new KilnError("ErrFileDenied", { path }, `${path} is on the server's file denylist`);
}

/** Where the path leads once links are followed, or null when it does not exist (yet). */
function realPath(jail: Jail, normal: string): string | null {
  let fd: number;
  try {
    fd = jail.open(normal, O_PATH);
  } catch {
    return null;
  }
  try {
    return jail.realRelative(`/proc/self/fd/${fd}`, normal);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
