// Fetching for install steps. Every failure names the URL and says why; a download is streamed
// to a temporary file beside its target and renamed into place only once it is complete (and
// its checksum matched), so a failed or cancelled download never leaves a half-written file.
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import type { Jail } from "../files/jail";
import { makeFolder, writeAtomically } from "../files/operations";
import { partialName } from "../files/partial-file";
import type { z } from "../../core/zod";
import type { StepContext } from "./types";
import { allowedAddresses, type OwnServices } from "../net/outbound-guard";
import { KilnError } from "../../core/errors";
import { fetchAtAddresses } from "../../core/net/pinned-fetch";

type Cancellable = Pick<StepContext, "signal" | "outbound">;

/**
 * Where a step may fetch from. A download's address can come from a template (a templates.edit
 * holder's) or a variable its server's users set, so an address that leads to this machine's
 * loopback or link-local addresses (a cloud's metadata service: the machine's credentials), to a
 * server's own address or to the node's own services is refused (../net/outbound-guard), at every
 * redirect too, and the connection goes to the address that was checked (a name answered twice,
 * the second time with the loopback, reaches nothing more). The node's configured sources are its
 * operator's word and are fetched wherever they are (a mirror, a test rig on the loopback); so is
 * everything with the node's config `internalDownloads`.
 */
export interface FetchRule {
  /** The origins of the node's sources (config `sources`). */
  trusted: ReadonlySet<string>;
  own: OwnServices;
  /** The node's config `internalDownloads`: no address is refused. */
  internal: boolean;
}

/** Redirects followed before a fetch gives up (as browsers' 20, halved: a download has no reason for more). */
const MAX_REDIRECTS = 10;

/**
 * GETs an http(s) URL (redirects followed unless `redirect` says otherwise, each checked against
 * `outbound` when given) and insists on a 2xx answer; `headers` go with it (an API key: then pass
 * redirect "error", so it never leaves the host).
 */
export async function fetchOk(url: string, ctx: Cancellable & { headers?: Record<string, string>; redirect?: RequestRedirect }): Promise<Response> {
  let at = url;
  for (let hop = 0; ; hop++) {
    // Only the web: Bun's fetch also reads file:// URLs, which would let a template copy any
    // file on the node into a server folder.
    const parsed = parseUrl(at);
    if (!/^https?:$/.test(parsed.protocol)) throw new Error(`only http and https URLs can be fetched: ${at}`);
    const addresses = await checkedAddresses(parsed, ctx.outbound);
    const init = { signal: ctx.signal, redirect: ctx.outbound && ctx.redirect !== "error" ? ("manual" as const) : (ctx.redirect ?? "follow"), headers: ctx.headers ?? {} };
    let res: Response;
    try {
      // At an address the rule approved (core/net/pinned-fetch), or as it is for a trusted source.
      res = addresses ? await fetchAtAddresses(parsed, addresses, init) : await fetch(at, init);
    } catch (e) {
      throw new Error(`could not fetch ${url}: ${why(e, ctx)}`);
    }
    const location = ctx.outbound && res.status >= 300 && res.status < 400 ? res.headers.get("location") : null;
    if (location === null) return answered(url, res);
    await res.body?.cancel();
    if (hop >= MAX_REDIRECTS) throw new Error(`could not fetch ${url}: more than ${MAX_REDIRECTS} redirects`);
    at = new URL(location, at).href;
  }
}

/**
 * The addresses to connect to for `url` under the rule, checked (null: fetched as it is, for a
 * trusted source or without a rule); refuses one the rule keeps steps away from, naming why.
 */
async function checkedAddresses(url: URL, rule: FetchRule | undefined): Promise<string[] | null> {
  if (!rule || rule.internal || rule.trusted.has(url.origin)) return null;
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  let addresses: string[];
  try {
    addresses = await allowedAddresses(url.hostname, port, "url", rule.own);
  } catch (error) {
    const reason = error instanceof KilnError ? String(error.metadata?.reason ?? "an invalid host") : (error as Error).message;
    throw new Error(`could not fetch ${url.href}: the node does not fetch from ${reason} addresses (its config's internalDownloads allows them)`);
  }
  if (addresses.length === 0) throw new Error(`could not fetch ${url.href}: its name does not resolve`);
  return addresses;
}

/** A final answer: a 2xx, else the reason. */
async function answered(url: string, res: Response): Promise<Response> {
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`could not fetch ${url}: the server answered HTTP ${res.status}`);
  }
  return res;
}

/** GETs JSON and checks its shape, so a changed upstream API fails with a clear reason. */
export async function fetchJson<S extends z.ZodMiniType>(url: string, schema: S, ctx: Cancellable): Promise<z.infer<S>> {
  const res = await fetchOk(url, ctx);
  let body: unknown;
  try {
    body = await res.json();
  } catch (e) {
    throw new Error(`${url} did not answer with JSON: ${why(e, ctx)}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`unexpected answer from ${url}: ${issue?.path.join(".") || "(root)"}: ${issue?.message}`);
  }
  return parsed.data;
}

/**
 * Streams `url` into `path` in a server's folder (through the jail, as every write there:
 * writeAtomically), creating its folder. With `sha1`, a body whose checksum differs is refused
 * and nothing is written.
 */
export async function downloadIntoJail(url: string, jail: Jail, path: string, ctx: Cancellable, sha1?: string): Promise<void> {
  // A path that climbs out by its spelling is refused before anything is fetched.
  const normal = jail.normalize(path);
  const res = await fetchOk(url, ctx);
  const parent = dirname(normal);
  if (parent !== ".") makeFolder(jail, parent);
  await writeAtomically(jail, normal, checkedBody(res, url, ctx, sha1));
}

/**
 * Streams `url` into `target`, an absolute path in the node's own folders (the shared binaries,
 * which servers cannot write), creating its folder. With `sha1`, as downloadIntoJail.
 */
export async function downloadToFile(url: string, target: string, ctx: Cancellable, sha1?: string): Promise<void> {
  const res = await fetchOk(url, ctx);
  await mkdir(dirname(target), { recursive: true });
  const temp = join(dirname(target), partialName(basename(target)));
  try {
    await pipeline(checkedBody(res, url, ctx, sha1), createWriteStream(temp, { flags: "wx" }));
    await rename(temp, target);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

/** The body's chunks; at its end, the checksum is compared, and a mismatch fails the download. */
async function* checkedBody(res: Response, url: string, ctx: Cancellable, sha1?: string): AsyncGenerator<Uint8Array> {
  const hash = createHash("sha1");
  if (res.body) {
    const reader = res.body.getReader();
    try {
      for (;;) {
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await reader.read();
        } catch (e) {
          throw new Error(`download of ${url} broke off: ${why(e, ctx)}`);
        }
        if (next.done) break;
        hash.update(next.value);
        yield next.value;
      }
    } finally {
      // A write that failed midway stops reading: the connection is let go.
      await reader.cancel().catch(() => undefined);
    }
  }
  const got = hash.digest("hex");
  if (sha1 && got !== sha1.toLowerCase()) {
    throw new Error(`checksum mismatch for ${url}: expected sha1 ${sha1.toLowerCase()}, got ${got}`);
  }
}

/** The file name a URL names: its last path segment, decoded. */
export function fileNameFromUrl(url: string): string {
  const segment = parseUrl(url).pathname.split("/").pop() ?? "";
  let name: string;
  try {
    name = decodeURIComponent(segment);
  } catch {
    throw new Error(`the file name in ${url} is not valid URL encoding`);
  }
  if (!name) throw new Error(`cannot tell a file name from ${url} (its path ends with "/")`);
  return name;
}

function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new Error(`not a valid URL: ${url}`);
  }
}

function why(e: unknown, ctx: Cancellable): string {
  if (ctx.signal?.aborted) return "cancelled";
  const error = e as Error & { cause?: unknown };
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  // Bun appends a hint for developers ("pass `verbose: true`…") that means nothing on a console.
  const message = (error.message ?? String(e)).replace(/\s*For more information, pass `verbose: true`.*$/s, "");
  return `${message}${cause}`;
}
