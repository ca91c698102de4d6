// file_exists() of step conditions, answered through the server's jail: a path is looked up
// beneath the server's folder only (openat2 RESOLVE_BENEATH), so "../x", an absolute path or a
// link leading out answers false, never a fact about the node's own files. A leading "/" means
// the server's folder, as PufferPanel joins the path to it.
import type { Jail } from "../files/jail";
import { statPath } from "../files/operations";

export function jailFileExists(jail: Jail, path: string): boolean {
  try {
    statPath(jail, path.replace(/^\/+/, ""));
    return true;
  } catch {
    return false;
  }
}
