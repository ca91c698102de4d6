// yauzl's entries one at a time as a promise (its lazyEntries mode): the next entry, or null at the
// end; an error is handed to `wrap` first (a reader may name the archive in it).
import type { Entry, ZipFile } from "yauzl";

export function nextZipEntry(zip: ZipFile, wrap: (error: Error) => Error = (error) => error): Promise<Entry | null> {
  return new Promise((resolve, reject) => {
    const done = (fn: () => void) => {
      zip.off("entry", onEntry).off("end", onEnd).off("error", onError);
      fn();
    };
    const onEntry = (entry: Entry) => done(() => resolve(entry));
    const onEnd = () => done(() => resolve(null));
    const onError = (error: Error) => done(() => reject(wrap(error)));
    zip.on("entry", onEntry).on("end", onEnd).on("error", onError);
    zip.readEntry();
  });
}
