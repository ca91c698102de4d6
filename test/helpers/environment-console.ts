// What a test hands a ProcessEnvironment's start (daemon/environment/types): a console that
// collects the process's output as text and records each exit it reports.
import type { ExitInfo } from "../../daemon/environment/types";

export function consoleOf() {
  let text = "";
  const decoder = new TextDecoder();
  const exits: ExitInfo[] = [];
  return {
    output: (chunk: Uint8Array) => void (text += decoder.decode(chunk, { stream: true })),
    onExit: (info: ExitInfo) => void exits.push(info),
    text: () => text,
    exits,
  };
}
