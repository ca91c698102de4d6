// Files in a server's folder: archive names, what can be opened or extracted, relative paths.
export { archiveName, ROOT_ARCHIVE_BASE } from "./archive-name";
export { zipEntryName } from "./zip-name";
export { MAX_EDITABLE_SIZE, ARCHIVE_EXTENSIONS, IMAGE_EXTENSIONS, EXTRACTABLE_EXTENSIONS, extensionOf, isArchive, isImage, isExtractable, editRefusal, type OpenRefusal } from "./kinds";
export { joinPath, parentPath, baseName, normalizePath, encodePath, crumbs, cleanNewName } from "./paths";

/** One item of a folder listing. modifyTime is in epoch seconds. */
export interface FileEntry {
  name: string;
  isFile: boolean;
  size: number;
  modifyTime: number;
  /** Permission bits (Kiln's addition to the entry; absent from other daemons). */
  mode?: number;
}

/** A folder listing: its entries and its path relative to the server's folder ("" for the root). */
export interface FolderListing {
  files: FileEntry[];
  path: string;
  /** The folder holds more entries than one listing carries (the node's LISTING_MAX_ENTRIES): `files` are some of them. */
  truncated?: boolean;
}
export { sftpDetails, type SftpDetails } from "./sftp";

/** What a search by name below a folder answers (the node's GET …/search; truncated: cut short by its bounds). */
export interface NameSearch {
  path: string;
  query: string;
  results: { path: string; isFile: boolean; size: number; modifyTime: number }[];
  truncated: boolean;
}

/**
 * What extracting an archive into a folder would do (the node's GET …/extract-preview): how many
 * entries it holds, which existing files it would replace, and which paths it cannot extract
 * over (a file of the archive where the folder has a folder); `destinationExists` false: the
 * folder is made first. The lists name at most 100 paths each, relative to the server's folder.
 */
export interface ExtractPreview {
  destination: string;
  destinationExists: boolean;
  entries: number;
  overwrites: string[];
  overwriteCount: number;
  conflicts: string[];
}
