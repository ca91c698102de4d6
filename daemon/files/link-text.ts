// A symbolic link's text as the jail spells paths (core/files/raw-name): node:fs decodes a link's
// bytes as UTF-8 unless asked for a Buffer, and a target that is not UTF-8 came back with U+FFFD,
// naming another file (a move to another node made the link point elsewhere).
import { readlinkSync } from "node:fs";
import { nameFromBytes } from "../../core/files/raw-name";
import type { FsPath } from "./fs-path";

/** The link's text, in wire form: its exact bytes when written back through fsPath. */
export function readLinkText(entry: FsPath): string {
  return nameFromBytes(readlinkSync(entry, { encoding: "buffer" }));
}
