// PufferPanel v3's sleep and console steps: a pause (Go duration text, or nanoseconds as a bare
// number, as v3 reads it) that a kill cuts short, and a message on the server's console.
import type { StepOf } from "../../core/definition/steps";
import type { StepContext } from "./types";
import { message } from "../../core/live/daemon-message";

/** A sleep longer than a day is a schedule, not a step (the same bound as a task's sleep). */
const MAX_SLEEP_MS = 86_400_000;
const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, "µs": 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds of a Go duration ("1m30s", "500ms") or of a number of nanoseconds. */
export function durationMs(value: string | number): number {
  if (typeof value === "number") return value / 1e6;
  const text = value.trim();
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== text) throw new Error(`"${value}" is not a duration such as "5s", "1m30s" or "500ms"`);
  return parts.reduce((ms, [, n, unit]) => ms + Number(n) * UNIT_MS[unit!]!, 0);
}

export async function sleep(step: StepOf<"sleep">, ctx: StepContext): Promise<void> {
  const ms = durationMs(step.duration);
  if (ms > MAX_SLEEP_MS) throw new Error(`a sleep step waits at most a day, not ${step.duration}`);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    ctx.signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new Error("cancelled"));
    }, { once: true });
  });
}

export async function consoleMessage(step: StepOf<"console">, ctx: StepContext): Promise<void> {
  ctx.log(message("daemon.step.pauseMessage", { text: step.message }));
}
