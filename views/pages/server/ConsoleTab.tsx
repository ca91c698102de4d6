// Console tab: why the server last stopped unasked (a card, until its next start), the console
// island with the tail of the buffer it replays from, and, for those who may see the stats, the
// vitals beside it.
import { Island } from "../../components/Island";
import ServerConsole from "../../../islands/ServerConsole";
import ServerVitals from "../../../islands/ServerVitals";
import CrashCause from "../../../islands/CrashCause";

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
  const crash = <Island island={CrashCause} props={{ serverId }} />;
  if (!canSeeStats) return (
    <>
      {crash}
      {consoleIsland}
    </>
  );
  return (
    <>
      {crash}
      <div className="server-console-layout">
        {consoleIsland}
        <aside className="card server-vitals-card">
          <Island island={ServerVitals} props={{ serverId, address }} />
        </aside>
      </div>
    </>
  );
}
