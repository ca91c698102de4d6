// What a drag-and-drop onto the file manager brings: files to upload, with
// folders rejected ('Cannot upload folders') and a name dropped twice taken once.

/** The parts of DataTransferItem used here (webkitGetAsEntry is in every current browser). */
export interface DropItem {
  kind: string;
  getAsFile(): File | null;
  webkitGetAsEntry?: () => { isDirectory: boolean } | null;
}

export interface DropContents {
  files: File[];
  /** how many folders were dropped (and left out) */
  folders: number;
}

/**
 * Sorts a drop into files and folders. With the entry API a folder says so; without it, a folder
 * shows up as a File of size 0 with no type, which is the best guess there is.
 */
export function readDrop(items: ArrayLike<DropItem> | null | undefined, files: ArrayLike<File> | null | undefined): DropContents {
  const out: File[] = [];
  const seen = new Set<string>();
  let folders = 0;
  const add = (file: File) => {
    if (seen.has(file.name)) return;
    seen.add(file.name);
    out.push(file);
  };
  if (items && items.length > 0) {
    for (const item of Array.from(items)) {
      if (item.kind !== "file") continue;
      // Read the entry before the file: after getAsFile some browsers no longer give it.
      const entry = item.webkitGetAsEntry?.();
      const file = item.getAsFile();
      if (entry?.isDirectory || (!entry && file && looksLikeFolder(file))) folders++;
      else if (file) add(file);
    }
  } else {
    for (const file of Array.from(files ?? [])) {
      if (looksLikeFolder(file)) folders++;
      else add(file);
    }
  }
  return { files: out, folders };
}

function looksLikeFolder(file: File): boolean {
  return file.size === 0 && file.type === "";
}

/** True while the drag carries files from outside the page (not text, not a link). */
export function carriesFiles(types: readonly string[] | DOMStringList | undefined): boolean {
  return Array.from(types ?? []).includes("Files");
}
