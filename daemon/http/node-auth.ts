// Who may call a node, and how the node proves itself to the panel (docs/security.md, "Panel and
// node"). Every /daemon call carries a token signed with the node secret for exactly that request
// and this node, used once: a missing, lapsed, forged, misdirected or replayed one answers 401
// before anything else runs. The proof route answers a panel's challenge without any token: what
// it signs is domain-separated from tokens, so it opens nothing.
import type { Hono, MiddlewareHandler } from "hono";
import { KilnError } from "../../core/errors";
import { admit } from "./admitted";
import { CHALLENGE, NODE_PROOF_PATH, NonceLedger, nodeProof, requestTarget, signNodeToken, verifyNodeToken } from "../../core/node-token";

/** What the node knows of itself: its secret and, when its config names it, its id on the panel. */
export interface NodeCredentials {
  secret: string;
  /** The node's id on the panel (config "id"); tokens for another node are refused. Absent: any id signed with this secret. */
  id?: number;
}

export const requireNodeToken = (credentials: NodeCredentials, ledger = new NonceLedger()): MiddlewareHandler =>
  async function requireNodeToken(c, next) {
    const header = c.req.header("authorization") ?? "";
    const token = header.startsWith("Bearer ") ? header.slice(7) : null;
    const read = verifyNodeToken(credentials.secret, token, { direction: "to-node", method: c.req.method, target: requestTarget(c.req.url) });
    const refused = !read || (credentials.id !== undefined && read.nodeId !== credentials.id) || !ledger.claim(read.nonce, read.expiry);
    if (refused) {
      const error = new KilnError("ErrInvalidCredentials", { reason: "node-token" }, "a valid node token is required");
      return c.json(error.toBody(), 401);
    }
    admit(c.req.raw);
    await next();
  };

/** GET NODE_PROOF_PATH?node=<id>&challenge=<c>: the node's proof that it holds the secret of node <id>. */
export function nodeProofRoute(app: Hono<any>, credentials: NodeCredentials): void {
  app.get(NODE_PROOF_PATH, (c) => {
    const node = Number(c.req.query("node"));
    const challenge = c.req.query("challenge") ?? "";
    const known = Number.isSafeInteger(node) && node >= 0 && (credentials.id === undefined || node === credentials.id);
    if (!known || !CHALLENGE.test(challenge)) return c.json(new KilnError("ErrInvalidCredentials", { reason: "node-proof" }).toBody(), 401);
    return c.json({ proof: nodeProof(credentials.secret, node, challenge) });
  });
}

/** The authorization header of a call this node makes to its panel. */
export function panelAuthorization(credentials: NodeCredentials, method: string, url: string): string {
  return `Bearer ${signNodeToken(credentials.secret, { direction: "to-panel", nodeId: credentials.id ?? 0, method, target: requestTarget(url) })}`;
}
