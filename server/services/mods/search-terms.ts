// What a search of a source is asked and answers, for add-ons and modpacks alike: the sort names
// Kiln offers, the page size, the ids a source's projects and versions have, and a hit as the
// browser shows it.
import { KilnError } from "../../../core/errors";
import { SOURCE_ID } from "../../../core/mods/change";
import type { ModSource } from "../../../core/mods/types";
import type { ModrinthHit, ModrinthProject } from "./modrinth";

/** A search as a source that answers with projects is asked it (Hangar, Spiget): words, the server's Minecraft version, Kiln's sort, a page. */
export interface SourceSearch {
  query: string;
  /** The server's Minecraft version, for a source that narrows by it (Spiget cannot: its plans judge it). */
  gameVersion: string | null;
  /** One of the source's own categories (core/mods/categories), already checked. */
  category?: string;
  sort: string;
  offset: number;
  limit: number;
}

export interface SearchAnswer {
  hits: { source: ModSource; projectId: string; slug: string | null; title: string; description: string; downloads: number; iconUrl?: string; categories: string[] }[];
  total: number;
  /** The categories a search of this source may be narrowed to, when the source lists its own (CurseForge). */
  categories?: { id: string; name: string }[];
}

const SORTS = { relevance: "relevance", downloads: "downloads", updated: "updated", newest: "newest" } as const;
const PAGE_SIZE = 20;

/** The source's sort for Kiln's name of it (relevance when none); ErrFieldNotBetween for another. */
export function sortOf(sort: string | undefined): (typeof SORTS)[keyof typeof SORTS] {
  const found = SORTS[(sort ?? "relevance") as keyof typeof SORTS];
  if (!found || !Object.hasOwn(SORTS, sort ?? "relevance")) throw new KilnError("ErrFieldNotBetween", { field: "sort" });
  return found;
}

/** The page asked for, from 1 to 500 (anything else is the first), and its size. */
export function pageOf(page: string | undefined): { number: number; size: number } {
  return { number: Math.max(1, Math.min(500, Number.parseInt(page ?? "1", 10) || 1)), size: PAGE_SIZE };
}

/** The words searched for, at most 200 characters of them. */
export const queryOf = (q: string | undefined): string => (q ?? "").slice(0, 200);

export function checkedId(value: unknown, field = "projectId"): string {
  if (typeof value !== "string" || !SOURCE_ID.test(value)) throw new KilnError("ErrFieldRequired", { field });
  return value;
}

export function hit(h: ModrinthHit): SearchAnswer["hits"][number] {
  return { source: "modrinth", projectId: h.project_id, slug: h.slug ?? null, title: h.title, description: h.description, downloads: h.downloads, ...(h.icon_url ? { iconUrl: h.icon_url } : {}), categories: h.categories };
}

/** A project as a hit, from a source that answers searches with projects (CurseForge). */
export function projectHit(source: ModSource, p: ModrinthProject): SearchAnswer["hits"][number] {
  return { source, projectId: p.id, slug: p.slug ?? null, title: p.title, description: p.description, downloads: p.downloads, ...(p.icon_url ? { iconUrl: p.icon_url } : {}), categories: p.categories };
}
