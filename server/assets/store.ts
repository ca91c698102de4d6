// Everything the panel serves as a file: content-hashed bundles (cached for a year) and the
// static folder (themes, icons). From a checkout, held in memory and gzip-compressed at start-up;
// the executable's embedded files are read and compressed on their first request (lazyAsset).
import type { EntryName } from "./build-bundles";

export interface Asset {
  body: Uint8Array;
  gzip?: Uint8Array;
  type: string;
  etag: string;
}

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|x-tar)|image\/svg)/;

export function makeAsset(body: Uint8Array, type: string): Asset {
  const etag = `"${new Bun.CryptoHasher("sha1").update(body).digest("hex").slice(0, 16)}"`;
  const worthIt = COMPRESSIBLE.test(type) && body.length > 256;
  return { body, type, etag, gzip: worthIt ? Bun.gzipSync(body as Uint8Array<ArrayBuffer>, { level: 9 }) : undefined };
}

/**
 * An asset read and compressed on its first request rather than at start (the executable's
 * embedded files): an idle panel is asked for a few of them (the shell, the stylesheet), never
 * for most (editors, charts), and each read copies it out of the executable.
 */
export function lazyAsset(read: () => Uint8Array, type: string): Asset {
  let made: Asset | undefined;
  const asset = () => (made ??= makeAsset(read(), type));
  return {
    type,
    get body() {
      return asset().body;
    },
    get gzip() {
      return asset().gzip;
    },
    get etag() {
      return asset().etag;
    },
  };
}

export class AssetStore {
  constructor(
    /** bundle file name → asset, served under /assets/ */
    readonly bundles: Map<string, Asset>,
    readonly entries: Record<EntryName, string>,
    /** path relative to static/ → asset */
    readonly statics: Map<string, Asset>,
  ) {}

  /** The URL of a bundle entry ("client", "shell", "css"). */
  url(entry: EntryName): string {
    return `/assets/${this.entries[entry]}`;
  }
}
