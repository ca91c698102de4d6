// A real OpenSSH server for tests (Debian's openssh-server): its own host key, config and
// authorized key in a temporary folder, on a free port of `address` (loopback unless told), public-key logins only. The
// client key it accepts is returned for the test to hand to what it tests.
import { mkdirSync, writeFileSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { tempDir, freePort } from "./process";

export const SSHD_PATH = "/usr/sbin/sshd";

export interface TestSshd {
  port: number;
  user: string;
  /** The client's private key (OpenSSH format, no passphrase). */
  privateKey: string;
  stop(): void;
}

export async function startSshd(address = "127.0.0.1"): Promise<TestSshd> {
  const dir = tempDir("kiln-sshd-");
  const keygen = (file: string) => {
    const made = Bun.spawnSync(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", file]);
    if (made.exitCode !== 0) throw new Error(`ssh-keygen failed: ${made.stderr}`);
  };
  keygen(join(dir, "host_key"));
  keygen(join(dir, "client_key"));
  writeFileSync(join(dir, "authorized_keys"), readFileSync(join(dir, "client_key.pub")));
  // sshd insists on its privilege separation folder.
  if (!existsSync("/run/sshd")) mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  const port = await freePort();
  const user = (process.getuid?.() ?? 0) === 0 ? "root" : (process.env.USER ?? "root");
  writeFileSync(
    join(dir, "sshd_config"),
    [
      `Port ${port}`,
      `ListenAddress ${address}`,
      `HostKey ${join(dir, "host_key")}`,
      `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
      `PidFile ${join(dir, "sshd.pid")}`,
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "PermitRootLogin prohibit-password",
      "StrictModes no",
      "UsePAM no",
      "Subsystem sftp internal-sftp",
    ].join("\n") + "\n",
  );
  const proc = Bun.spawn([SSHD_PATH, "-D", "-e", "-f", join(dir, "sshd_config")], { stdout: "ignore", stderr: "pipe" });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ok = await Bun.connect({ hostname: address, port, socket: { data() {} } }).then((s) => (s.end(), true), () => false);
    if (ok) break;
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`sshd did not start: ${await new Response(proc.stderr).text()}`);
    await Bun.sleep(50);
  }
  return { port, user, privateKey: readFileSync(join(dir, "client_key"), "utf8"), stop: () => proc.kill() };
}
