// Reading and replacing the small files of a Minecraft server's folder that player management
// edits while the server is stopped (the four lists, usercache.json, server.properties). Every
// read goes through the jail as a regular file of one link (a link out of the folder, a FIFO or a
// hard link is refused), capped in size; every write replaces the whole file atomically
// (daemon/files writeAtomically), so the game never reads half a file.
import { closeSync, readSync } from "node:fs";
import { KilnError } from "../../core/errors";
import type { Jail } from "../files/jail";
import { openRegularFile } from "../files/open-regular";
import { writeAtomically } from "../files/operations";
import { countListEntries, nestsDeeperThan } from "./count-entries";

/** Far above any real list (a ban list of 10,000 players is about 2 MB), far below the daemon's memory. */
export const MAX_PLAYER_FILE_BYTES = 4 * 1024 * 1024;
/**
 * The most entries a list file may hold: a real entry is 60 bytes or more (a whitelist's UUID and
 * name), so no list of real entries under MAX_PLAYER_FILE_BYTES comes near it, while 4 MiB of
 * tiny ones would be 300,000 objects to build. More is ErrPlayerListTooLong, the file left as it is.
 */
export const MAX_PLAYER_LIST_ENTRIES = 100_000;
/** How deep a list file's values may nest (the list, its entries, a few levels within): far above Minecraft's three. */
export const MAX_PLAYER_LIST_DEPTH = 32;

/** The file's text, or null when there is none. */
export function readSmallFile(jail: Jail, path: string): string | null {
  let opened;
  try {
    opened = openRegularFile(jail, path);
  } catch (error) {
    if (!(error instanceof KilnError) || error.code !== "ErrNotFound") throw error;
    // openRegularFile says ErrNotFound for a folder or a FIFO too: only a missing file is "none".
    if (/not a file/.test(error.message)) throw new KilnError("ErrPlayerFileInvalid", { file: path });
    return null;
  }
  const { fd, stats } = opened;
  try {
    if (stats.size > MAX_PLAYER_FILE_BYTES) throw new KilnError("ErrPlayerFileInvalid", { file: path });
    const buffer = Buffer.alloc(stats.size);
    let read = 0;
    while (read < stats.size) {
      const n = readSync(fd, buffer, read, stats.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** A JSON list of objects (Minecraft's list files) of at most MAX_PLAYER_LIST_ENTRIES; [] when the file is missing or empty. */
export function readJsonList(jail: Jail, path: string): Record<string, unknown>[] {
  const text = readSmallFile(jail, path);
  if (text === null || text.trim() === "") return [];
  // Counted before parsing: the refusal costs one pass over the text, not an object per entry.
  if (countListEntries(text, MAX_PLAYER_LIST_ENTRIES) > MAX_PLAYER_LIST_ENTRIES) throw new KilnError("ErrPlayerListTooLong", { file: path, max: MAX_PLAYER_LIST_ENTRIES });
  if (nestsDeeperThan(text, MAX_PLAYER_LIST_DEPTH)) throw new KilnError("ErrPlayerFileInvalid", { file: path });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new KilnError("ErrPlayerFileInvalid", { file: path });
  }
  if (!Array.isArray(parsed) || !parsed.every((entry) => entry !== null && typeof entry === "object" && !Array.isArray(entry))) throw new KilnError("ErrPlayerFileInvalid", { file: path });
  return parsed as Record<string, unknown>[];
}

/** Replaces the file whole: indented as Minecraft writes it. */
export async function writeText(jail: Jail, path: string, text: string): Promise<void> {
  await writeAtomically(jail, path, [new TextEncoder().encode(text)]);
}

export async function writeJsonList(jail: Jail, path: string, entries: readonly Record<string, unknown>[]): Promise<void> {
  await writeText(jail, path, `${JSON.stringify(entries, null, 2)}\n`);
}
