// realpath of the deepest part of a path that exists, with the missing rest appended. The native
// realpath, because the JavaScript one folds ".." by spelling before following links.
import { realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export function realExisting(path: string): string {
  const tail: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(realpathSync.native(current), ...tail);
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      tail.unshift(basename(current));
      current = parent;
    }
  }
}
