// The entry names of a zip file, sorted: what a test compares an archive's contents by.
import { readFileSync } from "node:fs";
import { fromBuffer, type Entry, type ZipFile } from "yauzl";

export async function zipNames(file: string): Promise<string[]> {
  const zip = await new Promise<ZipFile>((resolve, reject) => fromBuffer(readFileSync(file), { lazyEntries: false }, (e, z) => (e ? reject(e) : resolve(z))));
  const names: string[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: Entry) => names.push(entry.fileName));
    zip.on("end", resolve);
    zip.on("error", reject);
  });
  return names.sort();
}
