// A version as Kiln lets it through from text it does not control (a server's files, a mod
// source's answer): only what looks like a version, so no markup, path, shell syntax or oddity
// ever reaches a page, a log line, a query or a template variable.

/** A version: letters, digits and . + _ -, starting with a letter or digit (never "." or ".."). */
export const SAFE_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$/;

export function safeVersion(text: unknown): string | null {
  return typeof text === "string" && SAFE_VERSION.test(text) ? text : null;
}

/** A Minecraft version also starts with a digit ("1.20.1", "23w31a", "1.20-pre1"). */
export function safeGameVersion(text: unknown): string | null {
  const version = safeVersion(text);
  return version && /^\d/.test(version) ? version : null;
}

/**
 * What NeoForge's own versions for Minecraft `gameVersion` start with: NeoForge numbers its builds
 * after the Minecraft version without its "1." and with two parts (1.21.1 → 21.1.x, 1.21 →
 * 21.0.x), and for Minecraft's year-numbered versions with three (26.1 → 26.1.0.x, 26.1.2 →
 * 26.1.2.x). null for a version that is neither.
 */
export function neoforgePrefix(gameVersion: string): string | null {
  const old = /^1\.(\d+)(?:\.(\d+))?$/.exec(gameVersion);
  if (old) return `${old[1]}.${old[2] ?? "0"}.`;
  const year = /^(\d{2})\.(\d+)(?:\.(\d+))?$/.exec(gameVersion);
  if (year) return `${year[1]}.${year[2]}.${year[3] ?? "0"}.`;
  return null;
}

/** Compares "1.20.1-47.2.0" with "1.20.1-47.10.1" by their numbers; text parts by text. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.\-+]/);
  const pb = b.split(/[.\-+]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const [x = "", y = ""] = [pa[i], pb[i]];
    const [nx, ny] = [Number(x), Number(y)];
    const diff = x !== "" && y !== "" && Number.isFinite(nx) && Number.isFinite(ny) ? nx - ny : x.localeCompare(y);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** The versions a Maven repository's maven-metadata.xml lists, as written (<version> elements). */
export function mavenVersions(xml: string): string[] {
  return [...xml.matchAll(/<version>([^<]{1,128})<\/version>/g)].map((m) => m[1]!);
}
