// The Admin tab's move forms: start a move to another node, cancel the one under way
// (administrators; services/transfers decides and runs it).
import type { Hono } from "hono";
import type { KilnEnv } from "../../context";
import type { Deps } from "../../deps";
import { requirePageLogin } from "../../middleware/require";
import { cancelTransfer, startTransfer } from "../../services/transfers";
import type { ServerPageHost } from "./host";

export function transferFormRoutes(app: Hono<KilnEnv>, deps: Deps, { form }: ServerPageHost): void {
  app.post("/server/:id/transfer", requirePageLogin(), form("admin", "admin", async (c, id, body) => {
    await startTransfer(deps.db, c.get("user")!, id, { node: Number(body.node), allocationPolicy: body.allocationPolicy, keepRunning: body.keepRunning === "true" });
    return "transfer.started";
  }));
  app.post("/server/:id/transfer/cancel", requirePageLogin(), form("admin", "admin", async (c, id) => {
    await cancelTransfer(deps.db, c.get("user")!, id);
    return "transfer.cancelling";
  }));
}
