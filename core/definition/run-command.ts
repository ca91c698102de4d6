// Which command a server starts with. Kiln's form is one command line; PufferPanel v3 may give a
// list of {command, if}: the first entry whose condition holds runs, else the first entry without
// a condition (as v3's Server.Start chooses). Each entry may bring its own console (stdin).
import type { CommandEntry, RunSection, StdinConfig } from "./template";

export interface ChosenCommand {
  /** The command line, not substituted yet; "" when no entry applies. */
  command: string;
  /** Where in the definition it came from ("run.command", "run.command.2.command"), for messages. */
  field: string;
  stdin: StdinConfig;
}

const PROCESS_INPUT: StdinConfig = { type: "stdin" };

/** `holds` evaluates one condition (./conditions' evaluateCondition with the server's facts). */
export function chooseRunCommand(run: Pick<RunSection, "command" | "stdin">, holds: (condition: string) => boolean): ChosenCommand {
  const stdin = run.stdin ?? PROCESS_INPUT;
  if (typeof run.command === "string") return { command: run.command, field: "run.command", stdin };
  const entries: CommandEntry[] = run.command;
  const chosen = entries.findIndex((entry) => Boolean(entry.if?.trim()) && holds(entry.if!));
  const index = chosen >= 0 ? chosen : entries.findIndex((entry) => !entry.if?.trim());
  const entry = entries[index];
  if (!entry) return { command: "", field: "run.command", stdin };
  return { command: entry.command, field: `run.command.${index}.command`, stdin: entry.stdin ?? stdin };
}

/** Every command line of a run section with the field it sits in (for template checks). */
export function runCommandLines(run: Pick<RunSection, "command">): Array<[field: string, line: string]> {
  if (typeof run.command === "string") return [["run.command", run.command]];
  return run.command.map((entry, i): [string, string] => [`run.command.${i}.command`, entry.command]);
}
