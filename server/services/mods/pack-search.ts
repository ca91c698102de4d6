// Modpacks to start a new server from (Add server's "Find a modpack"): a search of Modrinth's or
// CurseForge's modpacks, for no server yet (any loader, any Minecraft version). Each hit carries
// the pack's page address, which Add server's modpack field takes (./new-server-pack): a hit whose
// address that field would not read back as the same pack (a slug with other characters) is left
// out, never passed on.
import { KilnError } from "../../../core/errors";
import type { PackSource } from "../../../core/mods/types";
import type { Db } from "../../../db";
import { CLASS, type CurseForgeClient } from "./curseforge";
import type { ModrinthClient } from "./modrinth";
import { modpackFromText } from "./new-server-pack";
import { pageOf, queryOf } from "./search-terms";
import { packSourceOf, sourceClient } from "./sources";

export interface PackHit {
  source: PackSource;
  projectId: string;
  title: string;
  description: string;
  downloads: number;
  /** The pack's page address on its source. */
  address: string;
}

export interface PackSearch {
  source: PackSource;
  q: string;
  hits: PackHit[];
  page: number;
  pages: number;
  total: number;
}

/** The hit with its page address, when the modpack field reads that address back as this slug on this source. */
function withAddress(hit: Omit<PackHit, "address">, slug: string, address: string): PackHit[] {
  let read: ReturnType<typeof modpackFromText>;
  try {
    read = modpackFromText(address);
  } catch {
    return [];
  }
  return read?.source === hit.source && read.projectId === slug ? [{ ...hit, address }] : [];
}

export async function searchModpacks(db: Db, params: { q?: string; source?: string; page?: string }): Promise<PackSearch> {
  const source = packSourceOf(params.source);
  const q = queryOf(params.q);
  const page = pageOf(params.page);
  const offset = (page.number - 1) * page.size;
  const client = await sourceClient(db, source);
  let hits: PackHit[];
  let total: number;
  if (source === "modrinth") {
    const answer = await (client as ModrinthClient).search({ query: q, facets: [["project_type:modpack"]], index: "relevance", offset, limit: page.size });
    hits = answer.hits.flatMap((h) => {
      const slug = h.slug ?? h.project_id;
      return withAddress({ source, projectId: h.project_id, title: h.title, description: h.description, downloads: h.downloads }, slug, `https://modrinth.com/modpack/${slug}`);
    });
    total = answer.total_hits;
  } else {
    const answer = await (client as CurseForgeClient).search({ query: q, classId: CLASS.modpacks, loaders: [], gameVersion: null, sort: "relevance", offset, limit: page.size });
    hits = answer.hits.flatMap((p) => (p.slug ? withAddress({ source, projectId: p.id, title: p.title, description: p.description, downloads: p.downloads }, p.slug, `https://www.curseforge.com/minecraft/modpacks/${p.slug}`) : []));
    total = answer.total;
  }
  if (!Number.isFinite(total) || total < 0) throw new KilnError("ErrModSourceUnavailable", { source, reason: "the answer has a shape Kiln does not read" });
  return { source, q, hits, page: page.number, pages: Math.max(1, Math.ceil(Math.min(total, 10_000) / page.size)), total };
}
