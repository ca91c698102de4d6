// What `kiln panel` and its local node in a process of its own (KILN_LOCAL_NODE=process) say to
// each other over Bun's IPC channel. The panel starts the node with its configuration; the node
// answers where it listens, or why it could not; CurseForge's key is the panel's setting, so the
// node asks for it at each install that needs it, as the in-process node reads it.
import type { DaemonConfig } from "../daemon/config";

/** The node's configuration as sent: everything but the key, which is asked for. */
export type WireNodeConfig = Omit<DaemonConfig, "curseforgeKey">;

export type ToLocalNode =
  | { type: "start"; config: WireNodeConfig }
  | { type: "curseforge-key"; id: number; key: string | null };

export interface LocalNodeAddress {
  url: string;
  port: number;
  sftpPort: number;
  sftpFingerprint: string;
}

export type FromLocalNode =
  | ({ type: "listening" } & LocalNodeAddress)
  | { type: "failed"; message: string }
  | { type: "curseforge-key"; id: number };
