// Modpacks a user uploads (a .mrpack of their own), kept by the node outside the server's folder
// (<dataDir>/mod-uploads/<server>/<id>.mrpack: its users cannot change it between the plan and the
// change) until they are used or grow old. An upload is known by a random id and the SHA-512 of
// its bytes, which the plan and the change must both name: the change places exactly what was
// planned. At most MAX_PACK_BYTES are written (ErrModTooLarge beyond, nothing kept), one upload at
// a time per server for its co-users and one for its owner and administrators (ModChanges:
// ./changes), so the uploads kept stay within one more than KEPT_PER_SERVER.
import { createHash, randomUUID } from "node:crypto";
import { createReadStream, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { KilnError } from "../../core/errors";
import { MAX_PACK_BYTES } from "../../core/mods/pack";

/** How long an upload waits to be planned and applied (a plan is kept 15 minutes). */
export const UPLOAD_TTL_MS = 60 * 60 * 1000;
/** Uploads kept per server: the oldest goes first. */
const KEPT_PER_SERVER = 3;
const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface StoredUpload {
  upload: string;
  size: number;
  sha512: string;
}

export class PackUploads {
  constructor(private readonly root: string) {
    mkdirSync(root, { recursive: true, mode: 0o700 });
  }

  /** Writes the body as a new upload of the server's; throws ErrModTooLarge past the limit. */
  async store(serverId: string, body: ReadableStream<Uint8Array> | null, now = Date.now()): Promise<StoredUpload> {
    const dir = this.dir(serverId);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.prune(dir, now);
    const upload = randomUUID();
    const path = join(dir, `${upload}.mrpack`);
    const file = await open(path, "wx", 0o600);
    const hash = createHash("sha512");
    let size = 0;
    try {
      if (body) {
        for await (const chunk of body) {
          size += chunk.byteLength;
          if (size > MAX_PACK_BYTES) throw new KilnError("ErrModTooLarge", { fileName: "pack.mrpack", size: MAX_PACK_BYTES });
          hash.update(chunk);
          await file.write(chunk);
        }
      }
      await file.close();
    } catch (error) {
      await file.close().catch(() => undefined);
      rmSync(path, { force: true });
      throw error;
    }
    return { upload, size, sha512: hash.digest("hex") };
  }

  /** The upload's bytes, checked against `sha512` as they are read (ErrModHashMismatch at the end); ErrNotFound for an unknown id. */
  async *read(serverId: string, upload: string, sha512: string): AsyncGenerator<Uint8Array> {
    const path = this.path(serverId, upload);
    const hash = createHash("sha512");
    for await (const chunk of createReadStream(path)) {
      hash.update(chunk as Buffer);
      yield chunk as Buffer;
    }
    if (hash.digest("hex") !== sha512) throw new KilnError("ErrModHashMismatch", { fileName: "pack.mrpack" });
  }

  /** Drops an upload once its change is made. */
  remove(serverId: string, upload: string): void {
    if (UPLOAD_ID.test(upload)) rmSync(join(this.dir(serverId), `${upload}.mrpack`), { force: true });
  }

  /** Drops a removed server's uploads. */
  forgetServer(serverId: string): void {
    rmSync(this.dir(serverId), { recursive: true, force: true });
  }

  private path(serverId: string, upload: string): string {
    const path = join(this.dir(serverId), `${upload}.mrpack`);
    try {
      if (UPLOAD_ID.test(upload) && statSync(path).isFile()) return path;
    } catch {
      // not there
    }
    throw new KilnError("ErrNotFound", { id: upload.slice(0, 64) });
  }

  private dir(serverId: string): string {
    return join(this.root, serverId);
  }

  /** Old uploads go, and the oldest beyond the number kept. */
  private prune(dir: string, now: number): void {
    const files = readdirSync(dir)
      .map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    files.forEach((file, i) => {
      if (i >= KEPT_PER_SERVER - 1 || now - file.at > UPLOAD_TTL_MS) rmSync(join(dir, file.name), { force: true });
    });
  }
}
