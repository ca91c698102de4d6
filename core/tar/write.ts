// Minimal ustar writer for small in-memory archives (theme packages). No I/O.
const BLOCK = 512;

export interface TarEntry {
  name: string;
  data: Uint8Array;
  mtime?: number;
}

const encoder = new TextEncoder();

function writeString(header: Uint8Array, offset: number, length: number, value: string): void {
  const bytes = encoder.encode(value);
  if (bytes.length > length) throw new Error(`tar: "${value}" does not fit in ${length} bytes`);
  header.set(bytes, offset);
}

function writeOctal(header: Uint8Array, offset: number, length: number, value: number): void {
  writeString(header, offset, length, value.toString(8).padStart(length - 1, "0") + "\0");
}

export function createTar(entries: TarEntry[]): Uint8Array {
  const size = entries.reduce((n, e) => n + BLOCK + Math.ceil(e.data.length / BLOCK) * BLOCK, 0) + 2 * BLOCK;
  const out = new Uint8Array(size);
  let pos = 0;
  for (const entry of entries) {
    const header = out.subarray(pos, pos + BLOCK);
    writeString(header, 0, 100, entry.name);
    writeOctal(header, 100, 8, 0o644);
    writeOctal(header, 108, 8, 0);
    writeOctal(header, 116, 8, 0);
    writeOctal(header, 124, 12, entry.data.length);
    writeOctal(header, 136, 12, Math.floor((entry.mtime ?? 0) / 1000));
    header.fill(0x20, 148, 156); // checksum is computed with its own field as spaces
    header[156] = 0x30; // '0': regular file
    writeString(header, 257, 6, "ustar\0");
    writeString(header, 263, 2, "00");
    const sum = header.reduce((a, b) => a + b, 0);
    writeString(header, 148, 8, sum.toString(8).padStart(6, "0") + "\0 ");
    pos += BLOCK;
    out.set(entry.data, pos);
    pos += Math.ceil(entry.data.length / BLOCK) * BLOCK;
  }
  return out; // the two zero blocks that end an archive are already zero
}
