// Two local images for the egg tests, built on kiln-test/busybox (itself imported from the
// host's busybox-static): no registry is reachable in CI. The installer is busybox with an
// `ash` (as the egg installer images have); the runtime behaves like the egg runtime images'
// entrypoint: cd /home/container, turn {{VAR}} in STARTUP into ${VAR}, expand it from the
// environment, print the command, exec it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureTestImage } from "./docker";

export const EGG_INSTALLER_IMAGE = "kiln-test/egg-installer";
export const EGG_RUNTIME_IMAGE = "kiln-test/egg-runtime";

const RUNTIME_ENTRYPOINT = `#!/bin/sh
# What the egg runtime images' entrypoint does (Kiln's own busybox version).
cd /home/container || exit 1
MODIFIED_STARTUP=$(echo "$STARTUP" | sed -e 's/{{/\${/g' -e 's/}}/}/g')
MODIFIED_STARTUP=$(eval echo "$MODIFIED_STARTUP")
echo "container~ $MODIFIED_STARTUP"
exec $MODIFIED_STARTUP
`;

/** The label that says which build an image is, so a changed entrypoint is built again rather than reused. */
const BUILD_LABEL = "kiln.test.build";

function buildHash(dockerfile: string, files: Record<string, string>): string {
  return new Bun.CryptoHasher("sha256").update(JSON.stringify([dockerfile, files])).digest("hex").slice(0, 16);
}

function build(tag: string, dockerfile: string, files: Record<string, string>): void {
  const hash = buildHash(dockerfile, files);
  const current = Bun.spawnSync(["docker", "image", "inspect", "-f", `{{index .Config.Labels "${BUILD_LABEL}"}}`, tag], { stdout: "pipe", stderr: "ignore" });
  if (current.exitCode === 0 && current.stdout.toString().trim() === hash) return;
  const context = mkdtempSync(join(tmpdir(), "kiln-egg-image-"));
  try {
    writeFileSync(join(context, "Dockerfile"), `${dockerfile}LABEL ${BUILD_LABEL}=${hash}\n`);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(context, name), text, { mode: 0o755 });
    // The classic builder: it uses the local base image and asks no registry.
    const result = Bun.spawnSync(["docker", "build", "-q", "-t", tag, context], { env: { ...process.env, DOCKER_BUILDKIT: "0" }, stdout: "ignore", stderr: "pipe" });
    if (result.exitCode !== 0) throw new Error(`docker build ${tag} failed: ${result.stderr.toString()}`);
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}

/** Builds the two images unless the engine has this very build of them already. */
export async function ensureEggImages(): Promise<void> {
  const base = await ensureTestImage();
  build(EGG_INSTALLER_IMAGE, `FROM ${base}\n`, {});
  build(EGG_RUNTIME_IMAGE, `FROM ${base}\nCOPY entrypoint.sh /entrypoint.sh\nENTRYPOINT ["/bin/sh", "/entrypoint.sh"]\n`, { "entrypoint.sh": RUNTIME_ENTRYPOINT });
}
