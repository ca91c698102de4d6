// What node:fs is given for a path of the jail's (see core/files/raw-name): node:fs writes a
// string as UTF-8, so a name that stands for bytes that are not UTF-8 goes as those bytes. Every
// path the jail hands out passes here; `/proc/self/fd/N/` prefixes are ASCII and unchanged.
import { bytesFromName, hasRawBytes } from "../../core/files/raw-name";

/** A path node:fs takes: the string itself, or its bytes when it holds raw-byte escapes. */
export type FsPath = string | Buffer;

export function fsPath(path: string): FsPath {
  return hasRawBytes(path) ? Buffer.from(bytesFromName(path)) : path;
}

/** The folder part of an entry `Jail.at` handed out (`/proc/self/fd/N`, ASCII), its name dropped. */
export function heldFolder(entry: FsPath): string {
  const text = typeof entry === "string" ? entry : entry.toString("latin1"); // one character a byte: the prefix as it is
  return text.slice(0, text.lastIndexOf("/"));
}
