// Every daemon call must carry a token signed with the node secret (core/node-token). A
// missing, expired or forged one answers 401 before anything else runs.
import type { MiddlewareHandler } from "hono";
import { KilnError } from "../../core/errors";
import { verifyNodeToken } from "../../core/node-token";

export const requireNodeToken = (secret: string): MiddlewareHandler =>
  async function requireNodeToken(c, next) {
    const header = c.req.header("authorization") ?? "";
    const token = header.startsWith("Bearer ") ? header.slice(7) : null;
    if (!verifyNodeToken(secret, token)) {
      const error = new KilnError("ErrInvalidCredentials", undefined, "a valid node token is required");
      return c.json(error.toBody(), 401);
    }
    await next();
  };
