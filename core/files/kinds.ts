// What the file manager may do with a file, by name and size: archives are
// extracted, never edited; images open in a viewer; text up to 20971520 bytes opens in the editor.

/** Files larger than this are not opened for editing. */
export const MAX_EDITABLE_SIZE = 20971520;

/** The names the file manager treats as archives, and as images. */
export const ARCHIVE_EXTENSIONS = [".7z", ".bz2", ".gz", ".jar", ".lz", ".lzma", ".rar", ".tar", ".tgz", ".xz", ".zip", ".zipx"] as const;
export const IMAGE_EXTENSIONS = [".jpeg", ".png", ".jpg", ".gif", ".webp", ".bmp", ".tiff", ".svg"] as const;

/** The archives the daemon can extract (the others answer ErrUnsupportedArchive). */
export const EXTRACTABLE_EXTENSIONS = [".zip", ".jar", ".tar", ".tar.gz", ".tgz", ".gz"] as const;

/** ".txt" for "notes.TXT", "" for "Makefile" or ".bashrc" (a leading dot names a file, it is no extension). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot).toLowerCase() : "";
}

export function isArchive(name: string): boolean {
  return (ARCHIVE_EXTENSIONS as readonly string[]).includes(extensionOf(name));
}

export function isImage(name: string): boolean {
  return (IMAGE_EXTENSIONS as readonly string[]).includes(extensionOf(name));
}

export function isExtractable(name: string): boolean {
  const lower = name.toLowerCase();
  return EXTRACTABLE_EXTENSIONS.some((ext) => lower.endsWith(ext) && lower.length > ext.length);
}

export type OpenRefusal = "tooLarge" | "archive";

/** Why a file cannot be opened in the editor, or null when it can. */
export function editRefusal(name: string, size: number): OpenRefusal | null {
  if (isArchive(name)) return "archive";
  if (size > MAX_EDITABLE_SIZE) return "tooLarge";
  return null;
}
