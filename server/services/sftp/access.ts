// What SFTP lets a user do on one server, by the same flags as the file manager
// (server/routes/proxy-rules.ts): sftpServer lets the user connect, viewServerFiles to list and
// download, putServerFiles to upload, rename, remove, make folders and links and change modes.
// SFTP is a way to reach the files, not a right of its own: with sftpServer alone there is nothing
// the user may do with them, so the login is refused (the SFTP card says why). Admins may all.
import type { ServerAccess } from "../servers/permissions";

export type SftpMode = "read-write" | "read-only";

export type SftpAccess = { mode: SftpMode } | { missing: "sftpServer" | "viewServerFiles" };

/** The flags whose loss changes what an open SFTP session may do (it is then ended). */
export const SFTP_FLAGS = ["sftpServer", "viewServerFiles", "putServerFiles"] as const;

export function sftpAccess(access: ServerAccess): SftpAccess {
  if (access.admin) return { mode: "read-write" };
  if (!access.permissions.sftpServer) return { missing: "sftpServer" };
  if (!access.permissions.viewServerFiles) return { missing: "viewServerFiles" };
  return { mode: access.permissions.putServerFiles ? "read-write" : "read-only" };
}
