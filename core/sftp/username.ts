// The SFTP username: the account email, a separator, the server id.
// Shared by the daemon (which server a login is for), the panel (which account and node) and the
// page that shows it. Emails may contain the separator, server ids never do, so it is split at
// the last one.

export const SFTP_USERNAME_SEPARATOR = "#";

export function sftpUsername(email: string, serverId: string): string {
  return `${email}${SFTP_USERNAME_SEPARATOR}${serverId}`;
}

/** The email and server id of an SFTP username; null when either part is missing. */
export function parseSftpUsername(username: string): { email: string; serverId: string } | null {
  const at = username.lastIndexOf(SFTP_USERNAME_SEPARATOR);
  if (at <= 0 || at === username.length - 1) return null;
  return { email: username.slice(0, at), serverId: username.slice(at + 1) };
}
