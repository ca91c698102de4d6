// The loader's own versions a platform lists for one Minecraft version, for a loader switch:
// PaperMC's builds (its download service, Fill API v3, the one the shipped Paper template installs
// from; v2 answers 410 since July 2026), Purpur's (its download API v2, the one the Purpur
// template installs from), Fabric's and Quilt's loader releases (their meta, v2 and v3, the
// ones their installers read), NeoForge's builds (its Maven repository's listing, the one the neoforgedl step reads;
// core/mods/versions neoforgePrefix says which are the Minecraft version's) and Forge's (its Maven
// repository's listing, where the forgedl step downloads from). Answers from outside: read as
// any source's (source-answer: time limit, size cap, shape), and only what reads as a version is
// kept. Newest first, at most LISTED of them.
import { KilnError } from "../../../core/errors";
import { compareVersions, mavenVersions, neoforgePrefix, safeVersion } from "../../../core/mods/versions";
import type { Platform, PlatformSource } from "../../../core/mods/types";
import { z } from "../../../core/zod";
import { SOURCE_USER_AGENT, sourceAnswer, sourceText } from "./source-answer";

/** The newest this many are offered: a version with a long life has hundreds of Paper builds. */
export const LISTED = 50;

const paperVersions = z.object({
  versions: z.array(z.object({ version: z.object({ id: z.string().check(z.maxLength(256)) }), builds: z.array(z.number().check(z.int(), z.gte(0))).check(z.maxLength(20_000)) })).check(z.maxLength(2_000)),
});
const purpurBuilds = z.object({ builds: z.object({ all: z.array(z.string().check(z.maxLength(64))).check(z.maxLength(20_000)) }) });
const metaLoaders = z.array(z.object({ loader: z.object({ version: z.string().check(z.maxLength(256)) }) })).check(z.maxLength(20_000));

interface Lister {
  source: PlatformSource;
  /** Its versions for `gameVersion`, newest first. */
  list(base: string, gameVersion: string): Promise<string[]>;
  /** The words its template's variable takes besides a version, offered first (Kiln's templates: `latest`; Forge's: `recommended` too). */
  keywords?: readonly string[];
}

const LATEST = ["latest"] as const;

const ask = <S extends z.ZodMiniType>(name: string, url: string, schema: S) => sourceAnswer(name, url, { headers: { "user-agent": SOURCE_USER_AGENT } }, schema);

const LISTERS: Partial<Record<Platform, Lister>> = {
  // PaperMC lists every version with its build numbers, in no order to rely on.
  paper: {
    source: "papermc",
    list: async (base, game) => {
      const found = (await ask("PaperMC", `${base}/projects/paper/versions`, paperVersions)).versions.find((v) => v.version.id === game);
      return (found?.builds ?? []).toSorted((a, b) => b - a).map(String);
    },
  },
  // Purpur lists a version's builds oldest first (builds.all; the last is its latest).
  purpur: {
    source: "purpur",
    list: async (base, game) => (await ask("Purpur", `${base}/v2/purpur/${encodeURIComponent(game)}`, purpurBuilds)).builds.all.toReversed(),
  },
  // Fabric's meta lists a version's loaders newest first; Quilt's (v3) in the same shape.
  fabric: {
    source: "fabric",
    list: async (base, game) => (await ask("Fabric", `${base}/versions/loader/${encodeURIComponent(game)}`, metaLoaders)).map((entry) => entry.loader.version),
  },
  quilt: {
    source: "quilt",
    list: async (base, game) => (await ask("Quilt", `${base}/versions/loader/${encodeURIComponent(game)}`, metaLoaders)).map((entry) => entry.loader.version),
  },
  // NeoForge's Maven lists every build of every Minecraft version, in no order to rely on.
  neoforge: {
    source: "neoforge",
    list: async (base, game) => {
      const prefix = neoforgePrefix(game);
      if (!prefix) return [];
      const xml = await sourceText("NeoForge", `${base}/releases/net/neoforged/neoforge/maven-metadata.xml`, { headers: { "user-agent": SOURCE_USER_AGENT } });
      return mavenVersions(xml).filter((v) => v.startsWith(prefix)).sort(compareVersions).reverse();
    },
  },
  // Forge's Maven names each build "<Minecraft>-<Forge>" (1.20.1-47.1.0; very old ones carry a
  // suffix, 1.7.10-10.13.4.1614-1.7.10); the variable holds the Forge part, which the template
  // joins to the Minecraft version again.
  forge: {
    source: "forge",
    keywords: ["recommended", "latest"],
    list: async (base, game) => {
      const xml = await sourceText("Forge", `${base}/net/minecraftforge/forge/maven-metadata.xml`, { headers: { "user-agent": SOURCE_USER_AGENT } });
      const prefix = `${game}-`;
      return mavenVersions(xml).filter((v) => v.startsWith(prefix)).map((v) => v.slice(prefix.length)).sort(compareVersions).reverse();
    },
  },
};

/** What `platform`'s loader variable takes besides a version, offered before the versions. */
export function loaderKeywords(platform: Platform): readonly string[] {
  return LISTERS[platform]?.keywords ?? LATEST;
}

/** Where `platform` lists its loader versions; undefined for one Kiln does not read a list of (its template's options are then all there is). */
export function loaderSource(platform: Platform): PlatformSource | undefined {
  return LISTERS[platform]?.source;
}

/**
 * The loader versions `platform` lists for `gameVersion` at `base`, newest first: none for a
 * Minecraft version it does not know (PaperMC does not list it, a 404); ErrModSourceUnavailable when it does not answer.
 */
export async function listedLoaderVersions(platform: Platform, base: string, gameVersion: string): Promise<string[]> {
  const lister = LISTERS[platform];
  if (!lister) return [];
  const answered = await lister.list(base, gameVersion).catch((error: unknown) => {
    if (error instanceof KilnError && error.code === "ErrNotFound") return [];
    throw error;
  });
  const versions = answered.filter((v) => safeVersion(v) !== null);
  return [...new Set(versions)].slice(0, LISTED);
}
