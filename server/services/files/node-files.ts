// The files tab's calls to the server's node, for the pages and their plain forms (the islands
// call the same node routes through the proxy). A refusal is the node's catalogue error.
import { KilnError } from "../../../core/errors";
import { encodePath, type ExtractPreview, type FolderListing, type NameSearch } from "../../../core/files";
import { serverNode } from "../servers";
import { ServerNodeCalls } from "../servers/server-node-calls";
import { NODE_TIMEOUTS } from "../../daemon-client";

export class NodeFiles extends ServerNodeCalls {

  /** The folder's listing; null when `path` is a file (nothing to list). */
  async list(path: string): Promise<FolderListing | null> {
    // A listing is a question (the operation's long timeout is for a file's bytes).
    const response = await this.call("file", { path: encodePath(path) }, { timeoutMs: NODE_TIMEOUTS.quick });
    if (response.headers.has("content-disposition") || !response.headers.get("content-type")?.includes("json")) {
      await response.body?.cancel();
      return null;
    }
    const listing = (await response.json()) as FolderListing;
    if (!Array.isArray(listing?.files)) throw new KilnError("ErrServiceNotAvailable", { node: (await serverNode(this.db, this.id)).name });
    return { files: listing.files, path: typeof listing.path === "string" ? listing.path : path, truncated: listing.truncated === true };
  }

  async search(path: string, query: string): Promise<NameSearch> {
    return (await (await this.call("search", {}, { query: `?path=${encodeURIComponent(path)}&q=${encodeURIComponent(query)}` })).json()) as NameSearch;
  }

  async makeFolder(path: string): Promise<void> {
    await this.call("putFile", { path: encodePath(path) }, { query: "?folder=true" });
  }

  /** Writes a file from a multipart body holding it in the part "file" (FormData, or a stream with its `contentType`). */
  async upload(path: string, body: BodyInit, contentType?: string, signal?: AbortSignal): Promise<void> {
    // @ts-expect-error Bun's fetch needs duplex for a streamed request body
    await this.call("putFile", { path: encodePath(path) }, { headers: contentType ? { "content-type": contentType } : {}, body, signal, duplex: "half" });
  }

  async remove(path: string): Promise<void> {
    await this.call("deleteFile", { path: encodePath(path) });
  }

  async move(from: string, to: string): Promise<void> {
    await this.send("move", {}, { from, to });
  }

  async copy(from: string, to: string): Promise<void> {
    await this.send("copy", {}, { from, to });
  }

  async mode(path: string, mode: string): Promise<void> {
    await this.send("mode", {}, { path, mode });
  }

  async archive(destination: string, paths: string[]): Promise<void> {
    await this.send("archive", { path: encodePath(destination) }, paths);
  }

  /** What extracting `path` into `destination` would do; nothing is written. */
  async previewExtract(path: string, destination: string): Promise<ExtractPreview> {
    return (await (await this.call("extractPreview", { path: encodePath(path) }, { query: `?destination=${encodeURIComponent(destination)}` })).json()) as ExtractPreview;
  }

  async extract(path: string, destination: string): Promise<void> {
    await this.call("extract", { path: encodePath(path) }, { query: `?destination=${encodeURIComponent(destination)}` });
  }
}
