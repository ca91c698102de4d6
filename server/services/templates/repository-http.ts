// Reading a template repository over HTTP: one GET below the repository's base URL, within a
// time limit and a size limit, so a slow, huge or hostile repository costs little and every
// failure is ErrTemplateRepositoryFailed naming the repository (never a host path or a stack).
import { KilnError } from "../../../core/errors";

const TIMEOUT_MS = 10_000;
/** A file larger than this is not a template, an index or a listing (and is not read whole into memory). */
export const MAX_BYTES = 2 * 1024 * 1024;

export function repositoryFailed(url: string, reason: string): KilnError {
  return new KilnError("ErrTemplateRepositoryFailed", { url, reason }, `template repository ${url}: ${reason}`);
}

/** `base` and a path of already-encoded segments: "https://x/templates" + "ark/ark.json". */
export function below(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}/${path}`;
}

/** GETs `path` below `base`: its text, or undefined when the repository answers 404. */
export async function fetchText(base: string, path: string, fetcher: typeof fetch, accept = "application/json"): Promise<string | undefined> {
  let response: Response;
  try {
    response = await fetcher(below(base, path), { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept }, redirect: "follow" });
  } catch (error) {
    throw repositoryFailed(base, error instanceof Error && error.name === "TimeoutError" ? "no answer" : "not reachable");
  }
  if (response.status === 404) {
    await response.body?.cancel();
    return undefined;
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw repositoryFailed(base, `HTTP ${response.status}`);
  }
  if (Number(response.headers.get("content-length") ?? 0) > MAX_BYTES) {
    await response.body?.cancel();
    throw repositoryFailed(base, "answer too large");
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > MAX_BYTES) throw repositoryFailed(base, "answer too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** fetchText parsed as JSON; undefined on 404. */
export async function fetchJson(base: string, path: string, fetcher: typeof fetch): Promise<unknown> {
  const text = await fetchText(base, path, fetcher);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw repositoryFailed(base, "answer is not JSON");
  }
}
