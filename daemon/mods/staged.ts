// Add-on files on their way in: each downloaded and checked (host, size, hash) to a hidden partial
// name beside its place, before anything in the folder changes; whatever was staged and not placed
// goes again, so a failed change leaves nothing behind.
import { unlinkSync } from "node:fs";
import type { ChangeRequest, ChangeStatus } from "../../core/mods/change";
import type { AddonKind } from "../../core/mods/types";
import type { Jail } from "../files/jail";
import { makeFolder, writeAtomically } from "../files/operations";
import { partialName } from "../files/partial-file";
import type { ModChangesDeps } from "./changes";
import { checkedDownload } from "./download";
import { existsOrLink } from "../files/exists-or-link";

/** A file downloaded to its hidden partial name, waiting to be put in place. */
export type Staged = { name: string; temp: string; sha512: string };

/** Downloads each file, checked, to a hidden partial name beside its place (`staged`, as each lands). */
export async function downloadStaged(deps: Pick<ModChangesDeps, "fileOrigins" | "installed">, jail: Jail, folder: AddonKind, add: ChangeRequest["add"], staged: Staged[], status: ChangeStatus): Promise<void> {
  makeFolder(jail, folder);
  for (const file of add) {
    const temp = partialName(file.fileName);
    await writeAtomically(jail, `${folder}/${temp}`, checkedDownload(file, deps.fileOrigins));
    const hashed = await deps.installed.hash(jail, `${folder}/${temp}`);
    staged.push({ name: file.fileName, temp, sha512: hashed?.sha512 ?? "" });
    status.downloaded += 1;
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
