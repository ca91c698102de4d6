// What this panel has sent a node that may change what it answers (any call but a GET: a power
// action, an install, a file written), counted per node. A read of the node's state kept for a
// moment (the server list's statuses) is used only while the count it was asked under stands,
// so a change made through this panel shows on the next read.

const counts = new Map<number, number>();

/** Called before such a call is sent and again once it is answered (a read asked meanwhile is not kept past it). */
export function noteNodeWrite(nodeId: number): void {
  counts.set(nodeId, (counts.get(nodeId) ?? 0) + 1);
}

export function nodeWriteCount(nodeId: number): number {
  return counts.get(nodeId) ?? 0;
}
