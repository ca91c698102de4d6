// What rebuilding a node's servers from a backup target did, as the node answers it to the panel.
export interface RecoveryOutcome {
  /** Made again from the kept definition, their newest backup restored. */
  recovered: string[];
  /** Already on the node: left as they are. */
  skipped: string[];
  /** Their kept definition could not be read. */
  failed: string[];
  /** Kept in the repository but not servers the panel knows on this node: not made. */
  unknown: string[];
}
