// Templates arrive from outside (a PUT body, a repository's file, a pasted text). A real one nests
// a few levels (template → run → pre → step → field); a file nested thousands of levels deep is an
// attack on every recursive reader after it (the reserved-key check, the schema, structuredClone),
// so it is refused first, by a reader that does not recurse.
import { KilnError } from "../errors";

/** Deepest nesting a template may have: far beyond any real one (about 6). */
export const MAX_TEMPLATE_DEPTH = 32;

/** Throws ErrInvalidJson naming where `value` nests deeper than `max` levels. */
export function assertJsonDepth(value: unknown, max = MAX_TEMPLATE_DEPTH): void {
  const stack: Array<[unknown, number, string]> = [[value, 0, ""]];
  while (stack.length) {
    const [node, depth, path] = stack.pop()!;
    if (!node || typeof node !== "object") continue;
    if (depth >= max) throw new KilnError("ErrInvalidJson", { field: path }, `${path || "the template"} is nested deeper than ${max} levels`);
    for (const [key, child] of Object.entries(node)) stack.push([child, depth + 1, path ? `${path}.${key}` : key]);
  }
}
