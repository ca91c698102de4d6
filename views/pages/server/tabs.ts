// The server page's tabs (spec section 2) and who sees each (spec section 6). Files and tasks
// join when the file manager and scheduled tasks arrive.
import { allows, type ServerAccess, type Requirement } from "../../../server/services/servers/permissions";

export const SERVER_TABS = [
  { id: "console", hotkey: "t c", needs: "viewServerConsole" },
  { id: "stats", hotkey: "t i", needs: "viewServerStats" },
  { id: "settings", hotkey: "t s", needs: "editServerData" },
  { id: "users", hotkey: "t u", needs: "editServerUsers" },
  // The OAuth2 clients on the admin tab are shown to everyone who sees the server.
  { id: "admin", hotkey: "t a", needs: "view" },
] as const satisfies readonly { id: string; hotkey: string; needs: Requirement }[];

export type ServerTab = (typeof SERVER_TABS)[number]["id"];

export function visibleTabs(access: ServerAccess): ServerTab[] {
  return SERVER_TABS.filter((tab) => allows(access, tab.needs)).map((tab) => tab.id);
}

/** The asked-for tab when the user may see it, else the first one they may (console by default). */
export function pickTab(access: ServerAccess, wanted: string | undefined): ServerTab {
  const tabs = visibleTabs(access);
  return tabs.find((tab) => tab === wanted) ?? tabs[0] ?? "admin";
}
