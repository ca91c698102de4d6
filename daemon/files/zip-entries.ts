// A zip of listed entries (./archive-sources) as a stream, for an archive written into the folder
// (./archive-create) and for a download of several files at once (./archive-download). File
// contents are read from descriptors the jail opened (openRegularFile: no hard links, no FIFOs),
// one file at a time, only when the zip reaches them.
import { createReadStream, type ReadStream } from "node:fs";
import type { Readable } from "node:stream";
import type { ZipFile as YazlZipFile } from "yazl";
import type { Jail } from "./jail";
import { openRegularFile } from "./open-regular";
import type { SourceEntry } from "./archive-sources";
import { zipEntryName } from "../../core/files/zip-name";
import { textFromName } from "../../core/files/raw-name";

export interface ZipOutput {
  output: Readable;
  /** Stops reading (the consumer failed or went away): closes the file being read. */
  stop(): void;
}

export function zipEntries(jail: Jail, entries: SourceEntry[]): ZipOutput {
  // yazl is required with the first zip made, not loaded with the node, so a node that never
  // makes a zip starts faster and holds less memory.
  const { ZipFile } = require("yazl") as { ZipFile: typeof YazlZipFile };
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  let reading: ReadStream | undefined;
  zip.on("error", (error: Error) => {
    reading?.destroy();
    output.destroy(error);
  });
  for (const entry of entries) {
    const options = { mtime: entry.stats.mtime, mode: entry.stats.mode };
    // A backslash in a name would climb on Windows' side (core/files/zip-name). The name's text, not
    // its wire form: "x\uEF80" (the bytes EE BE 80) is three escapes on the wire and one character
    // in the zip. Only a chosen source's own name can still hold a raw byte (a walk refuses one
    // beneath it: ./folder-reader), and keeps its escape as before.
    const name = zipEntryName(textFromName(entry.name, (byte) => String.fromCharCode(0xef00 + byte)));
    if (entry.stats.isDirectory()) {
      zip.addEmptyDirectory(name, options);
      continue;
    }
    zip.addReadStreamLazy(name, options, (done) => {
      let stream: ReadStream;
      try {
        stream = createReadStream("", { fd: openRegularFile(jail, entry.path).fd, start: 0 });
      } catch (error) {
        return done(error, undefined as never);
      }
      reading = stream;
      stream.on("error", (error) => zip.emit("error", error));
      done(null, stream);
    });
  }
  zip.end();
  return {
    output,
    stop() {
      reading?.destroy();
      output.destroy();
    },
  };
}
