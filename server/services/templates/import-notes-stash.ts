// What an import through the template list's plain form changed (core/definition/import-notes),
// kept a short while so the template's own page, which the form redirects to, can list it: the
// notes are too long for the flash cookie, and a redirect keeps a reload from importing again.
// Kept in the database under a random token for TTL_MS (the redirect may reach another panel
// process); a lost entry only means the list is not shown (the import itself is done).
import { randomBytes } from "node:crypto";
import type { Db } from "../../../db";
import { putValue, readValue } from "../cluster/one-time-values";
import type { ImportNote } from "../../../core/definition/import-notes";
import type { TemplateFormat } from "../../../core/definition/import";

export interface StashedNotes {
  /** the template the notes belong to */
  id: string;
  format: Exclude<TemplateFormat, "kiln">;
  notes: ImportNote[];
}

const TTL_MS = 15 * 60_000;
const KIND = "import-notes";

/** Keeps `entry` and answers the token that finds it again. */
export async function stashImportNotes(db: Db, entry: StashedNotes): Promise<string> {
  const token = randomBytes(12).toString("base64url");
  await putValue(db, KIND, token, JSON.stringify(entry), Date.now() + TTL_MS);
  return token;
}

/** The notes kept under `token` for template `id`, while they are fresh. */
export async function stashedImportNotes(db: Db, token: string | undefined, id: string): Promise<StashedNotes | undefined> {
  const kept = token ? await readValue(db, KIND, token) : undefined;
  const notes = kept === undefined ? undefined : (JSON.parse(kept) as StashedNotes);
  return notes?.id === id ? notes : undefined;
}
