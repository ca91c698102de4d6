// Where "Best node" put a new server and why, kept a short while so the server page that the
// add-server form redirects to can say so: the reasons do not fit the flash cookie (a message
// key, no values), and the redirect keeps a reload from creating the server again. Kept in the
// database under a random token (`one_time_values`, kind `placement`), so the page may be asked of
// another panel process than the one that made the server; a lost or lapsed note only means the
// page does not say it (the server is made either way).
import { randomBytes } from "node:crypto";
import type { Db } from "../../../db";
import { putValue, readValue } from "../cluster/one-time-values";
import type { NodeFit } from "./index";

export interface PlacementNote {
  node: string;
  reasons: NodeFit[];
}

const KIND = "placement";
const TTL_MS = 15 * 60_000;
const TOKEN = /^[A-Za-z0-9_-]{16}$/;

/** Keeps the placement of server `serverId` and answers the token that finds it again. */
export async function stashPlacement(db: Db, serverId: string, placement: PlacementNote): Promise<string> {
  const token = randomBytes(12).toString("base64url");
  await putValue(db, KIND, token, JSON.stringify({ serverId, placement }), Date.now() + TTL_MS);
  return token;
}

/** The placement kept under `token` for server `serverId`, while it is fresh. */
export async function stashedPlacement(db: Db, token: string | undefined, serverId: string): Promise<PlacementNote | undefined> {
  const stored = token && TOKEN.test(token) ? await readValue(db, KIND, token) : undefined;
  const kept = stored === undefined ? undefined : (JSON.parse(stored) as { serverId: string; placement: PlacementNote });
  return kept?.serverId === serverId ? kept.placement : undefined;
}
