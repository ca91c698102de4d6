// POST /daemon/sftp/disconnect {userId?, serverId?}: the panel ends SFTP sessions when access
// changes (flag removed, account changed or deleted, server deleted). Node-token protected like
// everything under /daemon.
import { Hono } from "hono";
import { z } from "../../core/zod";
import { KilnError } from "../../core/errors";
import type { SftpServer } from "./server";

const filterSchema = z
  .strictObject({ userId: z.optional(z.number().check(z.int(), z.positive())), serverId: z.optional(z.string().check(z.minLength(1), z.maxLength(64))) })
  .check(z.refine((f) => f.userId !== undefined || f.serverId !== undefined));

export function sftpRoutes(sftp: SftpServer) {
  const app = new Hono();
  app.post("/disconnect", async (c) => {
    const parsed = filterSchema.safeParse(await c.req.json().catch(() => null));
    // Never "everyone": a filter must name a user or a server.
    if (!parsed.success) throw new KilnError("ErrFieldRequired", { field: "userId" }, "userId or serverId is required");
    return c.json({ ended: sftp.disconnect(parsed.data) });
  });
  return app;
}
