// Which kiln executable the panel offers to new nodes: the running one when Kiln runs as the
// compiled executable (`npm run build`, build.ts embeds the files and hands them over), else the
// dist/kiln of a source checkout, which the panel builds when it is first needed
// (services/nodes/executable).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { embeddedFiles } from "./assets/embedded";

const CHECKOUT = join(import.meta.dir, "..");

/** The executable offered: the running one, else the checkout's dist/kiln (built or not yet). */
export function servedExecutable(): string {
  if (embeddedFiles()) return process.execPath;
  return join(CHECKOUT, "dist", "kiln");
}

/** The checkout that can build the offered executable (its build.ts), null for the compiled kiln. */
export function buildableCheckout(): string | null {
  if (embeddedFiles()) return null;
  return existsSync(join(CHECKOUT, "build.ts")) ? CHECKOUT : null;
}

/** The command that runs this very kiln: the executable itself, or bun with the checkout's entry point. */
export function thisKiln(): string[] {
  if (embeddedFiles()) return [process.execPath];
  return [process.execPath, join(CHECKOUT, "server", "main.ts")];
}
