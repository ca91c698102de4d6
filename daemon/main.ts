// kiln daemon: the composition root of a standalone node. The node itself (definitions,
// environments, consoles, SFTP, tasks) arrives with the daemon release; until then this mode
// says so plainly instead of pretending to run.
export async function runDaemon(): Promise<number> {
  console.error("kiln daemon: the standalone node is not available in this release yet; `kiln panel` runs the panel.");
  return 3;
}
