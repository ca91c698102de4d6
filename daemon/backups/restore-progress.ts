// How far a whole restore has come (restic 0.14's restore says nothing until it ends): the staging
// folder's size against the backup's, measured with du a few times a second, told to the list and
// every tenth to the console. Only for backups whose size the node recorded when it made them.
import { message, type DaemonMessage } from "../../core/live/daemon-message";

const EVERY_MS = 250;

/** Starts following `folder` towards `expected` bytes; the returned function stops it. */
export function followRestore(folder: string, expected: number, tell: (done: number) => void, say: (line: DaemonMessage) => void): () => void {
  let measuring = false;
  let told = 0;
  const timer = setInterval(async () => {
    if (measuring) return;
    measuring = true;
    try {
      const du = Bun.spawn(["du", "-sb", folder], { stdout: "pipe", stderr: "ignore" });
      const bytes = Number((await new Response(du.stdout).text()).split("\t")[0]);
      if (!Number.isFinite(bytes)) return;
      const done = Math.min(1, bytes / expected);
      tell(done);
      const tenth = Math.floor(done * 10);
      if (tenth > told && tenth < 10) say(message("daemon.backup.restoreProgress", { percent: (told = tenth) * 10 }));
    } finally {
      measuring = false;
    }
  }, EVERY_MS);
  return () => clearInterval(timer);
}
