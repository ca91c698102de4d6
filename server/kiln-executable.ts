// Which kiln executable the panel offers to new nodes: the running one when Kiln runs as the
// compiled executable (`npm run build`, build.ts embeds the files and hands them over), else the
// built dist/kiln of a source checkout when there is one; none for a checkout never built, whose
// node pages then say how to get one.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { embeddedFiles } from "./assets/embedded";

export function servedExecutable(): string | null {
  if (embeddedFiles()) return process.execPath;
  const built = join(import.meta.dir, "..", "dist", "kiln");
  return existsSync(built) ? built : null;
}
