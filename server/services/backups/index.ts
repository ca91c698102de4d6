// The panel's calls to a node about backups, for the pages and their plain forms (the
// API reaches the same node routes through the proxy). A refusal is the node's catalogue error.
import type { BackupFolder, BackupList, BackupPolicy, RecoveryOutcome, TargetView } from "../../../core/backups";
import { and, eq } from "drizzle-orm";
import { KilnError } from "../../../core/errors";
import { SCOPES } from "../../../core/scopes";
import { BY_USER_PREFIX } from "../../../core/activity/property-values";
import { schema } from "../../../db";
import { callOperation, jsonInit, type OperationInit } from "../../daemon-client";
import { OWNERS_CALL_HEADER, type NodeOperationName, type OperationParams } from "../../../core/contract";
import { expectOk } from "../servers";
import { ServerNodeCalls } from "../servers/server-node-calls";
import { getNodeRow } from "../nodes";
import type { Db } from "../../../db/client";
import type { SessionUser } from "../sessions";

/** Who made a backup, as the node records it: the person behind a session or an OAuth2 client. */
export function backupBy(user: SessionUser): string {
  return `${BY_USER_PREFIX}${user.username}`;
}

export class NodeBackups extends ServerNodeCalls {

  async list(): Promise<BackupList> {
    return (await (await this.call("backups")).json()) as BackupList;
  }

  async settings(): Promise<{ policy: BackupPolicy; ignore: string[] }> {
    return (await (await this.call("backupSettings")).json()) as { policy: BackupPolicy; ignore: string[] };
  }

  /** Starts a backup, with its maker's note; its progress shows in the list and on the console. */
  async create(by: string, note = ""): Promise<void> {
    await this.send("createBackup", {}, note ? { note } : {}, { "x-kiln-by": by });
  }

  /** One folder of a backup, to pick what to restore; `owners`: asked by the server's owner or an administrator (services/servers' speaksForOwners). */
  async folder(backup: string, path: string, owners = false): Promise<BackupFolder> {
    return (await (await this.call("backupFolder", { backup }, { query: `?path=${encodeURIComponent(path)}`, headers: owners ? { [OWNERS_CALL_HEADER]: "1" } : {} })).json()) as BackupFolder;
  }

  async remove(backup: string): Promise<void> {
    await this.call("deleteBackup", { backup });
  }

  async lock(backup: string, locked: boolean): Promise<void> {
    await this.send("lockBackup", { backup }, { locked });
  }

  /** An administrator's: a backup made before owners were recorded is read back from now on (the node's proxy operation needs admin). */
  async adopt(backup: string): Promise<void> {
    await this.call("adoptBackup", { backup });
  }

  /** Starts a restore (the whole folder, or one path); it says on the console how it went. */
  async restore(backup: string, path: string): Promise<void> {
    await this.send("restoreBackup", { backup }, path ? { path } : {});
  }

  async setIgnore(ignore: string): Promise<void> {
    await this.send("setBackupIgnore", {}, { ignore });
  }

  async setPolicy(policy: unknown): Promise<void> {
    await this.send("setBackupPolicy", {}, policy);
  }
}

/**
 * A node's backup targets. Listed (without secrets) for whoever sets a server's backup policy;
 * set, removed, recovered from and their passwords read by administrators only: a target decides
 * where every server's backups go and what a recovery writes onto the node, so whoever sets one
 * reads all of them.
 */
export class NodeBackupTargets {
  constructor(
    private readonly db: Db,
    private readonly nodeId: number,
    private readonly actor: { scopes: readonly string[] },
  ) {}

  private assertAdmin(): void {
    if (!this.actor.scopes.includes(SCOPES.admin)) throw new KilnError("ErrMissingScope", { scope: SCOPES.admin });
  }

  private async call(name: NodeOperationName, params: OperationParams = {}, init: OperationInit = {}): Promise<Response> {
    const node = await getNodeRow(this.db, this.nodeId);
    const response = await callOperation(node, name, params, init);
    await expectOk(response, node.name);
    return response;
  }

  async list(): Promise<TargetView[]> {
    return ((await (await this.call("backupTargets")).json()) as { targets: TargetView[] }).targets;
  }

  async set(kind: string, target: unknown): Promise<void> {
    this.assertAdmin();
    await this.call("setBackupTarget", { kind }, jsonInit(target));
  }

  async remove(kind: string): Promise<void> {
    this.assertAdmin();
    await this.call("deleteBackupTarget", { kind });
  }

  /** The repository's password (administrators keep it off the node, to rebuild one). */
  async password(kind: string): Promise<string> {
    this.assertAdmin();
    return (await this.call("backupTargetPassword", { kind })).text();
  }

  /**
   * Makes again the servers the target keeps and the node lacks; each restore says more on its
   * console. Only servers this panel knows on this node are made: the node leaves any other
   * definition the repository holds (`unknown`), so nothing runs there that the panel never shows.
   */
  async recover(kind: string): Promise<RecoveryOutcome> {
    this.assertAdmin();
    const servers = (await this.db.select({ id: schema.servers.id }).from(schema.servers).where(and(eq(schema.servers.nodeId, this.nodeId), eq(schema.servers.state, "ready"))).all()).map((row) => row.id);
    return (await (await this.call("recoverFromTarget", { kind }, jsonInit({ servers }))).json()) as RecoveryOutcome;
  }
}
