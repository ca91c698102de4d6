// The panel's addresses of the files tab: the page of a folder, which works without script (the
// server renders that folder's listing), and the form routes behind the file manager's controls
// (server/routes/server/files). One place for the browser's file manager, the server's views and
// the routes that redirect back to a folder.

/** The server page on the files tab at `path` ("" for the server's folder). */
export function filesPageUrl(serverId: string, path: string): string {
  const base = `/server/${encodeURIComponent(serverId)}?tab=files`;
  return path === "" ? base : `${base}&path=${encodeURIComponent(path)}`;
}

/** The folder a files-tab address points at. */
export function pathFromSearch(search: string): string {
  return new URLSearchParams(search).get("path") ?? "";
}

/** The panel's form routes behind the file manager's controls, for use without script. */
export function filesFormUrl(serverId: string, form: "new" | "upload" | "act"): string {
  return `/server/${encodeURIComponent(serverId)}/files/${form}`;
}
