// restic's view of the host while it reads a server's folder (./backup-view): the folder, what the
// target needs, the system's programs; no credential file, no /proc, no /etc unless S3 needs its
// resolver and certificates; a link from the folder into the host leads nowhere.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkView, viewArgs, type ViewNeeds } from "./backup-view";

const root = mkdtempSync(join(tmpdir(), "kiln-view-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const data = join(root, "data");
const backups = join(data, "backups");
for (const sub of ["local", "cache", "tmp", "keys", "servers"]) mkdirSync(join(backups, sub), { recursive: true });
const folder = join(data, "servers", "one");
mkdirSync(folder, { recursive: true });
const cat = Bun.which("cat")!;
const needs = (more: Partial<ViewNeeds> = {}): ViewNeeds => ({ bin: cat, folder, readable: [], writable: [join(backups, "local"), join(backups, "cache"), join(backups, "tmp")], network: false, relay: false, hidden: [data], ...more });
/** Every path the view shows (what follows a bind or tmpfs option). */
const shown = (args: string[]) => args.flatMap((word, i) => (["--ro-bind", "--bind"].includes(args[i - 1] ?? "") ? [] : ["--ro-bind", "--bind"].includes(word) ? [args[i + 2]!] : []));

describe("what restic's view shows", () => {
  test("own disk: the folder, the repository, cache and scratch; no network, one capability; no /etc, /proc or key", () => {
    const args = viewArgs("/usr/bin/bwrap", needs());
    expect(args).toContain("--unshare-net");
    if (process.getuid?.() === 0) expect(args.join(" ")).toContain("--cap-drop ALL --cap-add CAP_DAC_READ_SEARCH");
    expect(args).not.toContain("--proc");
    expect(args).not.toContain("--unshare-pid");
    const paths = shown(args);
    expect(paths.filter((p) => p.startsWith("/etc") || p.startsWith("/proc") || p.includes("/keys"))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining([folder, join(backups, "local"), join(backups, "cache"), join(backups, "tmp")]));
    expect(args.slice(-4)).toEqual([folder, "--chdir", folder, "--"]);
  });

  test("S3: the network, the resolver's and certificates' files, the CA certificate alone of the keys folder", () => {
    const ca = join(backups, "keys", "s3-ca.pem");
    writeFileSync(ca, "cert");
    const args = viewArgs("/usr/bin/bwrap", needs({ network: true, readable: [ca], writable: [join(backups, "cache"), join(backups, "tmp")] }));
    expect(args).not.toContain("--unshare-net");
    const paths = shown(args);
    expect(paths.filter((p) => p.includes("/keys"))).toEqual([ca]);
    expect(paths.filter((p) => p.startsWith("/etc")).every((p) => ["/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/host.conf", "/etc/gai.conf"].includes(p) || p.startsWith("/etc/ssl/") || p.startsWith("/etc/pki/"))).toBe(true);
    expect(paths).not.toContain("/etc/ssl/private");
  });

  test("a hidden folder under a system folder is covered", () => {
    const args = viewArgs("/usr/bin/bwrap", needs({ hidden: ["/usr/share"] }));
    expect(args.join(" ")).toContain("--tmpfs /usr/share");
  });
});

describe("a link into the host leads nowhere in it", () => {
  test("read through a link in the folder: there outside, nothing inside", async () => {
    const check = await checkView(Bun.which("restic") ?? cat, join(backups, "tmp"));
    if (check.bwrap === null) return console.log(`skipped: ${check.problem}`);
    const host = mkdtempSync(join(tmpdir(), "kiln-view-host-"));
    try {
      writeFileSync(join(host, "secret.txt"), "HOST SECRET");
      symlinkSync(host, join(folder, "l"));
      const outside = Bun.spawnSync([cat, "l/secret.txt"], { cwd: folder });
      expect(outside.stdout.toString()).toBe("HOST SECRET");
      const inside = Bun.spawnSync([...viewArgs(check.bwrap, needs()), cat, "l/secret.txt"], { cwd: folder });
      expect({ code: inside.exitCode, out: inside.stdout.toString() }).toEqual({ code: 1, out: "" });
      expect(inside.stderr.toString()).toContain("No such file");
      // Nor the repository's password, or the node's data beside the folder.
      writeFileSync(join(backups, "keys", "local.password"), "PASSWORD");
      const key = Bun.spawnSync([...viewArgs(check.bwrap, needs()), cat, join(backups, "keys", "local.password")], { cwd: folder });
      expect(key.stdout.toString()).toBe("");
    } finally {
      rmSync(host, { recursive: true, force: true });
      rmSync(join(folder, "l"), { force: true });
    }
  });
});
