// Docker Engine tests: whether an engine answers, and the local busybox image they run (no
// registry is reachable in CI, so the image is imported from the host's busybox-static).
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { partAvailable } from "./require-part";

export const TEST_IMAGE = "kiln-test/busybox";
export const BUSYBOX_PATH = "/usr/bin/busybox";

export const hasDocker = () => partAvailable("Docker Engine", () => run(["docker", "info"]));

/** The test image, imported from a busybox root filesystem when the engine does not have it yet. */
export async function ensureTestImage(): Promise<string> {
  if (run(["docker", "image", "inspect", TEST_IMAGE])) return TEST_IMAGE;
  const root = mkdtempSync(join(tmpdir(), "kiln-busybox-"));
  try {
    for (const dir of ["bin", "tmp", "etc"]) mkdirSync(join(root, dir));
    chmodSync(join(root, "tmp"), 0o1777); // containers run as the daemon's (non-root) user
    copyFileSync(BUSYBOX_PATH, join(root, "bin", "busybox"));
    // Links made by hand, relative: `busybox --install -s` would point them at this host's temp path.
    const applets = Bun.spawnSync([BUSYBOX_PATH, "--list"]).stdout.toString().split("\n").filter(Boolean);
    for (const applet of applets) if (applet !== "busybox") symlinkSync("busybox", join(root, "bin", applet));
    const tar = Bun.spawn(["tar", "-C", root, "-c", "."], { stdout: "pipe" });
    const load = Bun.spawn(["docker", "import", "-", TEST_IMAGE], { stdin: tar.stdout, stdout: "ignore", stderr: "pipe" });
    if ((await load.exited) !== 0) throw new Error(`docker import failed: ${await new Response(load.stderr).text()}`);
    // A dynamically linked busybox (Debian's "busybox" rather than "busybox-static") cannot run in
    // an image without its libraries; say so instead of letting every test fail obscurely.
    if (!run(["docker", "run", "--rm", "--network", "none", TEST_IMAGE, "true"])) {
      run(["docker", "rmi", TEST_IMAGE]);
      throw new Error(`${BUSYBOX_PATH} does not run inside a bare image; install busybox-static`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return TEST_IMAGE;
}

function run(argv: string[]): boolean {
  try {
    return Bun.spawnSync(argv, { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
  } catch {
    return false; // the program is not installed
  }
}
