// The node's backup targets and their restic repositories: one repository per target,
// each with a password the node generated and keeps. Everything lives under <data>/backups/,
// a folder only the node may open (0700; server processes run as other users): targets.json
// with the targets' credentials, keys/<target>.password, ssh/<target>.key and .known_hosts,
// cache/ (restic's), tmp/ (the temporary files of a backup's restic, in its view), and local/
// (the node's own repository).
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { KilnError } from "../../core/errors";
import { TARGET_KINDS, parseTarget, targetView, type OffNodeTarget, type TargetKind, type TargetView } from "../../core/backups";
import { writeJsonAtomically } from "../write-json";
import { Restic, quote, type RepositoryView } from "./restic";
import { lightenKey } from "./light-key";
import { assertOutboundAllowed, type OwnServices } from "../net/outbound-guard";

type Stored = Partial<Record<TargetKind, OffNodeTarget>>;

export class BackupTargets {
  readonly dir: string;
  private readonly ready = new Map<TargetKind, Promise<Restic>>();

  constructor(
    dataDir: string,
    private readonly restic: () => Promise<string>,
    private readonly log: (line: string) => void,
    /** The PATH restic runs with (it starts ssh for SFTP targets). */
    private readonly path = "/usr/bin:/bin",
    /** The node's own ports: a target may not lead back to them (daemon/net/outbound-guard). */
    private readonly own: OwnServices = { ports: [] },
  ) {
    this.dir = join(dataDir, "backups");
    for (const sub of ["", "keys", "ssh", "cache", "servers", "tmp"]) mkdirSync(join(this.dir, sub), { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
  }

  list(): TargetView[] {
    const stored = this.read();
    return TARGET_KINDS.map((kind) => targetView(kind === "local" ? null : stored[kind] ?? null, kind));
  }

  isKind(kind: string): kind is TargetKind {
    return (TARGET_KINDS as readonly string[]).includes(kind);
  }

  /**
   * Sets an off-node target; a new place means a new repository (made at its first use). A
   * `repositoryPassword` sent with it is the password of a repository already there (one another
   * node made, for a node rebuilt from its backups); none keeps the node's own.
   */
  async set(kind: string, raw: unknown): Promise<TargetView> {
    if (kind === "local" || !this.isKind(kind)) throw new KilnError("ErrNotFound", { target: kind });
    const { repositoryPassword, ...fields } = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
    const password = parseRepositoryPassword(repositoryPassword);
    const stored = this.read();
    const target = parseTarget({ ...fields, kind }, stored[kind] ?? null);
    await this.assertReachable(target);
    if (password) writeFileSync(join(this.dir, "keys", `${kind}.password`), password, { mode: 0o600 });
    stored[kind] = target;
    writeJsonAtomically(this.file(), stored);
    if (target.kind === "sftp") writeFileSync(join(this.dir, "ssh", "sftp.key"), target.privateKey, { mode: 0o600 });
    if (target.kind === "s3") writeFileSync(join(this.dir, "keys", "s3-ca.pem"), target.caCert, { mode: 0o600 });
    this.ready.delete(kind);
    return targetView(target, kind);
  }

  /** Forgets an off-node target (its repository stays where it is); servers using it fall back to nothing until an administrator picks another. */
  async remove(kind: string): Promise<void> {
    if (kind === "local" || !this.isKind(kind)) throw new KilnError("ErrNotFound", { target: kind });
    const stored = this.read();
    delete stored[kind];
    writeJsonAtomically(this.file(), stored);
    this.ready.delete(kind);
    await rm(join(this.dir, "ssh", `${kind}.key`), { force: true });
    await rm(join(this.dir, "keys", `${kind}-ca.pem`), { force: true });
  }

  /**
   * The target's repository password, for an administrator to keep somewhere else: without it the
   * repository cannot be read, so a node lost with its disk could not be rebuilt from an off-node
   * target. Made now if the target has none yet.
   */
  passwordOf(kind: string): string {
    if (!this.isKind(kind)) throw new KilnError("ErrNotFound", { target: kind });
    if (kind !== "local" && !this.read()[kind]) throw new KilnError("ErrSettingNotConfigured", { name: `backup target ${kind}` });
    return readFileSync(this.password(kind), "utf8");
  }

  /** restic for the target's repository, initialised on first use; where it leads is checked at every use. */
  async repository(kind: string): Promise<Restic> {
    if (!this.isKind(kind)) throw new KilnError("ErrSettingNotConfigured", { name: `backup target ${kind}` });
    const target = kind === "local" ? undefined : this.read()[kind];
    if (target) await this.assertReachable(target);
    let ready = this.ready.get(kind);
    if (!ready) {
      ready = this.open(kind).catch((error) => {
        this.ready.delete(kind);
        throw error;
      });
      this.ready.set(kind, ready);
    }
    return ready;
  }

  private async open(kind: TargetKind): Promise<Restic> {
    const restic = new Restic({ bin: await this.restic(), ...this.where(kind), log: this.log });
    // `cat config` answers only for an existing repository that this password opens.
    const exists = await restic.run(["cat", "config", "--no-lock"]).then(() => true, () => false);
    if (!exists) {
      await restic.run(["init"]);
      this.log(`kiln daemon: made the backup repository of target ${kind}`);
    }
    // The own-disk repository's password is the node's 256 random bits: its key needs no stretching.
    if (kind === "local") await lightenKey(restic, join(this.dir, "local"), readFileSync(this.password(kind), "utf8"), this.log);
    return restic;
  }

  /** The target's host must lead only where the node may be sent (not back to itself, not loopback). */
  private async assertReachable(target: OffNodeTarget): Promise<void> {
    if (target.kind === "sftp") return assertOutboundAllowed(target.host, target.port, "host", this.own);
    const url = new URL(target.endpoint);
    return assertOutboundAllowed(url.hostname, Number(url.port || (url.protocol === "https:" ? 443 : 80)), "endpoint", this.own);
  }

  /**
   * Where the target's repository is and how restic reaches it; and what a backup's restic needs
   * in its view (./backup-view): the own-disk repository's folder, or an S3 target's network and
   * CA certificate, or an SFTP target's ssh command (run outside the view); never a key or password file.
   */
  private where(kind: TargetKind): { env: Record<string, string>; options: string[]; view: RepositoryView } {
    const env: Record<string, string> = {
      PATH: this.path,
      HOME: this.dir,
      RESTIC_PASSWORD_FILE: this.password(kind),
      RESTIC_CACHE_DIR: join(this.dir, "cache"),
    };
    const view = { writable: [join(this.dir, "cache"), join(this.dir, "tmp")], readable: [] as string[], network: false, scratch: join(this.dir, "tmp"), hidden: [dirname(this.dir)] };
    if (kind === "local") return { env: { ...env, RESTIC_REPOSITORY: join(this.dir, "local") }, options: [], view: { ...view, writable: [join(this.dir, "local"), ...view.writable] } };
    const target = this.read()[kind];
    if (!target) throw new KilnError("ErrSettingNotConfigured", { name: `backup target ${kind}` });
    if (target.kind === "s3") {
      const path = target.path.replace(/^\/+|\/+$/g, "");
      const caCert = join(this.dir, "keys", "s3-ca.pem");
      return {
        env: { ...env, RESTIC_REPOSITORY: `s3:${target.endpoint}/${target.bucket}${path ? `/${path}` : ""}`, AWS_ACCESS_KEY_ID: target.accessKeyId, AWS_SECRET_ACCESS_KEY: target.secretAccessKey, ...(target.region ? { AWS_DEFAULT_REGION: target.region } : {}) },
        options: target.caCert ? ["--cacert", caCert] : [],
        view: { ...view, network: true, readable: target.caCert ? [caCert] : [] },
      };
    }
    // ssh is given the key and known-hosts files by name; "--" never needed: host and user are plain names (core/backups/targets).
    const ssh = join(this.dir, "ssh");
    const command = ["ssh", "-i", `${ssh}/sftp.key`, "-p", String(target.port), "-o", `UserKnownHostsFile=${ssh}/sftp.known_hosts`, "-o", "StrictHostKeyChecking=accept-new", "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-l", target.user, target.host, "-s", "sftp"];
    return { env: { ...env, RESTIC_REPOSITORY: `sftp:${target.user}@${target.host}:${target.path}` }, options: ["-o", `sftp.command=${command.map(quote).join(" ")}`], view: { ...view, ssh: command } };
  }

  /** The repository's password file, made (32 random bytes) the first time. */
  private password(kind: TargetKind): string {
    const file = join(this.dir, "keys", `${kind}.password`);
    if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    return file;
  }

  private file(): string {
    return join(this.dir, "targets.json");
  }

  private read(): Stored {
    if (!existsSync(this.file())) return {};
    return JSON.parse(readFileSync(this.file(), "utf8")) as Stored;
  }
}

/** A repository password from an administrator: printable, one line, 16 to 256 characters; absent or empty is none. */
function parseRepositoryPassword(value: unknown): string | null {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value !== "string") throw new KilnError("ErrFieldRequired", { field: "repositoryPassword" });
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new KilnError("ErrFieldHasControlCharacters", { field: "repositoryPassword" });
  if (value.length < 16) throw new KilnError("ErrFieldLength", { field: "repositoryPassword", length: 16 });
  if (value.length > 256) throw new KilnError("ErrFieldTooLarge", { field: "repositoryPassword", max: 256 });
  return value;
}
