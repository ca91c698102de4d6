// The node's SFTP server: host key, login check at the panel, jailed sessions, and the route
// the panel calls to end sessions.
export { startSftpServer, type SftpServer, type SessionFilter } from "./server";
export { loadOrCreateHostKey, hostKeyPath, type HostKey } from "./host-key";
export { panelLoginCheck, type LoginCheck, type SftpLogin } from "./panel-login";
export { sftpRoutes } from "./routes";
