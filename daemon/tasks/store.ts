// A server's tasks on disk: <data>/tasks/<serverId>.json, a map by task id, written atomically
// (../write-json). Its bounds are core/tasks' (assertRoomFor, checked by the scheduler on every
// save); a file already past them, from before they were, still loads.
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { StoredTask } from "../../core/tasks";
import { SERVER_ID } from "../servers/store";
import { removeJsonTemporaries, writeJsonAtomically } from "../write-json";

export type TaskMap = Record<string, StoredTask>;

/** The task with this id, if the map holds it itself: an id such as "__proto__" or "toString" names nothing inherited. */
export function taskIn(tasks: TaskMap, id: string): StoredTask | undefined {
  return Object.hasOwn(tasks, id) ? tasks[id] : undefined;
}

export class TaskStore {
  private readonly root: string;

  constructor(dataDir: string) {
    this.root = join(dataDir, "tasks");
    mkdirSync(this.root, { recursive: true });
  }

  /** The server's tasks; none when it has no file yet. A damaged file is reported, not replaced. */
  read(serverId: string): TaskMap {
    try {
      const parsed = JSON.parse(readFileSync(this.file(serverId), "utf8")) as unknown;
      return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as TaskMap) : {};
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
      throw error;
    }
  }

  /** Temporary task files a crash left half-written (the task files themselves are whole). */
  removeTemporaries(): string[] {
    return removeJsonTemporaries(this.root);
  }

  write(serverId: string, tasks: TaskMap): void {
    writeJsonAtomically(this.file(serverId), tasks);
  }

  remove(serverId: string): void {
    rmSync(this.file(serverId), { force: true });
  }

  private file(serverId: string): string {
    if (!SERVER_ID.test(serverId)) throw new Error(`not a server id: ${serverId}`);
    return join(this.root, `${serverId}.json`);
  }
}
