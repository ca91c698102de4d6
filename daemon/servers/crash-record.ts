// Why a server last stopped unasked or its install failed: named from what the run left
// (./crash-evidence, core/crash/identify), said on its console, and kept until the next start or
// install. A run that is the first start after a change to the server's add-ons names that change
// too (the undo that may fix it); a later run of the same change does not.
import type { ServerDefinition } from "../../core/definition";
import { identify, type CrashState } from "../../core/crash/identify";
import { crashLine } from "../../core/crash/message";
import { message, type DaemonMessage } from "../../core/live/daemon-message";
import type { ExitInfo } from "../environment";
import type { Jail } from "../files/jail";
import type { ConsoleBuffer } from "./console-buffer";
import { consoleSource, fileSources } from "./crash-evidence";

type AddonChange = { changeId: string; note: string };

export interface CrashRecordDeps {
  console: ConsoleBuffer;
  jail: Jail;
  definition: () => ServerDefinition;
  /** The last change to the server's add-ons while it can be undone (daemon/mods). */
  lastAddonChange: () => AddonChange | null;
}

export class CrashRecord {
  /** Cleared by the next start or install. */
  private last: CrashState | null = null;
  /** When the process (or install) now running began: what was written before is not its evidence. */
  private startedAt = 0;
  /** The add-on change this run is the first start after, if it is. */
  private firstRunAfter: AddonChange | null = null;
  private lastChangeSeen: string | null = null;

  constructor(private readonly deps: CrashRecordDeps) {}

  get current(): CrashState | null {
    return this.last;
  }

  /** A start begins: the last crash is cleared, and the add-on change this run is the first after noted. */
  runStarts(): void {
    this.begin();
    const change = this.deps.lastAddonChange();
    this.firstRunAfter = change && change.changeId !== this.lastChangeSeen ? change : null;
    this.lastChangeSeen = change?.changeId ?? null;
  }

  /** An install begins: the last crash is cleared. */
  installStarts(): void {
    this.begin();
  }

  /**
   * Names why the process (or the install) ended from what it left, says it on the console and
   * keeps it. The memory limit the node saw end the process names itself; no log is needed for that.
   */
  record(phase: CrashState["phase"], info: ExitInfo | null): CrashState {
    const { console, jail } = this.deps;
    const at = Date.now();
    const memory = this.deps.definition().limits?.memoryMiB;
    let crash: CrashState;
    let excerpt: { source: string | DaemonMessage; lines: string[] } | null = null;
    if (info?.memoryLimit) crash = { cause: "outOfMemory", ...(memory ? { detail: { limit: memory } } : {}), at, phase };
    else {
      const sources = [consoleSource(console.since(this.startedAt).logs), ...(phase === "run" ? fileSources(jail, this.startedAt) : [])];
      const found = identify(sources);
      crash = { cause: found.cause, ...(found.detail ? { detail: found.detail } : {}), at, phase, ...(found.where ? { where: found.where } : {}) };
      if (found.cause === "unrecognised") {
        crash.looked = sources.map((source) => ({ source: source.name, lines: source.lines.length }));
        if (found.excerptFrom && found.excerpt.length > 0) excerpt = { source: found.excerptFrom === "console" ? message("daemon.crash.console") : found.excerptFrom, lines: found.excerpt };
      }
    }
    if (phase === "run" && this.firstRunAfter) crash.afterChange = this.firstRunAfter;
    this.last = crash;
    console.daemon(crashLine(crash));
    if (excerpt) console.daemon(message("daemon.crash.excerpt", excerpt));
    if (crash.afterChange) console.daemon(message("daemon.crash.afterAddonChange", { note: crash.afterChange.note }));
    return crash;
  }

  /** How the process ended, said on the console: its memory limit by name and in MiB, as it was set. */
  exitMessage(info: ExitInfo): DaemonMessage {
    const memory = this.deps.definition().limits?.memoryMiB;
    if (info.memoryLimit && memory) return message("daemon.memoryLimitKilled", { limit: memory });
    if (info.memoryLimit) return message("daemon.memoryLimitKilledUnknown");
    return info.signal ? message("daemon.endedBySignal", { signal: info.signal }) : message("daemon.exited", { code: String(info.code) });
  }

  private begin(): void {
    this.last = null;
    this.startedAt = Date.now();
  }
}
