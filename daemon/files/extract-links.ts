// The on-disk check of an unpacked archive's symbolic links, before anything is moved into place.
// Each link was judged by spelling when it was made, but a chain can escape where no single link
// looks harmful: "x -> ." and then "y -> x/.." spells "." yet leads to the staging folder's
// parent. So every link is followed as the OS would follow it, and must land inside the staging
// folder (which becomes the destination, so what is inside here stays inside there).
import { readlinkSync, realpathSync } from "node:fs";
import { sep } from "node:path";
import type { Jail } from "./jail";
import { readFolder } from "./listing";
import { outside } from "./jail";
import { realExisting } from "./real-existing";

/** Throws ErrPathOutside for the first link under `staging` (jail-relative) that leads out of it. */
export function checkLinksOnDisk(jail: Jail, staging: string): void {
  jail.inFolder(staging, (folder) => {
    const root = realpathSync.native(folder);
    const escaping = firstEscaping(jail, staging, "", folder, root);
    if (escaping) throw outside(escaping);
  });
}

function firstEscaping(jail: Jail, staging: string, relative: string, folder: string, root: string): string | undefined {
  for (const { name, stats } of readFolder(jail, relative ? `${staging}/${relative}` : staging)) {
    const path = relative ? `${relative}/${name}` : name;
    if (stats.isSymbolicLink()) {
      const text = jail.at(`${staging}/${path}`, (entry) => readlinkSync(entry));
      // Not path.join: it would fold "x/.." by spelling rather than by where x really leads.
      const target = realExisting(text.startsWith("/") ? text : `${folder}/${relative ? `${relative}/` : ""}${text}`);
      if (target !== root && !target.startsWith(root + sep)) return `${path} -> ${text}`;
    } else if (stats.isDirectory()) {
      const found = firstEscaping(jail, staging, path, folder, root);
      if (found) return found;
    }
  }
  return undefined;
}
