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

class RedirectRefused extends Error {}

/** How many redirects a repository's answer may take, each to its own origin. */
const MAX_REDIRECTS = 5;

/**
 * A GET that follows redirects only within the URL's own origin (a host moving a path, adding a
 * slash): a repository is trusted for its own host, not for where it points the panel next (an
 * internal address, a cloud's metadata service), so a redirect elsewhere fails as the request
 * would. `fetcher` is fetch (tests hand a recording one).
 */
export async function fetchWithinOrigin(url: string, init: RequestInit, fetcher: typeof fetch): Promise<Response> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const response = await fetcher(current, { ...init, redirect: "manual" });
    const location = response.status >= 300 && response.status < 400 ? response.headers.get("location") : null;
    if (location === null) return response;
    await response.body?.cancel();
    const next = new URL(location, current);
    if (next.origin !== new URL(url).origin) throw new RedirectRefused(`redirected to another host (${next.origin})`);
    if (hop >= MAX_REDIRECTS) throw new RedirectRefused("too many redirects");
    current = next.href;
  }
}

/** Why a repository's request failed, in words a person reads (never a host path or a stack). */
export function unreachableReason(error: unknown): string {
  if (error instanceof Error && error.name === "TimeoutError") return "no answer";
  return error instanceof RedirectRefused ? error.message : "not reachable";
}

/** GETs `path` below `base`: its text, or undefined when the repository answers 404. */
export async function fetchText(base: string, path: string, fetcher: typeof fetch, accept = "application/json"): Promise<string | undefined> {
  let response: Response;
  try {
    response = await fetchWithinOrigin(below(base, path), { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept } }, fetcher);
  } catch (error) {
    throw repositoryFailed(base, unreachableReason(error));
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
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > MAX_BYTES) throw repositoryFailed(base, "answer too large");
      chunks.push(chunk);
    }
  } catch (error) {
    // The time limit running out while the body still trickles in (or the connection dropping)
    // fails the read here, not at the request: it is the repository's failure, never a 500.
    if (error instanceof KilnError) throw error;
    throw repositoryFailed(base, unreachableReason(error));
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
