// Emptying a folder the jail opened, by the names' raw bytes. A Linux name is any bytes but "/" and
// NUL; one that is not valid UTF-8 decodes to U+FFFD, a name no path can reach again, so a delete
// that went by decoded names stopped half way (what came before it removed, the rest left). Here
// each name is used as the bytes readdir gave, below the descriptor of its folder: a folder is
// opened without following a link (a folder swapped for a link meanwhile is not walked into, and
// the link itself is what gets removed), so nothing outside the folder is reached.
import { closeSync, lstatSync, openSync, readdirSync, rmdirSync, unlinkSync } from "node:fs";
import { O_DIRECTORY, O_NOFOLLOW, O_PATH } from "./openat2";

/** Removes everything inside the folder `held` names (a /proc/self/fd path from the jail), the folder itself kept. */
export function removeContents(held: string): void {
  for (const name of readdirSync(held, { encoding: "buffer" })) {
    const entry = Buffer.concat([Buffer.from(`${held}/`), name]);
    let folder: boolean;
    try {
      folder = lstatSync(entry).isDirectory();
    } catch {
      continue; // gone meanwhile
    }
    if (!folder) {
      unlinkSync(entry);
      continue;
    }
    const fd = openSync(entry, O_PATH | O_DIRECTORY | O_NOFOLLOW);
    try {
      removeContents(`/proc/self/fd/${fd}`);
    } finally {
      closeSync(fd);
    }
    rmdirSync(entry);
  }
}
