// What a server's backup or restore is doing now, on the Backups tab: rendered by the
// server with the figure it had (a Refresh link works without script); in the browser it asks the
// node again every two seconds and reloads the tab when the work is done, so the list is new.
import { useState } from "react";
import { useProgressPoll } from "./lib/use-progress-poll";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import type { BackupActivity } from "../core/backups";

export interface BackupProgressProps {
  serverId: string;
  running: BackupActivity;
}

const POLL_MS = 2000;

function BackupProgressView({ serverId, running: initial }: BackupProgressProps) {
  const t = useT();
  const [running, setRunning] = useState<BackupActivity>(initial);
  useProgressPoll<{ running: BackupActivity | null }>(`/proxy/daemon/server/${serverId}/backups`, POLL_MS, ({ running: now }) => {
    if (now) setRunning(now);
    return now !== null;
  });
  return (
    <div className="alert alert-info backup-progress" role="status">
      <span>
        <span data-testid="backup-running">
          {t(`backups.running.${running.action}`)}
          {running.done !== null ? ` · ${Math.round(running.done * 100)}%` : null}
        </span>{" "}
        <a href={`/server/${serverId}?tab=backups`}>{t("backups.refresh")}</a>
      </span>
      {running.done !== null ? <progress className="backups-progress" max={1} value={running.done} /> : null}
    </div>
  );
}

export default defineIsland<BackupProgressProps>({
  name: "BackupProgress",
  component: BackupProgressView,
  messages: ["backups.running.", "backups.refresh"],
  hydrate: "load",
});
