export { createTar, type TarEntry } from "./write";
export { readTar, type TarFile } from "./read";
