// What an import through the template list's plain form changed (core/definition/import-notes),
// kept a short while so the template's own page, which the form redirects to, can list it: the
// notes are too long for the flash cookie, and a redirect keeps a reload from importing again.
// Held in the panel's memory under a random token, bounded in number and age; a lost entry only
// means the list is not shown (the import itself is done).
import { randomBytes } from "node:crypto";
import type { ImportNote } from "../../../core/definition/import-notes";
import type { TemplateFormat } from "../../../core/definition/import";

export interface StashedNotes {
  /** the template the notes belong to */
  id: string;
  format: Exclude<TemplateFormat, "kiln">;
  notes: ImportNote[];
}

const MAX_ENTRIES = 200;
const TTL_MS = 15 * 60_000;
const stash = new Map<string, StashedNotes & { at: number }>();

/** Keeps `entry` and answers the token that finds it again. */
export function stashImportNotes(entry: StashedNotes): string {
  const now = Date.now();
  for (const [token, kept] of stash) if (now - kept.at > TTL_MS || stash.size >= MAX_ENTRIES) stash.delete(token);
  const token = randomBytes(12).toString("base64url");
  stash.set(token, { ...entry, at: now });
  return token;
}

/** The notes kept under `token` for template `id`, while they are fresh. */
export function stashedImportNotes(token: string | undefined, id: string): StashedNotes | undefined {
  const kept = token ? stash.get(token) : undefined;
  if (!kept || kept.id !== id || Date.now() - kept.at > TTL_MS) return undefined;
  return { id: kept.id, format: kept.format, notes: kept.notes };
}
