// Every entry of a snapshot as restic recorded it (`restic find --json`): its path, type, owner
// and number of names, which a download or a restore judges before handing anything back
// (./handed-back). restic prints one JSON document for the whole snapshot; it is read as it comes,
// one entry at a time, so a snapshot of a million files costs no more memory than one.
import type { Restic } from "./restic";

export interface SnapshotFile {
  /** Relative to the server's folder, "/"-separated, no leading "/". */
  path: string;
  type: string;
  uid: number;
  /** How many names the file had when it was backed up (restic's `links`). */
  links: number;
}

/** The entries of `snapshotId`, in restic's order. */
export async function* snapshotFiles(restic: Restic, snapshotId: string): AsyncGenerator<SnapshotFile> {
  const proc = restic.spawn(["find", "--no-lock", "--json", "--snapshot", snapshotId, "*"]);
  const stderr = new Response(proc.stderr).text();
  let finished = false;
  try {
    // [ {"matches": [ {entry}, … ], …} ]: the entries are the objects four levels down.
    for await (const raw of jsonObjectsAt(proc.stdout as ReadableStream<Uint8Array>, 4)) {
      const entry = raw as { path?: unknown; type?: unknown; uid?: unknown; links?: unknown };
      if (typeof entry.path !== "string") continue;
      yield { path: entry.path.replace(/^\/+/, ""), type: String(entry.type ?? ""), uid: Number(entry.uid ?? -1), links: Number(entry.links ?? 1) };
    }
    finished = true;
  } finally {
    if (!finished) proc.kill("SIGTERM");
  }
  const code = await proc.exited;
  if (code !== 0) restic.failed("find", code, await stderr);
}

/**
 * The JSON objects that open at nesting `depth` (arrays and objects both count) in a stream of
 * one JSON document, each parsed on its own as soon as it closes.
 */
export async function* jsonObjectsAt(stream: ReadableStream<Uint8Array>, depth: number): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  let level = 0;
  let inString = false;
  let escaped = false;
  let capturing = false;
  let pending = "";
  for await (const chunk of stream) {
    const text = decoder.decode(chunk, { stream: true });
    let start = capturing ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) {
        level++;
        if (level === depth && c === 0x7b) {
          capturing = true;
          start = i;
        }
      } else if (c === 0x7d || c === 0x5d) {
        if (level === depth && capturing) {
          const whole = pending + text.slice(start, i + 1);
          pending = "";
          capturing = false;
          start = -1;
          yield JSON.parse(whole);
        }
        level--;
      }
    }
    if (capturing) pending += text.slice(start);
  }
}
