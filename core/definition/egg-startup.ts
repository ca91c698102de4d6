// An egg's startup line and stop instruction in Kiln's terms.
//
// Startup: the egg runtime images read the line from STARTUP and expand it in a shell, after
// turning every `{{NAME}}` into `${NAME}` (the yolks' entrypoint: `sed -e 's/{{/${/g' -e
// 's/}}/}/g'`); the values come from the container's environment (the variables, SERVER_MEMORY,
// SERVER_IP, SERVER_PORT, …), so they are expanded as data, never read as shell code. The
// converted line is that same text: `{{NAME}}` written `${NAME}`, shell `$NAME` forms kept. Under
// the docker environment's "egg" conventions it goes to STARTUP as it stands.
//
// Stop: as Pelican hands it to Wings, a line starting with `^` names a signal, anything else is a
// console command. `^C` (Ctrl-C) is SIGINT; `^SIGINT`, `^SIGTERM`, `^SIGABRT` are those signals.
// Wings kills (SIGKILL) for any other signal name, so `^^C` (written by many eggs for Ctrl-C)
// would be a kill there; Kiln reads it as the Ctrl-C it stands for, and says so.
import type { ImportNote } from "./import-notes";

/** What the egg runtime's environment holds beside the egg's variables. */
export const EGG_RUNTIME_NAMES = ["SERVER_MEMORY", "SERVER_IP", "SERVER_PORT", "P_SERVER_UUID", "P_SERVER_LOCATION", "P_SERVER_ALLOCATION_LIMIT", "TZ", "STARTUP"] as const;

/** `{{NAME}}` as the runtime images rewrite it; `renames` maps a variable renamed on import to its new name. */
export function translateStartup(startup: string, renames: ReadonlyMap<string, string>, field: string, notes: ImportNote[]): string {
  const rename = (name: string) => renames.get(name) ?? name;
  let line = startup.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_whole, name: string) => `\${${rename(name)}}`);
  // The shell's own forms of a renamed variable follow it too.
  for (const [from, to] of renames) {
    line = line.replace(new RegExp(`\\$\\{${from}\\}|\\$${from}(?![A-Za-z0-9_])`, "g"), (w) => (w.startsWith("${") ? `\${${to}}` : `$${to}`));
  }
  const left = line.match(/\{\{[^}]*\}\}/g);
  if (left) notes.push({ rule: "eggPlaceholder", field, detail: [...new Set(left)].join(" ") });
  return line.replace(/\r\n?/g, " ").replace(/\n/g, " ").trim();
}

const SIGNALS: Record<string, number> = { SIGINT: 2, SIGTERM: 15, SIGABRT: 6, SIGKILL: 9 };

export interface StopReading {
  stop?: string;
  stopCode?: number;
}

/** config.stop as run.stop or run.stopCode. */
export function translateStop(stop: unknown, notes: ImportNote[]): StopReading {
  if (typeof stop !== "string" || stop.trim() === "") {
    if (stop !== undefined && stop !== null && stop !== "") notes.push({ rule: "dropped", field: "config.stop", detail: String(stop) });
    return {};
  }
  if (!stop.startsWith("^")) return { stop };
  const signal = stop.slice(1).trim().toUpperCase();
  if (signal === "C") return { stopCode: SIGNALS.SIGINT };
  if (signal === "^C") {
    notes.push({ rule: "eggStop", field: "config.stop", detail: "SIGINT" });
    return { stopCode: SIGNALS.SIGINT };
  }
  const code = SIGNALS[signal];
  if (code !== undefined) return { stopCode: code };
  notes.push({ rule: "eggStop", field: "config.stop", detail: "SIGKILL" });
  return { stopCode: SIGNALS.SIGKILL };
}
