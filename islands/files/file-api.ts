// The file manager's calls to the daemon's file API through the panel proxy: listings,
// folders, writes, deletes, archives, extraction, and uploads with
// progress. Failures throw ApiError, as islands/lib/api does, for reportError to show.
import { isErrorBody } from "../../core/errors";
import { encodePath, type ExtractPreview, type FolderListing } from "../../core/files";
import { ApiError, api } from "../lib/api";

export const serverBase = (serverId: string) => `/proxy/daemon/server/${encodeURIComponent(serverId)}`;

/** The address of a file or folder; a plain link to a file downloads it. */
export const fileUrl = (serverId: string, path: string) => `${serverBase(serverId)}/file/${encodePath(path)}`;

async function fail(response: Response, method: string, url: string): Promise<never> {
  const text = await response.text().catch(() => "");
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  throw new ApiError(response.status, isErrorBody(body) ? body : undefined, { method, url });
}

async function send(method: string, url: string, body?: BodyInit): Promise<Response> {
  const response = await fetch(url, { method, credentials: "same-origin", headers: { accept: "application/json" }, body });
  if (!response.ok) await fail(response, method, url);
  return response;
}

export async function listFolder(serverId: string, path: string): Promise<FolderListing> {
  const listing = await api<FolderListing>("GET", fileUrl(serverId, path));
  // A file answers with its bytes, not a listing: not something to browse.
  if (!listing || !Array.isArray(listing.files)) throw new ApiError(400, undefined, { method: "GET", url: fileUrl(serverId, path) });
  return { files: listing.files, path: typeof listing.path === "string" ? listing.path : path, truncated: listing.truncated === true };
}

function asForm(content: Blob, name: string): FormData {
  const form = new FormData();
  form.append("file", content, name);
  return form;
}

/**
 * Writes (creates or replaces) a file; text is sent as UTF-8. With `ifMatch` (the ETag the file was
 * read with) the node replaces only that version (else ErrFileChanged, nothing written). Answers the
 * new version's ETag, when the node names it.
 */
export async function writeFile(serverId: string, path: string, content: Blob | string, ifMatch?: string): Promise<string | null> {
  const blob = typeof content === "string" ? new Blob([content], { type: "text/plain;charset=utf-8" }) : content;
  const url = fileUrl(serverId, path);
  const headers: Record<string, string> = { accept: "application/json" };
  if (ifMatch) headers["if-match"] = ifMatch;
  const response = await fetch(url, { method: "PUT", credentials: "same-origin", headers, body: asForm(blob, path.split("/").pop() || "file") });
  if (!response.ok) await fail(response, "PUT", url);
  return response.headers.get("etag");
}

export async function createFolder(serverId: string, path: string): Promise<void> {
  await send("PUT", `${fileUrl(serverId, path)}?folder=true`);
}

export async function deleteEntry(serverId: string, path: string): Promise<void> {
  await send("DELETE", fileUrl(serverId, path));
}

/** Zips `paths` into `destination`; the daemon answers the name it used (it resolves clashes too). */
export async function createArchive(serverId: string, destination: string, paths: string[]): Promise<string> {
  const answer = await api<{ path?: string } | undefined>("POST", `${serverBase(serverId)}/archive/${encodePath(destination)}`, paths);
  return answer?.path ?? destination;
}

export async function extractArchive(serverId: string, path: string, destination: string): Promise<void> {
  await send("GET", `${serverBase(serverId)}/extract/${encodePath(path)}?destination=${encodeURIComponent(destination)}`);
}

/** What extracting `path` into `destination` would do (nothing is written). */
export async function previewExtract(serverId: string, path: string, destination: string): Promise<ExtractPreview> {
  return (await send("GET", `${serverBase(serverId)}/extract-preview/${encodePath(path)}?destination=${encodeURIComponent(destination)}`)).json();
}

export interface Upload {
  done: Promise<void>;
  abort(): void;
}

/**
 * Uploads one file with progress (fetch cannot report upload progress; XMLHttpRequest can). The
 * body streams from the File, so memory stays flat whatever its size.
 */
export function uploadFile(serverId: string, path: string, file: File, onProgress: (loaded: number, total: number) => void): Upload {
  const url = fileUrl(serverId, path);
  const xhr = new XMLHttpRequest();
  const done = new Promise<void>((resolve, reject) => {
    xhr.open("PUT", url);
    xhr.setRequestHeader("accept", "application/json");
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      reject(new ApiError(xhr.status, isErrorBody(body) ? body : undefined, { method: "PUT", url }));
    };
    xhr.onerror = () => reject(new ApiError(0, undefined, { method: "PUT", url }));
    xhr.onabort = () => reject(new DOMException("upload aborted", "AbortError"));
    xhr.send(asForm(file, file.name));
  });
  return { done, abort: () => xhr.abort() };
}

/** Moves or renames `from` to `to` (paths from the server's folder); never over an existing name. */
export async function moveEntry(serverId: string, from: string, to: string): Promise<void> {
  await api("POST", `${serverBase(serverId)}/move`, { from, to });
}

export async function copyEntry(serverId: string, from: string, to: string): Promise<void> {
  await api("POST", `${serverBase(serverId)}/copy`, { from, to });
}

/** Sets the permission bits ("644", "755"…). */
export async function changeMode(serverId: string, path: string, mode: string): Promise<void> {
  await api("POST", `${serverBase(serverId)}/mode`, { path, mode });
}

/** The address of a zip of `paths`, made while it downloads. */
export function zipUrl(serverId: string, paths: string[]): string {
  return `${serverBase(serverId)}/zip?${paths.map((path) => `path=${encodeURIComponent(path)}`).join("&")}`;
}

/**
 * A file's bytes, for the editor to judge before it shows them as text, and its version (the ETag
 * a save sends back: writeFile's `ifMatch`; null when the node names none).
 */
export async function readBytes(serverId: string, path: string): Promise<{ bytes: Uint8Array; etag: string | null }> {
  const url = fileUrl(serverId, path);
  // Always the file as it is now: the game or another user may have changed it since it was last opened.
  const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
  if (!response.ok) await fail(response, "GET", url);
  return { bytes: new Uint8Array(await response.arrayBuffer()), etag: response.headers.get("etag") };
}
