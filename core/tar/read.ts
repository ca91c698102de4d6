// Reads a ustar archive block by block (512 bytes); regular files only. No I/O, runs in the browser.
const BLOCK = 512;
const decoder = new TextDecoder();

export interface TarFile {
  name: string;
  data: Uint8Array;
}

function readString(block: Uint8Array, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return decoder.decode(end === -1 ? field : field.subarray(0, end));
}

function readOctal(block: Uint8Array, offset: number, length: number): number {
  const text = readString(block, offset, length).trim();
  return text === "" ? 0 : parseInt(text, 8);
}

export function readTar(archive: Uint8Array): TarFile[] {
  const files: TarFile[] = [];
  for (let pos = 0; pos + BLOCK <= archive.length; ) {
    const header = archive.subarray(pos, pos + BLOCK);
    if (header.every((b) => b === 0)) break;
    const stored = readOctal(header, 148, 8);
    const sum = header.reduce((a, b, i) => a + (i >= 148 && i < 156 ? 0x20 : b), 0);
    if (stored !== sum) throw new Error("tar: bad header checksum");
    const size = readOctal(header, 124, 12);
    const prefix = readString(header, 345, 155);
    const name = (prefix ? `${prefix}/` : "") + readString(header, 0, 100);
    const type = String.fromCharCode(header[156] ?? 0x30);
    pos += BLOCK;
    if (pos + size > archive.length) throw new Error("tar: truncated archive");
    if (type === "0" || type === "\0") files.push({ name, data: archive.slice(pos, pos + size) });
    pos += Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}
