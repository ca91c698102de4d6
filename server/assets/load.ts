// Builds the AssetStore from the embedded files (compiled binary) or from the source tree.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { AssetStore, lazyAsset, makeAsset, type Asset } from "./store";
import { buildBundles, type EntryName } from "./build-bundles";
import { embeddedFiles } from "./embedded";

const STATIC_DIR = join(import.meta.dir, "..", "..", "static");
/** Prefix of bundle outputs inside the embedded file map (see build.ts). */
export const EMBEDDED_BUNDLE_PREFIX = "bundle/";
export const EMBEDDED_ENTRIES = "bundle/entries.json";

let loading: Promise<AssetStore> | undefined;

/** Once per process: tests start many apps, and the bundle does not change while running. */
export function loadAssets(): Promise<AssetStore> {
  loading ??= load();
  return loading;
}

async function load(): Promise<AssetStore> {
  const embedded = embeddedFiles();
  return embedded ? assetsFromFiles(embedded) : fromSource();
}

async function fromSource(): Promise<AssetStore> {
  const bundle = await buildBundles();
  const bundles = new Map<string, Asset>();
  for (const [name, blob] of bundle.files) bundles.set(name, await toAsset(name, blob));
  const statics = new Map<string, Asset>();
  for await (const rel of new Bun.Glob("**/*").scan({ cwd: STATIC_DIR, onlyFiles: true })) {
    if (rel.startsWith("css/")) continue; // the stylesheet is served from the bundle, minified and hashed
    statics.set(rel.split("\\").join("/"), await toAsset(rel, Bun.file(join(STATIC_DIR, rel))));
  }
  return new AssetStore(bundles, bundle.entries, statics);
}

/**
 * The files an executable embeds, by the names it embeds them under: build.ts's bundle folder
 * (its entries.json among them) and the static folder, except the stylesheet the bundle holds.
 */
export function filesToEmbed(bundleDir: string, staticDir = STATIC_DIR): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(bundleDir)) files[`${EMBEDDED_BUNDLE_PREFIX}${name}`] = join(bundleDir, name);
  for (const rel of new Bun.Glob("**/*").scanSync({ cwd: staticDir, onlyFiles: true })) {
    if (!rel.startsWith("css/")) files[`static/${rel}`] = join(staticDir, rel);
  }
  return files;
}

/** The assets from files named as filesToEmbed names them (the executable's, or a build's folder). */
export async function assetsFromFiles(files: Record<string, string>): Promise<AssetStore> {
  const bundles = new Map<string, Asset>();
  const statics = new Map<string, Asset>();
  for (const [rel, path] of Object.entries(files)) {
    if (rel === EMBEDDED_ENTRIES) continue;
    const asset = lazyAsset(() => readFileSync(path), contentType(rel));
    if (rel.startsWith(EMBEDDED_BUNDLE_PREFIX)) bundles.set(relative(EMBEDDED_BUNDLE_PREFIX, rel), asset);
    else if (rel.startsWith("static/") && !rel.startsWith("static/css/")) statics.set(relative("static", rel), asset);
  }
  const entriesPath = files[EMBEDDED_ENTRIES];
  if (!entriesPath) throw new Error("compiled binary has no bundle entries");
  const entries = (await Bun.file(entriesPath).json()) as Record<EntryName, string>;
  return new AssetStore(bundles, entries, statics);
}

async function toAsset(name: string, blob: Blob): Promise<Asset> {
  return makeAsset(new Uint8Array(await blob.arrayBuffer()), contentType(name));
}

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  woff2: "font/woff2",
  txt: "text/plain; charset=utf-8",
};

export function contentType(name: string): string {
  return TYPES[name.split(".").pop() ?? ""] ?? "application/octet-stream";
}
