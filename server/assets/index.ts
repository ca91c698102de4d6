export { loadAssets, contentType, EMBEDDED_BUNDLE_PREFIX, EMBEDDED_ENTRIES } from "./load";
export { AssetStore, makeAsset, type Asset } from "./store";
export { useEmbeddedFiles } from "./embedded";
export { buildBundles, type EntryName } from "./build-bundles";
