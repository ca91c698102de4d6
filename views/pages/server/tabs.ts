// The server page's tabs and who sees each.
import { allows, type ServerAccess, type ServerRequirement as Requirement } from "../../../core/scopes/server-access";
import { managesPlayers } from "../../../core/players/minecraft-java";

export const SERVER_TABS = [
  { id: "console", hotkey: "t c", needs: ["viewServerConsole"] },
  { id: "stats", hotkey: "t i", needs: ["viewServerStats"] },
  // The file manager needs viewServerFiles; the SFTP card alone is for sftpServer.
  { id: "files", hotkey: "t f", needs: ["viewServerFiles", "sftpServer"] },
  { id: "tasks", hotkey: "t t", needs: ["editServerData"] },
  { id: "backups", hotkey: "t b", needs: ["backups"] },
  // Player management: Minecraft Java servers only (core/players/minecraft-java).
  { id: "players", hotkey: "t p", needs: ["managePlayers"], serverType: managesPlayers },
  // Mods or plugins (the label follows the add-on folder the platform last showed): Minecraft Java servers only too.
  { id: "mods", hotkey: "t m", needs: ["manageMods"], serverType: managesPlayers },
  { id: "settings", hotkey: "t s", needs: ["editServerData"] },
  // The ports the server holds are its address: everyone who sees the server sees them.
  { id: "network", hotkey: "t n", needs: ["view"] },
  { id: "activity", hotkey: "t y", needs: ["viewActivity"] },
  { id: "users", hotkey: "t u", needs: ["editServerUsers"] },
  // The OAuth2 clients on the admin tab are shown to everyone who sees the server.
  { id: "admin", hotkey: "t a", needs: ["view"] },
] as const satisfies readonly { id: string; hotkey: string; needs: readonly Requirement[]; serverType?: (type: string) => boolean }[];

export type ServerTab = (typeof SERVER_TABS)[number]["id"];

/** The tabs the user may see: those where they pass any one of the tab's requirements (and the server is of a type the tab is for). */
export function visibleTabs(access: ServerAccess, serverType = ""): ServerTab[] {
  return SERVER_TABS.filter((tab) => tab.needs.some((needs) => allows(access, needs)) && (!("serverType" in tab) || tab.serverType(serverType))).map((tab) => tab.id);
}

/** The asked-for tab when the user may see it, else the first one they may (console by default). */
export function pickTab(access: ServerAccess, wanted: string | undefined, serverType = ""): ServerTab {
  const tabs = visibleTabs(access, serverType);
  return tabs.find((tab) => tab === wanted) ?? tabs[0] ?? "admin";
}
