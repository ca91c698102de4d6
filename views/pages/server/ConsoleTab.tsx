// Console tab: the console island with the tail of the buffer it replays from, and, for those who
// may see the stats, the vitals beside it.
import { Island } from "../../components/Island";
import ServerConsole from "../../../islands/ServerConsole";
import ServerVitals from "../../../islands/ServerVitals";

export interface ConsoleTabProps {
  serverId: string;
  address: string;
  canSend: boolean;
  canSeeStats: boolean;
  initialLogs: string;
  initialEpoch: number;
}

export function ConsoleTab({ serverId, address, canSend, canSeeStats, initialLogs, initialEpoch }: ConsoleTabProps) {
  const consoleIsland = <Island island={ServerConsole} props={{ serverId, canSend, initialLogs, initialEpoch }} />;
  if (!canSeeStats) return consoleIsland;
  return (
    <div className="server-console-layout">
      {consoleIsland}
      <aside className="card server-vitals-card">
        <Island island={ServerVitals} props={{ serverId, address }} />
      </aside>
    </div>
  );
}
