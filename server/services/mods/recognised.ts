// Which source version a file is, by its SHA-512, remembered for the installed list: a published
// version's file never changes, so the answer for a hash stands (an unknown hash is asked again
// after RECOGNISED_TTL_MS: its version may be published since). A tab opened again costs the source
// nothing for files it has already named. Plans ask afresh (`fresh`): a version's dependencies can
// be edited by its authors, and a plan must judge them as they are now. Bounded: past
// RECOGNISED_MAX entries the oldest go.
import type { ModrinthClient, ModrinthVersion } from "./modrinth";

export const RECOGNISED_TTL_MS = 60 * 60 * 1000;
const RECOGNISED_MAX = 20_000;

export interface Recognition {
  version?: ModrinthVersion;
  title?: string;
}

/** By "<source base URL>\0<sha512>": a source moved to another URL is asked afresh. */
const known = new Map<string, Recognition & { at: number }>();

/** What each hash is (absent: unknown to the source); asks the source only for hashes not known. Throws when the source fails. */
export async function recognise(client: ModrinthClient, base: string, sha512s: string[], fresh = false): Promise<Map<string, Recognition>> {
  const now = Date.now();
  const key = (sha512: string) => `${base}\0${sha512}`;
  const standing = (sha512: string) => {
    const entry = known.get(key(sha512));
    return entry && (entry.version || now - entry.at < RECOGNISED_TTL_MS) && (!fresh || entry.at === now) ? entry : undefined;
  };
  const missing = [...new Set(sha512s.filter((sha512) => !standing(sha512)))];
  if (missing.length > 0) {
    const versions = await client.versionsOfFiles(missing);
    const projects = await client.projects([...new Set(Object.values(versions).map((v) => v.project_id))]);
    const titles = new Map(projects.map((p) => [p.id, p.title]));
    for (const sha512 of missing) {
      const version = versions[sha512];
      known.delete(key(sha512));
      known.set(key(sha512), { ...(version ? { version } : {}), ...(version && titles.has(version.project_id) ? { title: titles.get(version.project_id) } : {}), at: now });
    }
    // Maps keep insertion order: the first entries are the oldest.
    for (const oldest of known.keys()) {
      if (known.size <= RECOGNISED_MAX) break;
      known.delete(oldest);
    }
  }
  return new Map(sha512s.map((sha512) => [sha512, standing(sha512) ?? {}]));
}
