// Which of a CurseForge project's files count as its published releases, for the node's curseforge
// step (a pack's newest file when none is named) and the panel (the file a new server pins, the
// files a pack server can switch to): release type 1 (not beta or alpha), status approved (4) or
// released (10), as PufferPanel's daemon takes them. A status the answer leaves out is not held
// against the file.
export interface CurseFileStatus {
  releaseType?: number;
  fileStatus?: number;
  fileDate: string;
}

const PUBLISHED_STATUS = new Set([4, 10]);

/** Approved or released (a status left out counts as published). */
export const isPublished = (file: Pick<CurseFileStatus, "fileStatus">): boolean => file.fileStatus === undefined || PUBLISHED_STATUS.has(file.fileStatus);

/** The newest published release among `files`, undefined when there is none. */
export function newestPublishedRelease<T extends CurseFileStatus>(files: readonly T[]): T | undefined {
  return files.filter((f) => f.releaseType === 1 && isPublished(f)).sort((a, b) => Date.parse(b.fileDate) - Date.parse(a.fileDate))[0];
}
