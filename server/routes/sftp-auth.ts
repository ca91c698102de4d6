// POST /api/nodes/sftp/auth: a node asks whether an SFTP login may in. Not for browsers or API
// clients: the caller proves it is the node holding the server with a node token (Bearer), and
// passes the SFTP client's address for the login throttle. Answers { userId, email, canWrite, owners }.
import { PANEL_CALLS } from "../../core/contract";
import { Hono } from "hono";
import { z } from "../../core/zod";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { nodeCallOf, readBody } from "../request";
import { parseWith } from "../validate";
import { checkSftpLogin } from "../services/sftp";

const loginSchema = z.object({
  username: z.string().check(z.minLength(1), z.maxLength(512)),
  password: z.string().check(z.maxLength(1024)),
  address: z.string().check(z.minLength(1), z.maxLength(64)),
});

export function sftpAuthRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.post(PANEL_CALLS.sftpAuth, async (c) => {
    const body = parseWith(loginSchema, await readBody(c));
    return c.json(await checkSftpLogin(deps.db, deps.throttle, { ...body, nodeCall: nodeCallOf(c) }));
  });
  return app;
}
