// Bundles under /assets/ (content-hashed: cached for a year) and the static folder under /static/.
import { Hono, type Context } from "hono";
import type { Asset } from "../assets";
import type { Deps } from "../deps";

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "public, max-age=3600, must-revalidate";

// Each asset's bytes as a Blob, made once: an answer made from a Blob shares its bytes, one made
// from a Uint8Array copies them (an 88 kB stylesheet, per request).
const blobs = new WeakMap<Uint8Array, Blob>();
function blobOf(bytes: Uint8Array): Blob {
  let blob = blobs.get(bytes);
  if (!blob) blobs.set(bytes, (blob = new Blob([bytes as Uint8Array<ArrayBuffer>])));
  return blob;
}

/** Sends an in-memory asset, gzip when the client takes it, 304 when its copy is current. */
export function sendAsset(c: Context, asset: Asset, cacheControl: string): Response {
  const headers: Record<string, string> = { "Content-Type": asset.type, "Cache-Control": cacheControl, ETag: asset.etag, Vary: "Accept-Encoding" };
  if (c.req.header("if-none-match") === asset.etag) return c.body(null, 304, headers);
  if (asset.gzip && /\bgzip\b/.test(c.req.header("accept-encoding") ?? "")) {
    return c.body(blobOf(asset.gzip), 200, { ...headers, "Content-Encoding": "gzip" });
  }
  return c.body(blobOf(asset.body), 200, headers);
}

export function assetRoutes(deps: Deps) {
  const app = new Hono();
  app.get("/assets/:file", (c) => {
    const asset = deps.assets.bundles.get(c.req.param("file"));
    return asset ? sendAsset(c, asset, IMMUTABLE) : c.notFound();
  });
  app.get("/static/*", (c) => {
    // Looked up as a key of an in-memory map, so no path ever touches the file system.
    const asset = deps.assets.statics.get(c.req.path.slice("/static/".length));
    return asset ? sendAsset(c, asset, REVALIDATE) : c.notFound();
  });
  return app;
}
