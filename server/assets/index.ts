export { loadAssets, assetsFromFiles, filesToEmbed, contentType } from "./load";
export { AssetStore, makeAsset, type Asset } from "./store";
export { useEmbeddedFiles } from "./embedded";
export { buildBundles, type EntryName } from "./build-bundles";
