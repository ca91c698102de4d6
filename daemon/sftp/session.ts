// One SFTP channel: the protocol's requests turned into jail operations on one server's folder.
// Every path goes through the same jail as the file API and the socket (daemon/files); every
// refusal becomes an SFTP status, and nothing a client sends can throw past this class. A session
// without the right to change files (putServerFiles, see the panel's login check) refuses every
// request that could change the disk with PERMISSION_DENIED, before touching it.
import { closeSync, constants, fstatSync, ftruncateSync, mkdirSync, readSync, rmdirSync, unlinkSync, writeSync } from "node:fs";
import { readLinkText } from "../files/link-text";
import type { Attributes, SFTPWrapper } from "ssh2";
import type { FileChangeDoor } from "../../core/activity/property-values";
import { KilnError } from "../../core/errors";
import type { Jail } from "../files/jail";
import { outside } from "../files/jail";
import { O_PATH } from "../files/openat2";
import { makeSymlink, renamePath, statPath } from "../files/operations";
import { chargeWrite } from "../files/quota";
import { FolderReader } from "../files/folder-reader";
import { refuseLinksLeadingOut } from "../files/moved-links";
import type { FileDenylist } from "../files/denylist";
import { longname, toAttrs } from "./attrs";
import { openFlags, opensForChange } from "./open-flags";
import { MAX_TRANSFER_BYTES, offerLimits } from "./openssh-limits";
import { toClientPath, toJailPath } from "./paths";
import { setAttributesOfFd, setAttributesOfPath } from "./set-attributes";
import { SftpRefusal, STATUS_CODE, toStatus } from "./status";

/** Open files and folders per channel: each handle holds a descriptor. */
export const MAX_HANDLES = 64;
/**
 * The most a READ answers, as announced to clients (./openssh-limits); a client asking for more
 * gets a short read, as the protocol allows.
 */
export const MAX_READ_BYTES = MAX_TRANSFER_BYTES;
/**
 * Where every READ lands, shared: the read is synchronous and ssh2's data() copies the bytes into
 * its packet before it returns, so the next read may reuse it. A fresh buffer per READ was 200 MB
 * of garbage per 200 MB download.
 */
const readBuffer = Buffer.allocUnsafe(MAX_READ_BYTES);
/**
 * Entries per READDIR answer, and the bytes they may take (clients accept 256 KiB packets). A
 * folder handle reads only these from the folder per READDIR (../files/folder-reader), so neither
 * its memory nor one request's time grows with the folder.
 */
const DIR_PAGE_ENTRIES = 128;
const DIR_PAGE_BYTES = 128 * 1024;
/**
 * Answers waiting for the client to open its window. A client that keeps asking without reading
 * the answers would otherwise grow the daemon's memory without bound; OpenSSH keeps 64 requests
 * in flight, so this is far beyond any real client, and bounds what one channel holds to about
 * 64 MB of full reads.
 */
export const MAX_QUEUED_ANSWERS = 256;

/** `refused`: a write to it failed; see write(). */
type FileHandle = { kind: "file"; fd: number; path: string; refused?: unknown; written?: boolean };
/** `reader` holds the folder's descriptor and at most one getdents buffer's names until CLOSE. */
type FolderHandle = { kind: "folder"; path: string; reader: FolderReader };
type Handle = FileHandle | FolderHandle;

export interface SessionContext {
  /** The server's jail, or null when the server is gone from this node (the session then ends). */
  jail(): Jail | null;
  /** The files of the template's fileDenylist, which a session neither opens nor renames, to or from. */
  denylist?(): FileDenylist | null;
  /** The user holds putServerFiles (or is an admin); otherwise the session is read-only. */
  canWrite: boolean;
  /** Why the server's files may not change now (held for a move: servers/folder-changes), or null. */
  held?(): KilnError | null;
  /** Ends the whole connection (server deleted, abusive client). */
  end(reason: string): void;
  /** Told of each change once it is made (the activity log): a file written and closed, a folder made, a removal, a rename. */
  changed?(event: SftpChange, properties: Record<string, unknown> & { via: FileChangeDoor }): void;
  log(line: string): void;
}

export type SftpChange = "server.file.write" | "server.file.delete" | "server.file.rename";

export class SftpSession {
  private readonly handles = new Map<number, Handle>();
  private nextHandle = 0;
  private closed = false;

  constructor(
    private readonly sftp: SFTPWrapper,
    private readonly ctx: SessionContext,
  ) {
    offerLimits(sftp, MAX_HANDLES);
    const on = (event: string, run: (reqid: number, ...args: any[]) => unknown) => sftp.on(event, (reqid: number, ...args: unknown[]) => this.run(reqid, () => run(reqid, ...args)));
    on("REALPATH", (id, path: string) => this.name(id, toClientPath(toJailPath(path))));
    on("STAT", (id, path: string) => this.sftp.attrs(id, toAttrs(statPath(this.jail(), toJailPath(path), true))));
    on("LSTAT", (id, path: string) => this.sftp.attrs(id, toAttrs(statPath(this.jail(), toJailPath(path), false))));
    on("OPEN", (id, path: string, pflags: number, attrs: Attributes) => this.open(id, path, pflags, attrs));
    on("READ", (id, handle: Buffer, offset: number, length: number) => this.read(id, handle, offset, length));
    on("WRITE", (id, handle: Buffer, offset: number, data: Buffer) => this.write(id, handle, offset, data));
    on("FSTAT", (id, handle: Buffer) => this.sftp.attrs(id, toAttrs(this.statHandle(handle))));
    on("FSETSTAT", (id, handle: Buffer, attrs: Attributes) => this.setHandleAttributes(id, handle, attrs));
    on("SETSTAT", (id, path: string, attrs: Attributes) => {
      this.mayChange();
      this.refuseDenied(toJailPath(path));
      setAttributesOfPath(this.jail(), toJailPath(path), attrs);
      this.ok(id);
    });
    on("CLOSE", (id, handle: Buffer) => this.close(id, handle));
    on("OPENDIR", (id, path: string) => this.openFolder(id, path));
    on("READDIR", (id, handle: Buffer) => this.readFolder(id, handle));
    on("MKDIR", (id, path: string, attrs: Attributes) => {
      this.mayChange();
      this.refuseDenied(toJailPath(path));
      // The entry is created inside its parent, which the jail opened beneath the root.
      this.jail().at(toJailPath(path), (entry) => {
        mkdirSync(entry, { mode: (attrs?.mode ?? 0o755) & 0o777 });
        this.jail().own(entry);
      });
      this.ok(id);
      this.ctx.changed?.("server.file.write", { path: toJailPath(path), folder: true, via: "sftp" });
    });
    on("RMDIR", (id, path: string) => {
      this.mayChange();
      this.jail().at(toJailPath(path), (entry) => rmdirSync(entry));
      this.ok(id);
      this.ctx.changed?.("server.file.delete", { path: toJailPath(path), via: "sftp" });
    });
    on("REMOVE", (id, path: string) => this.remove(id, path));
    on("RENAME", (id, from: string, to: string) => this.rename(id, from, to));
    on("READLINK", (id, path: string) => this.name(id, this.jail().at(toJailPath(path), readLinkText)));
    // ssh2 already puts OpenSSH's swapped arguments back in order: the link first, then its target.
    on("SYMLINK", (id, linkPath: string, target: string) => this.symlink(id, linkPath, target));
    // The client is done sending: close our side too, or the client waits for us forever.
    sftp.on("end", () => {
      this.dispose();
      sftp.end();
    });
    sftp.on("close", () => this.dispose());
  }

  /** Closes every descriptor this channel holds; later requests find no handles. */
  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const handle of this.handles.values()) closeHandle(handle);
    this.handles.clear();
  }

  private run(reqid: number, fn: () => unknown): void {
    try {
      if (this.queuedAnswers() > MAX_QUEUED_ANSWERS) return this.ctx.end("the client asks faster than it reads the answers");
      fn();
    } catch (error) {
      this.fail(reqid, error);
    }
  }

  private fail(reqid: number, error: unknown): void {
    const status = toStatus(error);
    if (status.unexpected) this.ctx.log(`kiln daemon: SFTP request failed: ${(error as Error)?.message ?? String(error)}`);
    this.sftp.status(reqid, status.code, status.message);
  }

  private ok(reqid: number): void {
    this.sftp.status(reqid, STATUS_CODE.OK);
  }

  private name(reqid: number, filename: string): void {
    this.sftp.name(reqid, [{ filename, longname: filename, attrs: {} as Attributes }]);
  }

  /**
   * Refuses a request that changes files when the user may only read them, or while the server is
   * held for a move. Requests are answered one at a time (see write), so none is under way when
   * a move's hold begins: each one after it is asked here, on a handle opened before too.
   */
  private mayChange(): void {
    if (!this.ctx.canWrite) throw new SftpRefusal(STATUS_CODE.PERMISSION_DENIED, "Read-only access");
    if (this.ctx.held?.()) throw new SftpRefusal(STATUS_CODE.PERMISSION_DENIED, "The server is being moved to another node");
  }

  private jail(): Jail {
    const jail = this.ctx.jail();
    if (jail) return jail;
    this.ctx.end("the server was deleted");
    throw new SftpRefusal(STATUS_CODE.NO_CONNECTION, "The server was deleted");
  }

  private queuedAnswers(): number {
    // ssh2 keeps answers it could not send yet (the client's window is shut) in this array.
    return ((this.sftp as unknown as { _buffer?: unknown[] })._buffer ?? []).length;
  }

  private addHandle(handle: Handle): Buffer {
    if (this.closed) throw new SftpRefusal(STATUS_CODE.FAILURE, "Session closed");
    const id = this.nextHandle++ >>> 0;
    this.handles.set(id, handle);
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32BE(id);
    return buffer;
  }

  private handle(buffer: Buffer): { id: number; handle: Handle } {
    const id = buffer.length === 4 ? buffer.readUInt32BE(0) : -1;
    const handle = this.handles.get(id);
    if (!handle) throw new SftpRefusal(STATUS_CODE.FAILURE, "Invalid handle");
    return { id, handle };
  }

  private fileHandle(buffer: Buffer): FileHandle {
    const { handle } = this.handle(buffer);
    if (handle.kind !== "file") throw new SftpRefusal(STATUS_CODE.FAILURE, "Not a file handle");
    return handle;
  }

  private open(reqid: number, path: string, pflags: number, attrs: Attributes): void {
    const flags = openFlags(pflags);
    if (flags === null) throw new SftpRefusal(STATUS_CODE.BAD_MESSAGE, "Open for neither reading nor writing");
    if (opensForChange(pflags)) this.mayChange();
    if (this.handles.size >= MAX_HANDLES) throw new SftpRefusal(STATUS_CODE.FAILURE, "Too many open handles");
    const normal = toJailPath(path);
    this.refuseDenied(normal);
    const existed = flags & constants.O_CREAT ? this.exists(normal) : true;
    // Truncated only once the file is known to be one this session may change (below).
    const fd = this.jail().open(normal, flags & ~constants.O_TRUNC, (attrs?.mode ?? 0o644) & 0o777);
    try {
      // What a link led to is judged too; a file the open made through a dangling link to a
      // denied name is taken away again, so a refusal leaves nothing behind.
      const real = this.jail().realRelative(`/proc/self/fd/${fd}`, normal);
      try {
        this.refuseDenied(real);
      } catch (error) {
        if (!existed) this.jail().at(real, (entry) => unlinkSync(entry));
        throw error;
      }
      const stats = fstatSync(fd);
      if (!stats.isFile()) throw new SftpRefusal(STATUS_CODE.FAILURE, "Not a regular file");
      // A hard link is the same file under another name, which may be outside the folder (as for
      // the file API, see daemon/files/open-regular.ts): neither read nor written through.
      if (stats.nlink > 1) throw new SftpRefusal(STATUS_CODE.PERMISSION_DENIED, "Permission denied");
      if (flags & constants.O_TRUNC) ftruncateSync(fd, 0);
      this.sftp.handle(reqid, this.addHandle({ kind: "file", fd, path: normal }));
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /**
   * Reads and writes are synchronous, as the file API's uploads (daemon/files/operations): a
   * pread or pwrite of up to 255 KiB on the page cache takes microseconds, less than handing it to the
   * thread pool and back, which cost a fifth of the CPU of a transfer. Each request is answered
   * before the next is read, so no operation is in flight when a handle closes.
   */
  private read(reqid: number, buffer: Buffer, offset: number, length: number): void {
    const handle = this.fileHandle(buffer);
    const size = Math.min(length, MAX_READ_BYTES);
    const bytes = readSync(handle.fd, readBuffer, 0, size, offset);
    if (bytes === 0 && size > 0) return this.sftp.status(reqid, STATUS_CODE.EOF);
    this.sftp.data(reqid, readBuffer.subarray(0, bytes));
  }

  /**
   * Writes go straight to the file at the client's offset: clients send many at once, in any order.
   * Once a write to a file is refused (the disk quota, a full disk), every later write to it and
   * its close are refused too. OpenSSH's client judges an upload by the last answer it reads: a
   * smaller last piece that still fitted would otherwise report a file with a hole as uploaded.
   * A write past the file's end is charged for the hole it leaves as well: the hole takes no disk
   * now, but the file's size is what a backup restores and a copy writes (./set-attributes).
   */
  private write(reqid: number, buffer: Buffer, offset: number, data: Buffer): void {
    // A read-only session has no handle open for writing; refusing here too keeps that true by rule.
    this.mayChange();
    const handle = this.fileHandle(buffer);
    if (handle.refused) throw handle.refused;
    try {
      // Counted whole, even where it overwrites: the next measurement corrects the figure.
      chargeWrite(this.jail(), data.length + Math.max(0, offset - fstatSync(handle.fd).size));
      for (let done = 0; done < data.length; ) done += writeSync(handle.fd, data, done, data.length - done, offset + done);
      handle.written = true;
    } catch (error) {
      handle.refused = error;
      throw error;
    }
    this.ok(reqid);
  }

  private close(reqid: number, buffer: Buffer): void {
    const { id, handle } = this.handle(buffer);
    this.handles.delete(id);
    closeHandle(handle);
    if (handle.kind === "file" && handle.refused) throw handle.refused;
    this.ok(reqid);
    if (handle.kind === "file" && handle.written) this.ctx.changed?.("server.file.write", { path: handle.path, via: "sftp" });
  }

  private statHandle(buffer: Buffer) {
    const { handle } = this.handle(buffer);
    return handle.kind === "file" ? fstatSync(handle.fd) : statPath(this.jail(), handle.path, true);
  }

  private setHandleAttributes(reqid: number, buffer: Buffer, attrs: Attributes): void {
    this.mayChange();
    const { handle } = this.handle(buffer);
    if (handle.kind === "file") setAttributesOfFd(this.jail(), handle.fd, attrs);
    else setAttributesOfPath(this.jail(), handle.path, attrs);
    this.ok(reqid);
  }

  private openFolder(reqid: number, path: string): void {
    if (this.handles.size >= MAX_HANDLES) throw new SftpRefusal(STATUS_CODE.FAILURE, "Too many open handles");
    const normal = toJailPath(path);
    // The folder is opened here (refused here when it is none); its entries are read page by
    // page as READDIR asks, as OpenSSH's sftp-server reads them: entries made or removed
    // meanwhile may or may not show.
    const reader = new FolderReader(this.jail(), normal);
    try {
      this.sftp.handle(reqid, this.addHandle({ kind: "folder", path: normal, reader }));
    } catch (error) {
      reader.close();
      throw error;
    }
  }

  private readFolder(reqid: number, buffer: Buffer): void {
    const { handle } = this.handle(buffer);
    if (handle.kind !== "folder") throw new SftpRefusal(STATUS_CODE.FAILURE, "Not a folder handle");
    const now = Date.now();
    const page = [];
    let bytes = 0;
    while (page.length < DIR_PAGE_ENTRIES && bytes < DIR_PAGE_BYTES) {
      const entry = handle.reader.read();
      if (!entry) break;
      const { name, stats } = entry;
      // lstat, as OpenSSH does: a symlink is listed as a link.
      const line = longname(name, stats, now);
      bytes += Buffer.byteLength(name) + Buffer.byteLength(line) + 64;
      page.push({ filename: name, longname: line, attrs: toAttrs(stats) });
    }
    if (page.length === 0) return this.sftp.status(reqid, STATUS_CODE.EOF);
    this.sftp.name(reqid, page);
  }

  private remove(reqid: number, path: string): void {
    this.mayChange();
    const jail = this.jail();
    const normal = toJailPath(path);
    if (statPath(jail, normal, false).isDirectory()) throw new SftpRefusal(STATUS_CODE.FAILURE, "Is a folder");
    jail.at(normal, (entry) => unlinkSync(entry));
    this.ok(reqid);
    this.ctx.changed?.("server.file.delete", { path: normal, via: "sftp" });
  }

  /** SFTP version 3 renames never replace: a target that exists is a failure. */
  /** Whether `normal` leads to something (links followed), so an open knows if it made the file. */
  private exists(normal: string): boolean {
    try {
      closeSync(this.jail().open(normal, O_PATH));
      return true;
    } catch {
      return false;
    }
  }

  /** ErrFileDenied for a path on the server's fileDenylist (daemon/files/denylist). */
  private refuseDenied(...paths: string[]): void {
    this.ctx.denylist?.()?.check(this.jail(), ...paths);
  }

  private rename(reqid: number, from: string, to: string): void {
    this.mayChange();
    const jail = this.jail();
    const target = toJailPath(to);
    // The denylist's rule for new names: a folder's content is judged too (daemon/files/denylist).
    this.ctx.denylist?.()?.checkMove(jail, toJailPath(from), target);
    if (exists(jail, target)) throw new SftpRefusal(STATUS_CODE.FAILURE, "Already exists");
    // A relative link may not be moved to where it points out of the folder (files/moved-links).
    refuseLinksLeadingOut(jail, jail.normalize(toJailPath(from)), jail.normalize(target));
    renamePath(jail, toJailPath(from), target);
    this.ok(reqid);
    this.ctx.changed?.("server.file.rename", { from: toJailPath(from), to: target, via: "sftp" });
  }

  /**
   * Links may only point inside the folder, by a relative target (makeSymlink judges it): the
   * server's own process follows links and is not jailed. An absolute target is refused rather
   * than rewritten, so a link never silently means something other than what was typed. The link
   * is a new entry under its name, so that name keeps to the denylist as every write does (a link
   * named `server.jar` would hand the server content under a denied name); what it points to is
   * judged when it is read or written through (OPEN judges where a path really leads).
   */
  private symlink(reqid: number, linkPath: string, target: string): void {
    this.mayChange();
    if (target.startsWith("/")) throw outside(target);
    this.refuseDenied(toJailPath(linkPath));
    makeSymlink(this.jail(), target, toJailPath(linkPath));
    this.ok(reqid);
  }
}

function closeHandle(handle: Handle): void {
  if (handle.kind === "file") closeQuietly(handle.fd);
  else handle.reader.close();
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

function exists(jail: Jail, path: string): boolean {
  try {
    statPath(jail, path, false);
    return true;
  } catch (error) {
    if (error instanceof KilnError && error.code === "ErrNotFound") return false;
    throw error;
  }
}
