// CurseForge's file fingerprint, by which its API recognises a file whatever its name (POST
// /v1/fingerprints): MurmurHash2 (32-bit, seed 1) of the file's bytes with every tab, line feed,
// carriage return and space left out. MurmurHash2 mixes the input's length in first, so the
// stripped length is counted in a first pass (`strippedLength`) and the bytes hashed in a second,
// chunk by chunk (a mod of hundreds of MB is never held whole; the npm `murmurhash` package hashes
// a whole buffer only, and is what the unit test checks this against).

const M = 0x5bd1e995;
const isWhitespace = (byte: number) => byte === 9 || byte === 10 || byte === 13 || byte === 32;

/** The number of bytes of `chunk` the fingerprint reads. */
export function strippedLength(chunk: Uint8Array): number {
  let count = 0;
  for (const byte of chunk) if (!isWhitespace(byte)) count++;
  return count;
}

export class Fingerprint {
  private h: number;
  private readonly block = new Uint8Array(4);
  private filled = 0;

  /** `length`: the stripped length of the whole file (the sum of strippedLength over its chunks). */
  constructor(length: number) {
    this.h = (1 ^ length) >>> 0;
  }

  update(chunk: Uint8Array): void {
    for (const byte of chunk) {
      if (isWhitespace(byte)) continue;
      this.block[this.filled++] = byte;
      if (this.filled < 4) continue;
      let k = this.block[0]! | (this.block[1]! << 8) | (this.block[2]! << 16) | (this.block[3]! << 24);
      k = Math.imul(k, M);
      k ^= k >>> 24;
      k = Math.imul(k, M);
      this.h = Math.imul(this.h, M) ^ k;
      this.filled = 0;
    }
  }

  digest(): number {
    let h = this.h;
    if (this.filled > 0) {
      if (this.filled >= 3) h ^= this.block[2]! << 16;
      if (this.filled >= 2) h ^= this.block[1]! << 8;
      h ^= this.block[0]!;
      h = Math.imul(h, M);
    }
    h ^= h >>> 13;
    h = Math.imul(h, M);
    h ^= h >>> 15;
    return h >>> 0;
  }
}
