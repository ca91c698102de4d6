// Attack: another user of a new node's machine watching the process list while an operator runs
// the one-line install as root. The command's deployment token opens the node's config, which holds
// the node's secret, for an hour; the secret signs every call between panel and node, so whoever
// holds it is the node to the panel and the panel to the node. The config is written readable by
// root only, but the install handed the token to curl as an argument (`-H 'Authorization: Bearer
// kd1…'`), and any local user reads a process's arguments (/proc/<pid>/cmdline, `ps`) for as long
// as the executable downloads. Here the line is run as an operator runs it, typed into a root shell
// (its text on the shell's input, never in an argument), the download is held a moment as a slow
// link holds it, and a watcher reads every process's arguments meanwhile.
import { expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { testPanel } from "../helpers/app";
import { tempDir } from "../helpers/process";
import { partAvailable } from "../helpers/require-part";
import { createNode, getNodeRow, nodeDeployment } from "../../server/services/nodes";

const runnable = partAvailable("bubblewrap and curl, as root", () => Boolean(Bun.which("bwrap") && Bun.which("curl")) && process.getuid?.() === 0);

/** Every process's arguments as any local user reads them, joined by spaces. */
function processArguments(): string[] {
  const seen: string[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      seen.push(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" "));
    } catch {
      // ended meanwhile
    }
  }
  return seen;
}

test.if(runnable)("no process on the new machine shows the deployment token while the install runs", async () => {
  const exe = join(tempDir("kiln-exe-"), "kiln");
  writeFileSync(exe, randomBytes(50_000));
  const panel = await testPanel({ executable: exe });
  // The panel, served; the executable's download takes a moment, as over a real link (92 MiB).
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req) => {
      if (new URL(req.url).pathname.endsWith("/kiln")) await Bun.sleep(1500);
      return panel.app.fetch(req);
    },
  });
  try {
    const node = await createNode(panel.db, { name: "fresh", publicHost: "games.example.com", publicPort: 8081, privateHost: "10.0.0.4", privatePort: 8081, sftpPort: 5657 });
    const { install } = nodeDeployment(await getNodeRow(panel.db, node.id), `http://127.0.0.1:${server.port}`);
    const token = /kd1\.[A-Za-z0-9_.-]+/.exec(install)![0];

    const root = tempDir("kiln-install-watch-");
    for (const dir of ["bin", "etc", "fake"]) mkdirSync(join(root, dir));
    writeFileSync(join(root, "fake", "systemctl"), "#!/bin/sh\n", { mode: 0o755 });
    const leaked = new Set<string>();
    const watcher = setInterval(() => {
      for (const args of processArguments()) if (args.includes(token)) leaked.add(args);
    }, 10);
    try {
      // Typed into a root shell: the line reaches the shell on its input.
      const child = Bun.spawn(["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", root, root, "--bind", join(root, "bin"), "/usr/local/bin", "--bind", join(root, "etc"), "/etc", "--setenv", "PATH", `${join(root, "fake")}:/usr/bin:/bin`, "sh"], { stdin: new Blob([`${install}\n`]), stdout: "pipe", stderr: "pipe", timeout: 30_000 });
      const [exitCode, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
      expect(stderr).toBe("");
      expect(exitCode).toBe(0);
    } finally {
      clearInterval(watcher);
    }
    // The install worked: the node's config is in place, readable by root only.
    expect(JSON.parse(readFileSync(join(root, "etc", "kiln", "daemon.json"), "utf8")).secret).toBe((await getNodeRow(panel.db, node.id)).secret);
    // And nobody else on the machine saw the token that fetched it.
    expect([...leaked]).toEqual([]);
  } finally {
    void server.stop(true);
  }
});
