// Which source version a file is, by its SHA-512 (Modrinth) or fingerprint (CurseForge), remembered for the installed list: a published
// version's file never changes, so the answer for a hash stands (an unknown hash is asked again
// after RECOGNISED_TTL_MS: its version may be published since). A tab opened again costs the source
// nothing for files it has already named. Plans ask afresh (`fresh`): a version's dependencies can
// be edited by its authors, and a plan must judge them as they are now. Bounded: past
// RECOGNISED_MAX entries the oldest go.
import type { ModrinthVersion } from "./modrinth";

export const RECOGNISED_TTL_MS = 60 * 60 * 1000;
const RECOGNISED_MAX = 20_000;

export interface Recognition {
  version?: ModrinthVersion;
  title?: string;
}

/** By "<source base URL>\0<key>": a source moved to another URL is asked afresh. */
const known = new Map<string, Recognition & { at: number }>();

/** What a source answers for a batch of keys: the version of each it knows, and its projects (for their titles). */
export interface Lookup {
  versionsOf(keys: string[]): Promise<Record<string, ModrinthVersion>>;
  projects(ids: string[]): Promise<{ id: string; title: string }[]>;
}

/**
 * What each key is (absent: unknown to the source): a SHA-512 for Modrinth, a fingerprint for
 * CurseForge; asks the source only for keys not known. Throws when the source fails.
 */
export async function recognise(lookup: Lookup, base: string, keys: string[], fresh = false): Promise<Map<string, Recognition>> {
  const now = Date.now();
  const key = (k: string) => `${base}\0${k}`;
  const standing = (k: string) => {
    const entry = known.get(key(k));
    return entry && (entry.version || now - entry.at < RECOGNISED_TTL_MS) && (!fresh || entry.at === now) ? entry : undefined;
  };
  const missing = [...new Set(keys.filter((k) => !standing(k)))];
  if (missing.length > 0) {
    const versions = await lookup.versionsOf(missing);
    const projects = await lookup.projects([...new Set(Object.values(versions).map((v) => v.project_id))]);
    const titles = new Map(projects.map((p) => [p.id, p.title]));
    for (const k of missing) {
      const version = versions[k];
      known.delete(key(k));
      known.set(key(k), { ...(version ? { version } : {}), ...(version && titles.has(version.project_id) ? { title: titles.get(version.project_id) } : {}), at: now });
    }
    // Maps keep insertion order: the first entries are the oldest.
    for (const oldest of known.keys()) {
      if (known.size <= RECOGNISED_MAX) break;
      known.delete(oldest);
    }
  }
  return new Map(keys.map((k) => [k, standing(k) ?? {}]));
}
