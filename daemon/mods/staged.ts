// Add-on files on their way in: each downloaded and checked (host, size, hash) to a hidden partial
// name beside its place, before anything in the folder changes; whatever was staged and not placed
// goes again, so a failed change leaves nothing behind.
import { createHash, type Hash } from "node:crypto";
import { unlinkSync } from "node:fs";
import type { ChangeRequest, ChangeStatus } from "../../core/mods/change";
import type { AddonKind, AddonOrigin } from "../../core/mods/types";
import type { Jail } from "../files/jail";
import { makeFolder, writeAtomically } from "../files/operations";
import { partialName } from "../files/partial-file";
import type { ModChangesDeps } from "./changes";
import { checkedDownload } from "./download";
import { existsOrLink } from "../files/exists-or-link";

/** A file downloaded to its hidden partial name, waiting to be put in place, with what the plan said it is. */
export type Staged = { name: string; temp: string; sha512: string; origin?: AddonOrigin };

/**
 * Downloads each file, checked, to a hidden partial name beside its place (`staged`, as each lands),
 * with the SHA-512 of the bytes checked as they came, never of the file read back: the folder is
 * its users', who may write into the file while it downloads, and what the node remembers of a
 * file (its origin, the undo's "as the change placed it") must name only the bytes it checked.
 */
export async function downloadStaged(deps: Pick<ModChangesDeps, "fileOrigins">, jail: Jail, folder: AddonKind, add: ChangeRequest["add"], staged: Staged[], status: ChangeStatus): Promise<void> {
  makeFolder(jail, folder);
  for (const file of add) {
    const temp = partialName(file.fileName);
    const sha512 = createHash("sha512");
    await writeAtomically(jail, `${folder}/${temp}`, hashedAsTheyCome(checkedDownload(file, deps.fileOrigins), sha512));
    staged.push({ name: file.fileName, temp, sha512: sha512.digest("hex"), ...(file.origin ? { origin: file.origin } : {}) });
    status.downloaded += 1;
  }
}

async function* hashedAsTheyCome(chunks: AsyncIterable<Uint8Array>, hash: Hash): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    hash.update(chunk);
    yield chunk;
  }
}

/** Whatever was staged and not placed goes. */
export function dropStaged(jail: Jail, folder: AddonKind, staged: Staged[]): void {
  for (const { temp } of staged) {
    try {
      jail.inFolder(folder, (path) => existsOrLink(`${path}/${temp}`) && unlinkSync(`${path}/${temp}`));
    } catch {
      // already placed or gone
    }
  }
}

/**
 * After the staged files are in place: remembers where each came from (daemon/mods/addon-origins),
 * the record kept to the folder's files. A failure to write it is logged: the change is made.
 */
export async function rememberOrigins(deps: Pick<ModChangesDeps, "installed" | "origins" | "log">, serverId: string, jail: Jail, folder: AddonKind, staged: Staged[]): Promise<void> {
  const placed = staged.flatMap((s) => (s.origin && s.sha512 ? [{ sha512: s.sha512, origin: s.origin }] : []));
  if (placed.length === 0) return;
  try {
    const present = new Set((await deps.installed.list(jail, folder)).files.map((f) => f.sha512));
    deps.origins.record(serverId, placed, present);
  } catch (error) {
    deps.log(`kiln daemon: remembering where ${serverId}'s new add-on files came from failed: ${(error as Error).message}`);
  }
}
