// Which archive entries may be unpacked, judged by spelling before anything touches the disk.
// An entry must land inside the folder it is unpacked into: no absolute names, no drive letters,
// no ".." segments. Backslashes count as separators, as Windows-made zips use them and other
// unpackers honour them: "..\evil" is refused, not written as an odd file name. A symbolic link
// may only point somewhere that, spelled from the link's own folder, stays inside.
import { posix } from "node:path";
import { KilnError } from "../../core/errors";
import { extensionOf } from "../../core/files";
import { canonicalName } from "../../core/files/raw-name";
import { outside } from "./jail";

export type ArchiveKind = "zip" | "tar" | "tgz" | "gz";

/** How an archive is read, from its name; anything else answers ErrUnsupportedArchive. */
export function archiveKind(path: string): ArchiveKind {
  const name = posix.basename(path);
  const lower = name.toLowerCase();
  if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz")) return "tgz";
  const ext = extensionOf(name);
  if (ext === ".zip" || ext === ".jar") return "zip";
  if (ext === ".tar") return "tar";
  if (ext === ".gz") return "gz";
  throw new KilnError("ErrUnsupportedArchive", { name }, `archives like ${name} cannot be unpacked here`);
}

/**
 * The entry's path relative to the folder it unpacks into ("" for the folder itself), or
 * ErrPathOutside. It is the path's one spelling (core/files/raw-name), the one the jail opens:
 * the sink compares entries by this text (nothing is written through a link the archive made),
 * and "\uEFC3\uEFA9/f" is the folder "é" to the kernel, so it must be "é/f" to that check too.
 */
export function entryPath(raw: string): string {
  const spelled = canonicalName(raw).replace(/\\/g, "/");
  if (raw.includes("\0") || spelled.startsWith("/") || /^[a-zA-Z]:/.test(spelled)) throw outside(raw);
  const parts = spelled.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.includes("..")) throw outside(raw);
  return parts.join("/");
}

/**
 * Refuses a symbolic link at `path` (an entryPath) whose `target` leads outside, judged from the
 * link's folder. Links that climb within the archive ("sub/link -> ../file") are fine; chains of
 * links that escape together are caught on disk afterwards (extract-links.ts).
 */
export function checkLinkTarget(path: string, target: string): void {
  const spelled = target.replace(/\\/g, "/");
  const shown = `${path} -> ${target}`;
  if (!target || target.includes("\0") || spelled.startsWith("/") || /^[a-zA-Z]:/.test(spelled)) throw outside(shown);
  const landing = posix.normalize(posix.join(posix.dirname(path), spelled));
  if (landing === ".." || landing.startsWith("../")) throw outside(shown);
}
