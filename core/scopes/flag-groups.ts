// The server permissions as the users card shows them: in groups by what they concern, each flag
// once, in an order that reads from the everyday to the weighty. Their words (name, description,
// group heading) are the locale's serverUsers.flag.*, serverUsers.flagHint.* and serverUsers.group.*.
import type { ServerFlag } from "./index";

export const SERVER_FLAG_GROUPS = [
  { group: "power", flags: ["startServer", "stopServer", "installServer"] },
  { group: "console", flags: ["viewServerConsole", "sendServerConsole", "viewServerStats", "managePlayers"] },
  { group: "files", flags: ["viewServerFiles", "putServerFiles", "sftpServer", "backups", "manageMods"] },
  { group: "administration", flags: ["editServerData", "manageAllocations", "editServerUsers", "viewActivity", "manageWebhooks", "deleteServer"] },
] as const satisfies ReadonlyArray<{ group: string; flags: readonly ServerFlag[] }>;
