// Each server's backup settings on the node: <data>/backups/servers/<id>.json holds its policy
// (set by an administrator), its ignore patterns (set by users with `backups`), and what each of
// its backups added and held (restic 0.14's snapshots do not record it), keyed by the snapshot's
// first id (locking gives a snapshot a new id; restic keeps the first as `original`).
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_POLICY, type BackupPolicy } from "../../core/backups";
import { writeJsonAtomically } from "../write-json";

export interface ServerBackupSettings {
  policy: BackupPolicy;
  ignore: string[];
  sizes: Record<string, { added: number; total: number }>;
  /** Each backup's note, by the same short id as its sizes. */
  notes: Record<string, string>;
  /** The definition last kept in the repository (its target and hash), so an unchanged one is not kept again. */
  definitionKept?: { target: string; hash: string };
}

export class ServerSettingsStore {
  constructor(private readonly dir: string) {}

  read(id: string): ServerBackupSettings {
    const file = this.file(id);
    const stored = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Partial<ServerBackupSettings>) : {};
    return { policy: { ...DEFAULT_POLICY, ...stored.policy }, ignore: stored.ignore ?? [], sizes: stored.sizes ?? {}, notes: stored.notes ?? {}, definitionKept: stored.definitionKept };
  }

  change(id: string, edit: (settings: ServerBackupSettings) => void): ServerBackupSettings {
    const settings = this.read(id);
    edit(settings);
    writeJsonAtomically(this.file(id), settings);
    return settings;
  }

  remove(id: string): void {
    rmSync(this.file(id), { force: true });
    rmSync(this.excludeFile(id), { force: true });
  }

  /** restic's exclude file for the server, written before each backup. */
  excludeFile(id: string): string {
    return join(this.dir, `${id}.exclude`);
  }

  private file(id: string): string {
    return join(this.dir, `${id}.json`);
  }
}
