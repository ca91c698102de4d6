// The one-line install command for a node's machine (run as root there): fetch the kiln
// executable from this panel, fetch the node's config (it holds the secret) into a file only root
// may read, then install the node as a systemd service and (re)start it, so it runs in the
// background, across crashes and reboots, and a second run upgrades it. A machine without
// systemd is told so, and how to start the node by hand. It carries a deployment token (deploy-token.ts), never the
// secret itself, and in a header rather than the address, so no proxy or access log in between
// records it. The header reaches curl on its input (a config read with `-K -`, written by the
// shell's own printf, which runs no program), never as an argument: any user of the new machine
// reads every process's arguments (`ps`, /proc/<pid>/cmdline) while the executable downloads, and
// the token opens the config with the node's secret for an hour. Every value is single-quoted for
// the shell: a panel address with a quote or $(…) in it stays one argument and runs nothing.
import { dirname } from "node:path/posix";
import { nodeConfigPath, nodeExecutablePath } from "../../../core/nodes";
import { EXECUTABLE_INSTALL_PATH, SERVICE_NAME, SERVICE_UNIT_PATH, serviceUnit } from "./service-unit";

export { EXECUTABLE_INSTALL_PATH };

/** POSIX shell single quotes: nothing inside is special; a quote itself is closed, escaped and reopened. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

export function installCommand(input: { panelUrl: string; nodeId: number; token: string; configPath: string }): string {
  // curl's config syntax: a token is base64url and dots, nothing to escape inside the double quotes.
  const header = shellQuote(`header = "Authorization: Bearer ${input.token}"`);
  const fetch = (path: string, to: string) => `printf '%s\\n' ${header} | curl -fsSL -K - -o ${shellQuote(to)} ${shellQuote(`${input.panelUrl}${path}`)}`;
  const binary = shellQuote(EXECUTABLE_INSTALL_PATH);
  // Written beside the old executable and moved over it, so a running node's file is never rewritten under it.
  const fresh = shellQuote(`${EXECUTABLE_INSTALL_PATH}.new`);
  const unit = serviceUnit(input.configPath).trimEnd().split("\n").map(shellQuote).join(" ");
  const noSystemd = shellQuote(`kiln: no systemd on this machine; start the node with: ${EXECUTABLE_INSTALL_PATH} daemon`);
  return [
    // Checked first, so a machine that cannot run the service is told before anything is written.
    `{ command -v systemctl >/dev/null || { echo ${noSystemd} >&2; false; }; }`,
    fetch(nodeExecutablePath(input.nodeId), `${EXECUTABLE_INSTALL_PATH}.new`),
    `chmod 755 ${fresh}`,
    `mv ${fresh} ${binary}`,
    `mkdir -p ${shellQuote(dirname(input.configPath))} ${shellQuote(dirname(SERVICE_UNIT_PATH))}`,
    `(umask 077 && ${fetch(nodeConfigPath(input.nodeId), input.configPath)})`,
    `printf '%s\\n' ${unit} > ${shellQuote(SERVICE_UNIT_PATH)}`,
    "systemctl daemon-reload",
    `systemctl enable ${SERVICE_NAME}`,
    // restart, not start: a second run (an upgrade) starts the new executable.
    `systemctl restart ${SERVICE_NAME}`,
  ].join(" && ");
}
