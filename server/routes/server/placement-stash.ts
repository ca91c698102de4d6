// Where "Best node" put a new server and why, kept a short while so the server page that the
// add-server form redirects to can say so: the reasons do not fit the flash cookie (a message
// key, no values), and the redirect keeps a reload from creating the server again. Held in the
// panel's memory under a random token, bounded in number and age; a lost entry only means the
// page does not say it (the server is made either way).
import { randomBytes } from "node:crypto";
import type { Placement } from "../../../views/pages/server/PlacementNotice";

const MAX_ENTRIES = 200;
const TTL_MS = 15 * 60_000;
const stash = new Map<string, { serverId: string; placement: Placement; at: number }>();

/** Keeps the placement of server `serverId` and answers the token that finds it again. */
export function stashPlacement(serverId: string, placement: Placement): string {
  const now = Date.now();
  for (const [token, kept] of stash) if (now - kept.at > TTL_MS || stash.size >= MAX_ENTRIES) stash.delete(token);
  const token = randomBytes(12).toString("base64url");
  stash.set(token, { serverId, placement, at: now });
  return token;
}

/** The placement kept under `token` for server `serverId`, while it is fresh. */
export function stashedPlacement(token: string | undefined, serverId: string): Placement | undefined {
  const kept = token ? stash.get(token) : undefined;
  if (!kept || kept.serverId !== serverId || Date.now() - kept.at > TTL_MS) return undefined;
  return kept.placement;
}
