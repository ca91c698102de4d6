// Paths inside a server's folder as the file manager and the file API write them: relative, "/"
// between segments, "" for the folder itself. On the wire each segment is URL-encoded on its own.

/** "a/b" + "c" → "a/b/c"; "" + "c" → "c". */
export function joinPath(folder: string, name: string): string {
  return folder === "" ? name : `${folder}/${name}`;
}

/** The folder holding `path`: "a/b/c" → "a/b", "c" → "". */
export function parentPath(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

/** The last segment: "a/b/c" → "c"; "" → "". */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Drops empty, "." and leading/trailing slashes; ".." climbs but never above the folder itself. */
export function normalizePath(path: string): string {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return out.join("/");
}

/** Each segment URL-encoded on its own, joined by "/": "my files/a#b" → "my%20files/a%23b". */
export function encodePath(path: string): string {
  return normalizePath(path).split("/").map(encodeURIComponent).join("/");
}

/** The breadcrumb of `path`: every ancestor folder from the first segment down, with its name. */
export function crumbs(path: string): { name: string; path: string }[] {
  const segments = normalizePath(path).split("/").filter(Boolean);
  return segments.map((name, i) => ({ name, path: segments.slice(0, i + 1).join("/") }));
}

/** A name a user typed for a new file or folder: trimmed; null when empty or not a single name. */
export function cleanNewName(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === "" || trimmed === "." || trimmed === ".." || trimmed.includes("/") || trimmed.includes("\0")) return null;
  return trimmed;
}
