// Which properties of an activity event name a file in a server's folder: those are kept in the
// file's wire form (core/files/raw-name), so a name that is not UTF-8 is shown with its bytes
// escaped (core/files/shown-name) where the log is read, as the file manager shows it.

/** Keys that name a path in the server's folder, for the events whose every such key does. */
const FILE_KEYS = new Set(["path", "paths", "folder", "from", "to", "destination"]);

/** Whether property `key` of `event` is a path in the server's folder (or a list of them). */
export function isFileProperty(event: string, key: string): boolean {
  return (event.startsWith("server.file.") && FILE_KEYS.has(key)) || (event === "backup.restored" && key === "path");
}
