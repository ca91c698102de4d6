// The source node's two node-to-node routes (core/transfer/wire TRANSFER_SOURCE_PATHS): the target
// node asks them with the ticket the panel handed it, and with nothing else. They are not the
// panel's calls: registered before the node-token check (daemon/app), they never reach it, and a
// panel token opens nothing here. A ticket opens exactly its offered server's folder, through that
// server's jail: the manifest walks it, the file route reads one regular file in it. The template's
// file denylist (which keeps users' hands off files) does not apply: a move takes the whole folder.
// A ticket opens a few reads at once (TransferOffers.takeRead), each held until its answer ends or
// the target goes away.
import type { Context, Hono } from "hono";
import { closeSync } from "node:fs";
import { KilnError } from "../../core/errors";
import { bytesFromName, nameFromBytes } from "../../core/files/raw-name";
import { TRANSFER_SOURCE_PATHS } from "../../core/transfer/wire";
import type { ServerManager } from "../servers/manager";
import type { Server } from "../servers/server";
import { openRegularFile } from "../files/open-regular";
import { descriptorStream } from "../files/descriptor-stream";
import { admit } from "../http/admitted";
import type { TransferOffers } from "./offers";
import { listOffered, manifestBody } from "./manifest";
import { pathProblem } from "./manifest-check";
import { givingBack } from "./giving-back";

/** PATH_MAX on Linux: no path in a manifest is longer. */
const MAX_PATH_BYTES = 4096;
/**
 * Longest URL the file route reads: such a path with every byte percent-encoded, a raw byte being
 * three (core/files/raw-name) and so nine characters, and the rest. Bun refuses a request line
 * past its header limit itself (431): the pull then fails, before the move switches anything.
 */
const MAX_URL_LENGTH = 9 * MAX_PATH_BYTES + 1024;

/** Registers the routes on the node's app; `offers` and `manager` are only used when a request comes. */
export function transferSourceRoutes(app: Hono<any>, manager: ServerManager, offers: () => TransferOffers): void {
  /** The offered server the request's ticket opens, or a 401 answer. */
  const offered = (c: Context): Server | Response => {
    const header = c.req.header("authorization") ?? "";
    const serverId = offers().serverFor(header.startsWith("Bearer ") ? header.slice(7) : null);
    const server = serverId === null ? undefined : manager.find(serverId);
    if (!server) {
      if (serverId !== null) offers().revoke(serverId); // the server was deleted since
      return c.json(new KilnError("ErrInvalidCredentials", { reason: "transfer-ticket" }, "a valid transfer ticket is required").toBody(), 401);
    }
    admit(c.req.raw);
    return server;
  };

  app.get(TRANSFER_SOURCE_PATHS.manifest, async (c) => {
    const server = offered(c);
    if (server instanceof Response) return server;
    const give = offers().takeRead(server.id);
    let listed;
    try {
      listed = await listOffered(server.jail);
    } catch (error) {
      give();
      throw error;
    }
    return new Response(givingBack(manifestBody(server.jail, listed, offers().hashCache(server.id)), give), { headers: { "content-type": "application/json", "cache-control": "no-store" } });
  });

  app.get(TRANSFER_SOURCE_PATHS.file, (c) => {
    const server = offered(c);
    if (server instanceof Response) return server;
    if (c.req.url.length > MAX_URL_LENGTH) throw new KilnError("ErrFieldTooLarge", { field: "path", max: MAX_PATH_BYTES }, "the path is too long");
    const path = askedPath(c.req.queries("path") ?? [], c.req.queries("bytes") ?? []);
    if (path === null) throw new KilnError("ErrFieldRequired", { field: "path" });
    if (bytesFromName(path).length > MAX_PATH_BYTES) throw new KilnError("ErrFieldTooLarge", { field: "path", max: MAX_PATH_BYTES }, "the path is too long");
    // The manifest's spelling only: "", "a/../b", "/etc/passwd", "\uEFC3\uEFA9" (an escaped "é") name no manifest entry.
    if (pathProblem(path)) throw new KilnError("ErrNotFound", { path }, "no such file in the offered folder");
    const give = offers().takeRead(server.id);
    let fd: number;
    try {
      fd = openRegularFile(server.jail, path).fd;
    } catch (error) {
      give();
      throw error;
    }
    // HEAD: nothing to read, so the descriptor closes at once rather than when Bun cancels a stream it sends nothing of.
    if (c.req.method === "HEAD") {
      closeSync(fd);
      give();
      return c.body(null, 200);
    }
    return new Response(givingBack(descriptorStream(fd), give), { headers: { "content-type": "application/octet-stream", "cache-control": "no-store" } });
  });
}


const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * The one path a request names (core/transfer/wire transferFileQuery): `path` as text, or `bytes`
 * as the path's bytes in base64url (a long path of raw bytes), taken to the wire form the manifest
 * spells it in; null unless exactly one of them is given, once.
 */
function askedPath(paths: string[], bytes: string[]): string | null {
  if (paths.length + bytes.length !== 1) return null;
  if (paths.length === 1) return paths[0]!;
  if (!BASE64URL.test(bytes[0]!)) return null;
  return nameFromBytes(Buffer.from(bytes[0]!, "base64url"));
}
