// SFTP in the panel: checking logins for nodes, and ending sessions when access changes.
export { checkSftpLogin, type SftpLoginRequest, type SftpLoginAnswer } from "./login";
export { endSftpSessions, DISCONNECT_PATH, type SessionTarget } from "./disconnect";
