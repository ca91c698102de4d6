// Runs the node's network tools (ip, nft) with the root stages' fixed environment; what they said
// on failure comes back as the error's message, for the node's log and the probe's reason.
import { ROOT_STAGE_ENV } from "../sandbox";

export interface ToolPaths {
  ip: string;
  nft: string;
}

export class ToolError extends Error {
  constructor(
    readonly argv: string[],
    readonly stderr: string,
  ) {
    super(`${argv.join(" ")}: ${stderr.trim().split("\n").pop() || "failed"}`);
  }

  /** The object it was asked to create is there already. */
  get exists(): boolean {
    return /File exists/i.test(this.stderr);
  }
}

/** Runs `argv` to its end with `input` on its standard input; throws a ToolError when it fails. */
export async function run(argv: string[], input?: string): Promise<string> {
  const proc = Bun.spawn(argv, { env: ROOT_STAGE_ENV, stdin: input === undefined ? "ignore" : new TextEncoder().encode(input), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new ToolError(argv, stderr || `exit code ${code}`);
  return stdout;
}
