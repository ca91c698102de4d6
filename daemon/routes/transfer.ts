// The panel's transfer calls on a node (core/contract: transferOffer … transferCancel), signed like
// every panel call. As a source: offer the server's folder under a new ticket, or revoke it. As a
// target: pull the folder from a source (202, in the background), read the pull's progress, cancel
// it. The node-to-node routes the ticket opens are elsewhere (daemon/transfer/source-routes).
import { Hono } from "hono";
import { KilnError } from "../../core/errors";
import type { TransferPullRequest } from "../../core/transfer/wire";
import type { ServerManager } from "../servers/manager";
import type { Transfers } from "../transfer";
import { readJson } from "../http/body";

const TICKET = /^[A-Za-z0-9_-]{43}$/;
const MAX_SOURCE_LENGTH = 2048;
/** How long an offer waits for running changes (an upload, a task's step, an install): within the panel's wait for an answer (10 s). */
const OFFER_WAIT_MS = 5_000;

export function transferRoutes(manager: ServerManager, transfers: Transfers) {
  const app = new Hono();

  // The offer holds the server's changes (transfer/index); those already running must end before
  // the target lists the folder, or the offer is taken back and the move fails with nothing moved.
  // An upload lasts as long as its sender takes (a trickle held every move off): those still
  // reading their bodies are ended (all or nothing: nothing of them is kept), the others waited for.
  app.post("/:id/transfer/offer", async (c) => {
    const server = manager.get(c.req.param("id"));
    const ticket = transfers.offers.offer(server.id);
    server.changes.endBodies(new KilnError("ErrTransferInProgress", { id: server.id }, "the server is being moved to another node"));
    if (!(await server.changes.idle(OFFER_WAIT_MS))) {
      transfers.offers.revoke(server.id);
      throw new KilnError("ErrServerBusy", { state: "changing" }, "changes to the server's files are still running");
    }
    return c.json({ ticket });
  });

  app.delete("/:id/transfer/offer", (c) => {
    transfers.offers.revoke(c.req.param("id"));
    return c.body(null, 204);
  });

  app.post("/:id/transfer/pull", async (c) => {
    const request = pullRequest(await readJson(c));
    return c.json(transfers.pulls.start(c.req.param("id"), request), 202);
  });

  app.get("/:id/transfer/pull", (c) => c.json(transfers.pulls.progress(c.req.param("id"))));

  app.delete("/:id/transfer/pull", async (c) => {
    await transfers.pulls.cancel(c.req.param("id"));
    return c.body(null, 204);
  });

  return app;
}

/**
 * The body checked: `source` an http(s) base URL without credentials, query or fragment (kept with
 * its path, any trailing "/" dropped, so the source's paths are appended), `ticket` one the source
 * hands out, `prune` a boolean when given.
 */
function pullRequest(body: unknown): TransferPullRequest {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new KilnError("ErrFieldRequired", { field: "source" });
  const { source, ticket, prune } = body as Record<string, unknown>;
  if (typeof source !== "string" || source === "") throw new KilnError("ErrFieldRequired", { field: "source" });
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new KilnError("ErrFieldIsInvalidHost", { field: "source" }, "source is not a URL");
  }
  if (source.length > MAX_SOURCE_LENGTH || (url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password || url.search || url.hash) {
    throw new KilnError("ErrFieldIsInvalidHost", { field: "source" }, "source must be an http(s) URL without credentials, query or fragment");
  }
  if (typeof ticket !== "string" || !TICKET.test(ticket)) throw new KilnError("ErrFieldRequired", { field: "ticket" });
  if (prune !== undefined && typeof prune !== "boolean") throw new KilnError("ErrFieldNotBoolean", { field: "prune" });
  return { source: url.href.replace(/\/+$/, ""), ticket, prune: prune === true };
}
