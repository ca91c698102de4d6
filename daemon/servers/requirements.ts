// A template's requirements (OS, architecture, programs), checked before start and install so a
// server fails with a clear reason instead of a confusing crash. PufferPanel writes alternatives
// with "||" ("linux || windows", a program "java${javaversion} || java") and names OSes as Go
// does ("windows"); Kiln's own templates list alternatives with ",". Programs may name variables.
import { KilnError } from "../../core/errors";
import { substitute, type Requirements, type Values } from "../../core/definition";

/** Templates name architectures the way Go and Docker do; Node names x64 differently. */
const ARCH_ALIASES: Record<string, string[]> = { x64: ["x64", "amd64", "x86_64"], arm64: ["arm64", "aarch64"], arm: ["arm", "armv7"], ia32: ["ia32", "386", "x86"] };
/** Go's OS names (PufferPanel's) for Node's platforms. */
const OS_ALIASES: Record<string, string[]> = { win32: ["win32", "windows"], darwin: ["darwin", "macos"] };

function list(value: string | undefined): string[] {
  return (value ?? "").split(/\|\||,/).map((v) => v.trim().toLowerCase()).filter(Boolean);
}

export function checkRequirements(req: Requirements, options: { binaries: boolean; path: string; values?: Values }): void {
  const os = list(req.os);
  if (os.length && !os.some((o) => (OS_ALIASES[process.platform] ?? [process.platform]).includes(o))) {
    throw new KilnError("ErrUnsupportedOS", { actual: process.platform, expected: os.join(", ") });
  }
  const arch = list(req.arch);
  const names = ARCH_ALIASES[process.arch] ?? [process.arch];
  if (arch.length && !arch.some((a) => names.includes(a))) {
    throw new KilnError("ErrUnsupportedArch", { actual: process.arch, expected: arch.join(", ") });
  }
  if (!options.binaries) return;
  // Each entry is one program, or alternatives of which one must be found.
  const missing = (req.binaries ?? [])
    .map((entry) => substitute(entry, options.values ?? {}).split("||").map((b) => b.trim()).filter(Boolean))
    .filter((alternatives) => alternatives.length > 0 && !alternatives.some((bin) => Bun.which(bin, { PATH: options.path })))
    .map((alternatives) => alternatives.join(" or "));
  if (missing.length) throw new KilnError("ErrMissingBinary", { expected: missing });
}
