// Test support only: archives built byte by byte, because the hostile ones (names with "..",
// absolute names, backslashes, links out) are exactly what zip and tar writers refuse to make.
import { crc32, deflateRawSync } from "node:zlib";

export interface RawEntry {
  name: string;
  data?: string | Buffer;
  /** Full Unix mode with type bits (0o100644 a file, 0o040755 a folder, 0o120777 a link). */
  mode?: number;
  /** Deflate the data (zip only). */
  deflate?: boolean;
}

export const FILE = 0o100644;
export const FOLDER = 0o040755;
export const LINK = 0o120777;

/** A zip with the given entries, names and modes as written, made on Unix. */
export function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const data = Buffer.from(entry.data ?? "");
    const stored = entry.deflate ? deflateRawSync(data) : data;
    const crc = crc32(data);
    const method = entry.deflate ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6); // names are UTF-8
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made on Unix: the mode is in the external attributes
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((entry.mode ?? (entry.name.endsWith("/") ? FOLDER : FILE)) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, stored);
    centrals.push(central, name);
    offset += local.length + name.length + stored.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export interface TarEntry {
  name: string;
  /** "0" file, "1" hard link, "2" symbolic link, "5" folder. */
  type?: "0" | "1" | "2" | "5";
  data?: string | Buffer;
  link?: string;
  mode?: number;
}

/** A ustar archive with the given entries, names and link targets as written. */
export function rawTar(entries: TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const type = entry.type ?? "0";
    const data = Buffer.from(type === "0" ? (entry.data ?? "") : "");
    const header = Buffer.alloc(512);
    header.write(entry.name, 0, 100, "utf8");
    header.write(octal(entry.mode ?? (type === "5" ? 0o755 : 0o644), 8), 100);
    header.write(octal(0, 8), 108);
    header.write(octal(0, 8), 116);
    header.write(octal(data.length, 12), 124);
    header.write(octal(1_700_000_000, 12), 136);
    header.write(type, 156);
    header.write(entry.link ?? "", 157, 100, "utf8");
    header.write("ustar\u000000", 257);
    header.fill(" ", 148, 156);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, "0")}\u0000 `, 148);
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, "0")}\u0000`;
}
