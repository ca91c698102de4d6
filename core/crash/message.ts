// A crash said in words: the DAEMON line the console shows and the card on the server page both
// come from here. The cause's words carry its detail when the detail has one of the shapes the
// locale files know (daemon.crash.detail.<cause>.<fields>: the field names in order, camelCased),
// else the cause alone; the fix is a key of its own. Values are plain strings and numbers, so a
// reader's language is the only thing that changes.
import type { DaemonMessage } from "../live/daemon-message";
import { causeKey, fixKey, type CrashDetail } from "./causes";
import type { CrashState } from "./identify";

/** The detail shapes a locale file words (any other shape: the cause alone). */
export const DETAIL_SHAPES: Readonly<Record<string, readonly string[]>> = {
  outOfMemory: ["kind", "limit"],
  javaVersion: ["needs", "needsRuns"],
  portInUse: ["port"],
  modWrongLoader: ["file", "fileLoader"],
  modDependency: ["dependencyMod"],
  corruptFile: ["file"],
  missingLibrary: ["library"],
  permissionDenied: ["path"],
};

export function detailShape(detail: CrashDetail): string {
  return Object.keys(detail)
    .sort()
    .map((name, i) => (i === 0 ? name : name[0]!.toUpperCase() + name.slice(1)))
    .join("");
}

/** The cause, with its detail when it has a known shape. */
export function causeMessage(crash: Pick<CrashState, "cause" | "detail">): DaemonMessage {
  const cause: DaemonMessage = { key: causeKey(crash.cause) };
  if (!crash.detail) return cause;
  const shape = detailShape(crash.detail);
  if (!DETAIL_SHAPES[crash.cause]?.includes(shape)) return cause;
  return { key: `daemon.crash.detail.${crash.cause}.${shape}`, values: { ...crash.detail, cause } };
}

/** What to do about it; an unrecognised crash points at the lines above and the files read. */
export function fixMessage(crash: Pick<CrashState, "cause" | "looked">): DaemonMessage {
  const files = (crash.looked ?? []).map((l) => l.source).filter((source) => source !== "console");
  if (crash.cause === "unrecognised" && files.length > 0) return { key: "daemon.crash.fix.unrecognisedFiles", values: { files } };
  return { key: fixKey(crash.cause) };
}

/** The console's line: the cause and the fix, for a run or an install. */
export function crashLine(crash: CrashState): DaemonMessage {
  return { key: crash.phase === "install" ? "daemon.crash.installFailed" : "daemon.crash.stopped", values: { cause: causeMessage(crash), fix: fixMessage(crash) } };
}
