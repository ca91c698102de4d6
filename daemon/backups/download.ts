// A backup as one download: `restic dump <snapshot> /` writes the server's folder as a
// tar (gzipped here as it streams) or a zip to its stdout, which is the answer's body as it
// comes, so memory stays flat whatever the size. A download cut short ends restic. When the
// snapshot holds something that must not be handed back (./handed-back), or, for a zip, a name
// a zip must write otherwise, restic's tar goes through ./dump-filter first.
//
// A download whose reader takes nothing for `stallMs` (a client that asked and stopped reading:
// restic blocks on its full pipe, and without this would wait there for good, holding one of the
// server's reader slots) is ended: restic is killed and the answer cut short. `ended` is called
// once restic has exited, however the download ended.
import { Readable } from "node:stream";
import { createGzip, constants } from "node:zlib";
import type { DownloadFormat } from "../../core/backups";
import type { Restic } from "./restic";
import type { SnapshotVerdict } from "./handed-back";
import { rewriteDump } from "./dump-filter";

/** How long a download's reader may take nothing before it is ended (a minute: longer than any pause of a browser's or a proxy's). */
export const DOWNLOAD_STALL_MS = 60_000;

export async function dumpResponse(restic: Restic, snapshotId: string, format: DownloadFormat, base: string, verdict: SnapshotVerdict, stallMs = DOWNLOAD_STALL_MS, ended: () => void = () => undefined): Promise<Response> {
  const filtered = verdict.foreign.size > 0 || verdict.denied.size > 0 || (format === "zip" && verdict.oddNames);
  const archive = format === "zip" && !filtered ? "zip" : "tar";
  const proc = restic.spawn(["dump", "--no-lock", "--archive", archive, snapshotId, "/"]);
  void proc.exited.finally(ended);
  // stderr is drained so restic never blocks on it; a failure shows as a cut-short download.
  void new Response(proc.stderr).text();
  let body = proc.stdout as ReadableStream<Uint8Array>;
  if (filtered) body = await rewriteDump(body, format === "zip" ? "zip" : "tar", (path) => verdict.foreign.has(path) || verdict.denied.has(path));
  // The fastest gzip level: game worlds are mostly compressed already, and the download should
  // run at the speed of the disk and the link, not of the compressor.
  if (format !== "zip") body = Readable.toWeb(Readable.fromWeb(body as never).pipe(createGzip({ level: constants.Z_BEST_SPEED }))) as unknown as ReadableStream<Uint8Array>;
  const reader = body.getReader();
  // Between pulls the reader holds what it was given and asks for nothing: that time is the stall.
  let pulling = false;
  let lastPull = Date.now();
  let finished = false;
  let stalled: ReturnType<typeof setInterval> | null = null;
  const stop = () => {
    finished = true;
    if (stalled) clearInterval(stalled);
    stalled = null;
  };
  void proc.exited.finally(() => {
    // restic is done: what is left is in the pipes and the filters, a bounded amount.
    if (stalled) clearInterval(stalled);
    stalled = null;
  });
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      stalled = setInterval(() => {
        if (finished || pulling || Date.now() - lastPull < stallMs) return;
        stop();
        proc.kill("SIGKILL");
        void reader.cancel().catch(() => undefined);
        controller.error(new Error("the download's reader took nothing for too long"));
      }, Math.min(1000, Math.max(50, stallMs / 4)));
    },
    async pull(controller) {
      if (finished) return;
      pulling = true;
      try {
        const { value, done } = await reader.read();
        if (finished) return;
        if (!done) return controller.enqueue(value);
        stop();
        // The archive's end is only an archive when restic finished well.
        if ((await proc.exited) === 0) controller.close();
        else controller.error(new Error("restic dump failed"));
      } catch (error) {
        // A damaged dump (or a failed rewrite) ends restic too, rather than leave it blocked on its output.
        stop();
        proc.kill("SIGTERM");
        controller.error(error);
      } finally {
        pulling = false;
        lastPull = Date.now();
      }
    },
    cancel() {
      stop();
      proc.kill("SIGTERM");
      void reader.cancel().catch(() => undefined);
    },
  });
  const name = `${base}.${format}`;
  return new Response(stream, {
    headers: { "content-type": format === "zip" ? "application/zip" : "application/gzip", "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(name)}` },
  });
}
