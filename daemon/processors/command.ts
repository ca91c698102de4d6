// The command step: each line is split into argv the way a shell splits words (no shell runs
// unless the line asks for one with `sh -c`) and run in the server's environment, in order.
// Variables were substituted word by word before (substituteStep), so a value is one argument.
import { splitCommandLine } from "../../core/definition/command-line";
import type { StepOf } from "../../core/definition/steps";
import type { StepContext } from "./types";

export async function command(step: StepOf<"command">, ctx: StepContext): Promise<void> {
  for (const line of step.commands) {
    let argv: string[];
    try {
      argv = splitCommandLine(line);
    } catch (e) {
      throw new Error(`cannot read the command "${line}": ${(e as Error).message}`);
    }
    // A blank line in a template's list is not a command; it is not an error either.
    if (argv.length === 0) continue;
    const exit = await ctx.execute(argv);
    if (exit.code !== 0) {
      throw new Error(exit.signal ? `command "${line}" was ended by ${exit.signal}` : `command "${line}" exited with code ${exit.code}`);
    }
  }
}
