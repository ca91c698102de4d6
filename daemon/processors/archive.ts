// Safe tar.gz extraction for the tools a node installs (Java builds, SteamCMD). An archive is
// unpacked into a fresh temporary folder beside its destination and renamed into place only
// when every entry was accepted, so a refused or broken archive leaves nothing behind.
// An entry is refused, and the whole archive with it, when it would land outside that folder:
// an absolute path, a ".." segment, a hard link to outside, or a symbolic link whose target
// is outside. Entry names are checked before anything is written; symbolic links are checked
// again on disk afterwards, because a chain of links (x -> ., y -> x/..) can escape where
// each link on its own looks harmless.
import { randomUUID } from "node:crypto";
import { readdirSync, readlinkSync, realpathSync, type Stats } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join, posix, sep } from "node:path";
import { extract, type ReadEntry } from "tar";
import { realExisting } from "../files/real-existing";

/**
 * Unpacks `archive` into `dest` (which must not exist), dropping `strip` leading folders;
 * `name` is how errors call the archive.
 */
export async function extractTarGz(archive: string, dest: string, strip = 0, name = basename(archive)): Promise<void> {
  const temp = join(dirname(dest), `.${basename(dest)}.${randomUUID()}.part`);
  await mkdir(temp);
  try {
    const refused: string[] = [];
    const links = new Set<string>();
    const filter = (_path: string, entry: ReadEntry | Stats) => {
      const reason = refusal(entry as ReadEntry, strip, links);
      if (reason) refused.push(reason);
      return !reason;
    };
    try {
      // strict turns tar's own warnings (an entry it would skip) into failures; ownership
      // from the archive is never applied, and existing files are replaced, never written through.
      await extract({ file: archive, cwd: temp, strip, strict: true, preserveOwner: false, unlink: true, filter });
    } catch (e) {
      throw new Error(`could not unpack ${name}: ${(e as Error).message}`);
    }
    if (refused.length) {
      throw new Error(`refused ${name}: entries would land outside its folder (${refused.slice(0, 3).join(", ")})`);
    }
    const root = realpathSync.native(temp);
    const escaping = linksOutside(root, root);
    if (escaping) throw new Error(`refused ${name}: the link ${escaping} points outside its folder`);
    await rename(temp, dest);
  } catch (e) {
    await rm(temp, { recursive: true, force: true });
    throw e;
  }
}

/** Why an entry must not be unpacked, or undefined when it is fine. */
function refusal(entry: ReadEntry, strip: number, links: Set<string>): string | undefined {
  const path = entry.path;
  const parts = path.split("/").filter((p) => p !== "" && p !== ".");
  if (path.startsWith("/") || parts.includes("..")) return path;
  const inside = parts.slice(strip).join("/");
  if (!inside) return undefined;
  if (entry.type !== "SymbolicLink" && entry.type !== "Link") return undefined;
  const target = entry.linkpath ?? "";
  const shown = `${path} -> ${target}`;
  if (target.startsWith("/")) return shown;
  if (entry.type === "Link") {
    // A hard link names an earlier entry from the archive's root. It must stay inside and
    // must not pass through a symbolic link, which the OS would follow when linking.
    const linkParts = target.split("/").filter((p) => p !== "" && p !== ".");
    if (linkParts.includes("..")) return shown;
    for (let i = strip + 1; i < linkParts.length; i++) {
      if (links.has(linkParts.slice(strip, i).join("/"))) return shown;
    }
    return undefined;
  }
  const resolved = posix.normalize(posix.join(posix.dirname(inside), target));
  if (resolved === ".." || resolved.startsWith("../")) return shown;
  links.add(inside);
  return undefined;
}

/** The first symbolic link under `dir` whose target, followed on disk, is outside `root`. */
function linksOutside(dir: string, root: string): string | undefined {
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, item.name);
    if (item.isSymbolicLink()) {
      // Not path.join: it would fold "x/.." by spelling rather than by where x really leads.
      const link = readlinkSync(full);
      const target = realExisting(link.startsWith("/") ? link : `${dir}/${link}`);
      if (target !== root && !target.startsWith(root + sep)) return full.slice(root.length + 1);
    } else if (item.isDirectory()) {
      const found = linksOutside(full, root);
      if (found) return found;
    }
  }
  return undefined;
}
