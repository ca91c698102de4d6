// Each server's own unprivileged user, when the node runs as root: a uid (and a gid of the same
// number) from the configured range. The owner of the server's folder is the record of which uid
// a server has, so nothing else needs storing and a restarted node finds the same uids again.
import { chmodSync, chownSync, statSync } from "node:fs";
import { handOverFolder } from "../files/hand-over";
import { Jail } from "../files/jail";

export interface ServerUser {
  uid: number;
  gid: number;
}

/** The node's own uid: files it made are the ones it hands over to a server. */
const nodeUid = () => process.getuid?.() ?? 0;

export class ServerUsers {
  /** uid → the folder that owns it. */
  private readonly taken = new Map<number, string>();
  readonly enabled = nodeUid() === 0;

  constructor(private readonly range: [number, number]) {}

  /** Notes the uids the folders already carry, so none of them is handed out to another server. */
  reserve(folders: string[]): void {
    for (const folder of folders) {
      const uid = ownerOf(folder);
      if (uid !== null && this.inRange(uid) && !this.taken.has(uid)) this.taken.set(uid, folder);
    }
  }

  /**
   * The user of the server whose folder this is: the folder's owner when it is in the range and
   * nobody else's, else the next free uid, and the folder (with what the node wrote in it) handed
   * over. Null when the node is not root: its servers run as the node's user.
   */
  claim(folder: string): ServerUser | null {
    if (!this.enabled) return null;
    const owner = ownerOf(folder);
    if (owner !== null && this.inRange(owner) && (this.taken.get(owner) ?? folder) === folder) {
      this.taken.set(owner, folder);
      return { uid: owner, gid: owner };
    }
    const uid = this.nextFree();
    this.taken.set(uid, folder);
    const user = { uid, gid: uid };
    // Only the folder itself here: its contents may date from before isolation, when the server
    // ran as root and could plant a hard link to any host file, so the server hands them over by
    // the jail's walk (handOverTree) before its first start.
    chownSync(folder, uid, uid);
    // Other servers' users must not look in; the node (root) and this server's user may.
    chmodSync(folder, 0o700);
    return user;
  }

  release(user: ServerUser | null): void {
    if (user) this.taken.delete(user.uid);
  }

  private inRange(uid: number): boolean {
    return uid >= this.range[0] && uid <= this.range[1];
  }

  private nextFree(): number {
    for (let uid = this.range[0]; uid <= this.range[1]; uid++) if (!this.taken.has(uid)) return uid;
    throw new Error(`every uid of the range ${this.range[0]}-${this.range[1]} is taken by a server`);
  }
}

function ownerOf(folder: string): number | null {
  try {
    return statSync(folder).uid;
  } catch {
    return null;
  }
}

/**
 * Gives the server's user what the node made under `path` (downloads, unpacked archives, files
 * written by steps): entries owned by the node change owner, anything else is left as it is.
 * Walked through the server's jail (daemon/files/hand-over.ts) rather than by `chown -R`, which
 * would also hand over a hard link the game planted to a file of the node's outside the folder.
 */
export function handOverTree(path: string, user: ServerUser | null): Promise<void> {
  return handOverFolder(new Jail(path), user);
}
