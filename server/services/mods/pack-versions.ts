// A modpack's versions on Modrinth as Kiln picks among them: the newest release first, and the
// .mrpack of a version with the size and SHA-512 the node checks its download against.
import { KilnError } from "../../../core/errors";
import { MAX_PACK_BYTES, type PackPlan } from "../../../core/mods/pack";
import type { ModrinthVersion } from "./modrinth";

export const SHA512 = /^[0-9a-f]{128}$/;

/** Releases before betas before alphas, newest first within each (Modrinth lists newest first). */
export function newestVersion(versions: ModrinthVersion[]): ModrinthVersion | undefined {
  const rank = { release: 0, beta: 1, alpha: 2 } as const;
  return [...versions].sort((a, b) => rank[a.version_type] - rank[b.version_type])[0];
}

/** The version's .mrpack, checked: a size the node accepts and a SHA-512 to verify it by. */
export function packFile(version: ModrinthVersion): PackPlan["pack"] {
  const file = version.files.find((f) => f.primary && f.filename.endsWith(".mrpack")) ?? version.files.find((f) => f.filename.endsWith(".mrpack"));
  const sha512 = file?.hashes.sha512?.toLowerCase();
  if (!file || !sha512 || !SHA512.test(sha512) || !Number.isInteger(file.size) || file.size < 0 || file.size > MAX_PACK_BYTES) {
    throw new KilnError("ErrModNoCompatibleVersion", { title: version.name || version.version_number });
  }
  return { url: file.url, size: file.size, sha512 };
}
