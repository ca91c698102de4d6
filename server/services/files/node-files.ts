// The files tab's calls to the server's node, for the pages and their plain forms (the islands
// call the same node routes through the proxy). A refusal is the node's catalogue error.
import { KilnError } from "../../../core/errors";
import { encodePath, type FolderListing, type NameSearch } from "../../../core/files";
import { callServerNode, serverNode } from "../servers";
import type { Db } from "../../../db/client";

/** Long enough for a big copy or upload; the browser leaving ends it. */
const LONG_MS = 24 * 3600_000;

export class NodeFiles {
  constructor(
    private readonly db: Db,
    private readonly id: string,
  ) {}

  private call(path: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<Response> {
    return callServerNode(this.db, this.id, path, init);
  }

  private json(path: string, body: unknown, long = false): Promise<Response> {
    return this.call(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), timeoutMs: long ? LONG_MS : undefined });
  }

  /** The folder's listing; null when `path` is a file (nothing to list). */
  async list(path: string): Promise<FolderListing | null> {
    const response = await this.call(`/file/${encodePath(path)}`);
    if (response.headers.has("content-disposition") || !response.headers.get("content-type")?.includes("json")) {
      await response.body?.cancel();
      return null;
    }
    const listing = (await response.json()) as FolderListing;
    if (!Array.isArray(listing?.files)) throw new KilnError("ErrServiceNotAvailable", { node: serverNode(this.db, this.id).name });
    return { files: listing.files, path: typeof listing.path === "string" ? listing.path : path };
  }

  async search(path: string, query: string): Promise<NameSearch> {
    return (await (await this.call(`/search?path=${encodeURIComponent(path)}&q=${encodeURIComponent(query)}`)).json()) as NameSearch;
  }

  async makeFolder(path: string): Promise<void> {
    await this.call(`/file/${encodePath(path)}?folder=true`, { method: "PUT" });
  }

  /** Writes a file from a multipart body holding it in the part "file" (FormData, or a stream with its `contentType`). */
  async upload(path: string, body: BodyInit, contentType?: string, signal?: AbortSignal): Promise<void> {
    // @ts-expect-error Bun's fetch needs duplex for a streamed request body
    await this.call(`/file/${encodePath(path)}`, { method: "PUT", headers: contentType ? { "content-type": contentType } : {}, body, signal, timeoutMs: LONG_MS, duplex: "half" });
  }

  async remove(path: string): Promise<void> {
    await this.call(`/file/${encodePath(path)}`, { method: "DELETE" });
  }

  async move(from: string, to: string): Promise<void> {
    await this.json("/move", { from, to });
  }

  async copy(from: string, to: string): Promise<void> {
    await this.json("/copy", { from, to }, true);
  }

  async mode(path: string, mode: string): Promise<void> {
    await this.json("/mode", { path, mode });
  }

  async archive(destination: string, paths: string[]): Promise<void> {
    await this.json(`/archive/${encodePath(destination)}`, paths, true);
  }

  async extract(path: string, destination: string): Promise<void> {
    await this.call(`/extract/${encodePath(path)}?destination=${encodeURIComponent(destination)}`, { timeoutMs: LONG_MS });
  }
}
