// What is in a server's mods/ or plugins/ folder: each .jar (and .jar.disabled) file, whatever its
// name (core/mods/change isInstalledFileName: the wire form of its bytes), with its size
// and SHA-1, SHA-256, SHA-512 and CurseForge fingerprint, by which sources recognise a file whatever its name (one uploaded by hand
// too). The folder is the server's users' to fill: only regular files directly in it count (a
// symlink, a folder or a FIFO is skipped, never followed), at most MAX_LISTED of them, and hashes
// are kept per file so a listing of a full folder reads each file once, not on every look: while
// its inode, size and change time are unchanged (the same bytes). Not the modification time
// alone: the users set that at will, and other bytes of the same size would keep a known file's name.
import { createHash } from "node:crypto";
import { closeSync, lstatSync, read, readdirSync } from "node:fs";
import { promisify } from "node:util";
import type { AddonKind, InstalledFile } from "../../core/mods/types";
import { isInstalledFileName } from "../../core/mods/change";
import { nameFromBytes } from "../../core/files/raw-name";
import { fsPath } from "../files/fs-path";
import type { Jail } from "../files/jail";
import { openRegularFile } from "../files/open-regular";
import { Fingerprint, strippedLength } from "../../core/mods/fingerprint";

/** More files than any modpack holds; beyond, the listing stops (and says so). */
export const MAX_LISTED = 2000;
const DISABLED = ".disabled";
const CHUNK = 1024 * 1024;
const readAsync = promisify(read);

interface Hashed {
  size: number;
  /** Any write or rename of the file, or a change of its times, sets its change time to now; no user sets it back. */
  ctimeMs: number;
  ino: number;
  sha1: string;
  sha512: string;
  sha256: string;
  /** CurseForge's (core/mods/fingerprint). */
  fingerprint: number;
}

export interface Listing {
  files: InstalledFile[];
  /** More files were there than MAX_LISTED. */
  truncated: boolean;
}

export class InstalledFiles {
  /** By "<server folder>\0<name>". */
  private readonly hashes = new Map<string, Hashed>();

  async list(jail: Jail, folder: AddonKind): Promise<Listing> {
    let names: string[];
    try {
      // By the names' bytes: the game loads a .jar whatever its name, so none may be missing here.
      names = jail.inFolder(folder, (path) => readdirSync(path, { encoding: "buffer" }).map(nameFromBytes));
    } catch {
      return { files: [], truncated: false };
    }
    const files: InstalledFile[] = [];
    let truncated = false;
    for (const name of names.sort()) {
      const enabled = !name.endsWith(DISABLED);
      const plain = enabled ? name : name.slice(0, -DISABLED.length);
      if (!isInstalledFileName(plain)) continue;
      if (files.length >= MAX_LISTED) {
        truncated = true;
        break;
      }
      const hashed = await this.hash(jail, `${folder}/${name}`);
      if (hashed) files.push({ fileName: plain, size: hashed.size, sha1: hashed.sha1, sha512: hashed.sha512, sha256: hashed.sha256, fingerprint: hashed.fingerprint, enabled });
    }
    return { files, truncated };
  }

  /**
   * The file's hashes, from the cache when its size and time are unchanged; null when it is not a
   * regular file. Read in chunks with the event loop free between them (a node serves consoles meanwhile).
   * `remember` false: read once and not kept, for a file under a name that is never seen again (a
   * modpack's staged files, under a staging folder's random name): kept, every plan of a pack
   * would leave all its files' hashes in the node's memory for as long as the server exists.
   */
  async hash(jail: Jail, path: string, remember = true): Promise<Hashed | null> {
    // As every read of the folder: beneath it, no link followed, no FIFO, no hard link (it may be a host file).
    let opened: ReturnType<typeof openRegularFile>;
    try {
      opened = openRegularFile(jail, path);
    } catch {
      return null;
    }
    const { fd, stats } = opened;
    try {
      const key = `${jail.root}\0${path}`;
      const known = remember ? this.hashes.get(key) : undefined;
      if (known && known.size === stats.size && known.ctimeMs === stats.ctimeMs && known.ino === stats.ino) return known;
      const sha1 = createHash("sha1");
      const sha512 = createHash("sha512");
      const sha256 = createHash("sha256");
      const buffer = Buffer.allocUnsafe(CHUNK);
      let stripped = 0;
      for (;;) {
        const { bytesRead } = await readAsync(fd, buffer, 0, CHUNK, null);
        if (bytesRead === 0) break;
        sha1.update(buffer.subarray(0, bytesRead));
        sha512.update(buffer.subarray(0, bytesRead));
        sha256.update(buffer.subarray(0, bytesRead));
        stripped += strippedLength(buffer.subarray(0, bytesRead));
      }
      // CurseForge's fingerprint needs the stripped length before its first byte: a second pass.
      const fingerprint = new Fingerprint(stripped);
      for (let at = 0; ; ) {
        const { bytesRead } = await readAsync(fd, buffer, 0, CHUNK, at);
        if (bytesRead === 0) break;
        fingerprint.update(buffer.subarray(0, bytesRead));
        at += bytesRead;
      }
      const hashed = { size: stats.size, ctimeMs: stats.ctimeMs, ino: stats.ino, sha1: sha1.digest("hex"), sha512: sha512.digest("hex"), sha256: sha256.digest("hex"), fingerprint: fingerprint.digest() };
      if (remember) this.hashes.set(key, hashed);
      return hashed;
    } finally {
      closeSync(fd);
    }
  }

  /** Forgets a server folder's hashes (the server was removed). */
  forget(root: string): void {
    for (const key of this.hashes.keys()) if (key.startsWith(`${root}\0`)) this.hashes.delete(key);
  }
}

/** Whether `name` is in the folder as a regular file, enabled or disabled: its name on disk, or null. */
export function nameOnDisk(jail: Jail, folder: AddonKind, fileName: string): string | null {
  for (const name of [fileName, `${fileName}${DISABLED}`]) {
    try {
      if (jail.inFolder(folder, (path) => lstatSync(fsPath(`${path}/${name}`)).isFile())) return name;
    } catch {
      // not there
    }
  }
  return null;
}

export const disabledName = (fileName: string) => `${fileName}${DISABLED}`;
