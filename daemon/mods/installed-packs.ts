// The modpack each server has, as the node placed it (<dataDir>/mod-packs/<server>.json, outside the
// server's folder): what an update compares the new version with. Written when a pack is placed,
// put back by the undo of that change, dropped with the server.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { InstalledPack } from "../../core/mods/pack";

export class InstalledPacks {
  constructor(private readonly root: string) {
    mkdirSync(root, { recursive: true, mode: 0o700 });
  }

  get(serverId: string): InstalledPack | null {
    try {
      return JSON.parse(readFileSync(this.file(serverId), "utf8")) as InstalledPack;
    } catch {
      return null;
    }
  }

  /** Writes (through a temporary file) or, for null, removes the server's record. */
  set(serverId: string, pack: InstalledPack | null): void {
    if (!pack) return void rmSync(this.file(serverId), { force: true });
    const temp = `${this.file(serverId)}.next`;
    writeFileSync(temp, JSON.stringify(pack), { mode: 0o600 });
    renameSync(temp, this.file(serverId));
  }

  private file(serverId: string): string {
    return join(this.root, `${serverId}.json`);
  }
}
