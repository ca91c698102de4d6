// Where each add-on file the node placed came from (<dataDir>/mod-origins/<server>.json, outside the
// server's folder), by the file's SHA-512: the source, project and version the panel's plan named.
// A source with no lookup by hash (Spiget) knows its files again only this way; the others are
// asked by hash as ever. Written after a change places its files; an entry whose file is no longer
// in the folder goes at the next write, so the record never outgrows the folder; dropped with the
// server. A file uploaded by hand with the same bytes is the same file, and is named the same.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AddonOrigin } from "../../core/mods/types";

export class AddonOrigins {
  constructor(private readonly root: string) {
    mkdirSync(root, { recursive: true, mode: 0o700 });
  }

  /** The server's record, by SHA-512 (empty when there is none or it cannot be read). */
  get(serverId: string): Record<string, AddonOrigin> {
    try {
      return JSON.parse(readFileSync(this.file(serverId), "utf8")) as Record<string, AddonOrigin>;
    } catch {
      return {};
    }
  }

  /** Adds `placed` (SHA-512 and origin) and keeps only the entries whose SHA-512 is in `present` (the folder's files now). */
  record(serverId: string, placed: { sha512: string; origin: AddonOrigin }[], present: ReadonlySet<string>): void {
    const next = Object.fromEntries(Object.entries(this.get(serverId)).filter(([sha512]) => present.has(sha512)));
    for (const { sha512, origin } of placed) if (present.has(sha512)) next[sha512] = origin;
    const temp = `${this.file(serverId)}.next`;
    writeFileSync(temp, JSON.stringify(next), { mode: 0o600 });
    renameSync(temp, this.file(serverId));
  }

  forget(serverId: string): void {
    rmSync(this.file(serverId), { force: true });
  }

  private file(serverId: string): string {
    return join(this.root, `${serverId}.json`);
  }
}
