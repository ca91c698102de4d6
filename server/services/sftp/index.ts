// SFTP in the panel: checking logins for nodes, and ending sessions when access changes.
export { checkSftpLogin, type SftpLoginRequest, type SftpLoginAnswer } from "./login";
export { sftpAccess, SFTP_FLAGS, type SftpAccess, type SftpMode } from "./access";
export { endSftpSessions, type SessionTarget } from "./disconnect";
