// A backup as one download (issue 20): `restic dump <snapshot> /` writes the server's folder as a
// tar (gzipped here as it streams) or a zip to its stdout, which is the answer's body as it
// comes, so memory stays flat whatever the size. A download cut short ends restic.
import { Readable } from "node:stream";
import { createGzip, constants } from "node:zlib";
import type { DownloadFormat } from "../../core/backups";
import type { Restic } from "./restic";

export function dumpResponse(restic: Restic, snapshotId: string, format: DownloadFormat, base: string): Response {
  const proc = restic.spawn(["dump", "--no-lock", "--archive", format === "zip" ? "zip" : "tar", snapshotId, "/"]);
  // stderr is drained so restic never blocks on it; a failure shows as a cut-short download.
  void new Response(proc.stderr).text();
  const raw = proc.stdout as ReadableStream<Uint8Array>;
  // The fastest gzip level: game worlds are mostly compressed already, and the download should
  // run at the speed of the disk and the link, not of the compressor.
  const body = format === "zip" ? raw : (Readable.toWeb(Readable.fromWeb(raw as never).pipe(createGzip({ level: constants.Z_BEST_SPEED }))) as unknown as ReadableStream<Uint8Array>);
  const reader = body.getReader();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (!done) return controller.enqueue(value);
        // The archive's end is only an archive when restic finished well.
        if ((await proc.exited) === 0) controller.close();
        else controller.error(new Error("restic dump failed"));
      } catch (error) {
        controller.error(error);
      }
    },
    cancel() {
      proc.kill("SIGTERM");
      void reader.cancel().catch(() => undefined);
    },
  });
  const name = `${base}.${format}`;
  return new Response(stream, {
    headers: { "content-type": format === "zip" ? "application/zip" : "application/gzip", "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(name)}` },
  });
}
