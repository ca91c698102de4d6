// Opens the network console a definition's run.stdin names (telnet, rcon, rconws); `stdin` is
// the process's own input and needs none.
import type { ConsoleType } from "../../../core/definition/constants";
import { RconConsole } from "./rcon";
import { RconWsConsole } from "./rconws";
import { TelnetConsole } from "./telnet";
import type { ConsoleSink, ConsoleTarget, NetworkConsole } from "./types";

export type { ConsoleSink, ConsoleTarget, NetworkConsole } from "./types";

export function openNetworkConsole(type: Exclude<ConsoleType, "stdin">, target: ConsoleTarget, sink: ConsoleSink): NetworkConsole {
  switch (type) {
    case "telnet":
      return new TelnetConsole(target, sink, "telnet");
    case "rcon":
      return new RconConsole(target, sink, "RCON");
    case "rconws":
      return new RconWsConsole(target, sink, "WebSocket RCON");
  }
}
