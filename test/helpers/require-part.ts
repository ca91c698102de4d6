// Tests that need a real outside part (Chromium, Docker, sftp…) skip with a printed reason when it
// is missing, except under KILN_REQUIRE_ALL=1 (CI), where a missing part fails the run.
import { existsSync } from "node:fs";

export function partAvailable(name: string, check: () => boolean): boolean {
  if (check()) return true;
  const message = `${name} is not available on this machine`;
  if (process.env.KILN_REQUIRE_ALL === "1") throw new Error(`${message}, and KILN_REQUIRE_ALL=1 requires it`);
  console.warn(`skipping: ${message}`);
  return false;
}

// Chromium's headless shell (Debian's chromium-headless-shell, the same engine without the browser
// around it): the browser tests spent half the Chromium CPU time of the full browser.
export const CHROMIUM_PATH = "/usr/bin/chromium-headless-shell";
export const hasChromium = () => partAvailable(`Chromium's headless shell (${CHROMIUM_PATH})`, () => existsSync(CHROMIUM_PATH));
export const hasRestic = () => partAvailable("restic", () => Bun.which("restic") !== null);
// Debian's prometheus package: the server and its promtool.
export const PROMETHEUS_PATH = "/usr/bin/prometheus";
export const PROMTOOL_PATH = "/usr/bin/promtool";
export const hasPrometheus = () => partAvailable(`Prometheus (${PROMETHEUS_PATH} and ${PROMTOOL_PATH}, Debian's prometheus)`, () => existsSync(PROMETHEUS_PATH) && existsSync(PROMTOOL_PATH));
