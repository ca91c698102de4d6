// One answer of a mod source's API (Modrinth, CurseForge, Hangar, Spiget), read as an answer from outside: within a
// time limit, no redirect followed (an answer must come from the base the administrator set, and a
// key in the headers must not travel), at most SOURCE_ANSWER_CAP bytes read as they come, parsed as
// JSON and checked against `schema` (fields not read are dropped). Anything else is
// ErrModSourceUnavailable naming the source, a 404 ErrNotFound: never an exception from deeper down.
import { KilnError } from "../../../core/errors";
import { z } from "../../../core/zod";
import pkg from "../../../package.json";
import { readCapped } from "../../../core/net/capped-answer";

/** How Kiln names itself to a source (Modrinth and PaperMC ask every client to). */
export const SOURCE_USER_AGENT = `kiln/${pkg.version} (self-hosted game server panel)`;

/** An answer that takes longer is given up: the browser says the source did not answer. */
export const SOURCE_TIMEOUT_MS = 10_000;
/** The sources' largest answers (a project's versions) stay far below this. */
export const SOURCE_ANSWER_CAP = 8 * 1024 * 1024;

/** `onHeaders`: sees the answer's headers (a source that counts its results there: Spiget). */
export async function sourceAnswer<S extends z.ZodMiniType>(source: string, url: string, init: RequestInit, schema: S, timeoutMs = SOURCE_TIMEOUT_MS, onHeaders?: (headers: Headers) => void): Promise<z.infer<S>> {
  const raw = await sourceText(source, url, init, timeoutMs, onHeaders);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw unavailable(source, "the answer is not JSON");
  }
  const parsed = z.safeParse(schema, json);
  if (!parsed.success) throw unavailable(source, "the answer has a shape Kiln does not read");
  return parsed.data;
}

/** The answer's text, read with the same rules (a Maven repository's XML listing, say); the caller checks its shape. */
export async function sourceText(source: string, url: string, init: RequestInit, timeoutMs = SOURCE_TIMEOUT_MS, onHeaders?: (headers: Headers) => void): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: "error", signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw unavailable(source, (error as Error).name === "TimeoutError" ? "no answer in time" : "not reachable");
  }
  if (response.status === 404) {
    await response.body?.cancel();
    throw new KilnError("ErrNotFound", { id: new URL(url).pathname.split("/").pop() ?? "" });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw unavailable(source, response.status === 401 || response.status === 403 ? "the API key was refused" : `HTTP ${response.status}`);
  }
  onHeaders?.(response.headers);
  const raw = await readCapped(response, SOURCE_ANSWER_CAP).catch(() => null);
  if (raw === null) throw unavailable(source, "the answer was too large or broke off");
  return raw.toString("utf8");
}

const unavailable = (source: string, reason: string) => new KilnError("ErrModSourceUnavailable", { source, reason });
