// A stand-in for a mod source's download host (Modrinth's CDN): /files/<name> answers the bytes
// registered for that name, anything else 404. A change's add entry names a file on it.
import { createHash } from "node:crypto";

export interface HostedFile {
  url: string;
  fileName: string;
  size: number;
  sha512: string;
}

export interface FileHost {
  /** Where the node's download source points (`sources.modrinthCdn`). */
  origin: string;
  /** Serves `text` as `name`; the add entry naming it. */
  host(name: string, text: string): HostedFile;
  stop(): void;
}

export function startFileHost(): FileHost {
  const hosted = new Map<string, Uint8Array<ArrayBuffer>>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      const bytes = hosted.get(new URL(req.url).pathname.slice("/files/".length));
      return bytes ? new Response(bytes) : new Response("no", { status: 404 });
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    origin,
    host(name, text) {
      const bytes = new TextEncoder().encode(text);
      hosted.set(name, bytes);
      return { url: `${origin}/files/${name}`, fileName: name, size: bytes.byteLength, sha512: createHash("sha512").update(bytes).digest("hex") };
    },
    stop: () => server.stop(true),
  };
}
