// Paths as an SFTP client sees them: absolute, with "/" the server's folder, as on a chroot.
// They become jail paths (relative, "" for the folder itself) before anything touches the disk;
// the jail then decides, with the kernel, whether they stay inside.
import { posix } from "node:path";
import { outside } from "../files/jail";

/**
 * The jail path for a client path. Relative paths are taken from "/" (the session's home), and
 * ".." cannot climb above "/": "/../../etc" is the server's own "etc", never the host's.
 */
export function toJailPath(clientPath: string): string {
  if (clientPath.includes("\0")) throw outside(clientPath);
  return posix.normalize(`/${clientPath}`).replace(/^\/+/, "").replace(/\/+$/, "");
}

/** What REALPATH answers: the client-side absolute path of a jail path. */
export function toClientPath(jailPath: string): string {
  return `/${jailPath}`;
}
