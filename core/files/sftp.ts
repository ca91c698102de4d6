// The SFTP details a user is shown: the login name (core/sftp: the
// account's email, the separator, the server id), and the address: the node's public host (the
// browser's host for the local node's {ip}) and its SFTP port.
import { sftpUsername } from "../sftp/username";

/** The host as it goes before ":port": an IPv6 address in brackets. */
function hostForPort(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

export interface SftpDetails {
  host: string;
  port: number;
  /** "host:port" */
  address: string;
  username: string;
  /** sftp://user@host:port, the user part URL-encoded */
  url: string;
}

/** `publicHost` of "{ip}" (or empty) stands for the host the browser reached the panel at. */
export function sftpDetails(publicHost: string, port: number, browserHost: string, email: string, serverId: string): SftpDetails {
  const host = !publicHost || publicHost === "{ip}" ? browserHost : publicHost;
  const username = sftpUsername(email, serverId);
  const address = `${hostForPort(host)}:${port}`;
  return { host, port, address, username, url: `sftp://${encodeURIComponent(username)}@${address}` };
}
