// Who may read a server's players (the API's GET …/players, the socket's `players` message, the
// count on the server list): whoever may watch its console or its stats, the two tabs that show
// them. Any one of these suffices.
import type { ServerRequirement } from "../scopes/server-access";

export const READ_PLAYERS: readonly ServerRequirement[] = ["viewServerConsole", "viewServerStats"];
