// Downloading several files and folders at once (the file manager's bulk download): a zip made
// while it is sent, never written to the server's folder (so it costs no disk space and needs no
// putServerFiles). Entries are named relative to the folder the chosen items share, so unpacking
// gives the tree as the user sees it.
import { Readable } from "node:stream";
import { posix } from "node:path";
import { ROOT_ARCHIVE_BASE } from "../../core/files/archive-name";
import { shownName } from "../../core/files/shown-name";
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";
import { collectSources } from "./archive-sources";
import { zipEntries } from "./zip-entries";
import type { ExtractLimits } from "./extract-limits";

/** ErrArchiveTooLarge (before the answer starts) for a selection of more entries than `limits` lets a zip hold. */
export async function zipDownload(jail: Jail, sources: string[], skip?: (path: string) => boolean, limits?: ExtractLimits): Promise<Response> {
  if (!sources.length) throw new KilnError("ErrFieldRequired", { field: "path" }, "a list of paths to download is required");
  const paths = sources.map((source) => jail.normalize(source));
  if (paths.includes("")) throw new KilnError("ErrFieldRequired", { field: "path" }, "name the files and folders to download");
  const folder = sharedFolder(paths);
  const entries = await collectSources(jail, folder, paths, skip, limits);
  // Saved under its shown name, as a single file is (core/files/shown-name): a folder the server's
  // process named "photos\u202Egpj.scr" would otherwise show in a download bar as "photospiz.rcs.jpg".
  const base = shownName(paths.length === 1 ? posix.basename(paths[0]!) : posix.basename(folder) || ROOT_ARCHIVE_BASE);
  const { output, stop } = zipEntries(jail, entries);
  // Through a stream of our own so a download cut short (cancel) closes the file being read.
  const reader = (Readable.toWeb(output) as unknown as ReadableStream<Uint8Array>).getReader();
  return new Response(
    new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { value, done } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          controller.error(error);
        }
      },
      cancel: stop,
    }),
    { headers: { "content-type": "application/zip", "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(`${base}.zip`)}` } },
  );
}

/** The deepest folder holding every path ("" for the server's folder). */
function sharedFolder(paths: string[]): string {
  const parents = paths.map((path) => (posix.dirname(path) === "." ? [] : posix.dirname(path).split("/")));
  const shared: string[] = [];
  for (let i = 0; ; i++) {
    const part = parents[0]![i];
    if (part === undefined || parents.some((p) => p[i] !== part)) return shared.join("/");
    shared.push(part);
  }
}
