// The Network tab's plain forms: take a port from the node's pool (a chosen one or the lowest
// free), make one primary, give one back (holders of manageAllocations; services/allocations
// keeps them to the server's limit of extras), and the limit itself (administrators). Each ends
// in a redirect with a toast, or the tab again with the refusal.
import type { Context, Hono } from "hono";
import type { KilnEnv } from "../../context";
import type { Deps } from "../../deps";
import { requirePageLogin } from "../../middleware/require";
import { addServerAllocation, removeServerAllocation, setAllocationLimit, setPrimaryAllocation } from "../../services/allocations/server-allocations";
import type { ServerPageHost } from "./host";

/** A whole number as a form sends it; anything else is passed on as sent, for the service to refuse by its field. */
const wholeNumber = (value: unknown): unknown => (typeof value === "string" && /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : value);

/** The allocation the address names (a number that names none is ErrNotFound there). */
const allocationOf = (c: Context<KilnEnv>): number => {
  const id = wholeNumber(c.req.param("allocation"));
  return typeof id === "number" ? id : 0;
};

export function networkFormRoutes(app: Hono<KilnEnv>, deps: Deps, { form }: ServerPageHost): void {
  app.post("/server/:id/network/add", requirePageLogin(), form("manageAllocations", "network", async (c, id, body) => {
    // "Any free port" sends an empty choice: the service takes the lowest.
    const chosen = body.allocationId === undefined || body.allocationId === "" ? {} : { allocationId: wholeNumber(body.allocationId) };
    await addServerAllocation(deps.db, c.get("user")!, id, chosen);
    return "network.added";
  }));

  app.post("/server/:id/network/limit", requirePageLogin(), form("admin", "network", async (c, id, body) => {
    await setAllocationLimit(deps.db, c.get("user")!, id, wholeNumber(body.limit));
    return "network.limitSaved";
  }));

  app.post("/server/:id/network/:allocation/primary", requirePageLogin(), form("manageAllocations", "network", async (c, id) => {
    await setPrimaryAllocation(deps.db, c.get("user")!, id, allocationOf(c));
    return "network.madePrimary";
  }));

  app.post("/server/:id/network/:allocation/remove", requirePageLogin(), form("manageAllocations", "network", async (c, id) => {
    await removeServerAllocation(deps.db, c.get("user")!, id, allocationOf(c));
    return "network.givenBack";
  }));
}
