// The systemd unit that keeps a node running across crashes and reboots (what "best as a
// service" on the deployment asks for). The node runs as root: it sandboxes each server and
// drops it to a uid of its own, which needs root.

/** Where the one-line install puts the executable, and the unit runs it from. */
export const EXECUTABLE_INSTALL_PATH = "/usr/local/bin/kiln";

export const SERVICE_NAME = "kiln";
export const SERVICE_UNIT_PATH = `/etc/systemd/system/${SERVICE_NAME}.service`;
export const SERVICE_ENABLE_COMMAND = `systemctl daemon-reload && systemctl enable --now ${SERVICE_NAME}`;

export function serviceUnit(configPath: string): string {
  return [
    "[Unit]",
    "Description=Kiln node",
    "After=network-online.target",
    "Wants=network-online.target",
    "",
    "[Service]",
    `Environment=KILN_DAEMON_CONFIG=${configPath}`,
    `ExecStart=${EXECUTABLE_INSTALL_PATH} daemon`,
    "Restart=on-failure",
    "RestartSec=5",
    "",
    "[Install]",
    "WantedBy=multi-user.target",
    "",
  ].join("\n");
}
