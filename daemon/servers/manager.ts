// All servers of this node: loads definitions at start-up, re-attaches what still runs,
// autostarts, and creates, updates, reloads and deletes servers for the API.
import { join } from "node:path";
import { mkdirSync } from "node:fs";
import { KilnError } from "../../core/errors";
import type { ServerDefinition } from "../../core/definition";
import { DefinitionStore } from "./store";
import { removePartialFiles } from "../files/partial-file";
import { Server, type ServerDeps } from "./server";
import type { ServerUsers } from "../environment/server-user";
import { InstallRecord } from "./install-record";

export type ManagerDeps = Omit<ServerDeps, "serverDir" | "user" | "saveDefinition" | "installRecord"> & { dataDir: string; log: (line: string) => void; users: ServerUsers };

export class ServerManager {
  private readonly servers = new Map<string, Server>();
  private readonly removeListeners = new Set<(id: string) => void>();
  private readonly addListeners = new Set<(server: Server) => void>();
  readonly store: DefinitionStore;

  constructor(private readonly deps: ManagerDeps) {
    this.store = new DefinitionStore(deps.dataDir);
    mkdirSync(join(deps.binariesDir, "bin"), { recursive: true });
  }

  /**
   * Loads every definition; clears what a crash left (temporary definition and upload files);
   * re-attaches servers still running; starts those with autostart.
   */
  async boot(): Promise<void> {
    const temporaries = this.store.removeTemporaries();
    if (temporaries.length > 0) this.deps.log(`kiln daemon: removed ${temporaries.length} unfinished definition file(s) left by a crash`);
    // Every uid a folder carries is noted first, so no server is handed another's.
    this.deps.users.reserve(this.store.ids().map((id) => this.store.folder(id)));
    for (const id of this.store.ids()) {
      try {
        this.add(id, this.store.read(id));
      } catch (error) {
        this.deps.log(`kiln daemon: skipping server ${id}: ${(error as Error).message}`);
      }
    }
    for (const server of this.servers.values()) {
      server.recoverKeptFiles();
      const partial = removePartialFiles(server.jail);
      if (partial.length > 0) this.deps.log(`kiln daemon: removed ${partial.length} unfinished upload(s) left by a crash in server ${server.id}: ${partial.join(", ")}`);
    }
    await Promise.all(
      [...this.servers.values()].map(async (server) => {
        if (await server.reattach()) return;
        if (!server.definition.run.autostart) return;
        await server.power("start").catch((error) => this.deps.log(`kiln daemon: autostart of ${server.id} failed: ${(error as Error).message}`));
      }),
    );
  }

  get(id: string): Server {
    const server = this.servers.get(id);
    if (!server) throw new KilnError("ErrNotFound", { id }, `no server ${id} on this node`);
    return server;
  }

  /** The server, or undefined when this node has none by that id. */
  find(id: string): Server | undefined {
    return this.servers.get(id);
  }

  list(): Server[] {
    return [...this.servers.values()];
  }

  create(id: string, definition: ServerDefinition): Server {
    if (this.servers.has(id)) throw new KilnError("ErrDuplicateServerName", { id });
    this.store.write(id, definition);
    return this.add(id, definition);
  }

  update(id: string, definition: ServerDefinition): Server {
    const server = this.get(id);
    this.store.write(id, definition);
    server.setDefinition(definition);
    return server;
  }

  /** Re-reads a definition someone edited on disk. */
  reload(id: string): Server {
    const server = this.get(id);
    server.setDefinition(this.store.read(id));
    return server;
  }

  async remove(id: string): Promise<void> {
    // A definition that did not load (broken by hand) is still the panel's to delete.
    if (!this.servers.has(id) && this.store.exists(id)) {
      this.installRecord(id).remove();
      return this.store.remove(id);
    }
    const server = this.get(id);
    this.servers.delete(id);
    for (const listener of this.removeListeners) listener(id);
    await server.destroy();
    this.store.remove(id);
    this.installRecord(id).remove();
    this.deps.users.release(server.user);
  }

  /** Told of every server this node holds, now and whenever one is loaded or created later. */
  onEachServer(listener: (server: Server) => void): void {
    this.addListeners.add(listener);
    for (const server of this.servers.values()) listener(server);
  }

  /** Told when a server is deleted, before it stops (its tasks go first, so none starts it again). */
  onRemove(listener: (id: string) => void): void {
    this.removeListeners.add(listener);
  }

  /**
   * Daemon shutdown: host processes cannot outlive the daemon's pipes, so they are stopped
   * (autostart brings them back); containers keep running and are re-attached next time.
   */
  async shutdown(): Promise<void> {
    await Promise.all(
      this.list()
        .filter((server) => server.definition.environment.type !== "docker" && server.isRunning())
        // A stop refused (a start asked meanwhile took its place: ErrPowerReplaced) is killed all the same.
        .map((server) => Promise.race([server.stop().catch(() => undefined), Bun.sleep(this.deps.stopTimeoutMs)]).then(() => server.kill())),
    );
  }

  /** Beside the server folders (one file system, so keeping files aside is a rename), a name no server id can have. */
  private installRecord(id: string): InstallRecord {
    return new InstallRecord(join(this.store.root, ".install"), id);
  }

  private add(id: string, definition: ServerDefinition): Server {
    mkdirSync(this.store.folder(id), { recursive: true });
    const user = this.deps.users.claim(this.store.folder(id));
    // A variable a step sets (v3's outputVariable) is kept in the definition on disk.
    const server = new Server(id, definition, { ...this.deps, serverDir: this.store.folder(id), user, saveDefinition: (next) => this.store.write(id, next), installRecord: this.installRecord(id) });
    this.servers.set(id, server);
    for (const listener of this.addListeners) listener(server);
    return server;
  }
}
