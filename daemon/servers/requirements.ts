// A template's requirements (OS, architecture, programs), checked before start and install so a
// server fails with a clear reason instead of a confusing crash.
import { KilnError } from "../../core/errors";
import type { Requirements } from "../../core/definition";

/** Templates name architectures the way Go and Docker do; Node names x64 differently. */
const ARCH_ALIASES: Record<string, string[]> = { x64: ["x64", "amd64", "x86_64"], arm64: ["arm64", "aarch64"], arm: ["arm", "armv7"], ia32: ["ia32", "386", "x86"] };
/** PufferPanel templates name systems as Go does ("windows"); Node says win32. */
const OS_ALIASES: Record<string, string[]> = { win32: ["win32", "windows"] };

/** Alternatives, written with "," (Kiln) or "||" (PufferPanel: "linux||windows"). */
function list(value: string | undefined): string[] {
  return (value ?? "").split(/,|\|\|/).map((v) => v.trim().toLowerCase()).filter(Boolean);
}

export function checkRequirements(req: Requirements, options: { binaries: boolean; path: string }): void {
  const os = list(req.os);
  const systems = OS_ALIASES[process.platform] ?? [process.platform];
  if (os.length && !os.some((o) => systems.includes(o))) {
    throw new KilnError("ErrUnsupportedOS", { actual: process.platform, expected: os.join(", ") });
  }
  const arch = list(req.arch);
  const names = ARCH_ALIASES[process.arch] ?? [process.arch];
  if (arch.length && !arch.some((a) => names.includes(a))) {
    throw new KilnError("ErrUnsupportedArch", { actual: process.arch, expected: arch.join(", ") });
  }
  if (!options.binaries) return;
  const missing = (req.binaries ?? []).filter((bin) => !Bun.which(bin, { PATH: options.path }));
  if (missing.length) throw new KilnError("ErrMissingBinary", { expected: missing });
}
