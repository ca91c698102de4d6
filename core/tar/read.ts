// Reads a ustar archive block by block (512 bytes); regular files only. No I/O, runs in the browser.
import { BLOCK, headerName, headerOctal, headerSize, headerType } from "./header";

export interface TarFile {
  name: string;
  data: Uint8Array;
}

export function readTar(archive: Uint8Array): TarFile[] {
  const files: TarFile[] = [];
  for (let pos = 0; pos + BLOCK <= archive.length; ) {
    const header = archive.subarray(pos, pos + BLOCK);
    if (header.every((b) => b === 0)) break;
    const stored = headerOctal(header, 148, 8);
    const sum = header.reduce((a, b, i) => a + (i >= 148 && i < 156 ? 0x20 : b), 0);
    if (stored !== sum) throw new Error("tar: bad header checksum");
    const size = headerSize(header);
    const name = headerName(header);
    const type = headerType(header);
    pos += BLOCK;
    if (pos + size > archive.length) throw new Error("tar: truncated archive");
    if (type === "0" || type === "\0") files.push({ name, data: archive.slice(pos, pos + size) });
    pos += Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}
