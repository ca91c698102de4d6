// Rebuilding a node's servers from a backup target: a node lost with its disk, set up
// again with the target and its repository password. Every server whose definition the
// repository keeps (tagged kiln-definition=<id>, see BackupService.keepDefinition) and this node
// does not have is made again from it, and its newest backup restored; the server keeps its id,
// so the panel's row for it matches again. Only servers the panel names (its rows on this node)
// are made; servers the node has are left as they are; one whose kept definition cannot be read
// is logged and left out.
import { DEFINITION_TAG, SERVER_TAG, type RecoveryOutcome } from "../../core/backups";
import { checkDefinitionValues } from "../../core/definition";
import { parseDefinition, SERVER_ID } from "../servers/store";
import type { ServerManager } from "../servers/manager";
import { publicReason } from "../http/errors";
import type { Restic } from "./restic";
import type { ServerSettingsStore } from "./server-settings";
import { ownerOf, type Snapshot } from "./snapshot-entries";
import { message } from "../../core/live/daemon-message";


export interface RecoveryDeps {
  restic: Restic;
  /** The servers the panel knows on this node: only these are made again. */
  known: ReadonlySet<string>;
  /** The target's id, which the recovered servers' policies name. */
  target: string;
  manager: ServerManager;
  settings: ServerSettingsStore;
  /** A whole restore of the server's folder, to its end. */
  restore(id: string, snapshotId: string): Promise<void>;
  log(line: string): void;
}

export async function recoverServers({ restic, known, target, manager, settings, restore, log }: RecoveryDeps): Promise<RecoveryOutcome> {
  const all = (await restic.json<Snapshot[] | null>(["snapshots", "--no-lock"])) ?? [];
  const serverOf = (s: Snapshot, tag: string) => s.tags?.find((t) => t.startsWith(tag))?.slice(tag.length);
  const newest = (tag: string, id: string) => all.filter((s) => serverOf(s, tag) === id).sort((a, b) => b.time.localeCompare(a.time))[0];
  const ids = [...new Set(all.map((s) => serverOf(s, DEFINITION_TAG)).filter((id): id is string => id !== undefined && SERVER_ID.test(id)))];
  const outcome: RecoveryOutcome = { recovered: [], skipped: [], failed: [], unknown: [] };
  for (const id of ids) {
    if (!known.has(id)) {
      // A definition the panel does not know would run a server nobody sees: it stays in the repository.
      log(`kiln daemon: server ${id} was not recovered: the panel knows no such server on this node`);
      outcome.unknown.push(id);
      continue;
    }
    if (manager.store.exists(id)) {
      outcome.skipped.push(id);
      continue;
    }
    let definition;
    try {
      definition = parseDefinition(JSON.parse(await restic.run(["dump", "--no-lock", newest(DEFINITION_TAG, id)!.id, `/${id}.json`])));
      checkDefinitionValues(definition);
    } catch (error) {
      log(`kiln daemon: server ${id} was not recovered: its kept definition cannot be read: ${publicReason(error)}`);
      outcome.failed.push(id);
      continue;
    }
    manager.create(id, definition);
    settings.change(id, (s) => void (s.policy = { ...s.policy, target }));
    // The newest backup whose owner is known: one made before the node recorded it hands nothing
    // back until an administrator adopts it (BackupService.adopt), and the server is made anyway.
    const data = all.filter((s) => serverOf(s, SERVER_TAG) === id && ownerOf(s) !== null).sort((a, b) => b.time.localeCompare(a.time))[0];
    if (data) await restore(id, data.id);
    manager.get(id).console.daemon(message("daemon.backup.recovered", { target }));
    outcome.recovered.push(id);
  }
  return outcome;
}
