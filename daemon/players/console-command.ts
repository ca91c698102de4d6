// A player command sent to a running server's console and confirmed from the console's answer:
// the daemon listens to the console from just before the command goes in, and the first line
// that says it was done (or that nothing changed, or that it was refused) decides. No answer in
// time is ErrPlayerCommandTimeout: a modded server may word its answers otherwise, or be busy.
// One command at a time per server, so one command's answer is never taken for another's.
import { KilnError } from "../../core/errors";
import { REFUSED_ANSWERS, escapeRegExp, type ConsoleCommand } from "../../core/players/player-lists";
import type { Server } from "../servers/server";

type ServerInstance = Pick<Server, "console" | "sendCommand">;

export const ANSWER_TIMEOUT_MS = 5000;
const MAX_ANSWER_SHOWN = 200;
/**
 * A line is judged by its first this many characters (an answer is a short line; `list` with 200
 * names a few KiB), and no more of a line not ended yet is kept: kept whole and joined to every
 * chunk, a server writing without a line break while a command waited made each chunk cost all
 * it had written since (half the node's thread for the 5 s, and all of it in memory).
 */
const MAX_ANSWER_LINE = 64 * 1024;

const queues = new WeakMap<object, Promise<unknown>>();

/** What the answering line matched: the command's work done, or nothing to do. */
export interface ConsoleOutcome { changed: boolean; line: string; match: RegExpMatchArray }

export function runConsoleCommand(server: ServerInstance, command: ConsoleCommand, timeoutMs = ANSWER_TIMEOUT_MS): Promise<ConsoleOutcome> {
  const before = queues.get(server) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(() => answered(server, command, timeoutMs));
  queues.set(server, run);
  return run;
}

function answered(server: ServerInstance, command: ConsoleCommand, timeoutMs: number): Promise<ConsoleOutcome> {
  return new Promise<ConsoleOutcome>((resolve, reject) => {
    let partial = "";
    const echoed = new RegExp(`^[\\s>]*${escapeRegExp(command.command)}\\s*$`);
    const finish = (outcome: ConsoleOutcome | KilnError) => {
      clearTimeout(timer);
      unsubscribe();
      if (outcome instanceof KilnError) reject(outcome);
      else resolve(outcome);
    };
    const judge = (line: string): boolean => {
      // A terminal (the tty environment) echoes what is typed, maybe after a "> " prompt: that
      // line is never the answer, so a reason worded like one ("kick Steve Kicked Steve") cannot
      // confirm itself. Answers carry the log's prefix, so none is taken for an echo.
      if (echoed.test(line)) return false;
      const done = line.match(command.done);
      if (done) return finish({ changed: true, line, match: done }), true;
      const unchanged = command.unchanged ? line.match(command.unchanged) : null;
      if (unchanged) return finish({ changed: false, line, match: unchanged }), true;
      if (REFUSED_ANSWERS.test(line)) return finish(new KilnError("ErrPlayerCommandRefused", { answer: line.trim().slice(0, MAX_ANSWER_SHOWN) })), true;
      return false;
    };
    const unsubscribe = server.console.subscribe((text) => {
      const lines = (partial + text).split(/\r?\n/);
      const open = lines.pop() ?? "";
      partial = open.length > MAX_ANSWER_LINE ? open.slice(0, MAX_ANSWER_LINE) : open;
      for (const line of lines) if (judge(line.length > MAX_ANSWER_LINE ? line.slice(0, MAX_ANSWER_LINE) : line)) return;
    });
    const timer = setTimeout(() => finish(new KilnError("ErrPlayerCommandTimeout", { command: command.command.split(" ")[0]!, seconds: Math.round(timeoutMs / 1000) })), timeoutMs);
    server.sendCommand(command.command).catch((error: unknown) => finish(error instanceof KilnError ? error : new KilnError("ErrPlayerCommandTimeout", { command: command.command.split(" ")[0]!, seconds: Math.round(timeoutMs / 1000) })));
  });
}
