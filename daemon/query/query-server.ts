// One query of one server: the protocol its template names, on the port it names (or its game
// port), bounded by ./limits; the answer or the reason there is none, as core/players' state.
import type { PlayersState } from "../../core/players/players-state";
import { QUERY_TIMEOUT_MS, QueryFailure } from "./limits";
import { minecraftPing } from "./minecraft-ping";
import { gamedigQuery } from "./gamedig-query";

export interface QueryTarget {
  type: string;
  host: string;
  port: number;
}

export async function queryServer(target: QueryTarget, timeoutMs = QUERY_TIMEOUT_MS): Promise<PlayersState> {
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const ask = target.type === "minecraft" ? minecraftPing : (host: string, port: number, signal: AbortSignal) => gamedigQuery(target.type, host, port, signal);
    const figures = await ask(target.host, target.port, controller.signal);
    return { ...figures, latencyMs: Math.round(performance.now() - started), queriedAt: Date.now() };
  } catch (error) {
    const reason = error instanceof QueryFailure ? error.reason : "noAnswer";
    return { error: "ErrQueryUnavailable", reason, queriedAt: Date.now() };
  } finally {
    clearTimeout(timer);
  }
}
