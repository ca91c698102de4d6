// Stats tab: the live charts of CPU and memory.
import { Island } from "../../components/Island";
import ServerStats from "../../../islands/ServerStats";

export function StatsTab({ serverId }: { serverId: string }) {
  return <Island island={ServerStats} props={{ serverId }} />;
}
