// Server definitions on disk: <data>/servers/<id>.json beside the server's folder
// <data>/servers/<id>/, written atomically (../write-json).
import { mkdirSync, readdirSync, readFileSync, rmSync, existsSync } from "node:fs";
import { join } from "node:path";
import { KilnError } from "../../core/errors";
import { removeJsonTemporaries, writeJsonAtomically } from "../write-json";
import { templateSchema, type ServerDefinition } from "../../core/definition";

/** Server ids are made by the panel; this shape keeps them safe as file names. */
export const SERVER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export class DefinitionStore {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = join(dataDir, "servers");
    mkdirSync(this.root, { recursive: true });
  }

  /** Temporary definition files a crash left half-written (the definitions themselves are whole). */
  removeTemporaries(): string[] {
    return removeJsonTemporaries(this.root);
  }

  ids(): string[] {
    return readdirSync(this.root)
      .filter((name) => name.endsWith(".json"))
      .map((name) => name.slice(0, -5))
      .filter((id) => SERVER_ID.test(id));
  }

  folder(id: string): string {
    return join(this.root, checkId(id));
  }

  exists(id: string): boolean {
    return existsSync(this.file(id));
  }

  read(id: string): ServerDefinition {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.file(id), "utf8"));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new KilnError("ErrNotFound", { id });
      throw new KilnError("ErrInvalidJson", { id }, `the definition of ${id} is not valid JSON`);
    }
    return parseDefinition(raw);
  }

  write(id: string, definition: ServerDefinition): void {
    writeJsonAtomically(this.file(id), definition);
    mkdirSync(this.folder(id), { recursive: true });
  }

  /**
   * The folder first, the definition last: a crash half way leaves the definition, so the server
   * is still known here and the panel's next delete (its reconcile) finishes the job.
   */
  remove(id: string): void {
    rmSync(this.folder(id), { recursive: true, force: true });
    rmSync(this.file(id), { force: true });
  }

  private file(id: string): string {
    return join(this.root, `${checkId(id)}.json`);
  }
}

export function parseDefinition(raw: unknown): ServerDefinition {
  const parsed = templateSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new KilnError("ErrInvalidJson", { field: issue?.path.join(".") ?? "" }, `invalid definition: ${issue?.path.join(".")}: ${issue?.message}`);
  }
  return parsed.data;
}

function checkId(id: string): string {
  if (!SERVER_ID.test(id)) throw new KilnError("ErrNotFound", { id });
  return id;
}
